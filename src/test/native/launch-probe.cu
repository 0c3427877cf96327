// launch-probe: kernels of known stack frames, launched through the different launch entry points from several
// named threads inside NVTX ranges, with the driver's stack limit and free device memory read around each phase.
// Used by dev/cupti-validate.sh on a GPU machine (with and without the CUPTI injection library); its
// cuobjdump --dump-resource-usage output is recorded in src/test/resources/recorded/launch/.
//
// Build (the exact command is recorded in src/test/resources/recorded/launch/README.txt):
//   nvcc -O2 -gencode arch=compute_90,code=sm_90 -o launch-probe launch-probe.cu -ldl -lpthread
//
//   launch-probe phases            phases 2k, 4k, 12k, concurrent; one "PHASE ..." line per phase
//   launch-probe overhead N [nvtx] N launches of an empty kernel from one thread (inside an NVTX range with
//                                  "nvtx"), best of 5 rounds; prints "OVERHEAD ..."
//   launch-probe exit-during-launches  exit() while 8 threads launch
//   launch-probe subscribe-first   subscribes to CUPTI itself before CUDA starts, then launches (conflict test)
//   launch-probe graphs            (only built with -DLAUNCH_PROBE_GRAPHS, see below) kernels launched only
//                                  through CUDA graphs: a 6 KiB frame in a node added with
//                                  cudaGraphAddKernelNode (NVTX range "graph-add", 3 KiB dynamic shared memory) plus
//                                  an empty-kernel node added outside any range, then an 8 KiB frame captured from a
//                                  stream (<<<>>> in NVTX range "graph-capture", 1536 B dynamic shared); one
//                                  "PHASE ..." line per graph, limits read before building and after launching
//
// The graph mode and its two kernels are compiled only with -DLAUNCH_PROBE_GRAPHS (dev/cupti-graphs-validate.sh):
// the default build keeps exactly the kernels recorded in src/test/resources/recorded/launch/, which the
// check-launched IT compares with its own nvcc build of this file.
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call)                                                                                  \
    do {                                                                                             \
        cudaError_t e_ = (call);                                                                     \
        if (e_ != cudaSuccess) {                                                                     \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

#define CHECK_DRIVER(call)                                                                  \
    do {                                                                                    \
        CUresult r_ = (call);                                                               \
        if (r_ != CUDA_SUCCESS) {                                                           \
            std::fprintf(stderr, "%s:%d %s: CUresult %d\n", __FILE__, __LINE__, #call, (int) r_); \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

// the driver API's exported cuLaunchKernel, looked up in the driver the runtime loaded (no link-time libcuda)
typedef CUresult (*cu_launch_kernel_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, CUstream, void **, void **);
static cu_launch_kernel_fn driverLaunchKernel()
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    cu_launch_kernel_fn f = driver ? (cu_launch_kernel_fn) dlsym(driver, "cuLaunchKernel") : nullptr;
    if (!f) {
        std::fprintf(stderr, "cuLaunchKernel not found in libcuda.so.1\n");
        std::exit(1);
    }
    return f;
}

// A volatile local array of BYTES bytes: ptxas keeps it in local memory, so STACK = BYTES.
template <int BYTES>
__global__ void frameKernel(int *out, int seed)
{
    volatile int scratch[BYTES / 4];
    for (int i = 0; i < BYTES / 4; i++) {
        scratch[i] = seed * i + threadIdx.x;
    }
    int index = (seed * 7 + threadIdx.x) % (BYTES / 4);
    out[blockIdx.x * blockDim.x + threadIdx.x] = scratch[index];
}

__global__ void sharedKernel(int *out)
{
    extern __shared__ int dynamicShared[];
    dynamicShared[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = dynamicShared[(threadIdx.x + 1) % blockDim.x];
}

__global__ void emptyKernel() {}

static int *deviceOut;
static const int kBlocks = 264;
static const int kThreads = 128;

struct Snapshot {
    size_t limit;
    size_t freeBytes;
};

static Snapshot snapshot()
{
    CHECK(cudaDeviceSynchronize());
    Snapshot s{};
    CHECK(cudaDeviceGetLimit(&s.limit, cudaLimitStackSize));
    size_t total = 0;
    CHECK(cudaMemGetInfo(&s.freeBytes, &total));
    return s;
}

static void name_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

// Loads the function (lazy loading) before the "before" snapshot, so that the phase measures only the launch.
static std::string prepare(const void *function, size_t *localBytes)
{
    cudaFuncAttributes attributes{};
    CHECK(cudaFuncGetAttributes(&attributes, function));
    *localBytes = attributes.localSizeBytes;
    const char *name = nullptr;
    CHECK(cudaFuncGetName(&name, function));
    return name;
}

static void report(const char *phase, const std::string &kernel, size_t localBytes, Snapshot before, Snapshot after)
{
    std::printf("PHASE %s kernel=%s localSizeBytes=%zu limitBefore=%zu limitAfter=%zu freeBefore=%zu freeAfter=%zu "
                "drop=%lld\n",
                phase, kernel.c_str(), localBytes, before.limit, after.limit, before.freeBytes, after.freeBytes,
                (long long) before.freeBytes - (long long) after.freeBytes);
    std::fflush(stdout);
}

// 2 KiB: the <<<>>> syntax (CUDA 13: __cudaLaunchKernel) with 1 KiB of dynamic shared memory, in an NVTX range
static void phase2k()
{
    name_thread("probe-t2k");
    size_t local = 0;
    std::string kernel = prepare((const void *) frameKernel<2048>, &local);
    Snapshot before = snapshot();
    nvtxRangePushA("phase-2k");
    frameKernel<2048><<<kBlocks, kThreads, 1024>>>(deviceOut, 3);
    CHECK(cudaGetLastError());
    nvtxRangePop();
    report("2k", kernel, local, before, snapshot());
}

// 4 KiB: cudaLaunchKernelEx with 8 KiB of dynamic shared memory, nested NVTX ranges (innermost counts)
static void phase4k()
{
    name_thread("probe-t4k");
    size_t local = 0;
    std::string kernel = prepare((const void *) frameKernel<4096>, &local);
    Snapshot before = snapshot();
    nvtxRangePushA("probe-outer");
    nvtxRangePushA("phase-4k");
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kBlocks);
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = 8192;
    CHECK(cudaLaunchKernelEx(&config, frameKernel<4096>, deviceOut, 5));
    nvtxRangePop();
    nvtxRangePop();
    report("4k", kernel, local, before, snapshot());
}

// 12 KiB: the driver API (cuLaunchKernel) with 2 KiB of dynamic shared memory, no NVTX range: the thread's name
static void phase12k()
{
    name_thread("probe-t12k");
    size_t local = 0;
    std::string kernel = prepare((const void *) frameKernel<12288>, &local);
    cudaFunction_t function;
    CHECK(cudaGetFuncBySymbol(&function, (const void *) frameKernel<12288>));
    Snapshot before = snapshot();
    int seed = 9;
    void *args[] = {&deviceOut, &seed};
    CHECK_DRIVER(driverLaunchKernel()((CUfunction) function, kBlocks, 1, 1, kThreads, 1, 1, 2048, nullptr, args, nullptr));
    report("12k", kernel, local, before, snapshot());
}

// 8 threads at once: cudaLaunchKernel with per-thread dynamic shared sizes, and cudaLaunchCooperativeKernel
static void phaseConcurrent()
{
    size_t local = 0;
    std::string kernel = prepare((const void *) sharedKernel, &local);
    prepare((const void *) emptyKernel, &local);
    Snapshot before = snapshot();
    std::vector<std::thread> workers;
    for (int w = 0; w < 8; w++) {
        workers.emplace_back([w] {
            char name[16];
            std::snprintf(name, sizeof name, "worker-%d", w);
            name_thread(name);
            nvtxRangePushA(name);
            for (int i = 0; i < 1000; i++) {
                void *args[] = {&deviceOut};
                // sharedKernel needs kThreads ints of dynamic shared memory; each worker asks for a different size
                CHECK(cudaLaunchKernel((const void *) sharedKernel, dim3(kBlocks), dim3(kThreads), args,
                                       sizeof(int) * kThreads + (size_t) w * 256, nullptr));
                CHECK(cudaLaunchCooperativeKernel((const void *) emptyKernel, dim3(1), dim3(32), nullptr, 0,
                                                  nullptr));
            }
            nvtxRangePop();
        });
    }
    for (auto &t : workers) {
        t.join();
    }
    report("concurrent", kernel, local, before, snapshot());
}

#ifdef LAUNCH_PROBE_GRAPHS
// 6 KiB, launched only as a node added with cudaGraphAddKernelNode
static void phaseGraphAdd()
{
    name_thread("probe-graph-add");
    size_t local = 0, unused = 0;
    std::string kernel = prepare((const void *) frameKernel<6144>, &local);
    prepare((const void *) emptyKernel, &unused);
    Snapshot before = snapshot();
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    int seed = 11;
    void *args[] = {&deviceOut, &seed};
    cudaKernelNodeParams params{};
    params.func = (void *) frameKernel<6144>;
    params.gridDim = dim3(kBlocks);
    params.blockDim = dim3(kThreads);
    params.sharedMemBytes = 3072;
    params.kernelParams = args;
    cudaGraphNode_t frameNode, emptyNode;
    nvtxRangePushA("graph-add");
    CHECK(cudaGraphAddKernelNode(&frameNode, graph, nullptr, 0, &params));
    nvtxRangePop();
    cudaKernelNodeParams empty{};
    empty.func = (void *) emptyKernel;
    empty.gridDim = dim3(1);
    empty.blockDim = dim3(32);
    CHECK(cudaGraphAddKernelNode(&emptyNode, graph, &frameNode, 1, &empty));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    Snapshot instantiated = snapshot();
    std::printf("INSTANTIATED add limit=%zu free=%zu\n", instantiated.limit, instantiated.freeBytes);
    CHECK(cudaGraphLaunch(exec, nullptr));
    report("graph-add", kernel, local, before, snapshot());
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
}

// 8 KiB, launched only through a graph made by stream capture (what PyTorch's CUDA graphs do)
static void phaseGraphCapture()
{
    name_thread("probe-graph-cap");
    size_t local = 0;
    std::string kernel = prepare((const void *) frameKernel<8192>, &local);
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    Snapshot before = snapshot();
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    nvtxRangePushA("graph-capture");
    frameKernel<8192><<<kBlocks, kThreads, 1536, stream>>>(deviceOut, 13);
    nvtxRangePop();
    CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    Snapshot instantiated = snapshot();
    std::printf("INSTANTIATED capture limit=%zu free=%zu\n", instantiated.limit, instantiated.freeBytes);
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    report("graph-capture", kernel, local, before, snapshot());
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
}
#endif

// exit() on the main thread while 8 threads keep launching (what System.exit does in a busy JVM)
static void exitDuringLaunches()
{
    for (int w = 0; w < 8; w++) {
        std::thread([w] {
            char name[16];
            std::snprintf(name, sizeof name, "busy-%d", w);
            name_thread(name);
            for (;;) {
                void *args[] = {&deviceOut};
                if (cudaLaunchKernel((const void *) sharedKernel, dim3(kBlocks), dim3(kThreads), args,
                                     sizeof(int) * kThreads, nullptr) != cudaSuccess) {
                    return; // the driver is shutting down
                }
            }
        }).detach();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::printf("EXIT while launching\n");
    std::fflush(stdout);
    std::exit(0);
}

static void overhead(long launches, bool inRange)
{
    name_thread("probe-overhead");
    if (inRange) {
        nvtxRangePushA("overhead-range");
    }
    for (int i = 0; i < 10000; i++) {
        emptyKernel<<<1, 1>>>();
    }
    CHECK(cudaDeviceSynchronize());
    double best = 0;
    for (int repeat = 0; repeat < 5; repeat++) {
        auto start = std::chrono::steady_clock::now();
        for (long i = 0; i < launches; i++) {
            emptyKernel<<<1, 1>>>();
        }
        CHECK(cudaDeviceSynchronize());
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double rate = launches / seconds;
        std::printf("OVERHEAD repeat=%d launches=%ld seconds=%.4f launchesPerSecond=%.0f\n", repeat, launches,
                    seconds, rate);
        best = rate > best ? rate : best;
    }
    std::printf("OVERHEAD best launchesPerSecond=%.0f\n", best);
}

typedef int (*subscribe_fn)(void **, void (*)(void *, int, unsigned, const void *), void *);
static void ignore(void *, int, unsigned, const void *) {}

int main(int argc, char **argv)
{
    std::string mode = argc > 1 ? argv[1] : "phases";
    if (mode == "subscribe-first") {
        // another CUPTI client that subscribes before CUDA starts (as a profiler would)
        void *cupti = dlopen("libcupti.so.13", RTLD_NOW | RTLD_GLOBAL);
        if (!cupti) {
            cupti = dlopen("libcupti.so", RTLD_NOW | RTLD_GLOBAL);
        }
        subscribe_fn subscribe = cupti ? (subscribe_fn) dlsym(cupti, "cuptiSubscribe") : nullptr;
        void *subscriber = nullptr;
        int result = subscribe ? subscribe(&subscriber, ignore, nullptr) : -1;
        std::printf("SUBSCRIBE-FIRST result=%d\n", result);
    }
    CHECK(cudaFree(nullptr));
    CHECK(cudaMalloc(&deviceOut, sizeof(int) * kBlocks * kThreads));
    int device = 0, sms = 0, threadsPerSm = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    Snapshot base = snapshot();
    std::printf("DEVICE sms=%d threadsPerSm=%d residentThreads=%d limit=%zu free=%zu\n", sms, threadsPerSm,
                sms * threadsPerSm, base.limit, base.freeBytes);
    if (mode == "phases") {
        for (void (*phase)() : {phase2k, phase4k, phase12k, phaseConcurrent}) {
            std::thread(phase).join();
        }
    } else if (mode == "overhead" && argc > 2) {
        overhead(std::atol(argv[2]), argc > 3 && std::string(argv[3]) == "nvtx");
#ifdef LAUNCH_PROBE_GRAPHS
    } else if (mode == "graphs") {
        for (void (*phase)() : {phaseGraphAdd, phaseGraphCapture}) {
            std::thread(phase).join();
        }
#endif
    } else if (mode == "exit-during-launches") {
        exitDuringLaunches();
    } else if (mode == "subscribe-first") {
        std::thread(phase2k).join();
    } else {
        std::fprintf(stderr, "usage: %s phases | graphs | overhead N [nvtx] | subscribe-first | exit-during-launches\n",
                     argv[0]);
        return 2;
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}

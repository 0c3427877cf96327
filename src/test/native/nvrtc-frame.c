/*
 * A driver-API workload for the launched mode's driver frames (issue 13): kernels compiled at run time with NVRTC,
 * so that no file on disk holds them, launched with cuLaunchKernel.
 *
 *   nvrtc-frame frames      compiles two kernels with a dynamically indexed local array (about 12 KiB and 6 KiB of
 *                           frame): bigFrame to SASS (nvrtcGetCUBIN, sm_XX of the device) and ptxFrame to PTX
 *                           (compute_XX, JIT-compiled by the driver at cuModuleLoadData); launches each once and
 *                           prints, per kernel, the driver's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, NUM_REGS,
 *                           SHARED_SIZE_BYTES, BINARY_VERSION and the stack limit after the launch, then the final
 *                           limit (cuCtxGetLimit(CU_LIMIT_STACK_SIZE)) and the free-memory drop since the start
 *   nvrtc-frame overhead N  launches a tiny NVRTC kernel N times in a tight loop (best of 5 rounds), prints launches/s
 *
 * Build: gcc -O2 -I$CUDA/include nvrtc-frame.c -L$CUDA/lib64 -L$CUDA/lib64/stubs -lnvrtc -lcuda -o nvrtc-frame
 */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CU(call)                                                                                                      \
    do {                                                                                                              \
        CUresult r_ = (call);                                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                                     \
            const char *s_ = "?";                                                                                     \
            cuGetErrorString(r_, &s_);                                                                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_);                                        \
            exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)
#define NV(call)                                                                                                      \
    do {                                                                                                              \
        nvrtcResult r_ = (call);                                                                                      \
        if (r_ != NVRTC_SUCCESS) {                                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, nvrtcGetErrorString(r_));                  \
            exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)

static const char *SOURCE =
    "extern \"C\" __global__ void bigFrame(int *out, int n) {\n"
    "    int a[3000];\n" /* 12,000 B, indexed at run time: it lives in the frame */
    "    for (int i = 0; i < 3000; i++) a[i] = i * n + threadIdx.x;\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = a[(threadIdx.x * 7 + n) % 3000];\n"
    "}\n"
    "extern \"C\" __global__ void ptxFrame(int *out, int n) {\n"
    "    int a[1500];\n"
    "    for (int i = 0; i < 1500; i++) a[i] = i * n - threadIdx.x;\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = a[(threadIdx.x * 5 + n) % 1500];\n"
    "}\n"
    "extern \"C\" __global__ void tiny(int *out) { if (out) out[threadIdx.x] = 1; }\n";

/* the module: SASS for the device (cubin) or PTX for its virtual arch */
static CUmodule compile(int major, int minor, int sass)
{
    nvrtcProgram program;
    NV(nvrtcCreateProgram(&program, SOURCE, "nvrtc-frame.cu", 0, NULL, NULL));
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=%s_%d%d", sass ? "sm" : "compute", major, minor);
    const char *options[] = {arch};
    nvrtcResult compiled = nvrtcCompileProgram(program, 1, options);
    if (compiled != NVRTC_SUCCESS) {
        size_t size;
        nvrtcGetProgramLogSize(program, &size);
        char *log = malloc(size + 1);
        nvrtcGetProgramLog(program, log);
        fprintf(stderr, "nvrtc: %s\n%s\n", nvrtcGetErrorString(compiled), log);
        exit(1);
    }
    size_t size;
    char *image;
    if (sass) {
        NV(nvrtcGetCUBINSize(program, &size));
        image = malloc(size);
        NV(nvrtcGetCUBIN(program, image));
    } else {
        NV(nvrtcGetPTXSize(program, &size));
        image = malloc(size);
        NV(nvrtcGetPTX(program, image));
    }
    CUmodule module;
    CU(cuModuleLoadData(&module, image));
    free(image);
    nvrtcDestroyProgram(&program);
    return module;
}

static void report(const char *label, CUfunction f, size_t limit)
{
    int local, regs, shared, binary;
    CU(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CU(cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    CU(cuFuncGetAttribute(&binary, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
    printf("KERNEL %s local=%d regs=%d shared=%d binaryVersion=%d limitAfterLaunch=%zu\n", label, local, regs, shared,
           binary, limit);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "frames";
    CUdevice device;
    CUcontext context;
    CU(cuInit(0));
    CU(cuDeviceGet(&device, 0));
    CU(cuDevicePrimaryCtxRetain(&context, device));
    CU(cuCtxSetCurrent(context));
    int major, minor, sms, threads;
    CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
    CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
    CU(cuDeviceGetAttribute(&threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, device));
    CUdeviceptr out;
    CU(cuMemAlloc(&out, 1 << 20));

    if (strcmp(mode, "overhead") == 0) {
        long n = argc > 2 ? atol(argv[2]) : 200000;
        CUmodule module = compile(major, minor, 1);
        CUfunction tiny;
        CU(cuModuleGetFunction(&tiny, module, "tiny"));
        void *args[] = {&out};
        double best = 0;
        for (int round = 0; round < 5; round++) {
            CU(cuCtxSynchronize());
            double start = now();
            for (long i = 0; i < n; i++) {
                CU(cuLaunchKernel(tiny, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
            }
            CU(cuCtxSynchronize());
            double rate = n / (now() - start);
            best = rate > best ? rate : best;
        }
        printf("OVERHEAD launches=%ld bestPerSecond=%.0f\n", n, best);
        return 0;
    }

    size_t free_start, total, limit;
    CU(cuCtxSynchronize());
    CU(cuMemGetInfo(&free_start, &total));
    CU(cuCtxGetLimit(&limit, CU_LIMIT_STACK_SIZE));
    printf("START limit=%zu free=%zu sms=%d threadsPerSm=%d cc=%d.%d\n", limit, free_start, sms, threads, major, minor);

    CUmodule sass = compile(major, minor, 1);
    CUmodule ptx = compile(major, minor, 0);
    CUfunction big, small;
    CU(cuModuleGetFunction(&big, sass, "bigFrame"));
    CU(cuModuleGetFunction(&small, ptx, "ptxFrame"));
    int n = 3;
    void *args[] = {&out, &n};
    CU(cuLaunchKernel(small, 4, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    CU(cuCtxGetLimit(&limit, CU_LIMIT_STACK_SIZE));
    report("ptxFrame(compute,JIT)", small, limit);
    CU(cuLaunchKernel(big, 4, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    CU(cuCtxGetLimit(&limit, CU_LIMIT_STACK_SIZE));
    report("bigFrame(sm,cubin)", big, limit);

    size_t free_end;
    CU(cuMemGetInfo(&free_end, &total));
    printf("END limit=%zu free=%zu drop=%lld residentThreads=%lld\n", limit, free_end,
           (long long) free_start - (long long) free_end, (long long) sms * threads);
    return 0;
}

// Kernels of known, distinct resource figures for the native-reader validation matrix.
// Built by ../build-native-matrix.sh for every SASS target nvcc 13.0 accepts; the test
// NativeMatrixCrossCheckTest compares what the native engine reads from the binaries with
// the -Xptxas -v / -Xnvlink -v logs of the same build, and with the designed figures noted
// next to each kernel (lower bounds, so a wrong log and a wrong engine cannot agree).
#include <cstdio>

// ---------------------------------------------------------------- no resources at all
// STACK 0, SHARED 0 (+1024 reserved on sm_90 and newer).
extern "C" __global__ void m_empty() {}

// ---------------------------------------------------------------- local arrays (stack frames)
// A volatile local array indexed by a runtime value cannot live in registers: ptxas places
// it in the per-thread stack frame, so STACK >= N * sizeof(int).
template <int N>
__device__ __forceinline__ void touch_frame(int* out, int i)
{
    volatile int buf[N];
    for (int k = 0; k < N; k += 32) {
        buf[(k + i) % N] = k ^ i;
    }
    out[threadIdx.x] = buf[(i * 7) % N];
}

extern "C" __global__ void m_frame_256(int* out, int i) { touch_frame<64>(out, i); }     // STACK >= 256
extern "C" __global__ void m_frame_4k(int* out, int i) { touch_frame<1024>(out, i); }    // STACK >= 4096
extern "C" __global__ void m_frame_16k(int* out, int i) { touch_frame<4096>(out, i); }   // STACK >= 16384

// ---------------------------------------------------------------- static shared memory
// 2048 + 800 = 2848 bytes of static __shared__ arrays: SHARED = 2848 (+1024 on sm_90+).
extern "C" __global__ void m_shared(float* out, int i)
{
    __shared__ float tile[512];
    __shared__ int counts[200];
    tile[threadIdx.x % 512] = (float)i;
    counts[threadIdx.x % 200] = i;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + i) % 512] + (float)counts[(threadIdx.x + 3) % 200];
}

// ---------------------------------------------------------------- __noinline__ callee with its own frame
// The callee's 1 KiB frame is part of the kernel's cumulative stack: STACK >= 1024.
__device__ __noinline__ int noinline_helper(int* out, int i)
{
    volatile int scratch[256];
    for (int k = 0; k < 256; k += 16) {
        scratch[(k + i) & 255] = k + i;
    }
    return scratch[(i * 3) & 255] + out[0];
}

extern "C" __global__ void m_noinline(int* out, int i)
{
    out[threadIdx.x] = noinline_helper(out, i) + noinline_helper(out, i + 1);
}

// ---------------------------------------------------------------- whole-program recursion
// Non-tail recursion: ptxas cannot bound the depth; the stored stack is the known part only.
__device__ __noinline__ int fib(int n)
{
    if (n <= 1) {
        return n;
    }
    return fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void m_recursive(int* out, int n) { out[threadIdx.x] = fib(n); }

// ---------------------------------------------------------------- indirect call through a function pointer
// The targets are known to ptxas, so the cumulative stack includes the largest target's frame: STACK >= 256.
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b)
{
    volatile int products[64];
    products[a & 63] = a * b;
    return products[(a + b) & 63];
}
__device__ int (*const ops[2])(int, int) = {op_add, op_mul};

extern "C" __global__ void m_indirect(int* out, int i)
{
    int (*op)(int, int) = ops[i & 1];
    out[threadIdx.x] = op(out[threadIdx.x], i);
}

// ---------------------------------------------------------------- printf (a syscall with its own frame)
extern "C" __global__ void m_printf(int i)
{
    printf("thread %d of block %d: %d\n", (int)threadIdx.x, (int)blockIdx.x, i);
}

// ---------------------------------------------------------------- a large by-value parameter
// 800 bytes of parameters in constant bank 0.
struct BigParam {
    int values[200];
};

extern "C" __global__ void m_big_param(BigParam p, int* out)
{
    out[threadIdx.x] = p.values[threadIdx.x % 200];
}

// ---------------------------------------------------------------- __constant__ data and __device__ globals
// 1200 bytes of __constant__ data (a module-level constant bank), 4096 + 4 bytes of globals.
__constant__ float m_table[300];
__device__ int m_counters[1024];
__device__ int m_total = 7;

extern "C" __global__ void m_globals(float* out, int i)
{
    atomicAdd(&m_counters[i & 1023], 1);
    atomicAdd(&m_total, i);
    out[threadIdx.x] = m_table[(threadIdx.x + i) % 300];
}

// A C++ (mangled) kernel name, so the function sets are not all extern "C".
__global__ void m_mangled(int* out, long long v) { out[threadIdx.x] = (int)(v / (threadIdx.x + 3)); }

// Host entry point so a library built from this file exports an ordinary host symbol.
extern "C" int matrix_host_entry(void) { return 42; }

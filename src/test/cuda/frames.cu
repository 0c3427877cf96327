// Test kernels with known, different per-thread stack frames.
// Built by build-test-binaries.sh; the unit tests cross-check the frame sizes
// against ptxas-info.txt (the -Xptxas -v output of the shared-library build).

// A local array indexed by a runtime value cannot live in registers, so ptxas
// must place it in the per-thread stack frame: roughly N * sizeof(int) bytes.
template <int N>
__global__ void frameKernel(int* out, int i)
{
    volatile int buf[N];
    for (int k = 0; k < N; k += 64) {
        buf[(k + i) % N] = k;
    }
    out[threadIdx.x] = buf[i % N];
}

template __global__ void frameKernel<64>(int*, int);     //   256 bytes
template __global__ void frameKernel<1024>(int*, int);   //  4096 bytes
template __global__ void frameKernel<2550>(int*, int);   // 10200 bytes

// No local memory at all: STACK 0.
__global__ void noStackKernel(int* out)
{
    out[threadIdx.x] = threadIdx.x * 2;
}

// Non-tail recursion (Fibonacci), so the compiler cannot turn it into a loop:
// ptxas cannot statically determine the stack size.
__device__ __noinline__ int recurse(int n)
{
    if (n <= 1) {
        return n;
    }
    return recurse(n - 1) + recurse(n - 2);
}

__global__ void recursiveKernel(int* out, int n)
{
    out[threadIdx.x] = recurse(n);
}

// Host entry point so the shared library also exports an ordinary host symbol.
extern "C" int frames_host_entry(void)
{
    return 42;
}

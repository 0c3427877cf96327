// Kernels with designed per-thread stack frames for the JIT-frame tests (issue 13): built into a PTX-only library
// (compute_80 PTX only) and a mixed one (sm_90 SASS + compute_80 PTX) by build-test-binaries.sh, which also records
// the `nvcc -Xptxas -v` logs of the same PTX compiled for sm_90, sm_100 and sm_120 (jitframes-ptxas-sm_NN.txt): the
// frames the plugin computes with ptxas are checked against those logs.

// A local array indexed by a runtime value lives in the stack frame: N bytes.
template <int N>
__global__ void jitFrame(char* out, int i)
{
    volatile char buf[N];
    for (int k = 0; k < N; k += 32) {
        buf[(k + i) % N] = (char) k;
    }
    out[threadIdx.x] = buf[i % N];
}

template __global__ void jitFrame<1200>(char*, int);   //  1,200 bytes
template __global__ void jitFrame<4000>(char*, int);   //  4,000 bytes
template __global__ void jitFrame<10232>(char*, int);  // 10,232 bytes (the stack limit rounds it up to 10,240)
template __global__ void jitFrame<16400>(char*, int);  // 16,400 bytes

// A callee with its own frame: the kernel's frame is the whole call tree's.
__device__ __noinline__ int jitCallee(int i)
{
    volatile int local[100];
    local[i % 100] = i;
    return local[(i + 1) % 100];
}

__global__ void jitCaller(int* out, int i)
{
    out[threadIdx.x] = jitCallee(i);
}

__global__ void jitNoStack(int* out)
{
    out[threadIdx.x] = threadIdx.x;
}

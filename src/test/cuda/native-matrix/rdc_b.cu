// Separate compilation (-rdc=true), file B: device functions called from rdc_a.cu.

__device__ __noinline__ int ext_helper(int* out, int i)
{
    volatile int scratch[128];   // 512 bytes of own frame
    for (int k = 0; k < 128; k += 8) {
        scratch[(k + i) & 127] = k + i;
    }
    return scratch[(i * 3) & 127] + out[0];
}

__device__ __noinline__ int ext_recursive(int n)
{
    if (n <= 1) {
        return n;
    }
    return ext_recursive(n - 1) + ext_recursive(n - 2);
}

__device__ __noinline__ int ext_square(int v)
{
    volatile int squares[32];   // 128 bytes of own frame
    squares[v & 31] = v * v;
    return squares[(v + 1) & 31];
}

// called through this pointer from rdc_a.cu
__device__ int (*ext_op)(int) = ext_square;

// A kernel of its own in file B, with a small local frame: STACK >= 64.
extern "C" __global__ void r_b_kernel(int* out, int i)
{
    volatile int buf[16];
    buf[i & 15] = i;
    out[threadIdx.x] = buf[(i + 1) & 15];
}

// 64-bit division: this object's own copy of __cuda_sm20_div_s64 (see r_div_a in rdc_a.cu).
extern "C" __global__ void r_div_b(long long* out, long long d) { out[threadIdx.x] = out[threadIdx.x] / (d + 1); }

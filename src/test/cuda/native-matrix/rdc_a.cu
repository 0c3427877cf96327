// Separate compilation (-rdc=true), file A: kernels that call device functions defined in
// rdc_b.cu. After nvlink the kernel's stack is its own frame plus the deepest callee chain;
// through the cross-file recursion nvlink cannot bound it (STACK UNKNOWN).

extern __device__ int ext_helper(int* out, int i);      // rdc_b.cu, own frame >= 512 bytes
extern __device__ int ext_recursive(int n);             // rdc_b.cu, recursive
extern __device__ int (*ext_op)(int);                   // rdc_b.cu, points to ext_square (own frame >= 128 bytes)

// Own frame >= 512 bytes, plus ext_helper's frame: STACK >= 1024 after nvlink.
extern "C" __global__ void r_cross_frame(int* out, int i)
{
    volatile int mine[128];
    for (int k = 0; k < 128; k += 8) {
        mine[(k + i) & 127] = k;
    }
    out[threadIdx.x] = ext_helper(out, i) + mine[(i * 5) & 127];
}

// Calls the recursion in rdc_b.cu: nvlink warns that the stack cannot be statically determined.
extern "C" __global__ void r_cross_recursive(int* out, int n)
{
    out[threadIdx.x] = ext_recursive(n);
}

// An indirect call across files: nvlink knows the possible targets and adds ext_square's frame: STACK >= 128.
extern "C" __global__ void r_cross_indirect(int* out, int i)
{
    out[threadIdx.x] = ext_op(i);
}

// No call, 256 bytes of static shared memory: STACK 0 in every form; SHARED 256 in the objects
// (the reserved 1 KiB is added only by nvlink) and 256 (+1024 on sm_90 and newer) after linking.
extern "C" __global__ void r_plain(int* out)
{
    __shared__ int staged[64];
    staged[threadIdx.x % 64] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = staged[(threadIdx.x + 1) % 64];
}

// 64-bit division calls nvcc's helper __cuda_sm20_div_s64; each object brings its own copy, so the linked cubin
// lists two functions of that name (rdc_b.cu's r_div_b brings the other).
extern "C" __global__ void r_div_a(long long* out, long long d) { out[threadIdx.x] = out[threadIdx.x] / d; }

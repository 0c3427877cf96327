// stack_demo.cu: the example library of cuda-stack-budget-maven-plugin.
//
// Every kernel has a per-thread stack frame of a known size, so the plugin's
// report can be checked by hand against `nvcc -Xptxas -v`:
//
//   demo::histogramSmall        0 bytes     (shared memory only, no local memory)
//   demo::sortScratch<512>      512 bytes
//   demo::sortScratch<2048>     2048 bytes
//   demo::sortScratch<10200>    10200 bytes
//   demo::stageTiles            4096 bytes, but 12288 bytes in the sm_90a image
//
// The frames cannot be optimised away: each buffer is a `volatile` local array
// indexed by values known only at run time, so ptxas must keep it in the
// per-thread stack (local memory) instead of registers.
//
// stageTiles shows why the plugin reports the image the driver would actually
// pick: an H200 (compute capability 9.0) runs the arch-specific sm_90a image,
// not the sm_90 one, and that image reserves three times the stack.

namespace demo {

// 256-bin byte histogram, accumulated in shared memory: STACK 0.
__global__ void histogramSmall(const unsigned char* data, int n, unsigned int* bins)
{
    __shared__ unsigned int blockBins[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        blockBins[b] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&blockBins[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        atomicAdd(&bins[b], blockBins[b]);
    }
}

// Each thread sorts a window of ScratchBytes / 4 integers in a private scratch
// buffer (insertion sort) and writes the window's median: ScratchBytes of stack.
template <int ScratchBytes>
__global__ void sortScratch(const int* in, int* out, int n)
{
    constexpr int kCount = ScratchBytes / static_cast<int>(sizeof(int));
    volatile int scratch[kCount];

    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) {
        return;
    }
    for (int k = 0; k < kCount; ++k) {
        scratch[k] = in[(tid + k) % n];
    }
    for (int k = 1; k < kCount; ++k) {
        const int v = scratch[k];
        int j = k - 1;
        while (j >= 0 && scratch[j] > v) {
            scratch[j + 1] = scratch[j];
            --j;
        }
        scratch[j + 1] = v;
    }
    out[tid] = scratch[kCount / 2];
}

template __global__ void sortScratch<512>(const int*, int*, int);
template __global__ void sortScratch<2048>(const int*, int*, int);
template __global__ void sortScratch<10200>(const int*, int*, int);

// Stages tiles of the input in a per-thread buffer before reducing them. The
// sm_90a build uses a deeper staging buffer, so its image has a larger frame.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
constexpr int kStageBytes = 12288;
#else
constexpr int kStageBytes = 4096;
#endif

__global__ void stageTiles(const float* in, float* out, int n, int stride)
{
    constexpr int kCount = kStageBytes / static_cast<int>(sizeof(float));
    volatile float stage[kCount];

    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) {
        return;
    }
    for (int k = 0; k < kCount; ++k) {
        stage[(k * stride) % kCount] = in[(tid + k) % n];
    }
    float sum = 0.0f;
    for (int k = 0; k < kCount; ++k) {
        sum += stage[(k + tid) % kCount];
    }
    out[tid] = sum;
}

} // namespace demo

// Host entry point of the library: launches every kernel once on the caller's
// device buffers (each of at least n elements; bins: 256 elements).
extern "C" int stackdemo_launch_all(const unsigned char* bytes, const int* ints, const float* floats,
                                    unsigned int* bins, int* intsOut, float* floatsOut, int n)
{
    const int threads = 128;
    const int blocks = (n + threads - 1) / threads;
    demo::histogramSmall<<<blocks, threads>>>(bytes, n, bins);
    demo::sortScratch<512><<<blocks, threads>>>(ints, intsOut, n);
    demo::sortScratch<2048><<<blocks, threads>>>(ints, intsOut, n);
    demo::sortScratch<10200><<<blocks, threads>>>(ints, intsOut, n);
    demo::stageTiles<<<blocks, threads>>>(floats, floatsOut, n, 7);
    return static_cast<int>(cudaGetLastError());
}

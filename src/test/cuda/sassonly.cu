// A kernel built as SASS only (no PTX), linked into one library with frames.cu built with PTX: the native reader
// must tell, per kernel, which would be JIT-compiled from PTX on a newer GPU and which cannot run there at all.
__global__ void sassOnlyKernel(int* out, int i)
{
    volatile int frame[100];
    for (int k = 0; k < 100; ++k) {
        frame[k] = i * k;
    }
    out[threadIdx.x] = frame[i % 100];
}

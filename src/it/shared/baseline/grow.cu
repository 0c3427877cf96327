// The baseline ITs' library: one kernel whose per-thread stack frame is about FRAME bytes (a volatile local array),
// so that two builds with different -DFRAME give an earlier and a later release of the same kernel.
#ifndef FRAME
#define FRAME 1024
#endif

__global__ void growKernel(int* out, int n)
{
    volatile int scratch[FRAME / 4];
    for (int i = 0; i < FRAME / 4; i++) {
        scratch[i] = out[(i * 7 + threadIdx.x) % n];
    }
    int sum = 0;
    for (int i = 0; i < FRAME / 4; i++) {
        sum += scratch[(i * 13) % (FRAME / 4)];
    }
    out[threadIdx.x % n] = sum;
}

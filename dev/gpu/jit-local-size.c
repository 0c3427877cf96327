/*
 * The driver's JIT frames of a PTX module: cuModuleLoadData (the driver JIT-compiles the PTX for the GPU present),
 * then for every function of the module cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES).
 *
 *   jit-local-size MODULE.ptx...   prints "MODULE<TAB>NAME<TAB>LOCAL_SIZE_BYTES" per function, or
 *                                  "MODULE<TAB>!error<TAB>CODE" when the module does not load
 *   jit-local-size --launch MODULE.ptx
 *                                  also launches every kernel named _Z8jitFrame... (args: char*, int) in the
 *                                  order given, one thread each, and prints "MODULE<TAB>!limit<TAB>NAME<TAB>LIMIT"
 *                                  with CU_LIMIT_STACK_SIZE after it (the stack limit the driver grew to)
 * Build: nvcc -o jit-local-size jit-local-size.c -lcuda   (issue 13, dev/gpu/jit-validate.sh)
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n + 1);
    if (fread(buf, 1, n, f) != (size_t) n) { fclose(f); free(buf); return NULL; }
    buf[n] = 0;
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate(&ctx, NULL, 0, dev)) {
        fprintf(stderr, "no CUDA context\n");
        return 2;
    }
    int launch = argc > 1 && strcmp(argv[1], "--launch") == 0;
    CUdeviceptr buffer = 0;
    if (launch) {
        cuMemAlloc(&buffer, 4096);
    }
    for (int a = launch ? 2 : 1; a < argc; a++) {
        char *ptx = slurp(argv[a]);
        CUmodule mod;
        CUresult r = ptx ? cuModuleLoadData(&mod, ptx) : CUDA_ERROR_FILE_NOT_FOUND;
        free(ptx);
        if (r != CUDA_SUCCESS) {
            printf("%s\t!error\t%d\n", argv[a], (int) r);
            continue;
        }
        unsigned int count = 0;
        cuModuleGetFunctionCount(&count, mod);
        CUfunction *fns = calloc(count ? count : 1, sizeof(CUfunction));
        cuModuleEnumerateFunctions(fns, count, mod);
        for (unsigned int i = 0; i < count; i++) {
            const char *name = NULL;
            int local = -1;
            cuFuncGetName(&name, fns[i]);
            cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fns[i]);
            printf("%s\t%s\t%d\n", argv[a], name ? name : "?", local);
        }
        /* smallest frame first: the limit only grows, so each launch shows its own kernel's rounded frame */
        for (unsigned int x = 0; launch && x < count; x++) {
            for (unsigned int y = x + 1; y < count; y++) {
                int lx = 0, ly = 0;
                cuFuncGetAttribute(&lx, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fns[x]);
                cuFuncGetAttribute(&ly, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fns[y]);
                if (ly < lx) { CUfunction t = fns[x]; fns[x] = fns[y]; fns[y] = t; }
            }
        }
        for (unsigned int i = 0; launch && i < count; i++) {
            const char *name = NULL;
            cuFuncGetName(&name, fns[i]);
            if (!name || strncmp(name, "_Z8jitFrame", 11) != 0) continue;
            int zero = 0;
            void *params[] = {&buffer, &zero};
            CUresult lr = cuLaunchKernel(fns[i], 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
            if (lr == CUDA_SUCCESS) lr = cuCtxSynchronize();
            size_t limit = 0;
            cuCtxGetLimit(&limit, CU_LIMIT_STACK_SIZE);
            printf("%s\t!limit\t%s\t%zu\t%d\n", argv[a], name, limit, (int) lr);
        }
        free(fns);
        cuModuleUnload(mod);
    }
    cuCtxDestroy(ctx);
    return 0;
}

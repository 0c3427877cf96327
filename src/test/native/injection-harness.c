/*
 * Drives libcuda-stack-budget-cupti.so without a GPU, the way a CUDA process does: dlopen + InitializeInjection
 * (what the driver does in cuInit), real NVTX calls (nvtx3, header-only, which load the library through
 * NVTX_INJECTION64_PATH or the fallback InitializeInjection sets), then launches recorded through the entry the
 * CUPTI callback uses (cuda_stack_budget_record_launch), then a normal exit or exit() from another thread.
 *
 *   injection-harness LIBRARY init-only
 *   injection-harness LIBRARY threads TAG
 *   injection-harness LIBRARY exit-from-thread
 *   injection-harness LIBRARY graph-nodes      graph kernel nodes through cuda_stack_budget_record_graph_node (the
 *                                              entry of the graph-node callback), in and outside an NVTX range
 *   injection-harness LIBRARY frames TAG       launches with the driver's figures through
 *                                              cuda_stack_budget_record_launch_frame (what the callbacks store after
 *                                              cuFuncGetAttribute; negative = the driver gave none): the first figures
 *                                              of a row stay, later launches of it do not ask again
 *
 * Built and run by CuptiInjectionLibraryTest: gcc -I<cuda>/include injection-harness.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

typedef int (*initialize_fn)(void);
typedef void (*record_fn)(const char *, uint64_t);
typedef void (*record_frame_fn)(const char *, uint64_t, int64_t, int64_t, int64_t, int64_t);

static record_fn record;
static record_fn record_graph_node;
static const char *tag;

static void *nvtx_worker(void *unused)
{
    (void) unused;
    char name[16], load[64], inner[64], registered[64];
    snprintf(name, sizeof name, "worker-%s", tag);
    pthread_setname_np(pthread_self(), name);
    snprintf(load, sizeof load, "load-%s", tag);
    snprintf(inner, sizeof inner, "inner-%s", tag);
    snprintf(registered, sizeof registered, "registered-%s", tag);

    nvtxRangePushA(load);
    record("_Z7kernelAv", 128);
    nvtxRangePushA(inner);
    record("_Z7kernelAv", 4096);
    nvtxRangePop();
    record("_Z7kernelAv", 256);
    nvtxRangePop();
    record("_Z7kernelBv", 0); /* no open range: the thread's name */

    /* a registered string in a domain range */
    nvtxDomainHandle_t domain = nvtxDomainCreateA("harness");
    nvtxEventAttributes_t attributes = {0};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = nvtxDomainRegisterStringA(domain, registered);
    nvtxDomainRangePushEx(domain, &attributes);
    record("_Z7kernelCv", 0);
    nvtxDomainRangePop(domain);

    /* interleaved domains: popping the default domain leaves the domain range innermost */
    nvtxRangePushA("outer");
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = "domain-range";
    nvtxDomainRangePushEx(domain, &attributes);
    nvtxRangePop();
    record("_Z7kernelDv", 64);
    nvtxDomainRangePop(domain);

    /* wide messages become UTF-8; tabs become spaces; a range without a message is skipped */
    nvtxRangePushW(L"wide-\u00e9");
    record("_Z7kernelEv", 0);
    nvtxRangePop();
    nvtxRangePushA("has\ttab");
    attributes.messageType = NVTX_MESSAGE_UNKNOWN;
    nvtxRangePushEx(&attributes);
    record("_Z7kernelFv", 0);
    nvtxRangePop();
    nvtxRangePop();
    return NULL;
}

static void *hammer(void *seed)
{
    pthread_setname_np(pthread_self(), "hammer");
    uintptr_t offset = (uintptr_t) seed;
    for (uint64_t i = 0; i < 200000; i++) {
        record("_Z6hammerv", (i + offset) % 1000);
        record(i % 2 ? "_Z7hammer2v" : "_Z7hammer3v", 7);
    }
    return NULL;
}

static void *exit_now(void *unused)
{
    (void) unused;
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY init-only|threads TAG|exit-from-thread|graph-nodes\n", argv[0]);
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 3;
    }
    initialize_fn initialize = (initialize_fn) dlsym(library, "InitializeInjection");
    record = (record_fn) dlsym(library, "cuda_stack_budget_record_launch");
    record_graph_node = (record_fn) dlsym(library, "cuda_stack_budget_record_graph_node");
    record_frame_fn record_frame = (record_frame_fn) dlsym(library, "cuda_stack_budget_record_launch_frame");
    if (!initialize || !record || !record_graph_node || !record_frame) {
        fprintf(stderr, "missing export\n");
        return 4;
    }
    if (initialize() != 1) {
        fprintf(stderr, "InitializeInjection did not return 1\n");
        return 5;
    }
    pthread_setname_np(pthread_self(), "harness-main");
    if (strcmp(argv[2], "init-only") == 0) {
        return 0;
    }
    if (strcmp(argv[2], "exit-from-thread") == 0) {
        record("_Z10beforeExitv", 32);
        pthread_t t;
        pthread_create(&t, NULL, exit_now, NULL);
        pause(); /* the other thread ends the process */
        return 6;
    }
    if (strcmp(argv[2], "graph-nodes") == 0) {
        nvtxRangePushA("graph-outer");
        nvtxRangePushA("graph-build");
        record_graph_node("_Z9graphNodev", 2048);
        record("_Z9graphNodev", 512); /* the same kernel launched directly: its own row */
        nvtxRangePop();
        record_graph_node("_Z9graphNodev", 4096);
        nvtxRangePop();
        record_graph_node("_Z9graphNodev", 1024); /* no open range: "<graph>" alone, not the thread's name */
        record_graph_node("_Z9graphNodev", 16);
        return 0;
    }
    if (strcmp(argv[2], "frames") == 0 && argc == 4) {
        if (strcmp(argv[3], "a") == 0) {
            record_frame("_Z8bigFramev", 0, 12000, 31, 0, 90);
            record_frame("_Z8bigFramev", 64, 1, 1, 1, 1); /* the row has its figures: not asked again */
            record_frame("_Z9noAnswerv", 0, -1, -1, -1, -1);
            nvtxRangePushA("phase");
            record_frame("_Z8bigFramev", 16, 12000, 31, 0, 90);
            nvtxRangePop();
        } else {
            record_frame("_Z9noAnswerv", 8, 2048, 40, 16, 86); /* another process got an answer: it wins */
            record_frame("_Z9partFramev", 0, 4096, -1, 512, -1);
        }
        return 0;
    }
    if (strcmp(argv[2], "threads") == 0 && argc == 4) {
        tag = argv[3];
        record("_Z4mainv", 0);
        pthread_t workers[9];
        pthread_create(&workers[0], NULL, nvtx_worker, NULL);
        for (uintptr_t i = 1; i < 9; i++) {
            pthread_create(&workers[i], NULL, hammer, (void *) i);
        }
        for (int i = 0; i < 9; i++) {
            pthread_join(workers[i], NULL);
        }
        return 0;
    }
    fprintf(stderr, "unknown mode %s\n", argv[2]);
    return 2;
}

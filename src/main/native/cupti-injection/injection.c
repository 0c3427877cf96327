/*
 * libcuda-stack-budget-cupti.so: a CUDA injection library (CUDA_INJECTION64_PATH) that records which kernels a
 * process launches, for the cuda-stack-budget plugin's launched mode.
 *
 * - InitializeInjection (called by the CUDA driver in cuInit) loads CUPTI with dlopen (no link-time dependency,
 *   so a missing or unloadable CUPTI never stops the host from starting), subscribes to the launch callbacks of
 *   the runtime and driver APIs and records (kernel, attribution, largest dynamic shared memory).
 * - Kernels of CUDA graphs: kernel nodes are recorded when they are created (CUPTI's resource callback
 *   GRAPHNODE_CREATED; the node's function and dynamic shared memory are read with the driver's
 *   cuGraphKernelNodeGetParams, looked up in the loaded libcuda), attributed "<graph>" plus the thread's innermost
 *   NVTX range. Nodes created by stream capture are skipped there: the captured launch call was recorded already.
 * - The driver's figures: once per row (kernel, attribution), the launched function's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
 *   NUM_REGS, SHARED_SIZE_BYTES and BINARY_VERSION (cuFuncGetAttribute, looked up in the loaded libcuda), written in
 *   the launch log (format 2). The function: the CUfunction argument of a driver launch; for a runtime launch the
 *   one of the driver launch the runtime makes for it (CUPTI reports it on the same thread), else
 *   cudaGetFuncBySymbol of the loaded CUDA runtime; for a graph kernel node its func (or kern, through
 *   cuKernelGetFunction). A handle that is a CUkernel is turned into its function with cuKernelGetFunction. A failed
 *   query is recorded as "unknown" and never stops the launch.
 * - InitializeInjectionNvtx2 (nvtx_ranges.c; NVTX_INJECTION64_PATH) keeps the per-thread NVTX range stack used
 *   for attribution.
 * - At exit (atexit and a destructor, whichever runs first) both logs are merged into what other processes
 *   already wrote (launch_table.c). No CUDA or CUPTI call is made at exit.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cupti.h>

#include "launch_table.h"
#include "nvtx_ranges.h"

#define ENV_LAUNCH_LOG "CUDA_STACK_BUDGET_LAUNCH_LOG"
#define ENV_LIBRARY_LOG "CUDA_STACK_BUDGET_LIBRARY_LOG"
#define ENV_CUPTI_LIBRARY "CUDA_STACK_BUDGET_CUPTI_LIBRARY"
#define DEFAULT_LAUNCH_LOG "cuda-stack-budget-launch.log"
#define LIBRARY_LOG_SUFFIX ".libraries"

/* CUDA 13's <<<...>>> goes through __cudaLaunchKernel(kernel, grid, block, args, sharedMem, stream); the CUPTI
 * headers list its callback id but not its parameter struct, which follows the function's signature */
typedef struct {
    const void *kernel;
    dim3 gridDim;
    dim3 blockDim;
    void **args;
    size_t sharedMem;
    cudaStream_t stream;
} launch_kernel_v13000_params;

typedef CUptiResult (*subscribe_fn)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
typedef CUptiResult (*subscribe_v2_fn)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *,
                                       CUpti_SubscriberParams *);
typedef CUptiResult (*enable_callback_fn)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
typedef CUptiResult (*result_string_fn)(CUptiResult, const char **);

/* the driver API calls that read a graph kernel node (NULL when the loaded libcuda lacks them) */
typedef CUresult (*node_type_fn)(CUgraphNode, CUgraphNodeType *);
typedef CUresult (*kernel_node_params_fn)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
typedef CUresult (*function_name_fn)(const char **, CUfunction);
typedef CUresult (*kernel_name_fn)(const char **, CUkernel);
static node_type_fn graph_node_type;
static kernel_node_params_fn kernel_node_params;
static function_name_fn function_name;
static kernel_name_fn kernel_name;

/* the driver and runtime calls that read a launched function's figures (NULL when missing) */
typedef CUresult (*func_attribute_fn)(int *, CUfunction_attribute, CUfunction);
typedef CUresult (*kernel_function_fn)(CUfunction *, CUkernel);
typedef int (*func_by_symbol_fn)(void **, const void *); /* cudaGetFuncBySymbol; cudaSuccess is 0 */
static func_attribute_fn func_attribute;
static kernel_function_fn kernel_function;
static func_by_symbol_fn func_by_symbol;
static atomic_int func_by_symbol_looked_up;

#define GRAPH_ATTRIBUTION "<graph>"

static char launch_log_path[PATH_MAX];
static char library_log_path[PATH_MAX];
static char status[512] = "ok";
static atomic_int initialized;
static atomic_int flushed;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* > 0 while this thread is inside a runtime launch that was recorded: the driver launch the runtime makes for it
 * (if CUPTI reports one) is then not recorded twice */
static __thread int inside_recorded_runtime_launch;
/* > 0 while this thread is inside a driver launch call (a kernel node made by stream capture is created there) */
static __thread int inside_driver_launch;

/* CUDA_STACK_BUDGET_DEBUG=1: counts the callbacks and prints the counts at exit (for overhead analysis) */
static int debug;
static _Atomic unsigned long long runtime_callbacks, driver_callbacks, driver_recorded, graph_nodes_recorded;
static _Atomic unsigned long long frames_asked, frames_unknown;

/* the row of the outermost runtime launch of this thread whose driver figures are still to be asked (by the driver
 * launch the runtime makes for it, or at the runtime call's exit) */
static __thread struct entry *pending_frame;

static void set_status(const char *problem, const char *detail)
{
    snprintf(status, sizeof status, "%s - %s", problem, detail);
    for (char *p = status; *p; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            *p = ' ';
        }
    }
}

static uint64_t runtime_dynamic_shared(CUpti_CallbackId id, const void *params)
{
    switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
        return ((const cudaLaunchKernel_v7000_params *) params)->sharedMem;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
        return ((const cudaLaunchCooperativeKernel_v9000_params *) params)->sharedMem;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
        const cudaLaunchConfig_t *config = ((const cudaLaunchKernelExC_v11060_params *) params)->config;
        return config ? config->dynamicSmemBytes : 0;
    }
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
        return ((const launch_kernel_v13000_params *) params)->sharedMem;
    default:
        return 0;
    }
}

static uint64_t driver_dynamic_shared(CUpti_CallbackId id, const void *params)
{
    switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        return ((const cuLaunchKernel_params *) params)->sharedMemBytes;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        return ((const cuLaunchKernel_ptsz_params *) params)->sharedMemBytes;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        return ((const cuLaunchCooperativeKernel_params *) params)->sharedMemBytes;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const CUlaunchConfig *config = ((const cuLaunchKernelEx_params *) params)->config;
        return config ? config->sharedMemBytes : 0;
    }
    default: /* cuLaunch, cuLaunchGrid(Async): the size was set beforehand with cuFuncSetSharedSize */
        return 0;
    }
}

/* the CUfunction (or CUkernel) a driver launch names */
static CUfunction driver_function(CUpti_CallbackId id, const void *params)
{
    if (!params) {
        return NULL;
    }
    switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
        return ((const cuLaunch_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
        return ((const cuLaunchGrid_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
        return ((const cuLaunchGridAsync_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        return ((const cuLaunchKernel_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        return ((const cuLaunchKernel_ptsz_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        return ((const cuLaunchCooperativeKernel_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        return ((const cuLaunchCooperativeKernel_ptsz_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
        return ((const cuLaunchKernelEx_params *) params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        return ((const cuLaunchKernelEx_ptsz_params *) params)->f;
    default:
        return NULL;
    }
}

/* the host-side symbol (stub) a runtime launch names */
static const void *runtime_symbol(CUpti_CallbackId id, const void *params)
{
    if (!params) {
        return NULL;
    }
    switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
        return ((const cudaLaunchKernel_v7000_params *) params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
        return ((const cudaLaunchCooperativeKernel_v9000_params *) params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
        return ((const cudaLaunchKernelExC_v11060_params *) params)->func;
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
        return ((const launch_kernel_v13000_params *) params)->kernel;
    default:
        return NULL;
    }
}

/* one attribute, or CSB_UNKNOWN */
static int64_t attribute(CUfunction_attribute which, CUfunction f)
{
    int value = 0;
    return func_attribute(&value, which, f) == CUDA_SUCCESS && value >= 0 ? value : CSB_UNKNOWN;
}

/* Asks the driver for the figures of `f` (a CUfunction or a CUkernel; NULL: unknown) once per row: the first
 * caller that claims the row asks, every later launch of the row costs one relaxed load. */
static void ask_frame(struct entry *e, CUfunction f)
{
    if (!csb_entry_claim_frame(e)) {
        return;
    }
    struct csb_frame frame = {CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN};
    if (f && func_attribute) {
        int value = 0;
        if (func_attribute(&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) != CUDA_SUCCESS && kernel_function) {
            CUfunction resolved = NULL; /* a CUkernel (what the runtime launches since CUDA 12) */
            if (kernel_function(&resolved, (CUkernel) f) == CUDA_SUCCESS && resolved) {
                f = resolved;
            }
        }
        frame.local = attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
        frame.registers = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, f);
        frame.shared = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
        frame.binary_version = attribute(CU_FUNC_ATTRIBUTE_BINARY_VERSION, f);
    }
    csb_entry_set_frame(e, &frame);
    if (debug) {
        atomic_fetch_add(&frames_asked, 1);
        if (frame.local == CSB_UNKNOWN) {
            atomic_fetch_add(&frames_unknown, 1);
        }
    }
}

/* cudaGetFuncBySymbol of the process's CUDA runtime (the executable's, when exported, else a loaded
 * libcudart.so*); looked up once */
static func_by_symbol_fn runtime_func_by_symbol(void);

/* a runtime launch's row whose figures no driver launch gave: asked through the runtime's cudaGetFuncBySymbol */
static void ask_frame_by_symbol(struct entry *e, const void *symbol)
{
    void *f = NULL;
    func_by_symbol_fn by_symbol = symbol ? runtime_func_by_symbol() : NULL;
    if (!by_symbol || by_symbol(&f, symbol) != 0) {
        f = NULL; /* a runtime linked statically into another library (cuFFT's): unknown */
    }
    ask_frame(e, (CUfunction) f);
}

static const CUpti_CallbackId runtime_launches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};

static const CUpti_CallbackId driver_launches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};

/* "<graph>", or "<graph> <innermost NVTX range>" when the thread has one open */
static const char *graph_attribution(char *to, size_t size)
{
    const char *range = csb_current_range();
    if (range) {
        snprintf(to, size, GRAPH_ATTRIBUTION " %s", range);
    } else {
        snprintf(to, size, GRAPH_ATTRIBUTION);
    }
    return to;
}

static struct entry *record_graph_kernel(const char *kernel, uint64_t dynamic_shared)
{
    char attribution[300];
    struct entry *e = csb_table_record(kernel, graph_attribution(attribution, sizeof attribution), dynamic_shared);
    if (debug) {
        atomic_fetch_add(&graph_nodes_recorded, 1);
    }
    return e;
}

/* CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED: a kernel node (cudaGraphAddKernelNode, cuGraphAddKernelNode,
 * cudaGraphAddNode, ...) is recorded with its function and dynamic shared memory */
static void on_graph_node_created(const CUpti_ResourceData *resource)
{
    const CUpti_GraphData *graph = resource ? resource->resourceDescriptor : NULL;
    if (!graph || !graph->node || !kernel_node_params || !function_name) {
        return;
    }
    if (inside_recorded_runtime_launch > 0 || inside_driver_launch > 0) {
        return; /* stream capture: the launch call that made this node was recorded */
    }
    CUgraphNodeType type = graph->nodeType;
    if (graph_node_type && graph_node_type(graph->node, &type) != CUDA_SUCCESS) {
        return;
    }
    if (type != CU_GRAPH_NODE_TYPE_KERNEL) {
        return;
    }
    CUDA_KERNEL_NODE_PARAMS params;
    memset(&params, 0, sizeof params);
    if (kernel_node_params(graph->node, &params) != CUDA_SUCCESS) {
        if (debug) {
            fprintf(stderr, "cuda-stack-budget: cuGraphKernelNodeGetParams failed for a graph kernel node\n");
        }
        return;
    }
    const char *name = NULL;
    if (params.func) {
        function_name(&name, params.func);
    } else if (params.kern && kernel_name) {
        kernel_name(&name, params.kern);
    }
    if (name && *name) {
        struct entry *e = record_graph_kernel(name, params.sharedMemBytes);
        ask_frame(e, params.func ? params.func : (CUfunction) params.kern);
    } else if (debug) {
        fprintf(stderr, "cuda-stack-budget: a graph kernel node's function has no name\n");
    }
}

static void CUPTIAPI on_launch(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data)
{
    (void) userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        if (id == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED) {
            on_graph_node_created(data);
        }
        return;
    }
    const CUpti_CallbackData *call = data;
    if (debug) {
        atomic_fetch_add(domain == CUPTI_CB_DOMAIN_RUNTIME_API ? &runtime_callbacks : &driver_callbacks, 1);
    }
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        if (call->callbackSite == CUPTI_API_EXIT) {
            if (inside_recorded_runtime_launch > 0 && --inside_recorded_runtime_launch == 0 && pending_frame) {
                struct entry *e = pending_frame;
                pending_frame = NULL;
                ask_frame_by_symbol(e, runtime_symbol(id, call->functionParams));
            }
            return;
        }
        if (call->symbolName) {
            struct entry *e = csb_table_record(call->symbolName, csb_current_attribution(),
                                               runtime_dynamic_shared(id, call->functionParams));
            if (inside_recorded_runtime_launch == 0) {
                pending_frame = csb_entry_claim_frame_needed(e) ? e : NULL;
            }
            inside_recorded_runtime_launch++;
        } else if (inside_recorded_runtime_launch > 0) {
            inside_recorded_runtime_launch++; /* keep enter/exit balanced for nested runtime launches */
        }
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        if (call->callbackSite == CUPTI_API_EXIT) {
            if (inside_driver_launch > 0) {
                inside_driver_launch--;
            }
            return;
        }
        inside_driver_launch++;
        if (inside_recorded_runtime_launch == 0 && call->symbolName) {
            if (debug) {
                atomic_fetch_add(&driver_recorded, 1);
            }
            struct entry *e = csb_table_record(call->symbolName, csb_current_attribution(),
                                               driver_dynamic_shared(id, call->functionParams));
            if (csb_entry_claim_frame_needed(e)) {
                ask_frame(e, driver_function(id, call->functionParams));
            }
        } else if (inside_recorded_runtime_launch > 0 && pending_frame) {
            /* the driver launch the runtime makes for its launch: its CUfunction answers for the runtime's row */
            struct entry *e = pending_frame;
            pending_frame = NULL;
            ask_frame(e, driver_function(id, call->functionParams));
        }
    }
}

static void write_logs_once(void)
{
    if (!atomic_load(&initialized) || atomic_exchange(&flushed, 1)) {
        return;
    }
    csb_libraries_snapshot(1);
    csb_write_logs(launch_log_path, library_log_path, status);
    if (debug) {
        fprintf(stderr,
                "cuda-stack-budget: %llu runtime launch callbacks (enter + exit), %llu driver launch callbacks "
                "(enter + exit), %llu driver launches recorded, %llu graph kernel nodes recorded, %llu driver frames "
                "asked (%llu unknown); logs written to %s\n",
                atomic_load(&runtime_callbacks), atomic_load(&driver_callbacks), atomic_load(&driver_recorded),
                atomic_load(&graph_nodes_recorded), atomic_load(&frames_asked), atomic_load(&frames_unknown),
                launch_log_path);
    }
}

__attribute__((destructor)) static void write_logs_at_unload(void)
{
    write_logs_once();
}

/* the path of a loaded object whose file name starts with `prefix` (e.g. an already loaded libcupti) */
struct loaded_search {
    const char *prefix;
    char path[PATH_MAX];
};

static int find_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size;
    struct loaded_search *search = data;
    const char *name = info->dlpi_name;
    const char *slash = name ? strrchr(name, '/') : NULL;
    if (slash && strncmp(slash + 1, search->prefix, strlen(search->prefix)) == 0) {
        snprintf(search->path, sizeof search->path, "%s", name);
        return 1;
    }
    return 0;
}

/* to = a + b; returns 0 (and leaves `to` empty) when it does not fit */
static int path_join(char *to, size_t size, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb + 1 > size) {
        to[0] = '\0';
        return 0;
    }
    memmove(to, a, la); /* `a` may be `to` itself */
    memcpy(to + la, b, lb + 1);
    return 1;
}

static void *try_open(const char *path, char *tried, size_t tried_size)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    size_t used = strlen(tried);
    if (!handle && used + strlen(path) + 3 < tried_size) {
        snprintf(tried + used, tried_size - used, "%s%s", used ? ", " : "", path);
    }
    return handle;
}

/* CUPTI: the one the process already loaded (PyTorch links it), else CUDA_STACK_BUDGET_CUPTI_LIBRARY, else the
 * loader's search path, else next to the loaded CUDA runtime, else the usual toolkit folders */
static void *open_cupti(char *tried, size_t tried_size)
{
    struct loaded_search loaded = {"libcupti.so", ""};
    const char *configured = getenv(ENV_CUPTI_LIBRARY);
    if (configured && *configured) {
        return try_open(configured, tried, tried_size);
    }
    dl_iterate_phdr(find_loaded, &loaded);
    if (loaded.path[0]) {
        return try_open(loaded.path, tried, tried_size);
    }
    void *handle = try_open("libcupti.so.13", tried, tried_size);
    if (!handle) {
        handle = try_open("libcupti.so", tried, tried_size);
    }
    struct loaded_search runtime = {"libcudart.so", ""};
    dl_iterate_phdr(find_loaded, &runtime);
    char *slash = strrchr(runtime.path, '/');
    if (!handle && slash) {
        char candidate[PATH_MAX];
        *slash = '\0';
        if (path_join(candidate, sizeof candidate, runtime.path, "/libcupti.so.13")) {
            handle = try_open(candidate, tried, tried_size);
        }
        if (!handle && path_join(candidate, sizeof candidate, runtime.path, "/libcupti.so")) {
            handle = try_open(candidate, tried, tried_size);
        }
    }
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (size_t i = 0; !handle && i < sizeof homes / sizeof homes[0]; i++) {
        char candidate[PATH_MAX];
        if (!homes[i] || !*homes[i]) {
            continue;
        }
        if (path_join(candidate, sizeof candidate, homes[i], "/lib64/libcupti.so")) {
            handle = try_open(candidate, tried, tried_size);
        }
        if (!handle && path_join(candidate, sizeof candidate, homes[i], "/extras/CUPTI/lib64/libcupti.so")) {
            handle = try_open(candidate, tried, tried_size);
        }
    }
    return handle;
}

static const char *describe(result_string_fn result_string, CUptiResult result)
{
    const char *text = NULL;
    if (!result_string || result_string(result, &text) != CUPTI_SUCCESS || !text) {
        return "unknown CUPTI error";
    }
    return text;
}

/* the driver calls that read graph kernel nodes, from the libcuda that called InitializeInjection; returns 0 (after
 * one debug line) when one is missing: graph kernel nodes are then not recorded */
static int find_graph_driver_calls(void)
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!driver) {
        driver = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    }
    if (driver) {
        graph_node_type = (node_type_fn) dlsym(driver, "cuGraphNodeGetType");
        kernel_node_params = (kernel_node_params_fn) dlsym(driver, "cuGraphKernelNodeGetParams_v2");
        if (!kernel_node_params) { /* the v1 parameters are the first fields of the v2 ones */
            kernel_node_params = (kernel_node_params_fn) dlsym(driver, "cuGraphKernelNodeGetParams");
        }
        function_name = (function_name_fn) dlsym(driver, "cuFuncGetName");
        kernel_name = (kernel_name_fn) dlsym(driver, "cuKernelGetName");
        func_attribute = (func_attribute_fn) dlsym(driver, "cuFuncGetAttribute");
        kernel_function = (kernel_function_fn) dlsym(driver, "cuKernelGetFunction");
    }
    if (!func_attribute && debug) {
        fprintf(stderr, "cuda-stack-budget: cuFuncGetAttribute not found in the loaded libcuda: the launch log's "
                        "driver figures are unknown\n");
    }
    if (!kernel_node_params || !function_name) {
        kernel_node_params = NULL;
        if (debug) {
            fprintf(stderr, "cuda-stack-budget: %s: kernels of CUDA graphs are not recorded\n",
                    driver ? "the loaded libcuda lacks cuGraphKernelNodeGetParams or cuFuncGetName"
                           : "libcuda is not loaded");
        }
        return 0;
    }
    return 1;
}

static void subscribe(void)
{
    char tried[1024] = "";
    void *cupti = open_cupti(tried, sizeof tried);
    if (!cupti) {
        char detail[1400];
        snprintf(detail, sizeof detail, "libcupti could not be loaded (tried %s); set %s to its path", tried,
                 ENV_CUPTI_LIBRARY);
        set_status("cupti-unavailable", detail);
        return;
    }
    subscribe_fn subscribe_v1 = (subscribe_fn) dlsym(cupti, "cuptiSubscribe");
    subscribe_v2_fn subscribe_v2 = (subscribe_v2_fn) dlsym(cupti, "cuptiSubscribe_v2");
    enable_callback_fn enable = (enable_callback_fn) dlsym(cupti, "cuptiEnableCallback");
    result_string_fn result_string = (result_string_fn) dlsym(cupti, "cuptiGetResultString");
    if ((!subscribe_v1 && !subscribe_v2) || !enable) {
        set_status("cupti-unavailable", "the loaded libcupti lacks cuptiSubscribe or cuptiEnableCallback");
        return;
    }
    CUpti_SubscriberHandle subscriber = NULL;
    char other[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = "";
    CUptiResult result;
    if (subscribe_v2) {
        CUpti_SubscriberParams params = {0};
        params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        params.subscriberName = "cuda-stack-budget";
        params.oldSubscriberName = other;
        params.oldSubscriberSize = CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN;
        result = subscribe_v2(&subscriber, on_launch, NULL, &params);
    } else {
        result = subscribe_v1(&subscriber, on_launch, NULL);
    }
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        char detail[256];
        snprintf(detail, sizeof detail, "another CUPTI subscriber is active%s%s%s; nothing was recorded",
                 other[0] ? " (" : "", other, other[0] ? ")" : "");
        set_status("cupti-subscriber-conflict", detail);
        fprintf(stderr, "cuda-stack-budget: %s: kernel launches of this process are not recorded\n", detail);
        return;
    }
    if (result != CUPTI_SUCCESS) {
        char detail[256];
        snprintf(detail, sizeof detail, "cuptiSubscribe failed: %s", describe(result_string, result));
        set_status("cupti-unavailable", detail);
        fprintf(stderr, "cuda-stack-budget: %s: kernel launches of this process are not recorded\n", detail);
        return;
    }
    int enabled = 0;
    CUptiResult last = CUPTI_SUCCESS;
    for (size_t i = 0; i < sizeof runtime_launches / sizeof runtime_launches[0]; i++) {
        last = enable(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_launches[i]);
        enabled += last == CUPTI_SUCCESS;
    }
    for (size_t i = 0; i < sizeof driver_launches / sizeof driver_launches[0]; i++) {
        last = enable(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, driver_launches[i]);
        enabled += last == CUPTI_SUCCESS;
    }
    if (enabled && find_graph_driver_calls()
        && enable(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED) != CUPTI_SUCCESS
        && debug) {
        fprintf(stderr, "cuda-stack-budget: the graph node callback could not be enabled: kernels of CUDA graphs "
                        "are not recorded\n");
    }
    if (!enabled) {
        char detail[256];
        snprintf(detail, sizeof detail, "cuptiEnableCallback failed: %s", describe(result_string, last));
        set_status("cupti-unavailable", detail);
        fprintf(stderr, "cuda-stack-budget: %s: kernel launches of this process are not recorded\n", detail);
    }
}

static void absolute(char *to, size_t size, const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd) || !path_join(cwd, sizeof cwd, cwd, "/")
        || !path_join(to, size, cwd, path)) {
        path_join(to, size, path, "");
    }
}

static void initialize(void)
{
    const char *launch_log = getenv(ENV_LAUNCH_LOG);
    const char *library_log = getenv(ENV_LIBRARY_LOG);
    const char *debug_setting = getenv("CUDA_STACK_BUDGET_DEBUG");
    debug = debug_setting && strcmp(debug_setting, "1") == 0;
    absolute(launch_log_path, sizeof launch_log_path, launch_log && *launch_log ? launch_log : DEFAULT_LAUNCH_LOG);
    if (library_log && *library_log) {
        absolute(library_log_path, sizeof library_log_path, library_log);
    } else {
        path_join(library_log_path, sizeof library_log_path, launch_log_path, LIBRARY_LOG_SUFFIX);
    }
    /* NVTX instances that initialise from now on pick this library up as their injection (for attribution),
     * unless the environment already names one */
    Dl_info self;
    if (dladdr((void *) initialize, &self) && self.dli_fname && self.dli_fname[0] == '/') {
        setenv("NVTX_INJECTION64_PATH", self.dli_fname, 0);
    }
    subscribe();
    csb_libraries_snapshot(1);
    atomic_store(&initialized, 1);
    atexit(write_logs_once);
}

static func_by_symbol_fn runtime_func_by_symbol(void)
{
    if (atomic_load_explicit(&func_by_symbol_looked_up, memory_order_acquire)) {
        return func_by_symbol;
    }
    func_by_symbol_fn found = (func_by_symbol_fn) dlsym(RTLD_DEFAULT, "cudaGetFuncBySymbol");
    if (!found) {
        struct loaded_search runtime = {"libcudart.so", ""};
        dl_iterate_phdr(find_loaded, &runtime);
        void *handle = runtime.path[0] ? dlopen(runtime.path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) : NULL;
        if (handle) {
            found = (func_by_symbol_fn) dlsym(handle, "cudaGetFuncBySymbol");
        }
    }
    func_by_symbol = found;
    atomic_store_explicit(&func_by_symbol_looked_up, 1, memory_order_release);
    return found;
}

/* called by the CUDA driver (CUDA_INJECTION64_PATH) during cuInit; always reports success so that a problem of
 * this library never fails the host's CUDA initialisation */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    pthread_once(&init_once, initialize);
    return 1;
}

/* The recording entry the CUPTI callback uses, exported so that tests without a GPU can drive the table, the
 * attribution and the log writer exactly as a launch does. */
__attribute__((visibility("default"))) void cuda_stack_budget_record_launch(const char *kernel,
                                                                             uint64_t dynamic_shared)
{
    csb_table_record(kernel, csb_current_attribution(), dynamic_shared);
}

/* The recording entry of graph kernel nodes ("<graph>" plus the thread's NVTX range), exported for tests without a
 * GPU like cuda_stack_budget_record_launch. */
__attribute__((visibility("default"))) void cuda_stack_budget_record_graph_node(const char *kernel,
                                                                                 uint64_t dynamic_shared)
{
    record_graph_kernel(kernel, dynamic_shared);
}

/* The recording entry with the driver's figures (what ask_frame stores after cuFuncGetAttribute; a negative figure
 * is unknown), exported for tests without a GPU. */
__attribute__((visibility("default"))) void cuda_stack_budget_record_launch_frame(const char *kernel,
                                                                               uint64_t dynamic_shared,
                                                                               int64_t local, int64_t registers,
                                                                               int64_t shared, int64_t binary_version)
{
    struct entry *e = csb_table_record(kernel, csb_current_attribution(), dynamic_shared);
    if (csb_entry_claim_frame(e)) {
        struct csb_frame frame = {local < 0 ? CSB_UNKNOWN : local, registers < 0 ? CSB_UNKNOWN : registers,
                                  shared < 0 ? CSB_UNKNOWN : shared, binary_version < 0 ? CSB_UNKNOWN : binary_version};
        csb_entry_set_frame(e, &frame);
    }
}

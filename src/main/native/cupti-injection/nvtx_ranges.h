/*
 * Attribution of launches: the innermost NVTX range pushed (and not yet popped) on the launching thread, else the
 * thread's name. The library is its own NVTX injection (it exports InitializeInjectionNvtx2), so NVTX push/pop
 * calls of every NVTX instance in the process land in a per-thread stack kept here.
 */
#ifndef CSB_NVTX_RANGES_H
#define CSB_NVTX_RANGES_H

#include "launch_table.h"

/* The attribution of a launch made now on the calling thread. The pointer stays valid until the calling thread
 * pushes or pops a range or asks again; it is never empty and never contains a tab or a line break. */
CSB_HIDDEN const char *csb_current_attribution(void);

/* The innermost open NVTX range with a message on the calling thread, NULL when there is none. Same validity as
 * csb_current_attribution. */
CSB_HIDDEN const char *csb_current_range(void);

#endif

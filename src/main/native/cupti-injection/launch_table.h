/*
 * The launch table: one row per distinct (kernel, attribution) with the largest dynamic shared memory requested,
 * the set of loaded shared objects, and the merge-on-exit writer of the two log files.
 *
 * Thread safety: csb_table_record may be called from any number of threads at once. The table is split into
 * shards, each behind its own mutex; a small per-thread cache lets repeated launches of the same kernel with the
 * same attribution update the row with one atomic operation, without locking, hashing or allocating.
 */
#ifndef CSB_LAUNCH_TABLE_H
#define CSB_LAUNCH_TABLE_H

#include <stdint.h>

#define CSB_HIDDEN __attribute__((visibility("hidden")))

/* A row of the table (opaque outside launch_table.c). */
struct entry;

/* What the driver says about a launched function (cuFuncGetAttribute): CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
 * NUM_REGS, SHARED_SIZE_BYTES and BINARY_VERSION (e.g. 90 for an sm_90 image; the JIT's target for PTX). A figure
 * the driver did not give is CSB_UNKNOWN. */
#define CSB_UNKNOWN INT64_MIN
struct csb_frame {
    int64_t local;
    int64_t registers;
    int64_t shared;
    int64_t binary_version;
};

/* Records one launch of `kernel` (mangled name) attributed to `attribution`, with `dynamic_shared` bytes of
 * dynamic shared memory. Strings are copied when a row is new; the caller keeps ownership. Returns the row, or NULL
 * (out of memory, no name). */
CSB_HIDDEN struct entry *csb_table_record(const char *kernel, const char *attribution, uint64_t dynamic_shared);

/* Claims the row's driver query: returns 1 exactly once per row (the caller then asks the driver and calls
 * csb_entry_set_frame), 0 when the row has its figures or another thread is asking. One relaxed load on the fast
 * path. */
CSB_HIDDEN int csb_entry_claim_frame(struct entry *e);

/* Whether the row's driver figures are still to be asked (no claim; one relaxed load). */
CSB_HIDDEN int csb_entry_claim_frame_needed(struct entry *e);

/* Stores the driver's figures of a claimed row (fields may be CSB_UNKNOWN). */
CSB_HIDDEN void csb_entry_set_frame(struct entry *e, const struct csb_frame *frame);

/* Adds the loaded shared objects (and the main executable) to the library set when the loader's
 * load/unload counters changed since the last call; `force` snapshots unconditionally. */
CSB_HIDDEN void csb_libraries_snapshot(int force);

/* Writes (merging with what other processes already wrote) both logs. `status` is "ok" or
 * "<problem> - <detail>". Returns 0 on success, -1 after printing one line to stderr. */
CSB_HIDDEN int csb_write_logs(const char *launch_log, const char *library_log, const char *status);

#endif

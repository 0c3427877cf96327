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

/* Records one launch of `kernel` (mangled name) attributed to `attribution`, with `dynamic_shared` bytes of
 * dynamic shared memory. Strings are copied when a row is new; the caller keeps ownership. */
CSB_HIDDEN void csb_table_record(const char *kernel, const char *attribution, uint64_t dynamic_shared);

/* Adds the loaded shared objects (and the main executable) to the library set when the loader's
 * load/unload counters changed since the last call; `force` snapshots unconditionally. */
CSB_HIDDEN void csb_libraries_snapshot(int force);

/* Writes (merging with what other processes already wrote) both logs. `status` is "ok" or
 * "<problem> - <detail>". Returns 0 on success, -1 after printing one line to stderr. */
CSB_HIDDEN int csb_write_logs(const char *launch_log, const char *library_log, const char *status);

#endif

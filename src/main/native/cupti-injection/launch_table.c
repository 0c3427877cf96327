#define _GNU_SOURCE
#include "launch_table.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LAUNCH_LOG_HEADER "# cuda-stack-budget launch log 2"
/* a log of the previous format (three columns, no driver figures) is merged, its rows' figures unknown */
#define LAUNCH_LOG_HEADER_V1 "# cuda-stack-budget launch log 1"
#define UNKNOWN_TEXT "unknown"
#define LIBRARY_LOG_HEADER "# cuda-stack-budget library log 1"
#define STATUS_PREFIX "# status: "
#define PROCESSES_PREFIX "# processes: "
#define LOCK_WAIT_SECONDS 60

/* ------------------------------------------------------------------------------------------------------------ */
/* The table                                                                                                    */
/* ------------------------------------------------------------------------------------------------------------ */

/* frame_state: what the row knows of the driver's figures */
#define FRAME_NOT_ASKED 0
#define FRAME_ASKING 1
#define FRAME_DONE 2

struct entry {
    uint64_t hash;
    _Atomic uint64_t max_shared;
    _Atomic int frame_state;
    struct csb_frame frame; /* written once by the claiming thread, read after frame_state is FRAME_DONE */
    const char *attribution; /* points into text, after the kernel name */
    char text[];             /* kernel name, NUL, attribution, NUL */
};

#define SHARD_COUNT 64

struct shard {
    pthread_mutex_t lock;
    struct entry **slots; /* open addressing, capacity a power of two */
    size_t capacity;
    size_t count;
};

static struct shard shards[SHARD_COUNT];
static pthread_once_t shards_once = PTHREAD_ONCE_INIT;

static void init_shards(void)
{
    for (int i = 0; i < SHARD_COUNT; i++) {
        pthread_mutex_init(&shards[i].lock, NULL);
    }
}

/* per-thread cache: the row used by the last launches, keyed by the address of the kernel name the callback got */
#define CACHE_SLOTS 16
struct cache_slot {
    const char *kernel_pointer;
    struct entry *entry;
};
static __thread struct cache_slot thread_cache[CACHE_SLOTS];

static uint64_t hash_row(const char *kernel, const char *attribution)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *) kernel; *p; p++) {
        h = (h ^ *p) * 1099511628211ULL;
    }
    h = (h ^ '\t') * 1099511628211ULL;
    for (const unsigned char *p = (const unsigned char *) attribution; *p; p++) {
        h = (h ^ *p) * 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static void raise_max(_Atomic uint64_t *target, uint64_t value)
{
    uint64_t current = atomic_load_explicit(target, memory_order_relaxed);
    while (current < value
           && !atomic_compare_exchange_weak_explicit(target, &current, value, memory_order_relaxed,
                                                     memory_order_relaxed)) {
    }
}

static int grow(struct shard *shard)
{
    size_t capacity = shard->capacity ? shard->capacity * 2 : 64;
    struct entry **slots = calloc(capacity, sizeof *slots);
    if (!slots) {
        return -1;
    }
    for (size_t i = 0; i < shard->capacity; i++) {
        struct entry *e = shard->slots[i];
        if (e) {
            size_t j = (e->hash >> 6) & (capacity - 1);
            while (slots[j]) {
                j = (j + 1) & (capacity - 1);
            }
            slots[j] = e;
        }
    }
    free(shard->slots);
    shard->slots = slots;
    shard->capacity = capacity;
    return 0;
}

/* finds or inserts the row; returns NULL only when out of memory */
static struct entry *find_or_insert(const char *kernel, const char *attribution, int *inserted)
{
    uint64_t hash = hash_row(kernel, attribution);
    struct shard *shard = &shards[hash & (SHARD_COUNT - 1)];
    struct entry *found = NULL;
    *inserted = 0;
    pthread_mutex_lock(&shard->lock);
    if (shard->capacity) {
        size_t j = (hash >> 6) & (shard->capacity - 1);
        while (shard->slots[j]) {
            struct entry *e = shard->slots[j];
            if (e->hash == hash && strcmp(e->text, kernel) == 0 && strcmp(e->attribution, attribution) == 0) {
                found = e;
                break;
            }
            j = (j + 1) & (shard->capacity - 1);
        }
    }
    if (!found && ((shard->count + 1) * 2 <= shard->capacity || grow(shard) == 0)) {
        size_t kernel_length = strlen(kernel);
        size_t attribution_length = strlen(attribution);
        struct entry *e = malloc(sizeof *e + kernel_length + attribution_length + 2);
        if (e) {
            e->hash = hash;
            atomic_init(&e->max_shared, 0);
            atomic_init(&e->frame_state, FRAME_NOT_ASKED);
            e->frame = (struct csb_frame) {CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN};
            memcpy(e->text, kernel, kernel_length + 1);
            memcpy(e->text + kernel_length + 1, attribution, attribution_length + 1);
            e->attribution = e->text + kernel_length + 1;
            size_t j = (hash >> 6) & (shard->capacity - 1);
            while (shard->slots[j]) {
                j = (j + 1) & (shard->capacity - 1);
            }
            shard->slots[j] = e;
            shard->count++;
            found = e;
            *inserted = 1;
        }
    }
    pthread_mutex_unlock(&shard->lock);
    return found;
}

struct entry *csb_table_record(const char *kernel, const char *attribution, uint64_t dynamic_shared)
{
    if (!kernel || !*kernel) {
        return NULL;
    }
    struct cache_slot *slot = &thread_cache[((uintptr_t) kernel >> 4) & (CACHE_SLOTS - 1)];
    struct entry *e = slot->entry;
    if (e && slot->kernel_pointer == kernel && strcmp(e->text, kernel) == 0
        && strcmp(e->attribution, attribution) == 0) {
        raise_max(&e->max_shared, dynamic_shared);
        return e;
    }
    pthread_once(&shards_once, init_shards);
    int inserted;
    e = find_or_insert(kernel, attribution, &inserted);
    if (!e) {
        return NULL;
    }
    raise_max(&e->max_shared, dynamic_shared);
    slot->kernel_pointer = kernel;
    slot->entry = e;
    if (inserted) {
        /* a kernel seen for the first time may come from a library loaded since the last snapshot, and that
         * library may be unloaded before exit: note the loaded objects now (cheap unless something changed) */
        csb_libraries_snapshot(0);
    }
    return e;
}

int csb_entry_claim_frame_needed(struct entry *e)
{
    return e && atomic_load_explicit(&e->frame_state, memory_order_relaxed) == FRAME_NOT_ASKED;
}

int csb_entry_claim_frame(struct entry *e)
{
    if (!e || atomic_load_explicit(&e->frame_state, memory_order_relaxed) != FRAME_NOT_ASKED) {
        return 0;
    }
    int expected = FRAME_NOT_ASKED;
    return atomic_compare_exchange_strong_explicit(&e->frame_state, &expected, FRAME_ASKING, memory_order_acquire,
                                                   memory_order_relaxed);
}

void csb_entry_set_frame(struct entry *e, const struct csb_frame *frame)
{
    if (!e) {
        return;
    }
    e->frame = *frame;
    atomic_store_explicit(&e->frame_state, FRAME_DONE, memory_order_release);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Rows: in memory and in the log file                                                                          */
/* ------------------------------------------------------------------------------------------------------------ */

struct row {
    const char *kernel;
    const char *attribution;
    uint64_t shared;
    struct csb_frame frame;
};

struct rows {
    struct row *items;
    size_t count;
    size_t capacity;
};

static int rows_add(struct rows *rows, const char *kernel, const char *attribution, uint64_t shared,
                    const struct csb_frame *frame)
{
    if (rows->count == rows->capacity) {
        size_t capacity = rows->capacity ? rows->capacity * 2 : 256;
        struct row *items = realloc(rows->items, capacity * sizeof *items);
        if (!items) {
            return -1;
        }
        rows->items = items;
        rows->capacity = capacity;
    }
    rows->items[rows->count++] = (struct row) {kernel, attribution, shared, *frame};
    return 0;
}

static int compare_rows(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    int c = strcmp(x->kernel, y->kernel);
    return c ? c : strcmp(x->attribution, y->attribution);
}

static int collect_table(struct rows *rows)
{
    pthread_once(&shards_once, init_shards);
    for (int i = 0; i < SHARD_COUNT; i++) {
        struct shard *shard = &shards[i];
        pthread_mutex_lock(&shard->lock);
        for (size_t j = 0; j < shard->capacity; j++) {
            struct entry *e = shard->slots[j];
            static const struct csb_frame unknown = {CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN};
            const struct csb_frame *frame = &unknown;
            if (e && atomic_load_explicit(&e->frame_state, memory_order_acquire) == FRAME_DONE) {
                frame = &e->frame;
            }
            if (e && rows_add(rows, e->text, e->attribution,
                              atomic_load_explicit(&e->max_shared, memory_order_relaxed), frame) != 0) {
                pthread_mutex_unlock(&shard->lock);
                return -1;
            }
        }
        pthread_mutex_unlock(&shard->lock);
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Loaded shared objects                                                                                        */
/* ------------------------------------------------------------------------------------------------------------ */

static pthread_mutex_t libraries_lock = PTHREAD_MUTEX_INITIALIZER;
static char **libraries;
static size_t library_count, library_capacity;
static _Atomic unsigned long long loader_adds = ~0ULL, loader_subs = ~0ULL;

/* keeps `libraries` sorted and unique; caller holds libraries_lock */
static void add_library(const char *path)
{
    size_t low = 0, high = library_count;
    while (low < high) {
        size_t middle = (low + high) / 2;
        int c = strcmp(libraries[middle], path);
        if (c == 0) {
            return;
        }
        if (c < 0) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    if (library_count == library_capacity) {
        size_t capacity = library_capacity ? library_capacity * 2 : 128;
        char **grown = realloc(libraries, capacity * sizeof *grown);
        if (!grown) {
            return;
        }
        libraries = grown;
        library_capacity = capacity;
    }
    char *copy = strdup(path);
    if (!copy) {
        return;
    }
    memmove(libraries + low + 1, libraries + low, (library_count - low) * sizeof *libraries);
    libraries[low] = copy;
    library_count++;
}

static int read_loader_counters(struct dl_phdr_info *info, size_t size, void *data)
{
    unsigned long long *counters = data;
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        counters[0] = info->dlpi_adds;
        counters[1] = info->dlpi_subs;
    }
    return 1; /* the counters are the same for every object: stop after the first */
}

static int add_loaded_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size;
    (void) data;
    const char *name = info->dlpi_name;
    if (name && name[0]) {
        char resolved[PATH_MAX];
        if (name[0] == '/') {
            add_library(name);
        } else if (realpath(name, resolved)) {
            add_library(resolved);
        }
    }
    return 0;
}

void csb_libraries_snapshot(int force)
{
    unsigned long long counters[2] = {0, 0};
    dl_iterate_phdr(read_loader_counters, counters);
    if (!force && counters[0] == atomic_load(&loader_adds) && counters[1] == atomic_load(&loader_subs)) {
        return;
    }
    pthread_mutex_lock(&libraries_lock);
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length > 0) {
        executable[length] = '\0';
        add_library(executable);
    }
    dl_iterate_phdr(add_loaded_object, NULL);
    atomic_store(&loader_adds, counters[0]);
    atomic_store(&loader_subs, counters[1]);
    pthread_mutex_unlock(&libraries_lock);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Merge-on-exit writer                                                                                         */
/* ------------------------------------------------------------------------------------------------------------ */

/* reads a whole file; returns NULL when it does not exist (errno ENOENT) or cannot be read */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t capacity = 1 << 16, length = 0;
    char *text = malloc(capacity);
    while (text) {
        size_t n = fread(text + length, 1, capacity - length - 1, f);
        length += n;
        if (n == 0) {
            break;
        }
        if (length == capacity - 1) {
            char *grown = realloc(text, capacity * 2);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
            capacity *= 2;
        }
    }
    fclose(f);
    if (text) {
        text[length] = '\0';
    }
    return text;
}

static void write_sanitized(FILE *f, const char *s)
{
    for (; *s; s++) {
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
}

/*
 * The writers of one launch log (every process of a run, at exit) take turns through an exclusive flock on LOG.lock,
 * and the holder removes that file before it lets go, so no file is left beside the logs (regression: LOG.lock
 * stayed). The log itself cannot carry the lock: it is replaced by rename, so its inode changes under the waiters.
 * A waiter that gets the lock on a file the previous holder already removed (or replaced) sees that the path no
 * longer names the file it locked, lets go, and takes the file now at the path (or creates it): so only one process
 * at a time holds the lock on the file the path names, and only that holder removes it.
 */
struct log_lock {
    int fd; /* the locked file, or -1 when this process writes unlocked */
    char path[PATH_MAX];
};

/* whether fd is the file path names now */
static int is_file_at(int fd, const char *path)
{
    struct stat held, current;
    return fstat(fd, &held) == 0 && stat(path, &current) == 0 && held.st_dev == current.st_dev
           && held.st_ino == current.st_ino;
}

/* takes the lock; waits at most LOCK_WAIT_SECONDS, then goes on unlocked (a hung peer must not hang this process's
 * exit) */
static void lock_logs(const char *launch_log, struct log_lock *lock)
{
    lock->fd = -1;
    if (snprintf(lock->path, sizeof lock->path, "%s.lock", launch_log) >= (int) sizeof lock->path) {
        return;
    }
    int waited_ms = 0;
    for (;;) {
        int fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            fprintf(stderr, "cuda-stack-budget: cannot open lock file %s (%s); writing the launch log unlocked\n",
                    lock->path, strerror(errno));
            return;
        }
        while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                /* the file system has no flock: nobody can hold this file, so it goes again */
                fprintf(stderr, "cuda-stack-budget: cannot lock %s (%s); writing the launch log unlocked\n",
                        lock->path, strerror(errno));
                unlink(lock->path);
                close(fd);
                return;
            }
            if (waited_ms >= LOCK_WAIT_SECONDS * 1000) {
                fprintf(stderr, "cuda-stack-budget: %s stayed locked for %d s; writing the launch log unlocked\n",
                        lock->path, LOCK_WAIT_SECONDS);
                close(fd); /* the holder removes the file */
                return;
            }
            struct timespec pause = {0, 10 * 1000 * 1000};
            nanosleep(&pause, NULL);
            waited_ms += 10;
        }
        if (is_file_at(fd, lock->path)) {
            lock->fd = fd;
            return;
        }
        close(fd); /* locked a file the previous holder removed: take the one at the path now */
    }
}

/* removes the lock file, then lets go of it (in this order: a waiter on this file then finds it gone and retries) */
static void unlock_logs(struct log_lock *lock)
{
    if (lock->fd >= 0) {
        unlink(lock->path);
        close(lock->fd); /* releases the flock */
        lock->fd = -1;
    }
}

static FILE *open_temporary(const char *target, char *temporary, size_t size)
{
    if (snprintf(temporary, size, "%s.tmp.%ld", target, (long) getpid()) >= (int) size) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    return fopen(temporary, "w");
}

static int commit_temporary(FILE *f, const char *temporary, const char *target)
{
    int failed = ferror(f);
    failed |= fclose(f) != 0;
    if (failed || rename(temporary, target) != 0) {
        int saved = errno;
        unlink(temporary);
        errno = saved ? saved : EIO;
        return -1;
    }
    return 0;
}

/* "DYN\tLOCAL\tREGS\tSHARED\tsm_XX" (version 2) -> the frame; fields that are absent (version 1), "unknown" or not
 * numbers stay CSB_UNKNOWN */
static void parse_frame(const char *columns, struct csb_frame *frame)
{
    int64_t *fields[] = {&frame->local, &frame->registers, &frame->shared, &frame->binary_version};
    const char *p = strchr(columns, '\t'); /* skip the dynamic shared memory */
    for (size_t i = 0; p && i < sizeof fields / sizeof fields[0]; i++) {
        p++;
        if (i == 3 && strncmp(p, "sm_", 3) == 0) {
            p += 3;
        }
        char *end = NULL;
        errno = 0;
        long long value = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : -1;
        if (value >= 0 && errno == 0 && end && (*end == '\t' || *end == '\0')) {
            *fields[i] = value;
        }
        p = strchr(p, '\t');
    }
}

/* the larger known figure (a known one wins over an unknown one) */
static int64_t larger(int64_t a, int64_t b)
{
    return a > b ? a : b; /* CSB_UNKNOWN is INT64_MIN */
}

static void write_figure(FILE *f, int64_t value, const char *prefix)
{
    if (value == CSB_UNKNOWN) {
        fprintf(f, "\t%s", UNKNOWN_TEXT);
    } else {
        fprintf(f, "\t%s%lld", prefix, (long long) value);
    }
}

static int write_launch_log(const char *path, const char *status)
{
    struct rows rows = {0};
    char *existing = read_file(path);
    char *merged_status = NULL;
    long processes = 1;
    if (existing) {
        char *save = NULL;
        char *line = strtok_r(existing, "\n", &save);
        if (!line || (strcmp(line, LAUNCH_LOG_HEADER) != 0 && strcmp(line, LAUNCH_LOG_HEADER_V1) != 0)) {
            fprintf(stderr, "cuda-stack-budget: %s does not start with \"%s\"; it is replaced, not merged\n", path,
                    LAUNCH_LOG_HEADER);
        } else {
            while ((line = strtok_r(NULL, "\n", &save))) {
                if (strncmp(line, STATUS_PREFIX, strlen(STATUS_PREFIX)) == 0) {
                    const char *theirs = line + strlen(STATUS_PREFIX);
                    /* the first problem any process reported wins over "ok" */
                    if (!merged_status && strcmp(theirs, "ok") != 0) {
                        merged_status = (char *) theirs;
                    }
                } else if (strncmp(line, PROCESSES_PREFIX, strlen(PROCESSES_PREFIX)) == 0) {
                    processes += strtol(line + strlen(PROCESSES_PREFIX), NULL, 10);
                } else if (line[0] != '#' && line[0] != '\0') {
                    char *tab = strchr(line, '\t');
                    if (!tab) {
                        continue;
                    }
                    *tab = '\0';
                    char *attribution = tab + 1;
                    uint64_t shared = 0;
                    struct csb_frame frame = {CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN};
                    char *second = strchr(attribution, '\t');
                    if (second) {
                        *second = '\0';
                        shared = strtoull(second + 1, NULL, 10);
                        parse_frame(second + 1, &frame);
                    }
                    if (rows_add(&rows, line, attribution, shared, &frame) != 0) {
                        goto out_of_memory;
                    }
                }
            }
        }
    }
    if (collect_table(&rows) != 0) {
        goto out_of_memory;
    }
    /* sanitize in place is not possible for table strings (they are shared); rows are compared raw and written
     * sanitized, which keeps the order stable because kernel names and attributions never hold tabs or breaks */
    qsort(rows.items, rows.count, sizeof *rows.items, compare_rows);

    char temporary[PATH_MAX];
    FILE *f = open_temporary(path, temporary, sizeof temporary);
    if (!f) {
        free(rows.items);
        free(existing);
        return -1;
    }
    fprintf(f, "%s\n%s%s\n%s%ld\n", LAUNCH_LOG_HEADER, STATUS_PREFIX, merged_status ? merged_status : status,
            PROCESSES_PREFIX, processes);
    for (size_t i = 0; i < rows.count;) {
        size_t j = i;
        uint64_t shared = 0;
        struct csb_frame frame = {CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN, CSB_UNKNOWN};
        for (; j < rows.count && compare_rows(&rows.items[i], &rows.items[j]) == 0; j++) {
            if (rows.items[j].shared > shared) {
                shared = rows.items[j].shared;
            }
            frame.local = larger(frame.local, rows.items[j].frame.local);
            frame.registers = larger(frame.registers, rows.items[j].frame.registers);
            frame.shared = larger(frame.shared, rows.items[j].frame.shared);
            frame.binary_version = larger(frame.binary_version, rows.items[j].frame.binary_version);
        }
        write_sanitized(f, rows.items[i].kernel);
        fputc('\t', f);
        write_sanitized(f, rows.items[i].attribution);
        fprintf(f, "\t%llu", (unsigned long long) shared);
        write_figure(f, frame.local, "");
        write_figure(f, frame.registers, "");
        write_figure(f, frame.shared, "");
        write_figure(f, frame.binary_version, "sm_");
        fputc('\n', f);
        i = j;
    }
    free(rows.items);
    free(existing);
    return commit_temporary(f, temporary, path);

out_of_memory:
    free(rows.items);
    free(existing);
    errno = ENOMEM;
    return -1;
}

static int write_library_log(const char *path)
{
    char *existing = read_file(path);
    pthread_mutex_lock(&libraries_lock);
    if (existing) {
        char *save = NULL;
        char *line = strtok_r(existing, "\n", &save);
        if (line && strcmp(line, LIBRARY_LOG_HEADER) == 0) {
            while ((line = strtok_r(NULL, "\n", &save))) {
                if (line[0] == '/') {
                    add_library(line);
                }
            }
        }
    }
    char temporary[PATH_MAX];
    FILE *f = open_temporary(path, temporary, sizeof temporary);
    if (f) {
        fprintf(f, "%s\n", LIBRARY_LOG_HEADER);
        for (size_t i = 0; i < library_count; i++) {
            write_sanitized(f, libraries[i]);
            fputc('\n', f);
        }
    }
    pthread_mutex_unlock(&libraries_lock);
    free(existing);
    return f ? commit_temporary(f, temporary, path) : -1;
}

int csb_write_logs(const char *launch_log, const char *library_log, const char *status)
{
    struct log_lock lock;
    lock_logs(launch_log, &lock);
    int result = 0;
    if (write_launch_log(launch_log, status) != 0) {
        fprintf(stderr, "cuda-stack-budget: cannot write the launch log %s: %s\n", launch_log, strerror(errno));
        result = -1;
    }
    if (write_library_log(library_log) != 0) {
        fprintf(stderr, "cuda-stack-budget: cannot write the library log %s: %s\n", library_log, strerror(errno));
        result = -1;
    }
    unlock_logs(&lock);
    return result;
}

#define _GNU_SOURCE
#include "nvtx_ranges.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <wchar.h>

/* a tool, not an NVTX client: declarations only, no NVTX implementation compiled in */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#define RANGE_CAPACITY 32   /* ranges kept per thread; deeper pushes are counted, not stored */
#define RANGE_TEXT_MAX 256  /* bytes of a range's message kept (longer messages are cut) */
#define UNNAMED_THREAD "(unnamed thread)"

struct range {
    const void *domain; /* NULL for the default domain (nvtxRangePush*) */
    char text[RANGE_TEXT_MAX];
};

struct thread_ranges {
    int stored;   /* ranges[0 .. stored-1] are open, innermost last */
    int overflow; /* open pushes beyond RANGE_CAPACITY */
    struct range ranges[RANGE_CAPACITY];
};

static __thread struct thread_ranges *thread_ranges;
static __thread char thread_name[32];
static __thread int64_t thread_name_read_ms;
static pthread_key_t ranges_key;
static pthread_once_t ranges_key_once = PTHREAD_ONCE_INIT;

/* runs on the ending thread: NVTX calls made later in that thread's teardown find no stack instead of a freed one */
static void free_thread_ranges(void *ranges)
{
    thread_ranges = NULL;
    free(ranges);
}

static void make_ranges_key(void)
{
    pthread_key_create(&ranges_key, free_thread_ranges);
}

static struct thread_ranges *ranges_of_this_thread(void)
{
    if (!thread_ranges) {
        pthread_once(&ranges_key_once, make_ranges_key);
        thread_ranges = calloc(1, sizeof *thread_ranges);
        if (thread_ranges) {
            pthread_setspecific(ranges_key, thread_ranges); /* freed when the thread ends */
        }
    }
    return thread_ranges;
}

/* copies at most RANGE_TEXT_MAX-1 bytes, tabs and line breaks as spaces */
static void copy_ascii(char *to, const char *from)
{
    size_t i = 0;
    for (; from && from[i] && i < RANGE_TEXT_MAX - 1; i++) {
        char c = from[i];
        to[i] = c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
    }
    to[i] = '\0';
}

/* UTF-8 encodes a wide string; stops before a character that would not fit */
static void copy_wide(char *to, size_t size, const wchar_t *from)
{
    size_t n = 0;
    for (; from && *from; from++) {
        unsigned long c = (unsigned long) *from;
        unsigned char bytes[4];
        size_t length;
        if (c == '\t' || c == '\n' || c == '\r') {
            c = ' ';
        }
        if (c < 0x80) {
            bytes[0] = (unsigned char) c;
            length = 1;
        } else if (c < 0x800) {
            bytes[0] = (unsigned char) (0xC0 | (c >> 6));
            bytes[1] = (unsigned char) (0x80 | (c & 0x3F));
            length = 2;
        } else if (c < 0x10000) {
            bytes[0] = (unsigned char) (0xE0 | (c >> 12));
            bytes[1] = (unsigned char) (0x80 | ((c >> 6) & 0x3F));
            bytes[2] = (unsigned char) (0x80 | (c & 0x3F));
            length = 3;
        } else if (c < 0x110000) {
            bytes[0] = (unsigned char) (0xF0 | (c >> 18));
            bytes[1] = (unsigned char) (0x80 | ((c >> 12) & 0x3F));
            bytes[2] = (unsigned char) (0x80 | ((c >> 6) & 0x3F));
            bytes[3] = (unsigned char) (0x80 | (c & 0x3F));
            length = 4;
        } else {
            bytes[0] = '?';
            length = 1;
        }
        if (n + length >= size) {
            break;
        }
        memcpy(to + n, bytes, length);
        n += length;
    }
    to[n] = '\0';
}

static void copy_message(char *to, const nvtxEventAttributes_t *attributes)
{
    to[0] = '\0';
    if (!attributes) {
        return;
    }
    switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        copy_ascii(to, attributes->message.ascii);
        break;
    case NVTX_MESSAGE_TYPE_UNICODE:
        copy_wide(to, RANGE_TEXT_MAX, attributes->message.unicode);
        break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        /* handles come from register_string_* below: they are our own copies */
        copy_ascii(to, (const char *) attributes->message.registered);
        break;
    default:
        break;
    }
}

static int push(const void *domain, const char *ascii, const wchar_t *wide, const nvtxEventAttributes_t *attributes)
{
    struct thread_ranges *r = ranges_of_this_thread();
    if (!r) {
        return -1;
    }
    if (r->stored == RANGE_CAPACITY) {
        return RANGE_CAPACITY + r->overflow++;
    }
    struct range *range = &r->ranges[r->stored];
    range->domain = domain;
    if (attributes) {
        copy_message(range->text, attributes);
    } else if (wide) {
        copy_wide(range->text, RANGE_TEXT_MAX, wide);
    } else {
        copy_ascii(range->text, ascii);
    }
    return r->stored++;
}

/* closes the innermost open range of `domain` on this thread */
static int pop(const void *domain)
{
    struct thread_ranges *r = thread_ranges;
    if (!r) {
        return -1;
    }
    if (r->overflow > 0) {
        return RANGE_CAPACITY + --r->overflow;
    }
    for (int i = r->stored - 1; i >= 0; i--) {
        if (r->ranges[i].domain == domain) {
            memmove(&r->ranges[i], &r->ranges[i + 1], (size_t) (r->stored - 1 - i) * sizeof r->ranges[0]);
            r->stored--;
            return i;
        }
    }
    return -1; /* a pop without a push: NVTX says the result is undefined; we ignore it */
}

static int NVTX_API range_push_a(const char *message) { return push(NULL, message, NULL, NULL); }
static int NVTX_API range_push_w(const wchar_t *message) { return push(NULL, NULL, message, NULL); }
static int NVTX_API range_push_ex(const nvtxEventAttributes_t *a) { return push(NULL, NULL, NULL, a); }
static int NVTX_API range_pop(void) { return pop(NULL); }

static int NVTX_API domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a)
{
    return push(domain, NULL, NULL, a);
}

static int NVTX_API domain_range_pop(nvtxDomainHandle_t domain) { return pop(domain); }

/* registered strings: the handle is a private, never freed copy of the text (applications register few) */
static nvtxStringHandle_t NVTX_API register_string_a(nvtxDomainHandle_t domain, const char *text)
{
    (void) domain;
    char *copy = malloc(RANGE_TEXT_MAX);
    if (copy) {
        copy_ascii(copy, text);
    }
    return (nvtxStringHandle_t) copy;
}

static nvtxStringHandle_t NVTX_API register_string_w(nvtxDomainHandle_t domain, const wchar_t *text)
{
    (void) domain;
    char *copy = malloc(RANGE_TEXT_MAX);
    if (copy) {
        copy_wide(copy, RANGE_TEXT_MAX, text);
    }
    return (nvtxStringHandle_t) copy;
}

/* domains: only their identity matters (ranges are popped per domain); the handle is a private allocation */
static nvtxDomainHandle_t NVTX_API domain_create_a(const char *name)
{
    (void) name;
    return (nvtxDomainHandle_t) malloc(1);
}

static nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t *name)
{
    (void) name;
    return (nvtxDomainHandle_t) malloc(1);
}

static void install(NvtxFunctionTable table, unsigned int size, unsigned int id, NvtxFunctionPointer function)
{
    if (table && id < size && table[id]) {
        *table[id] = function;
    }
}

/* NVTX's loader calls this when NVTX_INJECTION64_PATH names this library */
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    if (!get_export_table) {
        return 0;
    }
    const NvtxExportTableCallbacks *callbacks =
        (const NvtxExportTableCallbacks *) get_export_table(NVTX_ETID_CALLBACKS);
    if (!callbacks || callbacks->struct_size < sizeof *callbacks || !callbacks->GetModuleFunctionTable) {
        return 0;
    }
    NvtxFunctionTable core = NULL, core2 = NULL;
    unsigned int core_size = 0, core2_size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size)) {
        return 0;
    }
    install(core, core_size, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer) range_push_a);
    install(core, core_size, NVTX_CBID_CORE_RangePushW, (NvtxFunctionPointer) range_push_w);
    install(core, core_size, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer) range_push_ex);
    install(core, core_size, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer) range_pop);
    if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size)) {
        install(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer) domain_range_push_ex);
        install(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer) domain_range_pop);
        install(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringA, (NvtxFunctionPointer) register_string_a);
        install(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringW, (NvtxFunctionPointer) register_string_w);
        install(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, (NvtxFunctionPointer) domain_create_a);
        install(core2, core2_size, NVTX_CBID_CORE2_DomainCreateW, (NvtxFunctionPointer) domain_create_w);
    }
    return 1;
}

const char *csb_current_range(void)
{
    struct thread_ranges *r = thread_ranges;
    if (r) {
        for (int i = r->stored - 1; i >= 0; i--) {
            if (r->ranges[i].text[0]) {
                return r->ranges[i].text; /* innermost range with a message */
            }
        }
    }
    return NULL;
}

const char *csb_current_attribution(void)
{
    const char *range = csb_current_range();
    if (range) {
        return range;
    }
    /* the name may change while the thread runs: it is read again when the last read is 10 ms old (a system call
     * per launch would cost more than the rest of the recording) */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    int64_t now_ms = (int64_t) now.tv_sec * 1000 + now.tv_nsec / 1000000;
    if (!thread_name[0] || now_ms - thread_name_read_ms >= 10) {
        char name[17] = {0};
        if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0 || !name[0]) {
            copy_ascii(thread_name, UNNAMED_THREAD);
        } else {
            copy_ascii(thread_name, name);
        }
        thread_name_read_ms = now_ms;
    }
    return thread_name;
}

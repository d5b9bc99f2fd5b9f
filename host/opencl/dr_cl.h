/* The infrastructure of drape's OpenCL backend: device choice, program build and cache, checked
 * buffers, kernel launch, profiling and CLBlast reductions. The solver's step (host/) is built on
 * it.
 *
 * Design, in the manner of CLBlast (CNugteren/CLBlast); docs/design.md:
 *
 * - No global state. Everything lives in a dr_cl_context, so two worlds can each own one. The only
 *   process-wide state is CLBlast's own cache of compiled routines (see dr_cl_blast.c).
 * - Every OpenCL call goes through DR_CL_CHECK / DR_CL_CHECK_ERR, which on failure send one message
 *   "clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)" through the world's log
 * callback, keep it in the logger's last_error and map the code to a drape_result (allocation
 * failures to DRAPE_ERROR_OUT_OF_MEMORY, the rest to DRAPE_ERROR_BACKEND).
 * - Kernels are real .cl files in kernels/, embedded at build time (cmake/embed.cmake). A program's
 *   source is assembled at run time from: a generated tunables header of #defines (work-group size,
 *   ...; CLBlast prepends its tuning parameters the same way), then the .cl file with each
 *   `#include "drape_shared.h"` replaced by the embedded header. #line directives keep the
 * compiler's messages pointing at the real file and line. One program per .cl file, so a build
 * failure names the file; the device's build log goes to the log callback.
 * - Built program binaries are cached on disk per device (dr_cl_cache.c): a second start loads the
 *   binary instead of compiling. The key is the platform, device, driver and OpenCL versions, the
 *   build options and the whole assembled source (tunables included); the entry stores the full key
 *   and is used only on an exact match, so a hash collision or a corrupt file means a recompile.
 * - Buffers are checked against CL_DEVICE_MAX_MEM_ALLOC_SIZE and the device's global memory before
 *   allocation, because some drivers (PoCL) overcommit and would fail later, at first use.
 * - The queue has CL_QUEUE_PROFILING_ENABLE only when profiling is asked for (the def, or later
 *   dr_cl_set_profiling); launches can then record their event under a named phase ("predict",
 *   "project", ...), and dr_cl_profile_collect adds the device time per phase.
 *
 * The functions return a drape_result; on failure the message has already gone to the log callback.
 * A context is used by one thread at a time, like the world that owns it.
 * Environment: DRAPE_DEVICE (device choice), DRAPE_CACHE_DIR (program cache directory),
 * DRAPE_OPENCL_FP64=off (hide the device's doubles: dr_cl_context_def.hide_fp64).
 */
#ifndef DR_CL_H
#define DR_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <drape/drape.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- errors and logging ---------------------------------------------------------------------- */

/* Where messages go: the world's log callback, and the last error kept for callers and tests. */
typedef struct dr_cl_logger {
    drape_log_fn log; /* NULL: errors and warnings to stderr */
    void *user;
    char last_error[512]; /* the last error message sent, "" if none */
    cl_int
        last_cl_error; /* the OpenCL or CLBlast code of the last failed call, CL_SUCCESS if none */
} dr_cl_logger;

/* The name of an OpenCL error code, e.g. "CL_INVALID_VALUE"; "CL_UNKNOWN_ERROR" if unknown. */
const char *dr_cl_error_name(cl_int code);

/* The drape_result for a failed OpenCL call: DRAPE_ERROR_OUT_OF_MEMORY for allocation failures,
 * DRAPE_ERROR_UNSUPPORTED for "no platform / no device", DRAPE_ERROR_BACKEND otherwise. */
drape_result dr_cl_result_of(cl_int code);

#if defined(__GNUC__) || defined(__clang__)
#define DR_CL_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define DR_CL_PRINTF(fmt, args)
#endif

/* Sends one formatted message; errors are also kept in logger->last_error. */
void dr_cl_logf(dr_cl_logger *logger, drape_log_level level, const char *fmt, ...)
    DR_CL_PRINTF(3, 4);

/* Sends one message of any length as it is; errors are also kept (cut) in logger->last_error. */
void dr_cl_log(dr_cl_logger *logger, drape_log_level level, const char *message);

/* Logs "<fn> failed: <NAME> (<code>)" and returns dr_cl_result_of(code). `call` is the call's
 * text or just the function's name; only the name (up to the first '(') is used. */
drape_result dr_cl_fail(dr_cl_logger *logger, const char *call, cl_int code);
/* The same with a detail appended: "<fn> failed: <NAME> (<code>): <detail>". */
drape_result dr_cl_failf(dr_cl_logger *logger, const char *call, cl_int code, const char *fmt, ...)
    DR_CL_PRINTF(4, 5);

/* For calls that return a cl_int: DR_CL_CHECK(logger, clFinish(queue)); returns the drape_result
 * from the enclosing function on failure. */
#define DR_CL_CHECK(logger, call)                                                                  \
    do {                                                                                           \
        cl_int dr_cl_code_ = (call);                                                               \
        if (dr_cl_code_ != CL_SUCCESS)                                                             \
            return dr_cl_fail((logger), #call, dr_cl_code_);                                       \
    } while (0)

/* For calls that report through an errcode_ret argument:
 *     cl_mem m = clCreateBuffer(context, flags, size, NULL, &err);
 *     DR_CL_CHECK_ERR(logger, clCreateBuffer, err);                                             */
#define DR_CL_CHECK_ERR(logger, function, code)                                                    \
    do {                                                                                           \
        cl_int dr_cl_code_ = (code);                                                               \
        if (dr_cl_code_ != CL_SUCCESS)                                                             \
            return dr_cl_fail((logger), #function, dr_cl_code_);                                   \
    } while (0)

/* The same two, for functions that must clean up: on failure store the result and jump. */
#define DR_CL_CHECK_GOTO(logger, call, result, label)                                              \
    do {                                                                                           \
        cl_int dr_cl_code_ = (call);                                                               \
        if (dr_cl_code_ != CL_SUCCESS) {                                                           \
            (result) = dr_cl_fail((logger), #call, dr_cl_code_);                                   \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)
#define DR_CL_CHECK_ERR_GOTO(logger, function, code, result, label)                                \
    do {                                                                                           \
        cl_int dr_cl_code_ = (code);                                                               \
        if (dr_cl_code_ != CL_SUCCESS) {                                                           \
            (result) = dr_cl_fail((logger), #function, dr_cl_code_);                               \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

/* ---- devices --------------------------------------------------------------------------------- */

/* One OpenCL device as discovery sees it. Indices count over all platforms, in platform order. */
typedef struct dr_cl_device_info {
    uint32_t index; /* position in the list: what DRAPE_DEVICE=<index> names */
    cl_platform_id platform_id;
    cl_device_id device_id;
    char platform[128];        /* platform name, e.g. "Portable Computing Language" */
    char platform_vendor[128]; /* e.g. "The pocl project", "NVIDIA Corporation" */
    char platform_version[128];
    char name[128]; /* device name */
    char vendor[128];
    char version[128];   /* CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA" */
    char driver[64];     /* CL_DRIVER_VERSION */
    cl_device_type type; /* CL_DEVICE_TYPE_GPU, _CPU, _ACCELERATOR, ... (bits) */
    uint64_t global_mem; /* bytes */
    uint64_t max_alloc;  /* CL_DEVICE_MAX_MEM_ALLOC_SIZE, bytes */
    uint32_t compute_units;
    size_t max_work_group; /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    bool
        correctly_rounded_divide_sqrt; /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in single precision */
    bool fp64;                         /* double precision (cl_khr_fp64) */
} dr_cl_device_info;

typedef struct dr_cl_device_list {
    dr_cl_device_info *devices; /* count entries, malloc'd */
    uint32_t count;
} dr_cl_device_list;

/* Lists every device of every platform. No platform at all: DRAPE_ERROR_UNSUPPORTED with the
 * message "no OpenCL platform found ...". A platform without devices is skipped; if no platform has
 * a device: DRAPE_ERROR_UNSUPPORTED. On failure *out is empty. Free with dr_cl_device_list_destroy.
 */
drape_result dr_cl_device_list_create(dr_cl_logger *logger, dr_cl_device_list *out);
void dr_cl_device_list_destroy(dr_cl_device_list *list);

/* "GPU", "CPU", "accelerator", "custom" or "other". */
const char *dr_cl_device_type_name(cl_device_type type);

/* One line: "#0 NAME (PLATFORM; CPU; 32 compute units; 3.7 GiB; driver 3.1)". */
void dr_cl_device_describe(const dr_cl_device_info *device, char *out, size_t size);

/* Chooses a device. `selector` NULL or "" takes the first GPU, else the first device. A selector of
 * digits is an index into the list; anything else is a case-insensitive substring of the device
 * name, the platform name or the platform vendor ("nvidia", "pocl", "h200"; the first match wins).
 * A selector that names nothing: a message that lists the devices there are, and
 * DRAPE_ERROR_INVALID_ARGUMENT, or DRAPE_ERROR_ENVIRONMENT when it came from a variable: `origin`
 * names it ("DRAPE_DEVICE"), NULL for none. */
drape_result dr_cl_device_choose(dr_cl_logger *logger, const dr_cl_device_list *list,
                                 const char *selector, const char *origin, uint32_t *out_index);
/* The choice a world makes: the selector, or $DRAPE_DEVICE when it is NULL or "". */
drape_result dr_cl_device_choose_for_world(dr_cl_logger *logger, const dr_cl_device_list *list,
                                           const char *selector, uint32_t *out_index);

/* ---- context --------------------------------------------------------------------------------- */

/* Per-device tuning. The first group reaches the kernels as #defines in the generated tunables
 * header prepended to every program; the second is for the host only. */
typedef struct dr_cl_tunables {
    uint32_t work_group_size; /* DR_WG_SIZE: local size of every 1-D launch of dr_cl_launch_1d */
    bool
        particles_by_grid;    /* the particle contact kernels take the particles in the grid's order
                                 (kernels/particles.cl): on GPUs, or DRAPE_PARTICLE_ORDER=grid|index */
    bool particle_pass_lists; /* each contact pass's gather launched over its members only, from
                                 lists built once per substep (kernels/particles.cl): by default,
                                 or DRAPE_PARTICLE_PASSES=lists|all */
    bool particle_scan_serial; /* the particle grid's scans one work-item per tile, in order
                                  (kernels/particles.cl): on devices other than GPUs, or
                                  DRAPE_PARTICLE_SCAN=serial|groups */
    bool particle_search_half; /* the candidate search over half shells, each pair tested once and
                                  listed on both sides by integer atomics (kernels/particles.cl,
                                  particle_count_half): on devices other than GPUs, or
                                  DRAPE_PARTICLE_SEARCH=half|full */
    /* host side */
    size_t sum_dot_min; /* dr_cl_sum_float4 uses one CLBlastSgemv below this n, four parallel
                           CLBlastSdot from it on (see dr_cl_blast.c) */
} dr_cl_tunables;

typedef struct dr_cl_context_def {
    const char
        *device; /* device selector; NULL or "" reads $DRAPE_DEVICE; see dr_cl_device_choose */
    const char
        *cache_dir; /* program cache; NULL: $DRAPE_CACHE_DIR, else $XDG_CACHE_HOME/drape, else
                       $HOME/.cache/drape; "" (here or in $DRAPE_CACHE_DIR) disables the cache */
    uint32_t
        work_group_size;   /* 0: per device (128 on GPUs, 64 otherwise, at most the device's max) */
    bool profiling;        /* record launch events per phase; default true */
    bool hide_fp64;        /* treat the device as one without doubles (cl_khr_fp64), so that the
                              float fallback of the sums is run and tested on any device; also set
                              by DRAPE_OPENCL_FP64=off; default false */
    uint64_t memory_limit; /* bytes of device memory this context may hold; 0: the device's own */
    void *gl_context;      /* a GLXContext to share buffers with, or NULL (default); with gl_display
                              the context is made from it (cl_khr_gl_sharing) when the device can,
                              and without it otherwise: see dr_cl_context.gl_sharing */
    void *gl_display;      /* the GLX context's Display *; default NULL */
    drape_log_fn log;      /* default NULL: errors and warnings to stderr */
    void *log_user;
} dr_cl_context_def;

dr_cl_context_def dr_cl_default_context_def(void);

/* Device time of one named phase, summed over the events collected since the last reset. */
typedef struct dr_cl_phase {
    char name[32];
    double seconds;
    uint64_t launches;
} dr_cl_phase;

#define DR_CL_MAX_PHASES 32

/* A recorded command or run of commands, not yet collected: device time is from the start of
 * `first` (of `last` when first is NULL) to the end of `last`. The profiler owns both events. */
typedef struct dr_cl_pending_event {
    cl_event first, last;
    uint32_t phase;
} dr_cl_pending_event;

typedef struct dr_cl_profile {
    bool enabled;
    bool by_kernel; /* DRAPE_PROFILE_KERNELS: each launch also under its kernel's name, printed when
                       the context is destroyed */
    dr_cl_phase phases[DR_CL_MAX_PHASES];
    uint32_t phase_count;
    dr_cl_pending_event *pending;
    size_t pending_count, pending_capacity;
} dr_cl_profile;

/* Counters of program builds, for statistics and tests. */
typedef struct dr_cl_build_stats {
    uint32_t compiled;       /* programs compiled from source */
    uint32_t from_cache;     /* programs loaded from the disk cache */
    uint32_t cache_rejected; /* cache entries found but unusable (corrupt, other key, refused) */
    uint32_t cache_written;  /* entries written */
} dr_cl_build_stats;

/* One device with its context and in-order queue, and everything built for it. The fields are
 * readable by the backend; change them only through the functions below. */
typedef struct dr_cl_context {
    dr_cl_logger logger;
    dr_cl_device_info device;
    cl_context context;
    cl_command_queue queue; /* in order; CL_QUEUE_PROFILING_ENABLE when queue_profiling */
    bool queue_profiling;   /* the queue was made with CL_QUEUE_PROFILING_ENABLE */
    bool gl_sharing;        /* made from the def's OpenGL context: clCreateFromGLBuffer works */
    dr_cl_tunables tunables;
    char build_options[256];
    char cache_dir[1024]; /* "" when the cache is off */

    cl_program *programs; /* one per embedded .cl file, NULL until built */
    bool *program_from_cache;
    size_t program_count;
    dr_cl_build_stats stats;

    uint64_t allocated;  /* bytes in buffers made by dr_cl_buffer_create and not yet released */
    uint64_t enqueued;   /* commands enqueued through the functions below: launches, reads, writes,
                            fills, and one per CLBlast call (which may run several kernels); not the
                            profiling markers */
    uint64_t read_bytes; /* bytes read back by dr_cl_buffer_read */
    dr_cl_profile profile;
    uint64_t reads; /* reads by dr_cl_buffer_read (each waits for the device) */

    /* CLBlast reductions (dr_cl_blast.c) */
    cl_mem ones; /* 1.0f repeated, the default weights */
    size_t ones_count;
    cl_mem ones64; /* 1.0 in double (fp64 devices), for dr_cl_sum_rows_device */
    size_t ones64_count;
    cl_mem sum_result; /* 4 floats */
} dr_cl_context;

/* Lists the devices, chooses one (def->device, else $DRAPE_DEVICE), reports it at info level and
 * creates its context and queue. Programs are built on first use. On failure *out is NULL:
 * DRAPE_ERROR_UNSUPPORTED if there is no OpenCL platform or device, DRAPE_ERROR_INVALID_ARGUMENT if
 * the selector names no device. With def->gl_context the context shares that OpenGL context's
 * buffers where the device has cl_khr_gl_sharing and the driver names it as the GL context's
 * device; otherwise (PoCL, another GPU) it is made without sharing, with a message at info level.
 */
drape_result dr_cl_context_create(const dr_cl_context_def *def, dr_cl_context **out);
void dr_cl_context_destroy(dr_cl_context *ctx);

/* ---- programs and kernels -------------------------------------------------------------------- */

/* The number of embedded kernel files and the name of the i-th ("probe.cl"). */
size_t dr_cl_kernel_file_count(void);
const char *dr_cl_kernel_file_name(size_t i);

/* The program of embedded kernel file `file` ("probe.cl" or "probe"), built or loaded from the
 * cache on first use and then kept by the context (do not release it). */
drape_result dr_cl_program_get(dr_cl_context *ctx, const char *file, cl_program *out);

/* Builds every embedded kernel file (tests use this to compile all kernels). */
drape_result dr_cl_program_build_all(dr_cl_context *ctx);

/* Builds a program from `source` as if it were the kernel file `file_name`: tunables prepended,
 * embedded headers spliced in, cached like the embedded ones. The caller releases *out. */
drape_result dr_cl_program_build_source(dr_cl_context *ctx, const char *file_name,
                                        const char *source, bool *out_from_cache, cl_program *out);

/* A new kernel `kernel` of embedded file `file`; the caller releases it with clReleaseKernel. */
drape_result dr_cl_kernel_create(dr_cl_context *ctx, const char *file, const char *kernel,
                                 cl_kernel *out);

/* The complete source that is compiled for `file` (tunables, headers spliced); malloc'd, the caller
 * frees it. NULL with a logged error if the file is unknown or memory runs out. */
char *dr_cl_program_source(dr_cl_context *ctx, const char *file_name, const char *source);

/* ---- buffers and launches -------------------------------------------------------------------- */

/* A device buffer of `bytes` bytes; `what` names it in messages ("positions"). `flags` are the
 * CL_MEM_READ_WRITE / _READ_ONLY / _WRITE_ONLY kind (no host-pointer flags: there is no host
 * pointer). Asking for more than the device's max allocation, or more than its global memory minus
 * what this context holds, fails with DRAPE_ERROR_OUT_OF_MEMORY and a message naming the bytes
 * asked for, before any OpenCL call; the context stays usable. */
drape_result dr_cl_buffer_create(dr_cl_context *ctx, cl_mem_flags flags, size_t bytes,
                                 const char *what, cl_mem *out);
/* Releases *buffer (NULL is fine) and sets it to NULL. */
void dr_cl_buffer_release(dr_cl_context *ctx, cl_mem *buffer);
/* Replaces *buffer by a new read-write buffer of `bytes` bytes (at least 16, so that an empty array
 * is still a valid kernel argument), holding a copy of src when src is not NULL: the upload of a
 * host array whose size may have changed. On failure *buffer is NULL. */
drape_result dr_cl_buffer_replace(dr_cl_context *ctx, cl_mem *buffer, size_t bytes,
                                  const char *what, const void *src);
/* Blocking copies between host memory and bytes offset .. offset + bytes - 1 of the buffer. */
drape_result dr_cl_buffer_write(dr_cl_context *ctx, cl_mem buffer, size_t offset, size_t bytes,
                                const void *src);
drape_result dr_cl_buffer_read(dr_cl_context *ctx, cl_mem buffer, size_t offset, size_t bytes,
                               void *dst);
/* Fills bytes offset .. offset + bytes - 1 with copies of a pattern of 1, 2, 4, ..., 128 bytes. */
drape_result dr_cl_buffer_fill(dr_cl_context *ctx, cl_mem buffer, const void *pattern,
                               size_t pattern_size, size_t offset, size_t bytes);

/* Launches `kernel` over n work items (n rounded up to whole work groups of DR_WG_SIZE; kernels
 * check their index, a uint, against n, so n < 2^32). `phase` from dr_cl_profile_phase, or -1 to
 * record nothing. A failure names the kernel, n and the local size. */
drape_result dr_cl_launch_1d(dr_cl_context *ctx, cl_kernel kernel, size_t n, int phase);
/* Launches `kernel` over `groups` work groups of `local` work items each (a kernel that gives each
 * work group its own piece of work, by get_group_id). `phase` and failures as dr_cl_launch_1d. */
drape_result dr_cl_launch_groups(dr_cl_context *ctx, cl_kernel kernel, size_t groups, size_t local,
                                 int phase);

/* Sets arguments first .. first + count - 1 of a kernel from (size_t size, const void *value)
 * pairs, as DR_CL_ARG(value) writes them; a failure names the argument and the kernel. */
drape_result dr_cl_set_args(dr_cl_context *ctx, cl_kernel kernel, cl_uint first, cl_uint count,
                            ...);
drape_result dr_cl_set_args_v(dr_cl_context *ctx, cl_kernel kernel, cl_uint first, cl_uint count,
                              va_list args);
#define DR_CL_ARG(value) sizeof(value), (const void *)&(value)

/* Waits for every command enqueued so far. */
drape_result dr_cl_finish(dr_cl_context *ctx);

/* Profiling on or off from now on. Turning it on for a queue made without
 * CL_QUEUE_PROFILING_ENABLE waits for that queue and replaces it with one that has it (OpenCL 1.2
 * cannot change a queue's properties); turning it off keeps the queue and records no events. */
drape_result dr_cl_set_profiling(dr_cl_context *ctx, bool on);

/* ---- profiling ------------------------------------------------------------------------------- */

/* The index of phase `name`, added on first use; -1 (and a warning) when DR_CL_MAX_PHASES are used.
 */
int dr_cl_profile_phase(dr_cl_context *ctx, const char *name);
/* Hands `event` (of a command enqueued on ctx->queue) to the profiler, which releases it. With
 * profiling off, or phase < 0, it is released at once. */
drape_result dr_cl_profile_record(dr_cl_context *ctx, int phase, cl_event event);
/* The same for a run of commands from `first` to `last` on the in-order queue, e.g. a marker
 * enqueued before a library call (CLBlast's dot is two kernels but returns the event of the last
 * only). */
drape_result dr_cl_profile_record_span(dr_cl_context *ctx, int phase, cl_event first,
                                       cl_event last);
/* Waits for the recorded events (one wait, for the last: the queue is in order) and adds their
 * device time (end - start) to their phases. */
drape_result dr_cl_profile_collect(dr_cl_context *ctx);
/* Zeroes every phase's time and count; drops pending events. */
void dr_cl_profile_reset(dr_cl_context *ctx);
/* The phase named `name`, or NULL if none was recorded. */
const dr_cl_phase *dr_cl_profile_find(const dr_cl_context *ctx, const char *name);
/* With profile.by_kernel: records `event` (retained here; the caller still hands it to
 * dr_cl_profile_record) under the phase "kernel NAME" as well, and prints those phases' device
 * times. */
drape_result dr_cl_profile_record_kernel(dr_cl_context *ctx, cl_kernel kernel, cl_event event);
void dr_cl_profile_print_kernels(dr_cl_context *ctx, FILE *to);

/* ---- reductions (CLBlast) -------------------------------------------------------------------- */

/* out[k] = sum_i w_i * a[i].k for k = x, y, z, w over n float4 of `buffer` starting at float4
 * `first`; w_i = weights[i] (n floats) or 1 when weights is NULL. One CLBlastSgemv of the [n x 4]
 * array against the weights. Blocking: reads the 4 floats back. `phase` as for dr_cl_launch_1d. */
drape_result dr_cl_sum_float4(dr_cl_context *ctx, cl_mem buffer, size_t first, size_t n,
                              cl_mem weights, int phase, float out[4]);
/* The same, leaving the 4 sums on the device in `result` at float `result_offset`: no round trip,
 * for use inside a step. */
drape_result dr_cl_sum_float4_device(dr_cl_context *ctx, cl_mem buffer, size_t first, size_t n,
                                     cl_mem weights, cl_mem result, size_t result_offset,
                                     int phase);
/* *out = sum_i w_i * a[i] over n floats of `buffer` from float `first` (CLBlastSdot); blocking. */
drape_result dr_cl_sum_float(dr_cl_context *ctx, cl_mem buffer, size_t first, size_t n,
                             cl_mem weights, int phase, float *out);

/* cols column sums of a row-major [rows x cols] matrix of `buffer` (doubles on fp64 devices, floats
 * otherwise: the kernel that writes it picks the same type) into `result` (the same type) from
 * element 0: one CLBlast D/Sgemv against a ones vector, on the device. For a kernel's
 * per-work-group partial sums (the damping) and for per-element terms summed in double (the
 * diagnostics, cols = 1). */
drape_result dr_cl_sum_rows_device(dr_cl_context *ctx, cl_mem buffer, size_t rows, size_t cols,
                                   cl_mem result, int phase);

/* The name of a CLBlast status code, e.g. "CLBlastInsufficientMemoryX"; OpenCL names for the codes
 * CLBlast shares with OpenCL. */
const char *dr_cl_blast_status_name(int status);

#endif /* DR_CL_H */

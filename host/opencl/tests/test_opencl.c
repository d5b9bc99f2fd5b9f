/* Tests of the OpenCL backend's infrastructure (host/opencl/), one ctest test per function below:
 *
 *     drape_opencl_tests <test name> [scratch directory]
 *
 * The shared harness (tests/harness/drape_test.h): ENSURE fails the test with file, line and
 * condition; the entries are those of test_list.h. Tests that need an OpenCL device return SKIP
 * (77, the ctest SKIP_RETURN_CODE) when
 * there is none, so the tree builds and passes without OpenCL drivers; "gpu" skips unless a GPU is
 * present. Log messages are captured, so the tests check what the user would read, not just the
 * result codes; errors and warnings are also printed (every message with DRAPE_TEST_VERBOSE=1). The
 * environment of each test (DRAPE_DEVICE, DRAPE_CACHE_DIR, OCL_ICD_VENDORS) is set by
 * CMakeLists.txt.
 */
#include "dr_cl.h"
#include "dr_cl_embedded.h"
#include "dr_cl_internal.h"
#include "drape_test.h"
#include "test_list.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SKIP TEST_SKIP

/* A directory the test may write in: its first argument (`drape_opencl_tests cache DIR`). */
static const char *scratch_dir(void) { return test_argc() > 1 ? test_argv()[1] : "."; }

/* ---- log capture ----------------------------------------------------------------------------- */

typedef struct capture {
    char text[65536]; /* every message, one per line */
    int errors, warnings, infos;
} capture;

static void capture_log(drape_log_level level, const char *message, void *user)
{
    capture *c = user;
    if (level == DRAPE_LOG_ERROR)
        c->errors++;
    else if (level == DRAPE_LOG_WARNING)
        c->warnings++;
    else
        c->infos++;
    size_t used = strlen(c->text);
    snprintf(c->text + used, sizeof c->text - used, "%s\n", message);
    /* errors and warnings also go to the test's output, for ctest --output-on-failure */
    if (level != DRAPE_LOG_INFO || getenv("DRAPE_TEST_VERBOSE"))
        printf("log %s: %s\n",
               level == DRAPE_LOG_ERROR     ? "error"
               : level == DRAPE_LOG_WARNING ? "warning"
                                            : "info",
               message);
}

static void capture_clear(capture *c) { memset(c, 0, sizeof *c); }

/* A context on the default device, cache off, messages captured. */
/* The default context def, its messages into c, the kernel cache in cache_dir (NULL: none). */
static dr_cl_context_def capture_def(capture *c, const char *cache_dir)
{
    dr_cl_context_def def = dr_cl_default_context_def();
    def.log = capture_log;
    def.log_user = c;
    def.cache_dir = cache_dir ? cache_dir : "";
    return def;
}

static drape_result make_context(capture *c, const char *cache_dir, dr_cl_context **out)
{
    dr_cl_context_def def = capture_def(c, cache_dir);
    return dr_cl_context_create(&def, out);
}

/* True if OpenCL shows at least one device. */
static bool have_device(void)
{
    capture c;
    capture_clear(&c);
    dr_cl_logger logger = {.log = capture_log, .user = &c};
    dr_cl_device_list list;
    if (dr_cl_device_list_create(&logger, &list) != DRAPE_OK)
        return false;
    dr_cl_device_list_destroy(&list);
    return true;
}

/* A suite's body on a context of the default device, cache off, its messages in c; the context
 * is destroyed after the body. */
typedef int (*context_body)(capture *c, dr_cl_context *ctx);

/* body on a fresh context (with profiling unless `profiling` is false): SKIP without a device,
 * else the body's result. */
static int with_context(bool profiling, context_body body)
{
    if (!have_device())
        return SKIP;
    capture c;
    capture_clear(&c);
    dr_cl_context_def def = capture_def(&c, NULL);
    if (!profiling)
        def.profiling = false;
    dr_cl_context *ctx = NULL;
    ENSURE(dr_cl_context_create(&def, &ctx) == DRAPE_OK && ctx);
    const int result = body(&c, ctx);
    dr_cl_context_destroy(ctx);
    return result;
}

/* Deterministic pseudo-random floats in [-1, 1). */
static float rnd(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

/* ---- tests without a device ------------------------------------------------------------------ */

static cl_int fake_cl_call(cl_int code) { return code; }

/* A function in the backend's style: one checked call, DRAPE_OK if it succeeds. */
static drape_result checked(dr_cl_logger *logger, cl_int code)
{
    DR_CL_CHECK(logger, fake_cl_call(code));
    return DRAPE_OK;
}

int suite_errors(void)
{
    ENSURE(strcmp(dr_cl_error_name(CL_SUCCESS), "CL_SUCCESS") == 0);
    ENSURE(strcmp(dr_cl_error_name(CL_MEM_OBJECT_ALLOCATION_FAILURE),
                  "CL_MEM_OBJECT_ALLOCATION_FAILURE") == 0);
    ENSURE(strcmp(dr_cl_error_name(CL_INVALID_KERNEL_NAME), "CL_INVALID_KERNEL_NAME") == 0);
    ENSURE(strcmp(dr_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR") == 0);
    ENSURE(strcmp(dr_cl_error_name(-12345), "CL_UNKNOWN_ERROR") == 0);
    ENSURE(dr_cl_result_of(CL_MEM_OBJECT_ALLOCATION_FAILURE) == DRAPE_ERROR_OUT_OF_MEMORY);
    ENSURE(dr_cl_result_of(CL_OUT_OF_HOST_MEMORY) == DRAPE_ERROR_OUT_OF_MEMORY);
    ENSURE(dr_cl_result_of(CL_INVALID_VALUE) == DRAPE_ERROR_BACKEND);
    ENSURE(dr_cl_result_of(-1001) == DRAPE_ERROR_UNSUPPORTED);
    ENSURE(strcmp(dr_cl_blast_status_name(-1008), "CLBlastInsufficientMemoryX") == 0);
    ENSURE(strcmp(dr_cl_blast_status_name(-4), "CL_MEM_OBJECT_ALLOCATION_FAILURE") == 0);

    capture c;
    capture_clear(&c);
    dr_cl_logger logger = {.log = capture_log, .user = &c};
    ENSURE(checked(&logger, CL_SUCCESS) == DRAPE_OK);
    ENSURE(c.errors == 0 && logger.last_error[0] == '\0');
    ENSURE(checked(&logger, CL_MEM_OBJECT_ALLOCATION_FAILURE) == DRAPE_ERROR_OUT_OF_MEMORY);
    ENSURE(c.errors == 1);
    ENSURE(strcmp(logger.last_error,
                  "fake_cl_call failed: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)") == 0);
    ENSURE(logger.last_cl_error == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    ENSURE(dr_cl_failf(&logger, "clCreateKernel", CL_INVALID_KERNEL_NAME, "kernel \"%s\"", "k") ==
           DRAPE_ERROR_BACKEND);
    ENSURE(strcmp(logger.last_error,
                  "clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46): kernel \"k\"") == 0);
    return 0;
}

/* OCL_ICD_VENDORS points at an empty directory (CMakeLists.txt): the loader finds no platform. */
int suite_no_platform(void)
{
    capture c;
    capture_clear(&c);
    dr_cl_context *ctx = (dr_cl_context *)&c; /* must be overwritten with NULL */
    ENSURE(make_context(&c, NULL, &ctx) == DRAPE_ERROR_UNSUPPORTED);
    ENSURE(ctx == NULL);
    ENSURE(c.errors == 1);
    ENSURE(strstr(c.text, "no OpenCL platform found") != NULL);
    return 0;
}

/* ---- device discovery and choice ------------------------------------------------------------- */

int suite_devices(void)
{
    capture c;
    capture_clear(&c);
    dr_cl_logger logger = {.log = capture_log, .user = &c};
    dr_cl_device_list list;
    drape_result r = dr_cl_device_list_create(&logger, &list);
    if (r == DRAPE_ERROR_UNSUPPORTED)
        return SKIP;
    ENSURE(r == DRAPE_OK);
    ENSURE(list.count >= 1);
    uint32_t first_gpu = UINT32_MAX;
    for (uint32_t i = 0; i < list.count; ++i) {
        const dr_cl_device_info *d = &list.devices[i];
        char line[320];
        dr_cl_device_describe(d, line, sizeof line);
        printf("%s\n", line);
        ENSURE(d->index == i);
        ENSURE(d->name[0] && d->platform[0] && d->driver[0] && d->version[0]);
        ENSURE(d->global_mem > 0 && d->max_alloc > 0 && d->max_alloc <= d->global_mem);
        ENSURE(d->compute_units > 0 && d->max_work_group > 0);
        ENSURE(strstr(line, d->name) != NULL);
        if ((d->type & CL_DEVICE_TYPE_GPU) && first_gpu == UINT32_MAX)
            first_gpu = i;
    }

    uint32_t index = UINT32_MAX;
    ENSURE(dr_cl_device_choose(&logger, &list, NULL, NULL, &index) == DRAPE_OK);
    ENSURE(index == (first_gpu == UINT32_MAX ? 0 : first_gpu));
    ENSURE(dr_cl_device_choose(&logger, &list, "", NULL, &index) == DRAPE_OK);
    ENSURE(dr_cl_device_choose(&logger, &list, "0", NULL, &index) == DRAPE_OK && index == 0);

    /* by a substring of the device name, in another case */
    const dr_cl_device_info *last = &list.devices[list.count - 1];
    char upper[128];
    snprintf(upper, sizeof upper, "%s", last->name);
    for (char *p = upper; *p; ++p)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    ENSURE(dr_cl_device_choose(&logger, &list, upper, NULL, &index) == DRAPE_OK);
    ENSURE(strcmp(list.devices[index].name, last->name) == 0);
    /* by a substring of the platform name */
    char part[8];
    snprintf(part, sizeof part, "%s", last->platform + (strlen(last->platform) > 3 ? 1 : 0));
    ENSURE(dr_cl_device_choose(&logger, &list, part, NULL, &index) == DRAPE_OK);
    ENSURE(strstr(list.devices[index].platform, part) != NULL ||
           strstr(list.devices[index].name, part) != NULL);
    /* by the platform vendor: PoCL's device and platform names do not say "pocl", its vendor does
     */
    for (uint32_t i = 0; i < list.count; ++i)
        if (strcmp(list.devices[i].platform_vendor, "The pocl project") == 0) {
            ENSURE(dr_cl_device_choose(&logger, &list, "POCL", NULL, &index) == DRAPE_OK);
            ENSURE(index <= i);
            break;
        }
    ENSURE(c.errors == 0);

    /* an index past the end names nothing */
    char past[16];
    snprintf(past, sizeof past, "%u", (unsigned)list.count);
    ENSURE(dr_cl_device_choose(&logger, &list, past, NULL, &index) == DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(c.errors == 1 && strstr(c.text, "no OpenCL device matches") != NULL);
    /* from a variable: the variable's fault, which the message names */
    ENSURE(dr_cl_device_choose(&logger, &list, past, "DRAPE_DEVICE", &index) ==
           DRAPE_ERROR_ENVIRONMENT);
    ENSURE(c.errors == 2 && strstr(c.text, "(from DRAPE_DEVICE)") != NULL);
    dr_cl_device_list_destroy(&list);
    ENSURE(list.devices == NULL && list.count == 0);
    return 0;
}

/* DRAPE_DEVICE is set to a name no device has (CMakeLists.txt). */
int suite_device_missing(void)
{
    if (!have_device())
        return SKIP;
    capture c;
    capture_clear(&c);
    dr_cl_context *ctx = NULL;
    ENSURE(make_context(&c, NULL, &ctx) == DRAPE_ERROR_ENVIRONMENT);
    ENSURE(ctx == NULL);
    ENSURE(c.errors == 1);
    ENSURE(strstr(c.text, "no OpenCL device matches \"no-such-device-xyz\" (from DRAPE_DEVICE)"));
    ENSURE(strstr(c.text, "the devices are: #0 ") != NULL);

    /* an explicit selector overrides the environment */
    capture_clear(&c);
    dr_cl_context_def def = dr_cl_default_context_def();
    def.device = "0";
    def.cache_dir = "";
    def.log = capture_log;
    def.log_user = &c;
    ENSURE(dr_cl_context_create(&def, &ctx) == DRAPE_OK);
    ENSURE(ctx != NULL && ctx->device.index == 0);
    ENSURE(strstr(c.text, "OpenCL device #0 ") != NULL); /* the choice is reported */
    dr_cl_context_destroy(ctx);
    return 0;
}

/* Only where a GPU is present: the default choice is a GPU and the probe runs on it. */
int suite_gpu(void)
{
    capture c;
    capture_clear(&c);
    dr_cl_logger logger = {.log = capture_log, .user = &c};
    dr_cl_device_list list;
    if (dr_cl_device_list_create(&logger, &list) != DRAPE_OK)
        return SKIP;
    bool gpu = false;
    for (uint32_t i = 0; i < list.count; ++i)
        gpu = gpu || (list.devices[i].type & CL_DEVICE_TYPE_GPU);
    dr_cl_device_list_destroy(&list);
    if (!gpu)
        return SKIP;

    dr_cl_context *ctx = NULL;
    ENSURE(make_context(&c, NULL, &ctx) == DRAPE_OK);
    ENSURE(ctx->device.type & CL_DEVICE_TYPE_GPU);
    ENSURE(ctx->tunables.work_group_size == 128);
    cl_kernel k = NULL;
    ENSURE(dr_cl_kernel_create(ctx, "probe", "copy_float4", &k) == DRAPE_OK);
    clReleaseKernel(k);
    dr_cl_context_destroy(ctx);
    return 0;
}

/* ---- programs -------------------------------------------------------------------------------- */

static int build_body(capture *c, dr_cl_context *ctx)
{
    ENSURE(ctx->cache_dir[0] == '\0');
    ENSURE(dr_cl_kernel_file_count() >= 1 && ctx->program_count == dr_cl_kernel_file_count());
    bool probe = false;
    for (size_t i = 0; i < dr_cl_kernel_file_count(); ++i)
        probe = probe || strcmp(dr_cl_kernel_file_name(i), "probe.cl") == 0;
    ENSURE(probe);
    ENSURE(dr_cl_kernel_file_name(dr_cl_kernel_file_count()) == NULL);

    /* every embedded kernel file builds */
    ENSURE(dr_cl_program_build_all(ctx) == DRAPE_OK);
    ENSURE(ctx->stats.compiled == ctx->program_count && ctx->stats.from_cache == 0);
    ENSURE(c->errors == 0);

    /* the assembled source: tunables first, shared header spliced, #line back to the file */
    char *source = dr_cl_program_source(ctx, "probe.cl", "#include \"drape_shared.h\"\nX\n");
    ENSURE(source != NULL);
    char wg[64];
    snprintf(wg, sizeof wg, "#define DR_WG_SIZE %u\n", (unsigned)ctx->tunables.work_group_size);
    ENSURE(strncmp(source, "#line 1 \"drape_tunables.h\"\n", 27) == 0);
    ENSURE(strstr(source, wg) != NULL);
    ENSURE(strstr(source, "#line 1 \"drape_shared.h\"\n") != NULL);
    ENSURE(strstr(source, "#define DRAPE_SHARED_H") != NULL);
    ENSURE(strstr(source, "#include \"drape_shared.h\"") == NULL);
    const char *tail = "#line 2 \"probe.cl\"\nX\n";
    size_t length = strlen(source);
    ENSURE(length > strlen(tail) && strcmp(source + length - strlen(tail), tail) == 0);
    free(source);

    /* kernels: found, and a missing one names the call, the error and the kernel */
    cl_kernel k = NULL;
    ENSURE(dr_cl_kernel_create(ctx, "probe.cl", "copy_float4", &k) == DRAPE_OK && k);
    clReleaseKernel(k);
    ENSURE(dr_cl_kernel_create(ctx, "probe", "no_such_kernel", &k) == DRAPE_ERROR_BACKEND);
    ENSURE(k == NULL);
    ENSURE(strstr(ctx->logger.last_error, "clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46)") ==
           ctx->logger.last_error);
    ENSURE(strstr(ctx->logger.last_error, "no_such_kernel") != NULL);
    ENSURE(dr_cl_kernel_create(ctx, "no_such_file", "k", &k) == DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(ctx->stats.compiled == ctx->program_count); /* built once, kept */
    return 0;
}

int suite_build(void) { return with_context(true, build_body); }

static int build_failure_body(capture *c, dr_cl_context *ctx)
{
    const char *broken = "#include \"drape_shared.h\"\n"
                         "__kernel void broken(__global float *x)\n"
                         "{\n"
                         "    x[0] = undeclared_identifier_q;\n"
                         "}\n";
    cl_program program = NULL;
    ENSURE(dr_cl_program_build_source(ctx, "broken.cl", broken, NULL, &program) ==
           DRAPE_ERROR_BACKEND);
    ENSURE(program == NULL);
    ENSURE(c->errors == 1);
    ENSURE(ctx->logger.last_cl_error == CL_BUILD_PROGRAM_FAILURE);
    ENSURE(strstr(c->text, "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)") != NULL);
    ENSURE(strstr(c->text, "kernel file broken.cl did not build") != NULL);
    ENSURE(strstr(c->text, "undeclared_identifier_q") != NULL); /* the device's build log */
    /* #line keeps the compiler's position in the real file, where the driver prints positions */
    if (strstr(c->text, "broken.cl:") == NULL)
        printf("note: this driver's build log prints no file:line positions\n");
    else
        ENSURE(strstr(c->text, "broken.cl:4:") != NULL);
    return 0;
}

int suite_build_failure(void) { return with_context(true, build_failure_body); }

/* Hidden doubles: the kernels compile their float fallback (dr_wide is float) and the host's row
 * sums follow (device.fp64 false), so the float-sums test runs exercise it on any device. */
static int wide_size(dr_cl_context *ctx, cl_uint *out)
{
    const char *source = "#include \"drape_shared.h\"\n"
                         "__kernel void wide(__global uint *o) { o[0] = sizeof(dr_wide); }\n";
    cl_program program = NULL;
    cl_kernel kernel = NULL;
    cl_mem buf = NULL;
    cl_int code = CL_SUCCESS;
    ENSURE(dr_cl_program_build_source(ctx, "wide.cl", source, NULL, &program) == DRAPE_OK);
    kernel = clCreateKernel(program, "wide", &code);
    ENSURE(code == CL_SUCCESS);
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, sizeof *out, "wide", &buf) == DRAPE_OK);
    ENSURE(clSetKernelArg(kernel, 0, sizeof buf, &buf) == CL_SUCCESS);
    ENSURE(dr_cl_launch_1d(ctx, kernel, 1, -1) == DRAPE_OK);
    ENSURE(dr_cl_buffer_read(ctx, buf, 0, sizeof *out, out) == DRAPE_OK);
    dr_cl_buffer_release(ctx, &buf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return 0;
}

int suite_hide_fp64(void)
{
    if (!have_device())
        return SKIP;
    capture c;
    capture_clear(&c);
    dr_cl_context_def def = capture_def(&c, NULL);
    dr_cl_context *ctx = NULL;
    ENSURE(dr_cl_context_create(&def, &ctx) == DRAPE_OK);
    const bool had_fp64 = ctx->device.fp64;
    cl_uint size = 0;
    ENSURE(wide_size(ctx, &size) == 0);
    ENSURE(size == (had_fp64 ? 8u : 4u));
    dr_cl_context_destroy(ctx);
    def.hide_fp64 = true;
    ENSURE(dr_cl_context_create(&def, &ctx) == DRAPE_OK);
    ENSURE(!ctx->device.fp64);
    ENSURE(strstr(ctx->build_options, "-DDR_NO_FP64") != NULL);
    ENSURE(wide_size(ctx, &size) == 0);
    ENSURE(size == 4u);
    dr_cl_context_destroy(ctx);
    return 0;
}

/* ---- buffers and launches -------------------------------------------------------------------- */

static int run_probe(dr_cl_context *ctx, uint32_t n, uint32_t seed)
{
    size_t wg = ctx->tunables.work_group_size;
    size_t padded = n + wg; /* room past n that the kernel must not touch */
    float *src = malloc(padded * 4 * sizeof(float));
    float *dst = malloc(padded * 4 * sizeof(float));
    ENSURE(src && dst);
    for (size_t i = 0; i < padded * 4; ++i)
        src[i] = rnd(&seed) * 100.0f;
    cl_mem a = NULL, b = NULL;
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, padded * 16, "probe source", &a) == DRAPE_OK);
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, padded * 16, "probe target", &b) ==
           DRAPE_OK);
    ENSURE(dr_cl_buffer_write(ctx, a, 0, padded * 16, src) == DRAPE_OK);
    const float sentinel = -7.25f;
    ENSURE(dr_cl_buffer_fill(ctx, b, &sentinel, sizeof sentinel, 0, padded * 16) == DRAPE_OK);

    cl_kernel copy = NULL, scale = NULL;
    ENSURE(dr_cl_kernel_create(ctx, "probe", "copy_float4", &copy) == DRAPE_OK);
    ENSURE(clSetKernelArg(copy, 0, sizeof a, &a) == CL_SUCCESS);
    ENSURE(clSetKernelArg(copy, 1, sizeof b, &b) == CL_SUCCESS);
    ENSURE(clSetKernelArg(copy, 2, sizeof n, &n) == CL_SUCCESS);
    ENSURE(dr_cl_launch_1d(ctx, copy, n, dr_cl_profile_phase(ctx, "copy")) == DRAPE_OK);
    ENSURE(dr_cl_buffer_read(ctx, b, 0, padded * 16, dst) == DRAPE_OK);
    ENSURE(memcmp(src, dst, (size_t)n * 16) == 0);
    for (size_t i = (size_t)n * 4; i < padded * 4; ++i)
        ENSURE(dst[i] == sentinel);

    /* scale3_float4 goes through drape_shared.h's dr_scale3: xyz scaled, w kept */
    const float s = 0.37f;
    ENSURE(dr_cl_kernel_create(ctx, "probe", "scale3_float4", &scale) == DRAPE_OK);
    ENSURE(clSetKernelArg(scale, 0, sizeof a, &a) == CL_SUCCESS);
    ENSURE(clSetKernelArg(scale, 1, sizeof b, &b) == CL_SUCCESS);
    ENSURE(clSetKernelArg(scale, 2, sizeof n, &n) == CL_SUCCESS);
    ENSURE(clSetKernelArg(scale, 3, sizeof s, &s) == CL_SUCCESS);
    ENSURE(dr_cl_launch_1d(ctx, scale, n, -1) == DRAPE_OK);
    ENSURE(dr_cl_buffer_read(ctx, b, 0, (size_t)n * 16, dst) == DRAPE_OK);
    for (size_t i = 0; i < n; ++i) {
        ENSURE(dst[4 * i + 0] == src[4 * i + 0] * s);
        ENSURE(dst[4 * i + 1] == src[4 * i + 1] * s);
        ENSURE(dst[4 * i + 2] == src[4 * i + 2] * s);
        ENSURE(dst[4 * i + 3] == src[4 * i + 3]);
    }
    clReleaseKernel(copy);
    clReleaseKernel(scale);
    dr_cl_buffer_release(ctx, &a);
    dr_cl_buffer_release(ctx, &b);
    ENSURE(a == NULL && b == NULL);
    free(src);
    free(dst);
    return 0;
}

static int probe_copy_body(capture *c, dr_cl_context *ctx)
{
    ENSURE(run_probe(ctx, 1000, 1) == 0); /* not a multiple of the work-group size */
    ENSURE(run_probe(ctx, 1, 2) == 0);
    ENSURE(run_probe(ctx, 4 * ctx->tunables.work_group_size, 3) == 0);
    ENSURE(dr_cl_launch_1d(ctx, NULL, 0, -1) == DRAPE_OK); /* nothing to do */
    ENSURE(ctx->allocated == 0);
    ENSURE(c->errors == 0);
    return 0;
}

int suite_probe_copy(void) { return with_context(true, probe_copy_body); }

/* No global state: two contexts side by side, used in turn, destroyed in creation order. */
int suite_two_contexts(void)
{
    if (!have_device())
        return SKIP;
    capture c1, c2;
    capture_clear(&c1);
    capture_clear(&c2);
    dr_cl_context *a = NULL, *b = NULL;
    ENSURE(make_context(&c1, NULL, &a) == DRAPE_OK);
    ENSURE(make_context(&c2, NULL, &b) == DRAPE_OK);
    ENSURE(a->context != b->context);
    ENSURE(run_probe(a, 300, 4) == 0);
    ENSURE(run_probe(b, 500, 5) == 0);
    /* an error in one context is logged to its callback only */
    cl_kernel k = NULL;
    ENSURE(dr_cl_kernel_create(b, "probe", "nope", &k) == DRAPE_ERROR_BACKEND);
    ENSURE(c1.errors == 0 && c2.errors == 1 && a->logger.last_error[0] == '\0');
    dr_cl_context_destroy(a);
    ENSURE(run_probe(b, 200, 6) == 0);
    dr_cl_context_destroy(b);
    return 0;
}

static int oversize_alloc_body(capture *c, dr_cl_context *ctx)
{

    /* beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    size_t huge = (size_t)(ctx->device.max_alloc * 4 + 16);
    char expected[64];
    snprintf(expected, sizeof expected, "of %zu bytes", huge);
    cl_mem m = (cl_mem)c;
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, huge, "cloth positions", &m) ==
           DRAPE_ERROR_OUT_OF_MEMORY);
    ENSURE(m == NULL);
    ENSURE(c->errors == 1);
    ENSURE(strstr(ctx->logger.last_error, "\"cloth positions\"") != NULL);
    ENSURE(strstr(ctx->logger.last_error, expected) != NULL);
    ENSURE(strstr(ctx->logger.last_error, "in one buffer") != NULL);

    /* beyond the global memory this context has left */
    uint64_t held = ctx->allocated;
    ctx->allocated = ctx->device.global_mem - 1000;
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, 2000, "velocities", &m) ==
           DRAPE_ERROR_OUT_OF_MEMORY);
    ENSURE(strstr(ctx->logger.last_error, "\"velocities\" of 2000 bytes") != NULL);
    ENSURE(strstr(ctx->logger.last_error, "global memory left") != NULL);
    ctx->allocated = held;

    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, 0, "empty", &m) ==
           DRAPE_ERROR_INVALID_ARGUMENT);

    /* the context stays usable */
    ENSURE(run_probe(ctx, 100, 7) == 0);
    return 0;
}

int suite_oversize_alloc(void) { return with_context(true, oversize_alloc_body); }

/* ---- program cache --------------------------------------------------------------------------- */

/* The path of the cache entry of embedded kernel file `file` in ctx's cache directory. */
static bool entry_path(dr_cl_context *ctx, const char *file, char *out, size_t size)
{
    for (size_t i = 0; dr_cl_kernel_files[i].name; ++i) {
        if (strcmp(dr_cl_kernel_files[i].name, file) != 0)
            continue;
        char *source = dr_cl_program_source(ctx, file, dr_cl_kernel_files[i].source);
        char *key = source ? dr_cl_cache_key(ctx, source) : NULL;
        if (key)
            dr_cl_cache_path(ctx, key, out, size);
        free(key);
        free(source);
        return key != NULL;
    }
    return false;
}

static bool write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* One context on the cache directory: builds probe.cl, checks the counters (and that a warning
 * says `why`, unless NULL), runs the kernel. */
static int cache_round_why(const char *dir, uint32_t compiled, uint32_t from_cache,
                           uint32_t rejected, uint32_t written, int warnings, const char *why)
{
    capture c;
    capture_clear(&c);
    dr_cl_context *ctx = NULL;
    ENSURE(make_context(&c, dir, &ctx) == DRAPE_OK);
    cl_program program = NULL;
    ENSURE(dr_cl_program_get(ctx, "probe", &program) == DRAPE_OK && program);
    ENSURE(ctx->stats.compiled == compiled);
    ENSURE(ctx->stats.from_cache == from_cache);
    ENSURE(ctx->stats.cache_rejected == rejected);
    ENSURE(ctx->stats.cache_written == written);
    ENSURE(c.errors == 0 && c.warnings == warnings);
    ENSURE(!why || strstr(c.text, why));
    for (size_t i = 0; i < ctx->program_count; ++i)
        if (strcmp(dr_cl_kernel_file_name(i), "probe.cl") == 0)
            ENSURE(ctx->program_from_cache[i] == (from_cache == 1));
    ENSURE(run_probe(ctx, 777, 8) == 0); /* a cached binary works as well as a compiled one */
    dr_cl_context_destroy(ctx);
    return 0;
}

static int cache_round(const char *dir, uint32_t compiled, uint32_t from_cache, uint32_t rejected,
                       uint32_t written, int warnings)
{
    return cache_round_why(dir, compiled, from_cache, rejected, written, warnings, NULL);
}

int suite_cache(void)
{
    if (!have_device())
        return SKIP;
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/program-cache/nested", scratch_dir());

    /* start from no entry */
    capture c;
    capture_clear(&c);
    dr_cl_context *ctx = NULL;
    ENSURE(make_context(&c, dir, &ctx) == DRAPE_OK);
    ENSURE(strcmp(ctx->cache_dir, dir) == 0);
    ENSURE(entry_path(ctx, "probe.cl", path, sizeof path));
    remove(path);
    /* the key changes with everything that changes the binary */
    char *key_a = dr_cl_cache_key(ctx, "source a");
    char *key_b = dr_cl_cache_key(ctx, "source b");
    ENSURE(key_a && key_b && strcmp(key_a, key_b) != 0);
    ENSURE(strstr(key_a, ctx->device.name) && strstr(key_a, ctx->device.driver));
    ENSURE(strstr(key_a, ctx->build_options));
    free(key_a);
    free(key_b);
    dr_cl_context_destroy(ctx);

    /* first start compiles and writes the entry (creating the directories); the second loads it */
    ENSURE(cache_round(dir, 1, 0, 0, 1, 0) == 0);
    FILE *f = fopen(path, "rb");
    ENSURE(f != NULL);
    fclose(f);
    ENSURE(cache_round(dir, 0, 1, 0, 0, 0) == 0);

    /* a corrupt entry: warned about, compiled, rewritten; then served again */
    ENSURE(write_file(path, "DRCLBIN1 this is not a program", 30));
    ENSURE(cache_round(dir, 1, 0, 1, 1, 1) == 0);
    ENSURE(cache_round(dir, 0, 1, 0, 0, 0) == 0);

    /* a truncated entry (right magic and key, binary cut short) */
    size_t size = 0;
    f = fopen(path, "rb");
    ENSURE(f != NULL);
    unsigned char *data = malloc(1 << 24);
    ENSURE(data != NULL);
    size = fread(data, 1, 1 << 24, f);
    fclose(f);
    ENSURE(size > 100);
    ENSURE(write_file(path, data, size - 9));
    ENSURE(cache_round(dir, 1, 0, 1, 1, 1) == 0);
    /* a flipped byte in the binary fails the checksum */
    data[size - 20] ^= 0x5a;
    ENSURE(write_file(path, data, size));
    ENSURE(cache_round(dir, 1, 0, 1, 1, 1) == 0);
    /* a truncated binary with its size field and a checksum of the binary alone made consistent
     * (what the first format accepted and the driver crashed on): the hash of the whole entry
     * refuses it */
    f = fopen(path, "rb");
    ENSURE(f != NULL);
    size = fread(data, 1, 1 << 24, f);
    fclose(f);
    uint64_t key_size, binary_size;
    memcpy(&key_size, data + 8, 8);
    ENSURE(16 + key_size + 8 < size);
    memcpy(&binary_size, data + 16 + key_size, 8);
    uint64_t half = binary_size / 2;
    unsigned char *bin = data + 16 + key_size + 8;
    uint64_t forged = dr_cl_hash64(bin, (size_t)half, DR_CL_HASH_SEED);
    memcpy(data + 16 + key_size, &half, 8);
    memcpy(bin + half, &forged, 8);
    ENSURE(write_file(path, data, (size_t)(16 + key_size + 8 + half + 8)));
    ENSURE(cache_round_why(dir, 1, 0, 1, 1, 1, "checksum mismatch") == 0);
    ENSURE(cache_round(dir, 0, 1, 0, 0, 0) == 0);
    /* an entry that others may write, or that another user owns, is never loaded */
    ENSURE(chmod(path, 0666) == 0);
    ENSURE(cache_round_why(dir, 1, 0, 1, 1, 1, "others may write it") == 0);
    ENSURE(cache_round(dir, 0, 1, 0, 0, 0) == 0);
    if (geteuid() == 0) {
        ENSURE(chown(path, 65534, 65534) == 0);
        ENSURE(cache_round_why(dir, 1, 0, 1, 1, 1, "another user owns it") == 0);
        ENSURE(cache_round(dir, 0, 1, 0, 0, 0) == 0);
    }
    free(data);

    /* a well-formed entry whose binary the driver refuses */
    capture_clear(&c);
    ENSURE(make_context(&c, dir, &ctx) == DRAPE_OK);
    char *source = NULL, *key = NULL;
    for (size_t i = 0; dr_cl_kernel_files[i].name; ++i)
        if (strcmp(dr_cl_kernel_files[i].name, "probe.cl") == 0)
            source = dr_cl_program_source(ctx, "probe.cl", dr_cl_kernel_files[i].source);
    ENSURE(source && (key = dr_cl_cache_key(ctx, source)) != NULL);
    const unsigned char garbage[64] = "not a program binary for any driver";
    dr_cl_cache_store(ctx, key, garbage, sizeof garbage);
    ENSURE(ctx->stats.cache_written == 1);
    free(key);
    free(source);
    dr_cl_context_destroy(ctx);
    ENSURE(cache_round(dir, 1, 0, 1, 1, 1) == 0);
    ENSURE(cache_round(dir, 0, 1, 0, 0, 0) == 0);

    /* a directory that cannot be written: a warning, and the program still builds */
    ENSURE(cache_round("/proc/drape-cannot-write-here", 1, 0, 0, 0, 1) == 0);
    /* ... and the cache is off for the context after it: one warning for two programs, not one
     * per program */
    capture_clear(&c);
    ENSURE(make_context(&c, "/proc/drape-cannot-write-here", &ctx) == DRAPE_OK);
    cl_kernel k1 = NULL, k2 = NULL;
    ENSURE(dr_cl_kernel_create(ctx, "probe", "copy_float4", &k1) == DRAPE_OK);
    ENSURE(dr_cl_kernel_create(ctx, "damping", "damp_apply", &k2) == DRAPE_OK);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    ENSURE_MSG(c.warnings == 1, "%d warnings: %s", c.warnings, c.text);
    dr_cl_context_destroy(ctx);
    /* a directory name longer than the context holds is not cut short into another directory: the
     * cache is off, with a warning */
    char longer[1100];
    memset(longer, 'd', sizeof longer - 1);
    longer[0] = '/';
    longer[sizeof longer - 1] = '\0';
    capture_clear(&c);
    ENSURE(make_context(&c, longer, &ctx) == DRAPE_OK);
    ENSURE(ctx->cache_dir[0] == '\0');
    ENSURE_MSG(strstr(c.text, "is longer than 1023 characters; the cache is off"), "%s", c.text);
    dr_cl_context_destroy(ctx);
    return 0;
}

/* ---- reductions ------------------------------------------------------------------------------ */

/* Checks dr_cl_sum_float4 / _device / dr_cl_sum_float on n float4, with both methods. */
static int check_sums(dr_cl_context *ctx, size_t n, bool exact, uint32_t seed)
{
    size_t first = 3; /* sums start at an offset into the buffer */
    size_t total = first + n;
    float *a = malloc(total * 4 * sizeof(float));
    float *w = malloc((n ? n : 1) * sizeof(float));
    ENSURE(a && w);
    for (size_t i = 0; i < total * 4; ++i)
        a[i] = exact ? (float)((int)((seed + i * 7u) % 17u) - 8) : rnd(&seed);
    for (size_t i = 0; i < n; ++i)
        w[i] = exact ? (float)(1 + (i % 4)) : 0.5f + 0.5f * rnd(&seed);

    /* CPU reference in double; with small integers every partial sum is exact in float too */
    double sum[4] = {0}, wsum[4] = {0}, wabs[4] = {0}, abs_sum[4] = {0};
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k) {
            double x = a[4 * (first + i) + k];
            sum[k] += x;
            abs_sum[k] += fabs(x);
            wsum[k] += (double)w[i] * x;
            wabs[k] += fabs((double)w[i] * x);
        }

    cl_mem da = NULL, dw = NULL, dres = NULL;
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, total * 16, "sum input", &da) == DRAPE_OK);
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, (n ? n : 1) * 4, "sum weights", &dw) ==
           DRAPE_OK);
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, 8 * 4, "sum result", &dres) == DRAPE_OK);
    const float nan = NAN; /* the sums must not depend on what the result buffer held */
    ENSURE(dr_cl_buffer_fill(ctx, dres, &nan, sizeof nan, 0, 8 * 4) == DRAPE_OK);
    ENSURE(dr_cl_buffer_write(ctx, da, 0, total * 16, a) == DRAPE_OK);
    ENSURE(dr_cl_buffer_write(ctx, dw, 0, n * 4, w) == DRAPE_OK);

    const size_t methods[2] = {SIZE_MAX, 0}; /* Sgemv for every n, then Sdot for every n */
    for (int m = 0; m < 2; ++m) {
        ctx->tunables.sum_dot_min = methods[m];
        float out[4], wout[4], dev[8];
        ENSURE(dr_cl_sum_float4(ctx, da, first, n, NULL, -1, out) == DRAPE_OK);
        ENSURE(dr_cl_sum_float4(ctx, da, first, n, dw, -1, wout) == DRAPE_OK);
        ENSURE(dr_cl_sum_float4_device(ctx, da, first, n, dw, dres, 4, -1) == DRAPE_OK);
        ENSURE(dr_cl_buffer_read(ctx, dres, 4 * 4, 4 * 4, dev + 4) == DRAPE_OK);
        for (int k = 0; k < 4; ++k) {
            if (exact) {
                ENSURE(out[k] == (float)sum[k]);
                ENSURE(wout[k] == (float)wsum[k]);
            } else {
                ENSURE(fabs(out[k] - sum[k]) <= 1e-5 * abs_sum[k] + 1e-6);
                ENSURE(fabs(wout[k] - wsum[k]) <= 1e-5 * wabs[k] + 1e-6);
            }
            ENSURE(dev[4 + k] == wout[k]); /* same computation, same bits */
        }
    }
    /* a float array: the x components as n floats starting at float 4 * first, stride 1 */
    float s = 0.0f;
    double ref = 0.0, ref_abs = 0.0;
    for (size_t i = 0; i < n; ++i) {
        ref += a[4 * first + i];
        ref_abs += fabs(a[4 * first + i]);
    }
    ENSURE(dr_cl_sum_float(ctx, da, 4 * first, n, NULL, -1, &s) == DRAPE_OK);
    ENSURE(exact ? s == (float)ref : fabs(s - ref) <= 1e-5 * ref_abs + 1e-6);

    dr_cl_buffer_release(ctx, &da);
    dr_cl_buffer_release(ctx, &dw);
    dr_cl_buffer_release(ctx, &dres);
    free(a);
    free(w);
    return 0;
}

static int sum_body(capture *c, dr_cl_context *ctx)
{
    const size_t sizes[] = {1, 5, 1000, 65537};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        ENSURE(check_sums(ctx, sizes[i], true, (uint32_t)i) == 0);
        ENSURE(check_sums(ctx, sizes[i], false, (uint32_t)i + 100) == 0);
    }
    ENSURE(c->errors == 0);

    /* n = 0: zero sums */
    cl_mem buf = NULL;
    float out[4] = {1, 1, 1, 1}, s = 1.0f;
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, 64, "small", &buf) == DRAPE_OK);
    ENSURE(dr_cl_sum_float4(ctx, buf, 0, 0, NULL, -1, out) == DRAPE_OK);
    ENSURE(out[0] == 0.0f && out[1] == 0.0f && out[2] == 0.0f && out[3] == 0.0f);
    ENSURE(dr_cl_sum_float(ctx, buf, 0, 0, NULL, -1, &s) == DRAPE_OK && s == 0.0f);

    /* more elements than the buffer holds: CLBlast refuses, and the message names the call */
    ctx->tunables.sum_dot_min = SIZE_MAX;
    ENSURE(dr_cl_sum_float4(ctx, buf, 0, 100, NULL, -1, out) == DRAPE_ERROR_BACKEND);
    ENSURE(strstr(ctx->logger.last_error, "CLBlastSgemv failed: CLBlastInsufficientMemory") ==
           ctx->logger.last_error);
    ctx->tunables.sum_dot_min = 0;
    ENSURE(dr_cl_sum_float4(ctx, buf, 0, 100, NULL, -1, out) == DRAPE_ERROR_BACKEND);
    ENSURE(strstr(ctx->logger.last_error, "CLBlastSdot failed: CLBlastInsufficientMemory") ==
           ctx->logger.last_error);
    dr_cl_buffer_release(ctx, &buf);
    return 0;
}

int suite_sum(void) { return with_context(true, sum_body); }

/* ---- profiling ------------------------------------------------------------------------------- */

/* The profiling suites' kernel: probe.cl's copy_float4 from *a (zeroed) to *b, n float4 each,
 * its arguments set. */
static cl_kernel copy_kernel(dr_cl_context *ctx, uint32_t n, cl_mem *a, cl_mem *b)
{
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, (size_t)n * 16, "a", a) == DRAPE_OK);
    ENSURE(dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, (size_t)n * 16, "b", b) == DRAPE_OK);
    const float zero = 0.0f;
    ENSURE(dr_cl_buffer_fill(ctx, *a, &zero, sizeof zero, 0, (size_t)n * 16) == DRAPE_OK);
    cl_kernel k = NULL;
    ENSURE(dr_cl_kernel_create(ctx, "probe", "copy_float4", &k) == DRAPE_OK);
    ENSURE(clSetKernelArg(k, 0, sizeof *a, a) == CL_SUCCESS);
    ENSURE(clSetKernelArg(k, 1, sizeof *b, b) == CL_SUCCESS);
    ENSURE(clSetKernelArg(k, 2, sizeof n, &n) == CL_SUCCESS);
    return k;
}

/* The end of the profiling suites: profiling off records nothing (the queue stays), then the
 * copy kernel k and its buffers go. */
static int profiling_off_and_end(capture *c, dr_cl_context *ctx, cl_kernel k, uint32_t n, int phase,
                                 cl_mem a, cl_mem b)
{
    const cl_command_queue queue = ctx->queue;
    ENSURE(dr_cl_set_profiling(ctx, false) == DRAPE_OK && ctx->queue == queue);
    ENSURE(dr_cl_launch_1d(ctx, k, n, phase) == DRAPE_OK);
    ENSURE(ctx->profile.pending_count == 0);
    ENSURE(dr_cl_finish(ctx) == DRAPE_OK);
    clReleaseKernel(k);
    dr_cl_buffer_release(ctx, &a);
    dr_cl_buffer_release(ctx, &b);
    ENSURE(c->errors == 0);
    return 0;
}

static int profile_body(capture *c, dr_cl_context *ctx)
{
    ENSURE(ctx->profile.enabled);
    int predict = dr_cl_profile_phase(ctx, "predict");
    int reduce = dr_cl_profile_phase(ctx, "reduce");
    ENSURE(predict == 0 && reduce == 1 && dr_cl_profile_phase(ctx, "predict") == 0);

    const uint32_t n = 1 << 16;
    cl_mem a = NULL, b = NULL;
    const cl_kernel k = copy_kernel(ctx, n, &a, &b);
    for (int i = 0; i < 3; ++i)
        ENSURE(dr_cl_launch_1d(ctx, k, n, predict) == DRAPE_OK);
    float sums[4];
    ENSURE(dr_cl_sum_float4(ctx, b, 0, n, NULL, reduce, sums) == DRAPE_OK);
    ENSURE(ctx->profile.pending_count >= 4);
    ENSURE(dr_cl_profile_collect(ctx) == DRAPE_OK);
    ENSURE(ctx->profile.pending_count == 0);
    const dr_cl_phase *p = dr_cl_profile_find(ctx, "predict");
    ENSURE(p && p->launches == 3 && p->seconds > 0.0 && p->seconds < 60.0);
    p = dr_cl_profile_find(ctx, "reduce"); /* one record spans all of CLBlast's kernels */
    ENSURE(p && p->launches == 1 && p->seconds > 0.0);
    ENSURE(dr_cl_profile_find(ctx, "project") == NULL);
    printf("predict: %.3f ms for 3 copies of %u float4\n",
           dr_cl_profile_find(ctx, "predict")->seconds * 1e3, (unsigned)n);

    /* unrecorded launches cost nothing; reset zeroes the phases and keeps their indices */
    ENSURE(dr_cl_launch_1d(ctx, k, n, -1) == DRAPE_OK);
    ENSURE(ctx->profile.pending_count == 0);
    ENSURE(dr_cl_launch_1d(ctx, k, n, predict) == DRAPE_OK);
    dr_cl_profile_reset(ctx);
    ENSURE(ctx->profile.pending_count == 0);
    ENSURE(dr_cl_profile_find(ctx, "predict")->launches == 0);
    ENSURE(dr_cl_profile_phase(ctx, "reduce") == reduce);

    /* four dots (eight kernels) are still one record, from the marker before them to the last */
    ctx->tunables.sum_dot_min = 0;
    ENSURE(dr_cl_sum_float4(ctx, b, 0, n, NULL, reduce, sums) == DRAPE_OK);
    ENSURE(dr_cl_profile_collect(ctx) == DRAPE_OK);
    p = dr_cl_profile_find(ctx, "reduce");
    ENSURE(p->launches == 1 && p->seconds > 0.0);

    /* many launches without a collect: completed events are harvested, the list stays bounded */
    for (int i = 0; i < 5000; ++i)
        ENSURE(dr_cl_launch_1d(ctx, k, 64, predict) == DRAPE_OK);
    ENSURE(dr_cl_profile_collect(ctx) == DRAPE_OK);
    ENSURE(dr_cl_profile_find(ctx, "predict")->launches == 5000);
    ENSURE(ctx->profile.pending_capacity <= 8192);

    return profiling_off_and_end(c, ctx, k, n, predict, a, b);
}

int suite_profile(void) { return with_context(true, profile_body); }

/* The properties ctx's queue was made with. */
static cl_command_queue_properties queue_properties(dr_cl_context *ctx)
{
    cl_command_queue_properties p = 0;
    ENSURE(clGetCommandQueueInfo(ctx->queue, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL) ==
           CL_SUCCESS);
    return p;
}

/* A context made without profiling has a queue without CL_QUEUE_PROFILING_ENABLE (no cost on any
 * command); profiling turned on later gets a queue with it, and its events then read. */
static int profile_later_body(capture *c, dr_cl_context *ctx)
{
    const bool by_kernel = ctx->profile.by_kernel; /* DRAPE_PROFILE_KERNELS asks for it anyway */
    ENSURE(!ctx->profile.enabled);
    ENSURE(by_kernel || !(queue_properties(ctx) & CL_QUEUE_PROFILING_ENABLE));
    const uint32_t n = 4096;
    cl_mem a = NULL, b = NULL;
    const cl_kernel k = copy_kernel(ctx, n, &a, &b);
    const int phase = dr_cl_profile_phase(ctx, "copy");
    ENSURE(dr_cl_launch_1d(ctx, k, n, phase) == DRAPE_OK);
    ENSURE(ctx->profile.pending_count == 0);
    /* on: the queue is replaced once (commands already enqueued finish first) */
    ENSURE(dr_cl_set_profiling(ctx, true) == DRAPE_OK);
    ENSURE(queue_properties(ctx) & CL_QUEUE_PROFILING_ENABLE);
    const cl_command_queue queue = ctx->queue;
    ENSURE(dr_cl_set_profiling(ctx, true) == DRAPE_OK && ctx->queue == queue);
    ENSURE(dr_cl_launch_1d(ctx, k, n, phase) == DRAPE_OK);
    ENSURE(dr_cl_profile_collect(ctx) == DRAPE_OK);
    const dr_cl_phase *p = dr_cl_profile_find(ctx, "copy");
    ENSURE(p && p->launches == 1 && p->seconds > 0.0);
    ENSURE(ctx->queue == queue);
    return profiling_off_and_end(c, ctx, k, n, phase, a, b);
}

int suite_profile_later(void) { return with_context(false, profile_later_body); }

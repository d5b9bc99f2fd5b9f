/* Program build for the OpenCL backend: source assembly, compile or cache load, kernels.
 *
 * A program is one kernel file of kernels/ (one per phase). Its source is assembled at run time
 * from the copies embedded at build time (dr_cl_embedded.h):
 *
 *     #line 1 "drape_tunables.h"      generated #defines: DR_WG_SIZE, ... (CLBlast style)
 *     #line 1 "probe.cl"
 *     ...the .cl file, each line `#include "drape_shared.h"` replaced by:
 *     #line 1 "drape_shared.h"
 *     ...the embedded header (its own quoted includes spliced the same way)...
 *     #line 12 "probe.cl"             back to the line after the #include
 *
 * so no kernel or include path is needed at run time and the compiler's messages name the real file
 * and line. A header is spliced once per program (the others become blank lines); an include that
 * names no embedded header is left for the compiler to report.
 *
 * Options: -cl-std=CL1.2, plus -cl-fp32-correctly-rounded-divide-sqrt where the device supports it,
 * because the CPU reference uses IEEE division and sqrt; never -cl-fast-relaxed-math or
 * -cl-mad-enable (drape_shared.h also turns FP_CONTRACT off), so that the kernels can match the CPU
 * reference.
 *
 * Build: the disk cache (dr_cl_cache.c) is asked first; a hit is built from the binary, and a
 * binary the driver refuses falls back to compiling. A failed compile sends the file name, the
 * device and the device's build log to the log callback in one error message.
 */
#include "dr_cl_embedded.h"
#include "dr_cl_internal.h"

#include <stdlib.h>
#include <string.h>

size_t dr_cl_kernel_file_count(void)
{
    size_t n = 0;
    while (dr_cl_kernel_files[n].name)
        ++n;
    return n;
}

const char *dr_cl_kernel_file_name(size_t i)
{
    return i < dr_cl_kernel_file_count() ? dr_cl_kernel_files[i].name : NULL;
}

/* The index of kernel file `file`, given as "probe.cl" or "probe"; -1 if there is none. */
static long dr_cl_kernel_file_index(const char *file)
{
    size_t n = strlen(file);
    for (size_t i = 0; dr_cl_kernel_files[i].name; ++i) {
        const char *name = dr_cl_kernel_files[i].name;
        if (strcmp(name, file) == 0 ||
            (strncmp(name, file, n) == 0 && strcmp(name + n, ".cl") == 0))
            return (long)i;
    }
    return -1;
}

/* ---- source assembly ------------------------------------------------------------------------- */

/* If `line` is `#include "name"`, copies name into out and returns true. */
static bool dr_cl_quoted_include(const char *line, const char *line_end, char *out, size_t size)
{
    const char *p = line;
    while (p < line_end && (*p == ' ' || *p == '\t'))
        ++p;
    if (p == line_end || *p++ != '#')
        return false;
    while (p < line_end && (*p == ' ' || *p == '\t'))
        ++p;
    if ((size_t)(line_end - p) < 7 || strncmp(p, "include", 7) != 0)
        return false;
    p += 7;
    while (p < line_end && (*p == ' ' || *p == '\t'))
        ++p;
    if (p == line_end || *p++ != '"')
        return false;
    const char *name = p;
    while (p < line_end && *p != '"')
        ++p;
    if (p == line_end || (size_t)(p - name) >= size)
        return false;
    memcpy(out, name, (size_t)(p - name));
    out[p - name] = '\0';
    return true;
}

/* Appends `source` (file `name`) to s, splicing embedded headers; `spliced` marks headers done. */
static void dr_cl_splice(dr_cl_str *s, const char *name, const char *source, bool *spliced)
{
    unsigned line_number = 1;
    for (const char *line = source; *line; ++line_number) {
        const char *end = strchr(line, '\n');
        const char *next = end ? end + 1 : line + strlen(line);
        if (!end)
            end = next;
        char include[128];
        long header = -1;
        if (dr_cl_quoted_include(line, end, include, sizeof include))
            for (size_t i = 0; dr_cl_kernel_headers[i].name; ++i)
                if (strcmp(dr_cl_kernel_headers[i].name, include) == 0)
                    header = (long)i;
        if (header < 0) {
            dr_cl_str_append(s, line, (size_t)(next - line));
            if (!*next && end == next)
                dr_cl_str_append(s, "\n", 1); /* a last line without its newline */
        } else if (spliced[header]) {
            dr_cl_str_append(s, "\n", 1);
        } else {
            spliced[header] = true;
            dr_cl_str_appendf(s, "#line 1 \"%s\"\n", include);
            dr_cl_splice(s, include, dr_cl_kernel_headers[header].source, spliced);
            dr_cl_str_appendf(s, "#line %u \"%s\"\n", line_number + 1, name);
        }
        line = next;
    }
}

char *dr_cl_program_source(dr_cl_context *ctx, const char *file_name, const char *source)
{
    size_t header_count = 0;
    while (dr_cl_kernel_headers[header_count].name)
        ++header_count;
    bool *spliced = calloc(header_count + 1, sizeof *spliced);
    dr_cl_str s = {0};
    if (spliced) {
        dr_cl_str_appendf(
            &s,
            "#line 1 \"drape_tunables.h\"\n"
            "/* Tunables generated by the host for this device (dr_cl_context.c). */\n"
            "#define DR_WG_SIZE %u\n",
            (unsigned)ctx->tunables.work_group_size);
        dr_cl_str_appendf(&s, "#line 1 \"%s\"\n", file_name);
        dr_cl_splice(&s, file_name, source, spliced);
    }
    free(spliced);
    if (!spliced || s.failed) {
        dr_cl_str_free(&s);
        dr_cl_logf(&ctx->logger, DRAPE_LOG_ERROR,
                   "out of host memory assembling the source of kernel file %s", file_name);
        return NULL;
    }
    return s.data;
}

/* ---- build ----------------------------------------------------------------------------------- */

/* The device's build log of `program`, malloc'd ("" if it cannot be read); NULL only if out of
 * memory. */
static char *dr_cl_build_log(dr_cl_context *ctx, cl_program program)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, ctx->device.device_id, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &size) != CL_SUCCESS)
        size = 0;
    char *log = malloc(size + 1);
    if (!log)
        return NULL;
    if (size == 0 || clGetProgramBuildInfo(program, ctx->device.device_id, CL_PROGRAM_BUILD_LOG,
                                           size, log, NULL) != CL_SUCCESS)
        size = 0;
    log[size] = '\0';
    /* drop trailing blank lines and NULs */
    while (size > 0 && (log[size - 1] == '\n' || log[size - 1] == '\0' || log[size - 1] == ' '))
        log[--size] = '\0';
    return log;
}

/* Tries the cache entry of `key`: true with *out built if it is there and the driver accepts it. */
static bool dr_cl_build_from_cache(dr_cl_context *ctx, const char *file_name, const char *key,
                                   cl_program *out)
{
    unsigned char *binary = NULL;
    size_t size = 0;
    if (dr_cl_cache_load(ctx, key, &binary, &size) != DRAPE_OK)
        return false;
    cl_int status = CL_SUCCESS, code;
    const unsigned char *binaries[1] = {binary};
    cl_program program = clCreateProgramWithBinary(ctx->context, 1, &ctx->device.device_id, &size,
                                                   binaries, &status, &code);
    free(binary);
    if (code == CL_SUCCESS && status == CL_SUCCESS)
        code = clBuildProgram(program, 1, &ctx->device.device_id, ctx->build_options, NULL, NULL);
    if (code == CL_SUCCESS && status == CL_SUCCESS) {
        *out = program;
        return true;
    }
    if (program)
        clReleaseProgram(program);
    ctx->stats.cache_rejected++;
    dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING,
               "the driver refused the cached binary of kernel file %s (%s); compiling instead",
               file_name, dr_cl_error_name(code != CL_SUCCESS ? code : status));
    return false;
}

/* Stores the binary of a freshly compiled program; failures are warnings. */
static void dr_cl_store_binary(dr_cl_context *ctx, cl_program program, const char *key)
{
    if (!ctx->cache_dir[0])
        return;
    size_t size = 0;
    cl_int code = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (code != CL_SUCCESS || size == 0) {
        dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING,
                   "the driver gives no program binary to cache (%s)", dr_cl_error_name(code));
        return;
    }
    unsigned char *binary = malloc(size);
    unsigned char *binaries[1] = {binary};
    if (!binary)
        return;
    code = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL);
    if (code == CL_SUCCESS)
        dr_cl_cache_store(ctx, key, binary, size);
    else
        dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING,
                   "clGetProgramInfo(CL_PROGRAM_BINARIES) failed: %s (%d); program not cached",
                   dr_cl_error_name(code), (int)code);
    free(binary);
}

static drape_result dr_cl_compile(dr_cl_context *ctx, const char *file_name, const char *source,
                                  cl_program *out)
{
    cl_int code;
    size_t length = strlen(source);
    cl_program program = clCreateProgramWithSource(ctx->context, 1, &source, &length, &code);
    DR_CL_CHECK_ERR(&ctx->logger, clCreateProgramWithSource, code);
    code = clBuildProgram(program, 1, &ctx->device.device_id, ctx->build_options, NULL, NULL);
    char *log = dr_cl_build_log(ctx, program);
    if (code != CL_SUCCESS) {
        dr_cl_str message = {0};
        dr_cl_str_appendf(&message,
                          "clBuildProgram failed: %s (%d): kernel file %s did not build for %s "
                          "(options \"%s\"); build log:\n%s",
                          dr_cl_error_name(code), (int)code, file_name, ctx->device.name,
                          ctx->build_options, log && log[0] ? log : "(empty)");
        ctx->logger.last_cl_error = code;
        dr_cl_log(&ctx->logger, DRAPE_LOG_ERROR,
                  message.failed ? "clBuildProgram failed (and no memory for its log)"
                                 : message.data);
        dr_cl_str_free(&message);
        free(log);
        clReleaseProgram(program);
        return dr_cl_result_of(code);
    }
    if (log && log[0])
        dr_cl_logf(&ctx->logger, DRAPE_LOG_INFO, "kernel file %s built with messages:\n%.900s",
                   file_name, log);
    free(log);
    ctx->stats.compiled++;
    *out = program;
    return DRAPE_OK;
}

drape_result dr_cl_program_build_source(dr_cl_context *ctx, const char *file_name,
                                        const char *source, bool *out_from_cache, cl_program *out)
{
    *out = NULL;
    if (out_from_cache)
        *out_from_cache = false;
    char *full = dr_cl_program_source(ctx, file_name, source);
    if (!full)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    char *key = ctx->cache_dir[0] ? dr_cl_cache_key(ctx, full) : NULL;
    drape_result result = DRAPE_OK;
    if (key && dr_cl_build_from_cache(ctx, file_name, key, out)) {
        ctx->stats.from_cache++;
        if (out_from_cache)
            *out_from_cache = true;
    } else if ((result = dr_cl_compile(ctx, file_name, full, out)) == DRAPE_OK && key) {
        dr_cl_store_binary(ctx, *out, key);
    }
    free(key);
    free(full);
    return result;
}

drape_result dr_cl_program_get(dr_cl_context *ctx, const char *file, cl_program *out)
{
    long i = dr_cl_kernel_file_index(file);
    if (i < 0) {
        dr_cl_logf(&ctx->logger, DRAPE_LOG_ERROR, "no kernel file \"%s\" is embedded in drape",
                   file);
        return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    if (!ctx->programs[i]) {
        drape_result r = dr_cl_program_build_source(ctx, dr_cl_kernel_files[i].name,
                                                    dr_cl_kernel_files[i].source,
                                                    &ctx->program_from_cache[i], &ctx->programs[i]);
        if (r != DRAPE_OK)
            return r;
    }
    *out = ctx->programs[i];
    return DRAPE_OK;
}

drape_result dr_cl_program_build_all(dr_cl_context *ctx)
{
    drape_result first_error = DRAPE_OK;
    for (size_t i = 0; dr_cl_kernel_files[i].name; ++i) {
        cl_program program;
        drape_result r = dr_cl_program_get(ctx, dr_cl_kernel_files[i].name, &program);
        if (r != DRAPE_OK && first_error == DRAPE_OK)
            first_error = r; /* keep going: report every file that fails */
    }
    return first_error;
}

drape_result dr_cl_kernel_create(dr_cl_context *ctx, const char *file, const char *kernel,
                                 cl_kernel *out)
{
    cl_program program;
    drape_result r = dr_cl_program_get(ctx, file, &program);
    if (r != DRAPE_OK)
        return r;
    cl_int code;
    *out = clCreateKernel(program, kernel, &code);
    if (code != CL_SUCCESS) {
        *out = NULL;
        return dr_cl_failf(&ctx->logger, "clCreateKernel", code, "kernel \"%s\" of %s", kernel,
                           file);
    }
    return DRAPE_OK;
}

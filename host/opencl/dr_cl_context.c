/* The OpenCL context of one world: the chosen device, its cl_context and queue, the tunables, the
 * build options and the programs built so far.
 *
 * There is no global state (docs/design.md): two worlds each create their own dr_cl_context, and
 * everything, the log callback included, is reached through it. Creation lists the devices, chooses
 * one (the def's selector, else $DRAPE_DEVICE, else the first GPU, else the first device), reports
 * it at info level and makes an in-order queue, with profiling enabled only when asked for (events
 * and the profiling property cost a little on every command). Programs are built lazily,
 * on the first dr_cl_program_get / dr_cl_kernel_create of their file.
 *
 * OpenGL sharing. Given a GLX context (def->gl_context, def->gl_display), the cl_context is made
 * with CL_GL_CONTEXT_KHR and CL_GLX_DISPLAY_KHR beside CL_CONTEXT_PLATFORM, so that GL buffer
 * objects can become cl_mem (clCreateFromGLBuffer; host/render.c). That needs cl_khr_gl_sharing on
 * the device, and the device must be the one the driver reports for the GL context
 * (clGetGLContextInfoKHR, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR): a CPU device such as PoCL, or a
 * GPU other than the one drawing, cannot share. In every such case, and when the driver refuses
 * the shared context, the context is made plainly and gl_sharing stays false: the caller falls back
 * to reading results back and uploading them.
 *
 * Tunables. The work-group size is 128 on GPUs (four warps, a common sweet spot for memory-bound
 * kernels on NVIDIA and AMD) and 64 elsewhere, never above CL_DEVICE_MAX_WORK_GROUP_SIZE. It
 * reaches the kernels as DR_WG_SIZE in the generated tunables header, and dr_cl_launch_1d uses it
 * as the local size, so kernel and launch always agree. sum_dot_min picks the CLBlast routine for
 * sums.
 */
#include "dr_cl_internal.h"

#include <CL/cl_gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dr_cl_context_def dr_cl_default_context_def(void)
{
    dr_cl_context_def def;
    memset(&def, 0, sizeof def);
    def.profiling = true;
    return def;
}

/* Whether the device lists `name` among its extensions (whole words only). */
static bool device_has_extension(dr_cl_logger *L, cl_device_id device, const char *name)
{
    size_t size = 0;
    cl_int code = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size);
    if (code != CL_SUCCESS) {
        dr_cl_fail(L, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)", code);
        return false;
    }
    char *text = malloc(size + 1);
    if (!text)
        return false;
    code = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, text, NULL);
    text[code == CL_SUCCESS ? size : 0] = '\0';
    if (code != CL_SUCCESS)
        dr_cl_fail(L, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)", code);
    const size_t len = strlen(name);
    bool found = false;
    for (const char *at = strstr(text, name); at && !found; at = strstr(at + 1, name))
        found = (at == text || at[-1] == ' ') && (at[len] == ' ' || at[len] == '\0');
    free(text);
    return found;
}

/* Makes ctx->context share the def's GLX context, if the device can; false (with the reason at info
 * level, or a warning when the driver refused) leaves ctx->context NULL. */
static bool create_gl_shared(dr_cl_context *ctx, const dr_cl_context_def *def)
{
    dr_cl_logger *L = &ctx->logger;
    const char *name = ctx->device.name;
    if (!device_has_extension(L, ctx->device.device_id, "cl_khr_gl_sharing")) {
        dr_cl_logf(L, DRAPE_LOG_INFO, "%s has no cl_khr_gl_sharing: no OpenGL buffer sharing",
                   name);
        return false;
    }
    cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                          (cl_context_properties)ctx->device.platform_id,
                                          CL_GL_CONTEXT_KHR,
                                          (cl_context_properties)def->gl_context,
                                          CL_GLX_DISPLAY_KHR,
                                          (cl_context_properties)def->gl_display,
                                          0};
    /* An extension function, reached through its platform (memcpy: ISO C has no cast from an
     * object pointer to a function pointer). */
    void *address =
        clGetExtensionFunctionAddressForPlatform(ctx->device.platform_id, "clGetGLContextInfoKHR");
    clGetGLContextInfoKHR_fn get_info = NULL;
    if (address)
        memcpy(&get_info, &address, sizeof get_info);
    if (!get_info) {
        dr_cl_logf(L, DRAPE_LOG_INFO,
                   "%s: the platform has no clGetGLContextInfoKHR: no OpenGL "
                   "buffer sharing",
                   name);
        return false;
    }
    cl_device_id gl_device = NULL;
    cl_int code = get_info(properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof gl_device,
                           &gl_device, NULL);
    if (code != CL_SUCCESS || gl_device != ctx->device.device_id) {
        dr_cl_logf(L, DRAPE_LOG_INFO,
                   "%s is not the OpenGL context's device (clGetGLContextInfoKHR: "
                   "%s): no OpenGL buffer sharing",
                   name, code == CL_SUCCESS ? "another device" : dr_cl_error_name(code));
        return false;
    }
    ctx->context = clCreateContext(properties, 1, &ctx->device.device_id, NULL, NULL, &code);
    if (code != CL_SUCCESS) {
        ctx->context = NULL;
        dr_cl_logf(L, DRAPE_LOG_WARNING,
                   "clCreateContext sharing the OpenGL context failed: %s "
                   "(%d); continuing without OpenGL buffer sharing",
                   dr_cl_error_name(code), code);
        return false;
    }
    dr_cl_logf(L, DRAPE_LOG_INFO, "%s shares buffers with the OpenGL context (cl_khr_gl_sharing)",
               name);
    return true;
}

/* A tunable's override from the environment: variable `name` set to `on` or `off` sets *value;
 * unset or empty leaves it; anything else is an error that names the variable and both words. */
static drape_result env_switch(dr_cl_logger *L, const char *name, const char *on, const char *off,
                               bool *value)
{
    const char *env = getenv(name);
    if (!env || !*env)
        return DRAPE_OK;
    if (strcmp(env, on) != 0 && strcmp(env, off) != 0) {
        dr_cl_logf(L, DRAPE_LOG_ERROR, "%s=%s: expected \"%s\" or \"%s\"", name, env, on, off);
        return DRAPE_ERROR_ENVIRONMENT;
    }
    *value = strcmp(env, on) == 0;
    return DRAPE_OK;
}

drape_result dr_cl_context_create(const dr_cl_context_def *def, dr_cl_context **out)
{
    *out = NULL;
    dr_cl_context_def defaults = dr_cl_default_context_def();
    if (!def)
        def = &defaults;
    dr_cl_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        dr_cl_logger logger = {.log = def->log, .user = def->log_user};
        dr_cl_logf(&logger, DRAPE_LOG_ERROR, "out of host memory creating an OpenCL context");
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    ctx->logger.log = def->log;
    ctx->logger.user = def->log_user;
    ctx->profile.enabled = def->profiling;
    const char *by_kernel = getenv("DRAPE_PROFILE_KERNELS");
    ctx->profile.by_kernel = by_kernel && *by_kernel && strcmp(by_kernel, "0") != 0;
    dr_cl_logger *L = &ctx->logger;

    /* the device */
    dr_cl_device_list list;
    drape_result result = dr_cl_device_list_create(L, &list);
    if (result != DRAPE_OK)
        goto fail;
    uint32_t index = 0;
    result = dr_cl_device_choose_for_world(L, &list, def->device, &index);
    if (result == DRAPE_OK) {
        ctx->device = list.devices[index];
        if (def->memory_limit && def->memory_limit < ctx->device.global_mem)
            ctx->device.global_mem = def->memory_limit; /* buffer checks then enforce the limit */
    }
    dr_cl_device_list_destroy(&list);
    if (result != DRAPE_OK)
        goto fail;

    char description[320];
    dr_cl_device_describe(&ctx->device, description, sizeof description);
    dr_cl_logf(L, DRAPE_LOG_INFO, "OpenCL device %s", description);

    /* tunables and options */
    uint32_t wg = def->work_group_size;
    if (wg == 0) {
        wg = (ctx->device.type & CL_DEVICE_TYPE_GPU) ? 128u : 64u;
        if (wg > ctx->device.max_work_group)
            wg = (uint32_t)ctx->device.max_work_group;
    } else if (wg > ctx->device.max_work_group) {
        dr_cl_logf(L, DRAPE_LOG_ERROR, "work-group size %u is larger than the device's maximum %zu",
                   (unsigned)wg, ctx->device.max_work_group);
        result = DRAPE_ERROR_INVALID_ARGUMENT;
        goto fail;
    }
    ctx->tunables.work_group_size = wg;
    /* Sums: CLBlast's gemv is serial over n with 4 outputs, its dot a parallel two-stage reduction.
     * On PoCL (CPU) gemv won at every n measured, 1 K to 4 M float4 (dot pays ~1.5 ms of
     * launch overhead); on GPUs the serial gemv loses from a few thousand elements on. The GPU
     * threshold is an estimate: no GPU was at hand to measure it (see dr_cl_blast.c). */
    ctx->tunables.sum_dot_min = (ctx->device.type & CL_DEVICE_TYPE_GPU) ? 4096 : SIZE_MAX;
    /* Contacts between particles in the grid's order: on a GPU a warp's work-items then read the
     * same neighbours (1M balls on an H100: bench/results/). On PoCL, index order was faster. */
    ctx->tunables.particles_by_grid = (ctx->device.type & CL_DEVICE_TYPE_GPU) != 0;
    result =
        env_switch(L, "DRAPE_PARTICLE_ORDER", "grid", "index", &ctx->tunables.particles_by_grid);
    if (result != DRAPE_OK)
        goto fail;
    /* The contact passes over per-pass member lists, on every kind of device: on PoCL a launch's
     * idle work-items are not free (docs/particle-contacts.md); on an H200 the lists, which cost a
     * read of 17 counts per substep, beat the launches over all particles at every size measured
     * (1 x 4: 1.14 against 1.55 ms per step at 5000 balls, 2.09 against 2.58 at 1M;
     * bench/results/h200). */
    ctx->tunables.particle_pass_lists = true;
    result =
        env_switch(L, "DRAPE_PARTICLE_PASSES", "lists", "all", &ctx->tunables.particle_pass_lists);
    if (result != DRAPE_OK)
        goto fail;
    /* The grid's scans a work-item per tile where barriers cost more than the parallel scan saves:
     * on PoCL 2.2 -> 0.3 ms per step at 65 536 balls (bench/results/contacts-x16-pocl). */
    ctx->tunables.particle_scan_serial = (ctx->device.type & CL_DEVICE_TYPE_GPU) == 0;
    result = env_switch(L, "DRAPE_PARTICLE_SCAN", "serial", "groups",
                        &ctx->tunables.particle_scan_serial);
    if (result != DRAPE_OK)
        goto fail;
    /* The candidate search over half shells, each pair tested once with two atomic appends: on
     * PoCL (docs/particle-contacts.md, bench/results/particles-half-shell-pocl). On GPUs the full
     * walk, whose lists need no atomics (not measured on one). */
    ctx->tunables.particle_search_half = (ctx->device.type & CL_DEVICE_TYPE_GPU) == 0;
    result =
        env_switch(L, "DRAPE_PARTICLE_SEARCH", "half", "full", &ctx->tunables.particle_search_half);
    if (result != DRAPE_OK)
        goto fail;
    /* Hiding doubles: the kernels see DR_NO_FP64 and take their float fallback (dr_wide), and the
     * host's sums (dr_cl_sum_rows_device) follow device.fp64. */
    bool hide_env = false;
    result = env_switch(L, "DRAPE_OPENCL_FP64", "off", "on", &hide_env);
    if (result != DRAPE_OK)
        goto fail;
    const bool hide_fp64 = def->hide_fp64 || hide_env;
    if (hide_fp64 && ctx->device.fp64) {
        ctx->device.fp64 = false;
        dr_cl_logf(L, DRAPE_LOG_INFO, "%s: double precision hidden (%s): float sums",
                   ctx->device.name, def->hide_fp64 ? "hide_fp64" : "DRAPE_OPENCL_FP64=off");
    }
    snprintf(ctx->build_options, sizeof ctx->build_options, "-cl-std=CL1.2%s%s",
             ctx->device.correctly_rounded_divide_sqrt ? " -cl-fp32-correctly-rounded-divide-sqrt"
                                                       : "",
             hide_fp64 ? " -DDR_NO_FP64" : "");
    if (!ctx->device.correctly_rounded_divide_sqrt)
        dr_cl_logf(L, DRAPE_LOG_WARNING,
                   "%s has no correctly rounded single-precision division and sqrt; results will "
                   "differ from the CPU reference in the last bits",
                   ctx->device.name);
    if (!dr_cl_cache_resolve_dir(def->cache_dir, ctx->cache_dir, sizeof ctx->cache_dir))
        dr_cl_logf(L, DRAPE_LOG_WARNING,
                   "the program cache directory (cache_dir, $DRAPE_CACHE_DIR, $XDG_CACHE_HOME or "
                   "$HOME) is longer than %zu characters; the cache is off",
                   sizeof ctx->cache_dir - 1);

    /* context, queue, program table */
    cl_int code;
    if (def->gl_context && def->gl_display)
        ctx->gl_sharing = create_gl_shared(ctx, def);
    if (!ctx->context) {
        cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              (cl_context_properties)ctx->device.platform_id, 0};
        ctx->context = clCreateContext(properties, 1, &ctx->device.device_id, NULL, NULL, &code);
        DR_CL_CHECK_ERR_GOTO(L, clCreateContext, code, result, fail);
    }
    ctx->queue_profiling = def->profiling || ctx->profile.by_kernel;
    ctx->queue = clCreateCommandQueue(ctx->context, ctx->device.device_id,
                                      ctx->queue_profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &code);
    DR_CL_CHECK_ERR_GOTO(L, clCreateCommandQueue, code, result, fail);

    ctx->program_count = dr_cl_kernel_file_count();
    ctx->programs = calloc(ctx->program_count + 1, sizeof *ctx->programs);
    ctx->program_from_cache = calloc(ctx->program_count + 1, sizeof *ctx->program_from_cache);
    if (!ctx->programs || !ctx->program_from_cache) {
        dr_cl_logf(L, DRAPE_LOG_ERROR, "out of host memory creating an OpenCL context");
        result = DRAPE_ERROR_OUT_OF_MEMORY;
        goto fail;
    }
    *out = ctx;
    return DRAPE_OK;

fail:
    /* the caller's log already has the reason; a failed create leaves no context */
    dr_cl_context_destroy(ctx);
    return result;
}

void dr_cl_context_destroy(dr_cl_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->queue)
        clFinish(ctx->queue);
    if (ctx->profile.by_kernel)
        dr_cl_profile_print_kernels(ctx, stderr);
    dr_cl_profile_reset(ctx);
    free(ctx->profile.pending);
    dr_cl_buffer_release(ctx, &ctx->ones);
    dr_cl_buffer_release(ctx, &ctx->ones64);
    dr_cl_buffer_release(ctx, &ctx->sum_result);
    for (size_t i = 0; ctx->programs && i < ctx->program_count; ++i)
        if (ctx->programs[i])
            clReleaseProgram(ctx->programs[i]);
    free(ctx->programs);
    free(ctx->program_from_cache);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->context)
        clReleaseContext(ctx->context);
    free(ctx);
}

#ifdef DRAPE_SANITIZE_BUILD
/* LeakSanitizer's default options for every program that uses drape's OpenCL, in the sanitizer
 * build only (DRAPE_SANITIZE). LeakSanitizer's stop-the-world tracer scans each thread's
 * thread-local storage at exit, and while PoCL's worker threads are alive it crashes there about
 * once in 40 runs ("Tracer caught signal 11": a fatal error, not a leak report; `drape run flag
 * --steps 20 --backend opencl` crashed 5 times in 200 runs with the scan, 0 in 200 without). drape
 * keeps nothing in thread-local storage, so skipping it hides none of drape's leaks; $LSAN_OPTIONS
 * still adds to or overrides this. What the dynamic loader allocates for dlopen (GL drivers, OpenCL
 * ICDs) is reachable only through thread-local storage, so without the scan it would look leaked:
 * those allocation sites are suppressed. The hooks live in this file because every such program
 * links it: the runtime's weak defaults would win over definitions in an archive member that
 * nothing else pulls in. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "use_tls=0"; }

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:_dl_map_object_deps\n"
           "leak:add_to_global_resize\n"
           "leak:dl_open_worker_begin\n";
}
#endif

drape_result dr_cl_set_profiling(dr_cl_context *ctx, bool on)
{
    if (on && !ctx->queue_profiling) {
        drape_result r = dr_cl_finish(ctx);
        if (r != DRAPE_OK)
            return r;
        /* the new queue first: should it fail, the world keeps its queue, without profiling */
        cl_int code;
        cl_command_queue queue = clCreateCommandQueue(ctx->context, ctx->device.device_id,
                                                      CL_QUEUE_PROFILING_ENABLE, &code);
        DR_CL_CHECK_ERR(&ctx->logger, clCreateCommandQueue, code);
        cl_command_queue old = ctx->queue;
        ctx->queue = queue;
        ctx->queue_profiling = true;
        DR_CL_CHECK(&ctx->logger, clReleaseCommandQueue(old));
    }
    ctx->profile.enabled = on;
    return DRAPE_OK;
}

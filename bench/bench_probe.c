/* The copy-bandwidth probe (bench_probe.h), on drape_opencl (host/opencl/dr_cl.h): its context,
 * checked buffers, embedded probe.cl and per-phase event profiling, so that the probe runs the same
 * chain as the solver. Each repetition is one launch of copy_float4 recorded under the phase
 * "copy"; the phase's device time after dr_cl_profile_collect is that launch's end - start. */
#include "bench_probe.h"
#include "bench_stats.h"

#include "dr_cl.h"

#include <stdio.h>
#include <string.h>

typedef struct probe_log {
    char last[256];
} probe_log;

static void probe_log_fn(drape_log_level level, const char *message, void *user)
{
    if (level == DRAPE_LOG_ERROR)
        snprintf(((probe_log *)user)->last, sizeof((probe_log *)user)->last, "%s", message);
}

#define PROBE_MAX_REPS 64

static bool run(dr_cl_context *ctx, uint32_t mib, int repetitions, bench_probe *out)
{
    uint64_t bytes = (uint64_t)mib << 20;
    /* both buffers, at most a quarter of the device each, within the largest allocation */
    if (bytes > ctx->device.global_mem / 4)
        bytes = ctx->device.global_mem / 4;
    if (bytes > ctx->device.max_alloc)
        bytes = ctx->device.max_alloc;
    bytes &= ~(uint64_t)0xffff;
    const cl_uint n = (cl_uint)(bytes / 16);
    if (n == 0 || bytes / 16 > UINT32_MAX)
        return false;
    out->bytes = bytes;
    cl_mem src = NULL, dst = NULL;
    cl_kernel kernel = NULL;
    bool ok =
        dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, bytes, "probe source", &src) == DRAPE_OK &&
        dr_cl_buffer_create(ctx, CL_MEM_WRITE_ONLY, bytes, "probe destination", &dst) == DRAPE_OK &&
        dr_cl_kernel_create(ctx, "probe.cl", "copy_float4", &kernel) == DRAPE_OK;
    const float zero = 0.0f;
    ok = ok && dr_cl_buffer_fill(ctx, src, &zero, sizeof zero, 0, bytes) == DRAPE_OK;
    ok = ok && clSetKernelArg(kernel, 0, sizeof src, &src) == CL_SUCCESS &&
         clSetKernelArg(kernel, 1, sizeof dst, &dst) == CL_SUCCESS &&
         clSetKernelArg(kernel, 2, sizeof n, &n) == CL_SUCCESS;
    const int phase = ok ? dr_cl_profile_phase(ctx, "copy") : -1;
    ok = ok && phase >= 0;
    /* warm-up: first touch of the pages, program load */
    ok = ok && dr_cl_launch_1d(ctx, kernel, n, -1) == DRAPE_OK && dr_cl_finish(ctx) == DRAPE_OK;
    double gbs[PROBE_MAX_REPS];
    int done = 0;
    for (; ok && done < repetitions && done < PROBE_MAX_REPS; ++done) {
        dr_cl_profile_reset(ctx);
        ok = dr_cl_launch_1d(ctx, kernel, n, phase) == DRAPE_OK && dr_cl_finish(ctx) == DRAPE_OK &&
             dr_cl_profile_collect(ctx) == DRAPE_OK;
        const dr_cl_phase *ph = ok ? dr_cl_profile_find(ctx, "copy") : NULL;
        ok = ok && ph && ph->launches == 1 && ph->seconds > 0.0;
        if (ok)
            gbs[done] = 2.0 * (double)bytes / ph->seconds * 1e-9;
    }
    if (kernel)
        clReleaseKernel(kernel);
    dr_cl_buffer_release(ctx, &src);
    dr_cl_buffer_release(ctx, &dst);
    if (!ok)
        return false;
    bench_summary s = bench_summarize(gbs, (size_t)done);
    out->repetitions = done;
    out->gbs_median = s.median;
    out->gbs_max = s.max;
    return true;
}

void bench_probe_run(const char *selector, uint32_t mib, int repetitions, bench_probe *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->selector, sizeof out->selector, "%s", selector ? selector : "");
    probe_log log = {""};
    dr_cl_context_def def = dr_cl_default_context_def();
    def.device = selector;
    def.log = probe_log_fn;
    def.log_user = &log;
    dr_cl_context *ctx = NULL;
    if (dr_cl_context_create(&def, &ctx) != DRAPE_OK) {
        snprintf(out->error, sizeof out->error, "%s", log.last[0] ? log.last : "no OpenCL device");
        return;
    }
    dr_cl_device_describe(&ctx->device, out->device, sizeof out->device);
    out->ok = run(ctx, mib, repetitions, out);
    if (!out->ok)
        snprintf(out->error, sizeof out->error, "%s",
                 log.last[0] ? log.last : "the copy probe could not run");
    dr_cl_context_destroy(ctx);
}

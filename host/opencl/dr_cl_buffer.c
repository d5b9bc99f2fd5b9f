/* Device buffers and 1-D kernel launches with checked calls.
 *
 * Allocation is checked before it is attempted: against CL_DEVICE_MAX_MEM_ALLOC_SIZE for one
 * buffer, and against the device's global memory for the sum of the buffers this context holds.
 * Drivers that overcommit (PoCL; NVIDIA for some sizes) would otherwise accept the buffer and fail
 * only at first use, inside a step, where the error is harder to tie to the cloth that is too
 * large. Either way the message names the buffer and the bytes asked for, and the context stays
 * usable.
 *
 * Launches round the global size up to whole work groups of the tunable DR_WG_SIZE; kernels compare
 * their global index with the element count, so no kernel assumes a work-group size or a multiple.
 */
#include "dr_cl_internal.h"

#include <stdio.h>
#include <string.h>

/* "1.5 GiB"-style size for messages. */
static void dr_cl_format_bytes(uint64_t bytes, char *out, size_t size)
{
    static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    int unit = 0;
    while (value >= 1024.0 && unit < 6) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0)
        snprintf(out, size, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(out, size, "%.1f %s", value, units[unit]);
}

drape_result dr_cl_buffer_create(dr_cl_context *ctx, cl_mem_flags flags, size_t bytes,
                                 const char *what, cl_mem *out)
{
    *out = NULL;
    dr_cl_logger *L = &ctx->logger;
    if (!what)
        what = "buffer";
    if (bytes == 0) {
        dr_cl_logf(L, DRAPE_LOG_ERROR, "OpenCL buffer \"%s\" of 0 bytes asked for", what);
        return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    char asked[32], limit[32];
    dr_cl_format_bytes(bytes, asked, sizeof asked);
    if ((uint64_t)bytes > ctx->device.max_alloc) {
        dr_cl_format_bytes(ctx->device.max_alloc, limit, sizeof limit);
        dr_cl_logf(L, DRAPE_LOG_ERROR,
                   "cannot allocate OpenCL buffer \"%s\" of %zu bytes (%s): %s allows at most "
                   "%llu bytes (%s) in one buffer",
                   what, bytes, asked, ctx->device.name, (unsigned long long)ctx->device.max_alloc,
                   limit);
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    if ((uint64_t)bytes > ctx->device.global_mem - ctx->allocated) {
        dr_cl_format_bytes(ctx->device.global_mem - ctx->allocated, limit, sizeof limit);
        dr_cl_logf(L, DRAPE_LOG_ERROR,
                   "cannot allocate OpenCL buffer \"%s\" of %zu bytes (%s): %s has %llu bytes (%s) "
                   "of global memory left",
                   what, bytes, asked, ctx->device.name,
                   (unsigned long long)(ctx->device.global_mem - ctx->allocated), limit);
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    cl_int code;
    cl_mem buffer = clCreateBuffer(ctx->context, flags, bytes, NULL, &code);
    if (code != CL_SUCCESS)
        return dr_cl_failf(L, "clCreateBuffer", code, "buffer \"%s\" of %zu bytes (%s)", what,
                           bytes, asked);
    ctx->allocated += bytes;
    *out = buffer;
    return DRAPE_OK;
}

void dr_cl_buffer_release(dr_cl_context *ctx, cl_mem *buffer)
{
    if (!*buffer)
        return;
    size_t bytes = 0;
    if (clGetMemObjectInfo(*buffer, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) == CL_SUCCESS &&
        bytes <= ctx->allocated)
        ctx->allocated -= bytes;
    clReleaseMemObject(*buffer);
    *buffer = NULL;
}

drape_result dr_cl_buffer_replace(dr_cl_context *ctx, cl_mem *buffer, size_t bytes,
                                  const char *what, const void *src)
{
    dr_cl_buffer_release(ctx, buffer);
    drape_result r =
        dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, bytes > 16 ? bytes : 16, what, buffer);
    if (r == DRAPE_OK && src)
        r = dr_cl_buffer_write(ctx, *buffer, 0, bytes, src);
    return r;
}

drape_result dr_cl_buffer_write(dr_cl_context *ctx, cl_mem buffer, size_t offset, size_t bytes,
                                const void *src)
{
    if (bytes == 0)
        return DRAPE_OK;
    ctx->enqueued++;
    DR_CL_CHECK(&ctx->logger, clEnqueueWriteBuffer(ctx->queue, buffer, CL_TRUE, offset, bytes, src,
                                                   0, NULL, NULL));
    return DRAPE_OK;
}

drape_result dr_cl_buffer_read(dr_cl_context *ctx, cl_mem buffer, size_t offset, size_t bytes,
                               void *dst)
{
    if (bytes == 0)
        return DRAPE_OK;
    ctx->enqueued++;
    ctx->reads++;
    ctx->read_bytes += bytes;
    DR_CL_CHECK(&ctx->logger, clEnqueueReadBuffer(ctx->queue, buffer, CL_TRUE, offset, bytes, dst,
                                                  0, NULL, NULL));
    return DRAPE_OK;
}

drape_result dr_cl_buffer_fill(dr_cl_context *ctx, cl_mem buffer, const void *pattern,
                               size_t pattern_size, size_t offset, size_t bytes)
{
    if (bytes == 0)
        return DRAPE_OK;
    ctx->enqueued++;
    DR_CL_CHECK(&ctx->logger, clEnqueueFillBuffer(ctx->queue, buffer, pattern, pattern_size, offset,
                                                  bytes, 0, NULL, NULL));
    return DRAPE_OK;
}

drape_result dr_cl_launch_1d(dr_cl_context *ctx, cl_kernel kernel, size_t n, int phase)
{
    const size_t local = ctx->tunables.work_group_size;
    return dr_cl_launch_groups(ctx, kernel, (n + local - 1) / local, local, phase);
}

drape_result dr_cl_launch_groups(dr_cl_context *ctx, cl_kernel kernel, size_t groups, size_t local,
                                 int phase)
{
    if (groups == 0)
        return DRAPE_OK;
    size_t global = groups * local, n = global;
    bool record = ctx->profile.enabled && phase >= 0;
    cl_event event = NULL;
    ctx->enqueued++;
    cl_int code = clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global, &local, 0, NULL,
                                         record ? &event : NULL);
    if (code != CL_SUCCESS) {
        char name[128] = "?";
        if (clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL) != CL_SUCCESS)
            strcpy(name, "?");
        return dr_cl_failf(&ctx->logger, "clEnqueueNDRangeKernel", code,
                           "kernel %s over %zu items (local size %zu)", name, n, local);
    }
    if (record && ctx->profile.by_kernel) {
        drape_result r = dr_cl_profile_record_kernel(ctx, kernel, event);
        if (r != DRAPE_OK) {
            clReleaseEvent(event);
            return r;
        }
    }
    return record ? dr_cl_profile_record(ctx, phase, event) : DRAPE_OK;
}

drape_result dr_cl_finish(dr_cl_context *ctx)
{
    DR_CL_CHECK(&ctx->logger, clFinish(ctx->queue));
    return DRAPE_OK;
}

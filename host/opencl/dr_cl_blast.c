/* Global reductions over particle arrays through CLBlast (CNugteren/CLBlast, the C API
 * clblast_c.h).
 *
 * The solver needs signed, optionally weighted sums: centre of mass (sum m_i x_i), momentum
 * (sum m_i v_i), angular momentum (sum of per-particle m_i x_i × v_i), kinetic energy and residual
 * norms. CLBlastSasum sums absolute values, so it is not used. A float4 array of n particles is a
 * row-major [n x 4] matrix, and its four column sums weighted by w are y = A^T w:
 *   - n < tunables.sum_dot_min: one CLBlastSgemv (row-major, transposed, m = n, n = 4, lda = 4).
 *     CLBlast's gemv gives each output element to one work item, so with 4 outputs it runs in one
 *     work group: one launch, but serial over n.
 *   - otherwise four CLBlastSdot, one per component (x increment 4 over the float4 array):
 * CLBlast's dot is a two-stage parallel reduction (8 launches), which is what a large cloth on a
 * GPU needs. On PoCL 3.1 (2 CPU cores) the device time per float4 sum was, gemv / four dots: 1 K 7
 * us / 1.6 ms, 64 K 0.29 / 1.7 ms, 1 M 4.8 / 16 ms, 4 M 20 / 161 ms; so CPU devices always use
 * gemv. On GPUs the switch is at 4096 elements, an estimate until a GPU measures it. Both are
 * deterministic for a given device and n (no atomics), so run-to-run results are bitwise equal.
 * Their summation order differs from the CPU reference's sequential loop, so sums agree with it to
 * float rounding, not bitwise. Weights NULL means all ones: the context keeps a ones vector, grown
 * on demand. dr_cl_sum_float4_device leaves the sums in a device buffer for use inside a step (no
 * host round trip); dr_cl_sum_float4 and dr_cl_sum_float read them back.
 *
 * Every CLBlast call is checked; a failure names the call and the status, e.g. "CLBlastSgemv
 * failed: CLBlastInsufficientMemoryX (-1008)". CLBlast keeps a process-wide cache of the routines
 * it compiled (per cl_context); it is CLBlast's state, not drape's, and holds a reference to each
 * context used until the process ends.
 */
#include "dr_cl_internal.h"

#include <clblast_c.h>
#include <stdio.h>

typedef struct dr_cl_blast_entry {
    int code;
    const char *name;
} dr_cl_blast_entry;

static const dr_cl_blast_entry dr_cl_blast_statuses[] = {
    {-1024, "CLBlastNotImplemented"},
    {-1022, "CLBlastInvalidMatrixA"},
    {-1021, "CLBlastInvalidMatrixB"},
    {-1020, "CLBlastInvalidMatrixC"},
    {-1019, "CLBlastInvalidVectorX"},
    {-1018, "CLBlastInvalidVectorY"},
    {-1017, "CLBlastInvalidDimension"},
    {-1016, "CLBlastInvalidLeadDimA"},
    {-1015, "CLBlastInvalidLeadDimB"},
    {-1014, "CLBlastInvalidLeadDimC"},
    {-1013, "CLBlastInvalidIncrementX"},
    {-1012, "CLBlastInvalidIncrementY"},
    {-1011, "CLBlastInsufficientMemoryA"},
    {-1010, "CLBlastInsufficientMemoryB"},
    {-1009, "CLBlastInsufficientMemoryC"},
    {-1008, "CLBlastInsufficientMemoryX"},
    {-1007, "CLBlastInsufficientMemoryY"},
    {-2050, "CLBlastInsufficientMemoryTemp"},
    {-2049, "CLBlastInvalidBatchCount"},
    {-2048, "CLBlastInvalidOverrideKernel"},
    {-2047, "CLBlastMissingOverrideParameter"},
    {-2046, "CLBlastInvalidLocalMemUsage"},
    {-2045, "CLBlastNoHalfPrecision"},
    {-2044, "CLBlastNoDoublePrecision"},
    {-2043, "CLBlastInvalidVectorScalar"},
    {-2042, "CLBlastInsufficientMemoryScalar"},
    {-2041, "CLBlastDatabaseError"},
    {-2040, "CLBlastUnknownError"},
    {-2039, "CLBlastUnexpectedError"},
};

const char *dr_cl_blast_status_name(int status)
{
    for (size_t i = 0; i < sizeof dr_cl_blast_statuses / sizeof dr_cl_blast_statuses[0]; ++i)
        if (dr_cl_blast_statuses[i].code == status)
            return dr_cl_blast_statuses[i].name;
    return dr_cl_error_name((cl_int)status); /* the codes CLBlast shares with OpenCL */
}

static drape_result dr_cl_blast_fail(dr_cl_context *ctx, const char *call, CLBlastStatusCode status,
                                     size_t n)
{
    ctx->logger.last_cl_error = (cl_int)status;
    dr_cl_logf(&ctx->logger, DRAPE_LOG_ERROR, "%s failed: %s (%d): sum over %zu elements", call,
               dr_cl_blast_status_name((int)status), (int)status, n);
    if (status == CLBlastTempBufferAllocFailure || status == CLBlastOpenCLOutOfHostMemory)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    return DRAPE_ERROR_BACKEND;
}

/* The weights to use: `weights`, or the context's ones vector grown to at least n. */
static drape_result dr_cl_weights(dr_cl_context *ctx, cl_mem weights, size_t n, cl_mem *out)
{
    if (weights) {
        *out = weights;
        return DRAPE_OK;
    }
    if (ctx->ones_count < n) {
        size_t count = ctx->ones_count ? 2 * ctx->ones_count : 1024;
        while (count < n)
            count *= 2;
        dr_cl_buffer_release(ctx, &ctx->ones);
        ctx->ones_count = 0;
        drape_result r = dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, count * sizeof(float),
                                             "reduction weights (ones)", &ctx->ones);
        if (r != DRAPE_OK)
            return r;
        const float one = 1.0f;
        if ((r = dr_cl_buffer_fill(ctx, ctx->ones, &one, sizeof one, 0, count * sizeof(float))) !=
            DRAPE_OK)
            return r;
        ctx->ones_count = count;
    }
    *out = ctx->ones;
    return DRAPE_OK;
}

static drape_result dr_cl_sum_result_buffer(dr_cl_context *ctx)
{
    if (ctx->sum_result)
        return DRAPE_OK;
    return dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, 4 * sizeof(float), "reduction result",
                               &ctx->sum_result);
}

/* When `phase` is recorded, a marker before the CLBlast calls, so that the phase's time spans all
 * their kernels: CLBlast returns the event of its last kernel only. *marker stays NULL otherwise.
 */
static drape_result dr_cl_blast_begin(dr_cl_context *ctx, int phase, cl_event *marker)
{
    *marker = NULL;
    if (!ctx->profile.enabled || phase < 0)
        return DRAPE_OK;
    DR_CL_CHECK(&ctx->logger, clEnqueueMarkerWithWaitList(ctx->queue, 0, NULL, marker));
    return DRAPE_OK;
}

drape_result dr_cl_sum_float4_device(dr_cl_context *ctx, cl_mem buffer, size_t first, size_t n,
                                     cl_mem weights, cl_mem result, size_t result_offset, int phase)
{
    if (n == 0) {
        const float zero = 0.0f;
        return dr_cl_buffer_fill(ctx, result, &zero, sizeof zero, result_offset * sizeof(float),
                                 4 * sizeof(float));
    }
    cl_mem w;
    cl_event marker = NULL, event = NULL;
    drape_result r = dr_cl_weights(ctx, weights, n, &w);
    if (r == DRAPE_OK)
        r = dr_cl_blast_begin(ctx, phase, &marker);
    if (r != DRAPE_OK)
        return r;
    cl_event *out_event = marker ? &event : NULL;
    CLBlastStatusCode status;
    const char *call;
    if (n < ctx->tunables.sum_dot_min) {
        /* CLBlast computes beta * y even for beta = 0, so a NaN left in y would survive: clear it
         */
        const float zero = 0.0f;
        if ((r = dr_cl_buffer_fill(ctx, result, &zero, sizeof zero, result_offset * sizeof(float),
                                   4 * sizeof(float))) != DRAPE_OK) {
            if (marker)
                clReleaseEvent(marker);
            return r;
        }
        call = "CLBlastSgemv";
        ctx->enqueued++;
        status =
            CLBlastSgemv(CLBlastLayoutRowMajor, CLBlastTransposeYes, n, 4, 1.0f, buffer, 4 * first,
                         4, w, 0, 1, 0.0f, result, result_offset, 1, &ctx->queue, out_event);
    } else {
        call = "CLBlastSdot";
        status = CLBlastSuccess;
        for (size_t k = 0; k < 4 && status == CLBlastSuccess; ++k) {
            if (event) { /* only the last component's event is kept */
                clReleaseEvent(event);
                event = NULL;
            }
            ctx->enqueued++;
            status = CLBlastSdot(n, result, result_offset + k, buffer, 4 * first + k, 4, w, 0, 1,
                                 &ctx->queue, out_event);
        }
    }
    if (status != CLBlastSuccess) {
        if (marker)
            clReleaseEvent(marker);
        if (event)
            clReleaseEvent(event);
        return dr_cl_blast_fail(ctx, call, status, n);
    }
    return dr_cl_profile_record_span(ctx, phase, marker, event);
}

drape_result dr_cl_sum_float4(dr_cl_context *ctx, cl_mem buffer, size_t first, size_t n,
                              cl_mem weights, int phase, float out[4])
{
    drape_result r = dr_cl_sum_result_buffer(ctx);
    if (r == DRAPE_OK)
        r = dr_cl_sum_float4_device(ctx, buffer, first, n, weights, ctx->sum_result, 0, phase);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_read(ctx, ctx->sum_result, 0, 4 * sizeof(float), out);
    return r;
}

drape_result dr_cl_sum_float(dr_cl_context *ctx, cl_mem buffer, size_t first, size_t n,
                             cl_mem weights, int phase, float *out)
{
    if (n == 0) {
        *out = 0.0f;
        return DRAPE_OK;
    }
    cl_mem w;
    drape_result r = dr_cl_sum_result_buffer(ctx);
    if (r == DRAPE_OK)
        r = dr_cl_weights(ctx, weights, n, &w);
    if (r != DRAPE_OK)
        return r;
    cl_event marker = NULL, event = NULL;
    if ((r = dr_cl_blast_begin(ctx, phase, &marker)) != DRAPE_OK)
        return r;
    ctx->enqueued++;
    CLBlastStatusCode status = CLBlastSdot(n, ctx->sum_result, 0, buffer, first, 1, w, 0, 1,
                                           &ctx->queue, marker ? &event : NULL);
    if (status != CLBlastSuccess) {
        if (marker)
            clReleaseEvent(marker);
        return dr_cl_blast_fail(ctx, "CLBlastSdot", status, n);
    }
    if ((r = dr_cl_profile_record_span(ctx, phase, marker, event)) != DRAPE_OK)
        return r;
    return dr_cl_buffer_read(ctx, ctx->sum_result, 0, sizeof(float), out);
}

drape_result dr_cl_sum_rows_device(dr_cl_context *ctx, cl_mem buffer, size_t rows, size_t cols,
                                   cl_mem result, int phase)
{
    const bool fp64 = ctx->device.fp64;
    const size_t elem = fp64 ? sizeof(double) : sizeof(float);
    const double one64 = 1.0, zero64 = 0.0;
    const float one32 = 1.0f, zero32 = 0.0f;
    drape_result r = DRAPE_OK;
    cl_mem ones = ctx->ones;
    if (fp64 && ctx->ones64_count < rows) {
        size_t count = ctx->ones64_count ? 2 * ctx->ones64_count : 1024;
        while (count < rows)
            count *= 2;
        dr_cl_buffer_release(ctx, &ctx->ones64);
        ctx->ones64_count = 0;
        r = dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, count * elem, "reduction weights (ones)",
                                &ctx->ones64);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_fill(ctx, ctx->ones64, &one64, elem, 0, count * elem);
        if (r != DRAPE_OK)
            return r;
        ctx->ones64_count = count;
    }
    if (fp64)
        ones = ctx->ones64;
    else if ((r = dr_cl_weights(ctx, NULL, rows, &ones)) != DRAPE_OK)
        return r;
    /* beta = 0 still reads y (see dr_cl_sum_float4_device): clear it first */
    r = dr_cl_buffer_fill(ctx, result, fp64 ? (const void *)&zero64 : (const void *)&zero32, elem,
                          0, cols * elem);
    cl_event marker = NULL, event = NULL;
    if (r == DRAPE_OK)
        r = dr_cl_blast_begin(ctx, phase, &marker);
    if (r != DRAPE_OK)
        return r;
    cl_event *out_event = marker ? &event : NULL;
    ctx->enqueued++;
    CLBlastStatusCode status =
        fp64 ? CLBlastDgemv(CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols, one64, buffer,
                            0, cols, ones, 0, 1, zero64, result, 0, 1, &ctx->queue, out_event)
             : CLBlastSgemv(CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols, one32, buffer,
                            0, cols, ones, 0, 1, zero32, result, 0, 1, &ctx->queue, out_event);
    if (status != CLBlastSuccess) {
        if (marker)
            clReleaseEvent(marker);
        return dr_cl_blast_fail(ctx, fp64 ? "CLBlastDgemv" : "CLBlastSgemv", status, rows * cols);
    }
    return dr_cl_profile_record_span(ctx, phase, marker, event);
}

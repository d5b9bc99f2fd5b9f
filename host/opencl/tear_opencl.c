/* The tearing check on the OpenCL device (kernels/tear.cl): at the end of a step, every breakable
 * link is measured where the positions are, and one uint of the step's check buffer says whether
 * any may be past its limit; the step's one read (dr_opencl_step) brings it back with the
 * non-finite check. Only when it is set does the host read the positions back and run its exact
 * check (host/tearing.c), so that a step that tears nothing reads four bytes more than any step,
 * in the same read, instead of every position and velocity. The links and their thresholds are
 * uploaded again when the tearing state changed (its version). */
#include "world_internal.h"
#include "dr_cl.h"

#include <stdlib.h>

struct dr_tear_cl {
    cl_kernel kernel;
    cl_mem pairs, threshold;
    uint32_t count;
    uint64_t version; /* the host's version uploaded, plus one; 0: none yet */
};

void dr_tear_cl_destroy(drape_world *w, struct dr_tear_cl *s)
{
    if (!s)
        return;
    if (w->cl) {
        dr_cl_context *ctx = dr_opencl_context(w->cl);
        dr_cl_buffer_release(ctx, &s->pairs);
        dr_cl_buffer_release(ctx, &s->threshold);
    }
    if (s->kernel)
        clReleaseKernel(s->kernel);
    free(s);
}

static drape_result upload(drape_world *w, dr_cl_context *ctx, struct dr_tear_cl *s)
{
    const uint32_t n = dr_tear_watch(w, NULL, NULL);
    uint32_t *pairs = malloc(((size_t)2 * n + 1) * sizeof *pairs);
    float *threshold = malloc(((size_t)n + 1) * sizeof *threshold);
    drape_result r = pairs && threshold ? DRAPE_OK
                                        : dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                                                  "no memory for %u breakable links", n);
    if (r == DRAPE_OK)
        dr_tear_watch(w, pairs, threshold);
    dr_cl_buffer_release(ctx, &s->pairs);
    dr_cl_buffer_release(ctx, &s->threshold);
    const size_t pair_bytes = (size_t)2 * (n ? n : 1) * sizeof *pairs;
    const size_t threshold_bytes = (size_t)(n ? n : 1) * sizeof *threshold;
    if (r == DRAPE_OK)
        r = dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, pair_bytes, "breakable links", &s->pairs);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_create(ctx, CL_MEM_READ_ONLY, threshold_bytes, "breaking lengths",
                                &s->threshold);
    if (r == DRAPE_OK && n)
        r = dr_cl_buffer_write(ctx, s->pairs, 0, (size_t)2 * n * sizeof *pairs, pairs);
    if (r == DRAPE_OK && n)
        r = dr_cl_buffer_write(ctx, s->threshold, 0, (size_t)n * sizeof *threshold, threshold);
    free(pairs);
    free(threshold);
    s->count = r == DRAPE_OK ? n : 0;
    return r;
}

drape_result dr_tear_cl_enqueue(drape_world *w, struct dr_tear_cl **state, uint64_t version,
                                cl_mem x, cl_mem check, uint32_t slot, bool *enqueued)
{
    *enqueued = false;
    dr_cl_context *ctx = dr_opencl_context(w->cl);
    if (!*state && !(*state = calloc(1, sizeof **state)))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for the tearing check");
    struct dr_tear_cl *s = *state;
    if (!s->kernel)
        DR_TRY(dr_cl_kernel_create(ctx, "tear.cl", "tear_watch", &s->kernel));
    if (s->version != version + 1) {
        s->version = 0;
        DR_TRY(upload(w, ctx, s));
        s->version = version + 1;
    }
    if (s->count == 0)
        return DRAPE_OK;
    DR_TRY(dr_cl_set_args(ctx, s->kernel, 0, 6, DR_CL_ARG(x), DR_CL_ARG(s->pairs),
                          DR_CL_ARG(s->threshold), DR_CL_ARG(s->count), DR_CL_ARG(check),
                          DR_CL_ARG(slot)));
    DR_TRY(dr_cl_launch_1d(ctx, s->kernel, s->count, -1));
    *enqueued = true;
    return DRAPE_OK;
}

/* Balloons on the OpenCL device: kernels/balloon.cl's launches per balloon and iteration over
 * each balloon's own buffers (triangles, vertices, adjacency, gradients, lane sums, state),
 * uploaded again when a balloon is added (the host's version). Kernels are made on first use. */
#include "balloons.h"
#include "world_internal.h"
#include "dr_cl.h"

#include <stdlib.h>
#include <string.h>

typedef struct cl_balloon {
    cl_mem triangles, vertices, offsets, incident, gradients, partial, state;
} cl_balloon;

enum { K_GRADIENTS, K_LANES, K_STEP, K_APPLY, K_BALLOON_COUNT };
static const char *const kernel_names[K_BALLOON_COUNT] = {"balloon_gradients", "balloon_lanes",
                                                          "balloon_step", "balloon_apply"};

struct dr_balloons_cl {
    cl_kernel k[K_BALLOON_COUNT];
    cl_balloon *items;
    uint32_t count;
    uint64_t version; /* the host's version uploaded, plus one; 0: none yet */
};

static void release_items(dr_cl_context *ctx, struct dr_balloons_cl *s)
{
    for (uint32_t b = 0; b < s->count; ++b) {
        cl_mem *all[] = {&s->items[b].triangles, &s->items[b].vertices,  &s->items[b].offsets,
                         &s->items[b].incident,  &s->items[b].gradients, &s->items[b].partial,
                         &s->items[b].state};
        for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
            dr_cl_buffer_release(ctx, all[i]);
    }
    free(s->items);
    s->items = NULL;
    s->count = 0;
}

void dr_balloons_cl_destroy(dr_cl_context *ctx, struct dr_balloons_cl *s)
{
    if (!s)
        return;
    release_items(ctx, s);
    for (int k = 0; k < K_BALLOON_COUNT; ++k)
        if (s->k[k])
            clReleaseKernel(s->k[k]);
    free(s);
}

static drape_result upload(dr_cl_context *ctx, struct dr_balloons_cl *s, const dr_balloons *h)
{
    release_items(ctx, s);
    s->items = calloc(h->count, sizeof *s->items);
    if (!s->items)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    s->count = h->count;
    drape_result r = DRAPE_OK;
    for (uint32_t k = 0; k < h->count && r == DRAPE_OK; ++k) {
        const dr_balloon *b = &h->items[k];
        cl_balloon *c = &s->items[k];
        const size_t t3 = (size_t)3 * b->triangle_count * sizeof(uint32_t);
        const size_t v = b->vertex_count;
        r = dr_cl_buffer_replace(ctx, &c->triangles, t3, "balloon triangles", b->triangles);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_replace(ctx, &c->vertices, v * sizeof(uint32_t), "balloon vertices",
                                     b->vertices);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_replace(ctx, &c->offsets, (v + 1) * sizeof(uint32_t),
                                     "balloon adjacency", b->offsets);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_replace(ctx, &c->incident, t3, "balloon adjacency", b->incident);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_replace(ctx, &c->gradients, v * sizeof(dr_vec4), "balloon gradients",
                                     NULL);
        if (r == DRAPE_OK) /* doubles on a device with fp64, floats otherwise: room for either */
            r = dr_cl_buffer_replace(ctx, &c->partial, 2 * DR_SUM_LANES * sizeof(double),
                                     "balloon sums", NULL);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_replace(ctx, &c->state, sizeof(dr_vec4), "balloon state", NULL);
    }
    return r;
}

static drape_result prepare(dr_cl_context *ctx, struct dr_balloons_cl **state, const dr_balloons *h)
{
    struct dr_balloons_cl *s = *state;
    if (!s) {
        s = *state = calloc(1, sizeof *s);
        if (!s)
            return DRAPE_ERROR_OUT_OF_MEMORY;
        for (int k = 0; k < K_BALLOON_COUNT; ++k) {
            drape_result r = dr_cl_kernel_create(ctx, "balloon.cl", kernel_names[k], &s->k[k]);
            if (r != DRAPE_OK)
                return r;
        }
    }
    if (s->version == h->version + 1)
        return DRAPE_OK;
    s->version = 0;
    drape_result r = upload(ctx, s, h);
    if (r == DRAPE_OK)
        s->version = h->version + 1;
    return r;
}

static drape_result project_one(dr_cl_context *ctx, struct dr_balloons_cl *s, const drape_world *w,
                                uint32_t k, cl_mem x, cl_mem d, float h, bool start_substep,
                                int phase)
{
    const dr_balloon *b = &w->balloons->items[k];
    cl_balloon *c = &s->items[k];
    const cl_uint vertices = b->vertex_count, triangles = b->triangle_count,
                  origin = b->vertices[0];
    const float target = dr_balloon_target(b, w->time), inv_h2 = 1.0f / (h * h);
    const float kprime = dr_corrected_stiffness(b->stiffness, w->def.iterations);
    const float compliance = b->compliance;
    if (start_substep) { /* the gradients are the start's: once per substep */
        const dr_vec4 zero = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
        DR_TRY(dr_cl_buffer_fill(ctx, c->state, &zero, sizeof zero, 0, sizeof zero));
        DR_TRY(dr_cl_set_args(ctx, s->k[K_GRADIENTS], 0, 8, DR_CL_ARG(c->gradients), DR_CL_ARG(x),
                              DR_CL_ARG(c->triangles), DR_CL_ARG(c->offsets),
                              DR_CL_ARG(c->incident), DR_CL_ARG(c->vertices), DR_CL_ARG(origin),
                              DR_CL_ARG(vertices)));
        DR_TRY(dr_cl_launch_1d(ctx, s->k[K_GRADIENTS], vertices, phase));
    }
    DR_TRY(dr_cl_set_args(ctx, s->k[K_LANES], 0, 8, DR_CL_ARG(c->partial), DR_CL_ARG(x),
                          DR_CL_ARG(d), DR_CL_ARG(c->triangles), DR_CL_ARG(triangles),
                          DR_CL_ARG(c->gradients), DR_CL_ARG(vertices), DR_CL_ARG(origin)));
    DR_TRY(dr_cl_launch_1d(ctx, s->k[K_LANES], DR_SUM_LANES, phase));
    DR_TRY(dr_cl_set_args(ctx, s->k[K_STEP], 0, 6, DR_CL_ARG(c->state), DR_CL_ARG(c->partial),
                          DR_CL_ARG(target), DR_CL_ARG(kprime), DR_CL_ARG(compliance),
                          DR_CL_ARG(inv_h2)));
    DR_TRY(dr_cl_launch_1d(ctx, s->k[K_STEP], 1, phase));
    DR_TRY(dr_cl_set_args(ctx, s->k[K_APPLY], 0, 5, DR_CL_ARG(d), DR_CL_ARG(c->gradients),
                          DR_CL_ARG(c->vertices), DR_CL_ARG(c->state), DR_CL_ARG(vertices)));
    return dr_cl_launch_1d(ctx, s->k[K_APPLY], vertices, phase);
}

drape_result dr_balloons_cl_project(dr_cl_context *ctx, struct dr_balloons_cl **state,
                                    const drape_world *w, cl_mem x, cl_mem d, float h,
                                    bool start_substep, int phase)
{
    if (!dr_balloons_active(w))
        return DRAPE_OK;
    DR_TRY(prepare(ctx, state, w->balloons));
    for (uint32_t k = 0; k < w->balloons->count; ++k)
        DR_TRY(project_one(ctx, *state, w, k, x, d, h, start_substep, phase));
    return DRAPE_OK;
}

/* Aerodynamics on the OpenCL device: kernels/aero.cl's two launches in the prediction, over the
 * triangles and adjacency of host/aero.c, uploaded again whenever they change (their version).
 * The kernels are made on first use, so a world without aerodynamics never builds them. */
#include "aero.h"
#include "dr_cl.h"

#include <stdlib.h>

struct dr_aero_cl {
    cl_kernel forces, apply;
    cl_mem triangles, offsets, incident, force; /* force: one float4 per triangle */
    uint64_t version;                           /* the host's version uploaded; 0: none yet */
};

void dr_aero_cl_destroy(dr_cl_context *ctx, struct dr_aero_cl *s)
{
    if (!s)
        return;
    dr_cl_buffer_release(ctx, &s->triangles);
    dr_cl_buffer_release(ctx, &s->offsets);
    dr_cl_buffer_release(ctx, &s->incident);
    dr_cl_buffer_release(ctx, &s->force);
    if (s->forces)
        clReleaseKernel(s->forces);
    if (s->apply)
        clReleaseKernel(s->apply);
    free(s);
}

static drape_result prepare(dr_cl_context *ctx, struct dr_aero_cl **state, const dr_aero *a)
{
    struct dr_aero_cl *s = *state;
    if (!s) {
        s = *state = calloc(1, sizeof *s);
        if (!s)
            return DRAPE_ERROR_OUT_OF_MEMORY;
        drape_result r = dr_cl_kernel_create(ctx, "aero.cl", "aero_forces", &s->forces);
        if (r == DRAPE_OK)
            r = dr_cl_kernel_create(ctx, "aero.cl", "aero_apply", &s->apply);
        if (r != DRAPE_OK)
            return r;
    }
    if (s->version == a->version + 1)
        return DRAPE_OK;
    s->version = 0;
    const size_t t = a->count, u = sizeof(uint32_t);
    drape_result r =
        dr_cl_buffer_replace(ctx, &s->triangles, 3 * t * u, "aerodynamic triangles", a->triangles);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(ctx, &s->offsets, ((size_t)a->vertex_count + 1) * u,
                                 "aerodynamic adjacency", a->offsets);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(ctx, &s->incident, 3 * t * u, "aerodynamic adjacency",
                                 a->incident);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(ctx, &s->force, t * sizeof(dr_vec4), "aerodynamic forces", NULL);
    if (r == DRAPE_OK)
        s->version = a->version + 1;
    return r;
}

drape_result dr_aero_cl_predict(dr_cl_context *ctx, struct dr_aero_cl **state, const drape_world *w,
                                cl_mem x, cl_mem v, float h, int phase)
{
    if (!dr_aero_active(w))
        return DRAPE_OK;
    const dr_aero *a = w->aero;
    drape_result r = prepare(ctx, state, a);
    if (r != DRAPE_OK)
        return r;
    struct dr_aero_cl *s = *state;
    dr_vec4 coeff, flow;
    dr_aero_params(w, &coeff, &flow);
    const cl_uint seed = a->def.seed, count = a->count, n = w->particle_count;
    const float t = (float)w->time;
    r = dr_cl_set_args(ctx, s->forces, 0, 9, DR_CL_ARG(s->force), DR_CL_ARG(x), DR_CL_ARG(v),
                       DR_CL_ARG(s->triangles), DR_CL_ARG(coeff), DR_CL_ARG(flow), DR_CL_ARG(seed),
                       DR_CL_ARG(t), DR_CL_ARG(count));
    if (r == DRAPE_OK)
        r = dr_cl_launch_1d(ctx, s->forces, count, phase);
    if (r == DRAPE_OK)
        r = dr_cl_set_args(ctx, s->apply, 0, 7, DR_CL_ARG(v), DR_CL_ARG(x), DR_CL_ARG(s->force),
                           DR_CL_ARG(s->offsets), DR_CL_ARG(s->incident), DR_CL_ARG(h),
                           DR_CL_ARG(n));
    if (r == DRAPE_OK)
        r = dr_cl_launch_1d(ctx, s->apply, n, phase);
    return r;
}

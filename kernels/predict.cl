/* Prediction: external forces, then (after the damping pass) the predicted displacements d = h v.
 * One work-item per particle. The maths is kernels/drape_shared.h's, the same the CPU runs.
 * predict_displacement also takes the work of the launches around it where nothing runs between
 * them (host/opencl/opencl_step.c): the external forces first when there is no aerodynamics or
 * damping pass, and collision generation after (collide.cl's generate_contacts) when there is no
 * grid of particle contacts; each particle's maths and order are unchanged, one launch does the
 * work of three. */
#include "drape_shared.h"

__kernel void predict_velocity(__global float4 *v, __global const float4 *x, float4 gravity,
                               float4 wind, float drag, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_apply_external(v[i], x[i].w, gravity, wind, drag, h);
}

__kernel void predict_displacement(__global float4 *d, __global const float4 *x, __global float4 *v,
                                   float h, uint n, int external, float4 gravity, float4 wind,
                                   float drag, int collide, __global dr_contact *contacts,
                                   __global const dr_collider *colliders, uint collider_count,
                                   float t, float margin, __global const float *inflate)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 xi = x[i], vi = v[i];
    if (external) {
        vi = dr_apply_external(vi, xi.w, gravity, wind, drag, h);
        v[i] = vi;
    }
    float4 di = dr_predict_displacement(xi, vi, h);
    d[i] = di;
    if (collide)
        contacts[i] =
            dr_generate_contact(xi, di, vi, colliders, collider_count, t, h, margin + inflate[i]);
}

/* Prediction: external forces, then (after the damping pass) the predicted displacements d = h v.
 * One work-item per particle. The maths is kernels/drape_shared.h's, the same the CPU runs. */
#include "drape_shared.h"

__kernel void predict_velocity(__global float4 *v, __global const float4 *x, float4 gravity,
                               float4 wind, float drag, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_apply_external(v[i], x[i].w, gravity, wind, drag, h);
}

__kernel void predict_displacement(__global float4 *d, __global const float4 *x,
                                   __global const float4 *v, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    d[i] = dr_predict_displacement(x[i], v[i], h);
}

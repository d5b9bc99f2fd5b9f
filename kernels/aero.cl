/* Aerodynamics in the prediction (kernels/drape_aero.h): one work-item per triangle computes its
 * lift and drag into `forces`, then one work-item per particle gathers a third of the force of each
 * of its triangles (a CSR adjacency) into its velocity, in the order the CPU reference sums them.
 */
#include "drape_aero.h"

__kernel void aero_forces(__global float4 *forces, __global const float4 *x,
                          __global const float4 *v, __global const uint *triangles, float4 coeff,
                          float4 flow, uint seed, float t, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    forces[k] = dr_aero_triangle(x, v, triangles, k, coeff, flow, seed, t);
}

__kernel void aero_apply(__global float4 *v, __global const float4 *x,
                         __global const float4 *forces, __global const uint *offsets,
                         __global const uint *incident, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_aero_apply(v[i], x[i].w, forces, incident, offsets[i], offsets[i + 1], h);
}

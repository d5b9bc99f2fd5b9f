/* Stable Neo-Hookean tetrahedra, one launch per colour like the other constraint kernels
 * (kernels/project.cl): a work-item per tetrahedron, the maths dr_solve_neo_hookean of
 * drape_shared.h. rest, material and materials are the generic arguments every constraint kernel
 * takes and are unused here; param holds DR_NEO_HOOKEAN_PARAMS floats per tetrahedron and lambda
 * DR_NEO_HOOKEAN_MULTIPLIERS multipliers. */
#include "drape_shared.h"

__kernel void solve_neo_hookean(__global const float4 *x, __global float4 *d,
                                __global const uint *idx, __global const float *rest,
                                __global const uint *material,
                                __global const dr_material *materials, __global float *lambda,
                                float inv_h2, float sag, uint offset, uint count,
                                __global const float *param)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k;
    uint4 q = vload4(c, idx);
    dr_solve_neo_hookean(x, d, q.x, q.y, q.z, q.w, &param[DR_NEO_HOOKEAN_PARAMS * c], inv_h2,
                         &lambda[DR_NEO_HOOKEAN_MULTIPLIERS * c]);
}

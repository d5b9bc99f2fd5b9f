/* Tetrahedral volume constraints, one launch per colour like the other constraint kernels
 * (kernels/project.cl): a work-item per tetrahedron, the maths dr_solve_volume of drape_shared.h;
 * rest holds 6 V0 (m^3). */
#include "drape_shared.h"

__kernel void solve_volume(__global const float4 *x, __global float4 *d, __global const uint *idx,
                           __global const float *rest, __global const uint *material,
                           __global const dr_material *materials, __global float *lambda,
                           float inv_h2, float sag, uint offset, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k;
    uint4 q = vload4(c, idx);
    dr_material m = materials[material[c]];
    dr_solve_volume(x, d, q.x, q.y, q.z, q.w, rest[c], m.kprime, m.compliance, inv_h2, &lambda[c]);
}

/* Per-element terms of the diagnostics the API exposes; CLBlast sums them
 * (host/opencl/opencl_step.c), in double where the device has it, as the CPU reference sums them
 * (and as the damping's sums are). */
#include "drape_shared.h"

__kernel void kinetic_energy(__global dr_wide *out, __global const float4 *x,
                             __global const float4 *v, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        out[i] = (dr_wide)dr_twice_kinetic(x[i], v[i]);
}

__kernel void distance_residual(__global dr_wide *out, __global const float4 *x,
                                __global const uint *idx, __global const float *rest, uint count)
{
    uint c = get_global_id(0);
    if (c < count)
        out[c] = (dr_wide)dr_distance_violation2(x[idx[2 * c]], x[idx[2 * c + 1]], rest[c]);
}

/* The state update: v = d / h, x = x + d, then restitution for particles in contact
 * (dr_update_particle in kernels/drape_shared.h). One work-item per particle. */
#include "drape_shared.h"

__kernel void update_state(__global float4 *x, __global float4 *v, __global const float4 *d,
                           __global const dr_contact *contacts,
                           __global const dr_collider *colliders, float h, float threshold,
                           int keep_free_velocity, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 di = d[i];
    v[i] = dr_update_particle(di, v[i], contacts[i], colliders, h, threshold, keep_free_velocity);
    x[i] = dr_add3(x[i], di);
}

/* Collision generation: one contact per particle, the ray x -> p against every collider
 * (the PBD paper, section 3.4, generateCollisionConstraints), the deepest collider winning
 * (dr_contact in kernels/drape_shared.h). A loose particle's radius (inflate) adds to the collision
 * margin. */
#include "drape_shared.h"

__kernel void generate_contacts(__global dr_contact *contacts, __global const float4 *x,
                                __global const float4 *d, __global const float4 *v,
                                __global const dr_collider *colliders, uint collider_count, float t,
                                float h, float margin, __global const float *inflate,
                                __global float4 *held, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    contacts[i] =
        dr_generate_contact(x[i], d[i], v[i], colliders, collider_count, t, h, margin + inflate[i]);
    held[i] = (float4)(0.0f); /* nothing pushed yet this substep (dr_project_contacts) */
}

/* The first substep after the user placed particles first .. end - 1: each of their contacts that
 * started inside owes its start's depth (dr_start_depth), which friction does not count. Launched
 * over end - first work-items. */
__kernel void placement_debt(__global float4 *held, __global const float4 *x,
                             __global const dr_contact *contacts,
                             __global const dr_collider *colliders, float h, uint first, uint end)
{
    uint i = first + get_global_id(0);
    if (i >= end)
        return;
    const float owed = dr_start_depth(x[i], contacts[i], colliders, h);
    if (owed > 0.0f)
        held[i].x = -owed;
}

/* Constraint projection, one launch per colour: the work-items of a launch take the constraints
 * [offset, offset + count) of one colour, which share no movable particle, so they write p without
 * races (Fratarcangeli & Pellacini, SIGRAD 2014). Then the contacts, one per particle. */
#include "drape_shared.h"

__kernel void solve_distance(__global float4 *p, __global const uint *idx,
                             __global const float *rest, __global const float *kprime,
                             __global const float *compliance, __global float *lambda,
                             float inv_h2, uint offset, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k;
    dr_solve_distance(p, idx[2 * c], idx[2 * c + 1], rest[c], kprime[c], compliance[c], inv_h2,
                      &lambda[c]);
}

__kernel void solve_dihedral(__global float4 *p, __global const uint *idx,
                             __global const float *rest, __global const float *kprime,
                             __global const float *compliance, __global float *lambda,
                             float inv_h2, uint offset, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k;
    dr_solve_dihedral(p, idx[4 * c], idx[4 * c + 1], idx[4 * c + 2], idx[4 * c + 3], rest[c],
                      kprime[c], compliance[c], inv_h2, &lambda[c]);
}

__kernel void solve_attachment(__global float4 *p, __global const uint *idx,
                               __global const float4 *target, __global const float *kprime,
                               __global const float *compliance, __global float *lambda,
                               float inv_h2, uint offset, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k;
    dr_solve_attachment(p, idx[c], target[c], kprime[c], compliance[c], inv_h2, &lambda[c]);
}

__kernel void project_contacts(__global float4 *p, __global const float4 *x,
                               __global const dr_contact *contacts,
                               __global const dr_collider *colliders, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    p[i] = dr_project_contact(p[i], x[i], contacts[i], colliders, h);
}

/* Contacts between particles on the device (kernels/drape_shared.h, "particle contacts"): the broad
 * phase by counting sort, once per substep, and the gather pass, once per iteration.
 *
 *   particle_cells    the velocity limit, each particle's bucket, the histogram (atomic_inc)
 *   scan_blocks       the sum of each block of DR_SCAN_BLOCK buckets
 *   scan_partials     one work-item: the exclusive scan of the block sums (a few thousand at most)
 *   scan_write        each block's bucket starts, and the fullest bucket (atomic_max)
 *   particle_scatter  each particle into its bucket, counting the histogram back down (atomic_dec)
 *   particle_count    after the collider contacts: each particle's contact candidates (a list of
 *                     up to DR_NBR_CAP) and its contacts at the substep's start
 *   particle_gather   each particle's push-out, into a second buffer; particle_apply copies it back
 *   particle_bounce   after the update, restitution between particles (into the same second
 *                     buffer, which particle_apply copies into the velocities)
 *
 * Only integers meet atomics; the order the scatter leaves a bucket in does not change the gather's
 * result, whose sums are in fixed point. When a bucket holds more than DR_CELL_CAP particles the
 * count and gather kernels do nothing, and the host reports it after the step. */
#include "drape_shared.h"

#define DR_SCAN_BLOCK 256u

__kernel void particle_cells(__global float4 *d, __global const float4 *x, __global float4 *anchor,
                             __global const float4 *shape, __global uint *cell,
                             __global uint *counts, __global float *support,
                             __global const uint *nbr, float4 up, float cap, float inv_cell,
                             uint mask, float travel, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 s = shape[i];
    if (!(s.w > 0.0f)) {
        cell[i] = DR_NO_CELL;
        return;
    }
    float lift = support[i];
    float4 di = dr_limit_travel(dr_support_lift(d[i], &lift, nbr[i], up, cap), travel * s.w);
    support[i] = lift;
    d[i] = di;
    float4 p = dr_add3(x[i], di);
    anchor[i] = p;
    uint b = dr_particle_bucket(p, inv_cell, mask);
    cell[i] = b;
    atomic_inc(&counts[b]);
}

__kernel void scan_blocks(__global const uint *counts, __global uint *partial, uint buckets)
{
    uint first = get_global_id(0) * DR_SCAN_BLOCK;
    if (first >= buckets)
        return;
    uint end = min(first + DR_SCAN_BLOCK, buckets), sum = 0u;
    for (uint j = first; j < end; ++j)
        sum += counts[j];
    partial[get_global_id(0)] = sum;
}

__kernel void scan_partials(__global uint *partial, __global uint *start, uint blocks, uint buckets)
{
    if (get_global_id(0) != 0u)
        return;
    uint sum = 0u;
    for (uint k = 0u; k < blocks; ++k) {
        uint t = partial[k];
        partial[k] = sum;
        sum += t;
    }
    start[buckets] = sum;
}

__kernel void scan_write(__global const uint *counts, __global const uint *partial,
                         __global uint *start, __global uint *fullest, uint buckets)
{
    uint first = get_global_id(0) * DR_SCAN_BLOCK;
    if (first >= buckets)
        return;
    uint end = min(first + DR_SCAN_BLOCK, buckets), sum = partial[get_global_id(0)], most = 0u;
    for (uint j = first; j < end; ++j) {
        uint c = counts[j];
        start[j] = sum;
        sum += c;
        most = max(most, c);
    }
    atomic_max(fullest, most);
}

__kernel void particle_scatter(__global const uint *cell, __global const uint *start,
                               __global uint *counts, __global uint *sorted, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint b = cell[i];
    if (b == DR_NO_CELL)
        return;
    sorted[start[b] + atomic_dec(&counts[b]) - 1u] = i;
}

__kernel void particle_count(__global const float4 *anchor, __global const float4 *shape,
                             __global const uint *group, __global uint *nbr, __global uint *ncand,
                             __global uint *list, __global const uint *start,
                             __global const uint *sorted, __global const uint *fullest,
                             float inv_cell, uint mask, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint found = 0u, count = 0u;
    if (fullest[0] <= DR_CELL_CAP)
        count = dr_particle_candidates(i, anchor, shape, group, start, sorted, inv_cell, mask, list,
                                       &found);
    nbr[i] = found;
    ncand[i] = count;
}

__kernel void particle_gather(__global float4 *dnew, __global float *support,
                              __global const float4 *x, __global const float4 *d,
                              __global const float4 *anchor, __global const float4 *shape,
                              __global const uint *group, __global const dr_contact *contacts,
                              __global const uint *nbr, __global const uint *ncand,
                              __global const uint *list, __global const uint *start,
                              __global const uint *sorted, __global const uint *fullest,
                              float inv_cell, uint mask, float mu_s, float mu_k, float relax,
                              float4 up, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint found;
    if (!(fullest[0] <= DR_CELL_CAP)) {
        dnew[i] = d[i];
        return;
    }
    float4 di = dr_particle_gather(i, x, d, anchor, shape, group, contacts, nbr, ncand, list, start,
                                   sorted, inv_cell, mask, mu_s, mu_k, relax, up, &found);
    dnew[i] = di;
    support[i] = dr_support_add(support[i], di, d[i], up);
}

__kernel void particle_bounce(__global float4 *vnew, __global const float4 *x,
                              __global const float4 *v, __global const float4 *vpre,
                              __global const float4 *shape, __global const uint *group,
                              __global const dr_contact *contacts, __global const uint *nbr,
                              __global const uint *ncand, __global const uint *list,
                              __global const uint *fullest, float e, float slow, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    vnew[i] = fullest[0] <= DR_CELL_CAP ? dr_particle_bounce(i, x, v, vpre, shape, group, contacts,
                                                             nbr, ncand, list, e, slow)
                                        : v[i];
}

__kernel void particle_apply(__global float4 *d, __global const float4 *dnew, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        d[i] = dnew[i];
}

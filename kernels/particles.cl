/* Contacts between particles on the device (kernels/drape_shared.h, "particle contacts"): the broad
 * phase by counting sort, once per substep, and the gather pass, once per iteration.
 *
 *   particle_cells    the velocity limit, each particle's bucket, the histogram (atomic_inc, whose
 *                     old value is the particle's rank in its bucket), and its contact pass
 *                     (pass_of, one byte, which the gathers read for each candidate)
 *   scan_blocks       one work-group per tile of DR_SCAN_TILE buckets: the tile's sum
 *   scan_partials     one work-group: the exclusive scan of the tile sums
 *   scan_write        one work-group per tile: its bucket starts, and the fullest bucket
 *   particle_scatter  each particle into its bucket at its rank (no atomics); particles without
 *                     a radius go to a spare bucket after the table's, so that `sorted` orders
 *                     them all
 *   particle_pass_count, then the three scan kernels, particle_pass_scatter: with per-pass
 *                     member lists (dr_cl_tunables.particle_pass_lists), each contact pass's
 *                     particles (dr_contact_pass of their anchors) listed in index order, by a
 *                     stable counting sort over chunks of DR_PASS_CHUNK particles
 *   particle_count    after the collider contacts: each particle's contact candidates (a list of
 *                     up to DR_NBR_CAP) and its contacts at the substep's start; or
 *   particle_count_half  the same lists and counts from a walk over half of the cells, each pair
 *                     tested once and appended to both lists by integer atomics (CPU devices)
 *   particle_rests    DR_REST_ROUNDS times: each particle's rest flag from its candidates' flags
 *                     of the round before (dr_particle_rests), into the other of two buffers
 *   particle_gather   each particle's push-out, into a second buffer, which particle_apply copies
 *                     back; under gravity once per contact pass, each pass writing only its own
 *                     particles and reading the others' from the second buffer when their pass
 *                     came before (no copy of the particles of other passes). With the member
 *                     lists each launch covers its pass's members only, and particle_apply_listed
 *                     copies the members back; without them every launch covers all particles
 *                     and the others return at once
 *   particle_bounce   after the update, restitution between particles (into the same second
 *                     buffer, which particle_apply copies into the velocities)
 *
 * With `by_grid` the work-items of particle_count take the particles in the grid's order
 * (work-item t: particle sorted[t]), so that neighbouring work-items walk neighbouring cells and
 * read the same particles: on GPUs, where a warp's reads then meet in the caches. Each particle's
 * result is the same either way. The gather and restitution passes, which read their own
 * particle's list and state more than the grid, keep index order (faster for both on an H100).
 * With the member lists (`listed`) particle_count and particle_bounce take the members in the
 * pass order (work-item t: member t), and a particle's candidate list is kept in the row of its
 * place there, so that each pass's gather reads its members' lists in one sweep; without them in
 * row i.
 *
 * Only integers meet atomics; the order the histogram's atomics leave a bucket in does not change
 * the gather's result, whose sums are in fixed point. When a bucket holds more than the plan's cap
 * (fullest[2], dr_grid_fits) the count and gather kernels do nothing, and the host reports it
 * after the step. */
#include "drape_shared.h"

__kernel void particle_cells(__global float4 *d, __global const float4 *x, __global float4 *anchor,
                             __global const float4 *shape, __global uint *cell,
                             __global uint *counts, __global uint *rank, __global float *support,
                             __global float *lift, __global const uint *nbr,
                             __global const uint *group, __global uchar *pass_of,
                             __global const uint *rests, float4 up, float cap, float inv_cell,
                             uint mask, float travel, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 s = shape[i];
    if (!(s.w > 0.0f)) { /* no contacts: the spare bucket, mask + 1 */
        cell[i] = mask + 1u;
        rank[i] = atomic_inc(&counts[mask + 1u]);
        return;
    }
    float held = support[i], lifted = 0.0f;
    float4 di = dr_limit_travel(
        dr_support_lift(d[i], &held, &lifted, nbr[i], up, cap, group[i], rests[i]), travel * s.w);
    support[i] = held;
    lift[i] = lifted;
    d[i] = di;
    float4 p = dr_add3(x[i], di);
    anchor[i] = p;
    pass_of[i] = (uchar)dr_contact_pass(p, up, inv_cell); /* 0 without gravity (up = 0) */
    uint b = dr_particle_bucket(p, inv_cell, mask);
    cell[i] = b;
    rank[i] = atomic_inc(&counts[b]);
}

/* The scan runs in tiles of DR_SCAN_TILE buckets, one work-group per tile: the work-items read
 * and write the tile coalesced (item l takes entries l, l + DR_WG_SIZE, ...), and the sums across
 * the work-group go through local memory. Any work-group size works; the tunables pick it. */
#define DR_SCAN_PER 8u
#define DR_SCAN_TILE (DR_SCAN_PER * DR_WG_SIZE)
#define DR_SCAN_SLOT(e)                                                                            \
    ((e) + (e) / DR_SCAN_PER) /* a tile entry in local memory, padded so that                      \
                                 the per-item runs hit distinct banks */

/* The inclusive prefix sum of each work-item's v over its work-group, in the fixed order of the
 * Hillis-Steele scan (integers: any order gives the same sums). tmp holds DR_WG_SIZE entries. */
static uint group_inclusive_scan(uint v, __local uint *tmp)
{
    uint l = get_local_id(0);
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1u; off < DR_WG_SIZE; off <<= 1) {
        uint add = l >= off ? tmp[l - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[l] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint out = tmp[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    return out;
}

/* partial[g] = the sum of tile g's buckets. */
__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
scan_blocks(__global const uint *counts, __global uint *partial, uint buckets)
{
    __local uint tmp[DR_WG_SIZE];
    uint g = get_group_id(0), l = get_local_id(0), first = g * DR_SCAN_TILE, sum = 0u;
    for (uint k = 0u; k < DR_SCAN_PER; ++k) {
        uint j = first + k * DR_WG_SIZE + l;
        sum += j < buckets ? counts[j] : 0u;
    }
    sum = group_inclusive_scan(sum, tmp);
    if (l == DR_WG_SIZE - 1u)
        partial[g] = sum;
}

/* One work-group: the exclusive scan of the tile sums in place, DR_WG_SIZE at a time, and the
 * total into start[buckets]. With `reset` (the step's first grid) the fullest bucket starts again
 * from 0, before scan_write takes its maximum: no write from the host between steps. */
__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
scan_partials(__global uint *partial, __global uint *start, __global uint *fullest, uint reset,
              uint blocks, uint buckets)
{
    __local uint tmp[DR_WG_SIZE];
    uint l = get_local_id(0), carry = 0u;
    if (reset != 0u && l == 0u)
        fullest[0] = 0u;
    for (uint first = 0u; first < blocks; first += DR_WG_SIZE) {
        uint j = first + l, v = j < blocks ? partial[j] : 0u;
        uint inclusive = group_inclusive_scan(v, tmp);
        if (j < blocks)
            partial[j] = carry + inclusive - v;
        tmp[l] = inclusive;
        barrier(CLK_LOCAL_MEM_FENCE);
        carry += tmp[DR_WG_SIZE - 1u];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0u)
        start[buckets] = carry;
}

/* Tile g's bucket starts (its offset from scan_partials plus the exclusive scan of its counts), and
 * the fullest of the first `counted` buckets (one atomic_max per tile). Work-item l scans entries l
 * * DR_SCAN_PER ... of the tile, which it takes from local memory after a coalesced load. */
__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
scan_write(__global const uint *counts, __global const uint *partial, __global uint *start,
           __global uint *fullest, uint buckets, uint counted)
{
    __local uint tile[DR_SCAN_TILE + DR_WG_SIZE];
    __local uint tmp[DR_WG_SIZE];
    uint g = get_group_id(0), l = get_local_id(0), first = g * DR_SCAN_TILE;
    for (uint k = 0u; k < DR_SCAN_PER; ++k) {
        uint j = first + k * DR_WG_SIZE + l;
        tile[DR_SCAN_SLOT(k * DR_WG_SIZE + l)] = j < buckets ? counts[j] : 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0u, most = 0u;
    for (uint k = 0u; k < DR_SCAN_PER; ++k) {
        uint c = tile[DR_SCAN_SLOT(l * DR_SCAN_PER + k)];
        sum += c;
        most = first + l * DR_SCAN_PER + k < counted ? max(most, c) : most;
    }
    uint run = partial[g] + group_inclusive_scan(sum, tmp) - sum;
    for (uint k = 0u; k < DR_SCAN_PER; ++k) {
        uint c = tile[DR_SCAN_SLOT(l * DR_SCAN_PER + k)];
        tile[DR_SCAN_SLOT(l * DR_SCAN_PER + k)] = run;
        run += c;
    }
    tmp[l] = most;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0u; k < DR_SCAN_PER; ++k) {
        uint j = first + k * DR_WG_SIZE + l;
        if (j < buckets)
            start[j] = tile[DR_SCAN_SLOT(k * DR_WG_SIZE + l)];
    }
    if (l == 0u) {
        for (uint k = 1u; k < DR_WG_SIZE; ++k)
            most = max(most, tmp[k]);
        atomic_max(fullest, most);
    }
}

/* The same scan for CPU devices (dr_cl_tunables.particle_scan_serial): one work-item per tile,
 * which it goes through in order, where the work-group scans above pay for their barriers (PoCL
 * splits a kernel at each one). The same tiles, partial sums, starts and fullest bucket. Launched
 * over at least as many work-items as tiles; the rest return at once. */
__kernel void scan_blocks_serial(__global const uint *counts, __global uint *partial, uint buckets)
{
    uint g = get_global_id(0), first = g * DR_SCAN_TILE, sum = 0u;
    if (first >= buckets)
        return;
    for (uint j = first, end = min(buckets, first + DR_SCAN_TILE); j < end; ++j)
        sum += counts[j];
    partial[g] = sum;
}

__kernel void scan_write_serial(__global const uint *counts, __global const uint *partial,
                                __global uint *start, __global uint *fullest, uint buckets,
                                uint counted)
{
    uint g = get_global_id(0), first = g * DR_SCAN_TILE, most = 0u;
    if (first >= buckets)
        return;
    uint run = partial[g];
    for (uint j = first, end = min(buckets, first + DR_SCAN_TILE); j < end; ++j) {
        uint c = counts[j];
        start[j] = run;
        run += c;
        most = j < counted ? max(most, c) : most;
    }
    atomic_max(fullest, most);
}

/* Each particle into its bucket at the rank its histogram increment returned (no atomics here), and
 * its anchor and radius into grid_anchor and its group into grid_group there (dr_walk_next). */
__kernel void particle_scatter(__global const uint *cell, __global const uint *rank,
                               __global const uint *start, __global uint *sorted,
                               __global const float4 *anchor, __global const float4 *shape,
                               __global const uint *group, __global float4 *grid_anchor,
                               __global uint *grid_group, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint k = start[cell[i]] + rank[i];
    sorted[k] = i;
    grid_anchor[k] = (float4)(anchor[i].xyz, shape[i].w);
    grid_group[k] = group[i];
}

/* The member lists of the contact passes, step 1: work-item c counts the particles with a radius
 * of chunk c (indices c * DR_PASS_CHUNK ...) by pass, into counts[pass * chunks + c], so that the
 * exclusive scan of counts (scan_blocks, scan_partials, scan_write) orders them pass by pass, then
 * chunk by chunk. */
__kernel void particle_pass_count(__global const uchar *pass_of, __global const float4 *shape,
                                  __global uint *counts, uint chunks, uint n)
{
    uint c = get_global_id(0);
    if (c >= chunks)
        return;
    uint count[DR_CONTACT_PASSES];
    for (uint p = 0u; p < DR_CONTACT_PASSES; ++p)
        count[p] = 0u;
    const uint end = min(n, (c + 1u) * DR_PASS_CHUNK);
    for (uint i = c * DR_PASS_CHUNK; i < end; ++i)
        if (shape[i].w > 0.0f)
            count[pass_of[i]]++;
    for (uint p = 0u; p < DR_CONTACT_PASSES; ++p)
        counts[p * chunks + c] = count[p];
}

/* Step 2, after the scan: chunk c's members of each pass into members[], in index order from
 * start[pass * chunks + c], and no contacts for the others (nbr, ncand); with the half shells'
 * search (half_shells) also each member's place into row_of[i] (the row of its candidate list) and
 * its counts zeroed, which that search's appends count from; and first[p] = the first member of
 * pass p, first[DR_CONTACT_PASSES] their total (start[DR_CONTACT_PASSES * chunks], the scan's
 * total), which the host reads. */
__kernel void particle_pass_scatter(__global const uchar *pass_of, __global const float4 *shape,
                                    __global const uint *start, __global uint *members,
                                    __global uint *nbr, __global uint *ncand, __global uint *first,
                                    __global uint *row_of, uint chunks, uint half_shells, uint n)
{
    uint c = get_global_id(0);
    if (c >= chunks)
        return;
    uint at[DR_CONTACT_PASSES];
    for (uint p = 0u; p < DR_CONTACT_PASSES; ++p)
        at[p] = start[p * chunks + c];
    const uint end = min(n, (c + 1u) * DR_PASS_CHUNK);
    for (uint i = c * DR_PASS_CHUNK; i < end; ++i) {
        const int member = shape[i].w > 0.0f;
        if (member) {
            uint k = at[pass_of[i]]++;
            members[k] = i;
            if (half_shells)
                row_of[i] = k; /* the inverse: i's place, for particle_count_half */
        }
        if (half_shells || !member) {
            nbr[i] = 0u; /* particle_count, over the members, leaves the others' counts; the
                          * half shells' appends count everyone's from 0 */
            ncand[i] = 0u;
        }
    }
    if (c == 0u)
        for (uint p = 0u; p <= DR_CONTACT_PASSES; ++p)
            first[p] = start[p * chunks];
}

__kernel void particle_count(__global const float4 *grid_anchor, __global const uint *grid_group,
                             __global const float4 *anchor, __global const float4 *shape,
                             __global const uint *group, __global uint *nbr, __global uint *ncand,
                             __global uint *list, __global const uint *start,
                             __global const uint *sorted, __global const uint *fullest,
                             __global const uint *members, float inv_cell, uint mask, uint by_grid,
                             uint listed, uint n)
{
    /* listed: work-item t takes member t of the pass order (n: the members), its list in row t */
    uint t = get_global_id(0);
    if (t >= n)
        return;
    uint i = listed ? members[t] : by_grid ? sorted[t] : t, found = 0u, count = 0u;
    if (dr_grid_fits(fullest) && shape[i].w > 0.0f)
        count = dr_particle_candidates(i, listed ? t : i, grid_anchor, grid_group, anchor, shape,
                                       group, start, sorted, inv_cell, mask, list, &found);
    nbr[i] = found;
    ncand[i] = count;
}

/* The candidate search over half shells (dr_cl_tunables.particle_search_half, CPU devices): each
 * particle walks the cells after its own (dr_walk_begin_half), so that each pair is tested once,
 * and appends the pair to both lists, and a pair within its collision distance to both contact
 * counts, with atomic_inc (ncand and nbr zeroed before the launch: by particle_pass_scatter with
 * the member lists, else by two fills). The lists then hold the
 * candidates of dr_particle_candidates in an order that depends on the threads' timing, and the
 * counts are the same: every reader of the lists sums in fixed point or counts, so its result does
 * not depend on that order. j's list is in the row of its place in the pass order (row_of, written
 * by particle_pass_scatter) with the member lists (listed), else in row j. */
__kernel void particle_count_half(__global const float4 *grid_anchor,
                                  __global const uint *grid_group, __global const float4 *anchor,
                                  __global const float4 *shape, __global const uint *group,
                                  __global uint *nbr, __global uint *ncand, __global uint *list,
                                  __global const uint *start, __global const uint *sorted,
                                  __global const uint *fullest, __global const uint *members,
                                  __global const uint *rank, __global const uint *row_of,
                                  float inv_cell, uint mask, uint by_grid, uint listed, uint n)
{
    uint t = get_global_id(0);
    if (t >= n)
        return;
    uint i = listed ? members[t] : by_grid ? sorted[t] : t;
    if (!(dr_grid_fits(fullest)) || !(shape[i].w > 0.0f))
        return;
    const uint row = listed ? t : i;
    dr_cell_walk walk;
    dr_walk_begin_half(&walk, i, rank[i], anchor, shape, group, inv_cell, mask, start);
    for (uint j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted);
         j != DR_NO_CELL;
         j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted)) {
        dr_list_put(list, row, atomic_inc(&ncand[i]), j);
        dr_list_put(list, listed ? row_of[j] : j, atomic_inc(&ncand[j]), i);
        if (dr_walk_touching(&walk)) {
            atomic_inc(&nbr[i]);
            atomic_inc(&nbr[j]);
        }
    }
}

/* After the candidates: each particle's rest flag (dr_particle_rests) into after[i], from the
 * substep before's flags in before; the host swaps the two buffers. Work-items as particle_count's
 * (listed: member t, its list in row t). */
__kernel void particle_rests(__global uint *after, __global const uint *before,
                             __global const float4 *x, __global const dr_contact *contacts,
                             __global const float4 *grid_anchor, __global const uint *grid_group,
                             __global const float4 *anchor, __global const float4 *shape,
                             __global const uint *group, __global const uint *ncand,
                             __global const uint *list, __global const uint *start,
                             __global const uint *sorted, __global const uint *fullest,
                             __global const uint *members, float4 up, float inv_cell, uint mask,
                             uint listed, uint n)
{
    uint t = get_global_id(0);
    if (t >= n)
        return;
    uint i = listed ? members[t] : t;
    if (!(shape[i].w > 0.0f))
        return;
    after[i] = dr_grid_fits(fullest)
                   ? dr_particle_rests(i, listed ? t : i, ncand[i], list, grid_anchor, grid_group,
                                       anchor, shape, group, start, sorted, inv_cell, mask, before,
                                       x[i], contacts[i], up)
                   : before[i];
}

__kernel void particle_gather(
    __global float4 *dnew, __global float *support, __global const float4 *x,
    __global const float4 *d, __global const float4 *grid_anchor, __global const uint *grid_group,
    __global const float4 *anchor, __global const float4 *shape, __global const uint *group,
    __global const dr_contact *contacts, __global const uint *nbr, __global const uint *ncand,
    __global const uint *list, __global const uint *start, __global const uint *sorted,
    __global const uint *fullest, __global const uchar *pass_of, float inv_cell, uint mask,
    float mu_s, float mu_k, float relax, float4 up, __global const float *lift,
    uint first_iteration, __global const uint *members, uint listed, __global const float4 *vpre,
    float fast, __global const uint *rests, uint first, uint pass, uint n)
{
    /* listed: work-item t takes member first + t of the pass's list (n: the pass's members);
     * otherwise particle t of all n. The host sets the arguments up to listed once per iteration,
     * and first, pass and n per pass. */
    uint t = get_global_id(0), found;
    if (t >= n)
        return;
    uint i = listed ? members[first + t] : t;
    /* a particle outside the contacts keeps its displacement (written once, in the first pass; a
     * listed one, whose contacts are off for the step, in its own); a particle of another contact
     * pass (dr_contact_pass) is written in its own */
    if (!(dr_grid_fits(fullest)) || !(shape[i].w > 0.0f)) {
        if (pass == 0u || listed)
            dnew[i] = d[i];
        return;
    }
    if (!listed && pass_of[i] != pass)
        return;
    float4 di = dr_particle_gather(i, x, d, grid_anchor, grid_group, anchor, shape, group, contacts,
                                   nbr, ncand, list, listed ? first + t : i, start, sorted,
                                   inv_cell, mask, mu_s, mu_k, relax, up, lift, first_iteration,
                                   dnew, pass_of, pass, vpre, fast, rests, &found);
    dnew[i] = di;
    support[i] = dr_support_add(support[i], di, d[i], up);
}

__kernel void particle_bounce(__global float4 *vnew, __global const float4 *x,
                              __global const float4 *v, __global const float4 *d,
                              __global const float4 *vpre, __global const float4 *shape,
                              __global const uint *group, __global const dr_contact *contacts,
                              __global const uint *nbr, __global const uint *ncand,
                              __global const uint *list, __global const uint *fullest,
                              __global const uint *members, uint listed, float e, float slow,
                              float mu_s, float mu_k, float4 g, float h, uint n,
                              __global float *applied, __global float *wall, __global uchar *moved,
                              uint total, uint round, uint placed_first, uint placed_count)
{
    /* listed: work-item t takes member t (n: the members), as particle_count did */
    uint t = get_global_id(0);
    if (t >= n)
        return;
    uint i = listed ? members[t] : t;
    /* with restitution, whether each particle's velocity changed: round r reads the flags of
     * round r - 1 from one half of `moved` and writes its own to the other */
    float4 vi = v[i];
    float4 out = dr_grid_fits(fullest)
                     ? dr_particle_bounce(i, x, v, d, vpre, shape, group, contacts, nbr, ncand,
                                          list, listed ? t : i, e, slow, mu_s, mu_k, g, h, applied,
                                          wall, moved + ((round + 1u) & 1u) * total, round,
                                          placed_first, placed_count)
                     : vi;
    vnew[i] = out;
    if (e > 0.0f)
        moved[(round & 1u) * total + i] = dr_bounce_moved(vi, out);
}

/* The largest dr_substeps_needed of the particles with a radius, as its float's bits, into out[1]
 * (zero before; out[0] is the fullest bucket), for the next step's substeps
 * (host/adaptive_substeps.c): a grid-stride loop, the work-group's largest found by its first
 * work-item, and one atomic_max per work-group (one per work-item took 0.5 ms a step at 65 536
 * balls on PoCL, the atomics contending). */
__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
particle_speed(__global const float4 *v, __global const float4 *shape, __global uint *out,
               float g_dt, float dt, float travel, uint n)
{
    __local uint group_most[DR_WG_SIZE];
    uint most = 0u;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        float q = dr_substeps_needed(v[i], shape[i].w, g_dt, dt, travel);
        if (q > 0.0f && as_uint(q) > most)
            most = as_uint(q);
    }
    group_most[get_local_id(0)] = most;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0u) {
        for (uint k = 1u; k < DR_WG_SIZE; ++k)
            most = max(most, group_most[k]);
        if (most != 0u)
            atomic_max(out + 1, most);
    }
}

__kernel void particle_apply(__global float4 *d, __global const float4 *dnew, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        d[i] = dnew[i];
}

/* The members' results back after the contact passes: d[i] = dnew[i] for the first n members. */
__kernel void particle_apply_listed(__global float4 *d, __global const float4 *dnew,
                                    __global const uint *members, uint n)
{
    uint t = get_global_id(0);
    if (t < n) {
        uint i = members[t];
        d[i] = dnew[i];
    }
}

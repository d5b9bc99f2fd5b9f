/* Momentum-preserving damping on the device (Müller et al. 2007, section 3.5), body by body
 * (host/bodies.c).
 *
 * A world of one body (every movable particle in it): damp_moments computes each particle's row of
 * mass moments (kernels/drape_shared.h) about the position of particle `origin` and sums the rows
 * of its work group in local memory, in a fixed tree order (every component the same); CLBlast's
 * GEMV then sums the work groups' rows (the global reduction); damp_solve, a single work-item,
 * turns the sums into the rigid motion; damp_apply pulls each velocity towards it.
 *
 * A world of several bodies: one GEMV cannot sum segments, so the bodies' particles come in tiles
 * of one work group each, a body's tiles in a run (the host pads each body's last tile with
 * DR_NO_PARTICLE). damp_body_moments sums each tile's rows as damp_moments does; damp_body_solve,
 * one work group per body, sums the body's tiles (each work-item a stride of them, then the same
 * tree) and turns them into the body's rigid motion; damp_body_apply pulls each particle towards
 * its body's.
 *
 * Nothing leaves the device. The sums are doubles where the device has it, as on the CPU, so that
 * the summation order barely matters: both backends round the same double sums to the same floats,
 * which keeps them in parity on folding cloth, where a one-ulp difference would grow. */
#include "drape_shared.h"

#if (DR_WG_SIZE & (DR_WG_SIZE - 1)) != 0
#error "damp_moments needs a power-of-two work-group size"
#endif

/* Sums the rows of a work group (row: this work-item's) into part[c * DR_WG_SIZE] in a fixed tree
 * order: one tree for all the components at once, so that a CPU device, which runs each stretch
 * between barriers as a loop over the work group, takes log2(DR_WG_SIZE) + 1 of them rather than
 * DR_DAMP_ROW times as many (20 KiB of local memory at 128 work-items). */
static void group_rows(__local dr_wide *part, const dr_wide *row)
{
    uint l = get_local_id(0);
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        part[c * DR_WG_SIZE + l] = row[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = DR_WG_SIZE / 2; s > 0; s >>= 1) {
        if (l < s)
            for (int c = 0; c < DR_DAMP_ROW; ++c)
                part[c * DR_WG_SIZE + l] += part[c * DR_WG_SIZE + l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The row of particle i (none: DR_NO_PARTICLE or past n) about origin, widened. */
static void particle_row(dr_wide *wide, __global const float4 *x, __global const float4 *v, uint i,
                         uint n, float4 origin)
{
    float row[DR_DAMP_ROW];
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        row[c] = 0.0f;
    if (i < n)
        dr_damp_moments(x[i], v[i], origin, row);
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        wide[c] = (dr_wide)row[c];
}

/* partials[group][c]: the sums of the group's rows. */
static void store_group(__global dr_wide *partials, __local const dr_wide *part)
{
    for (uint c = get_local_id(0); c < DR_DAMP_ROW; c += DR_WG_SIZE)
        partials[get_group_id(0) * DR_DAMP_ROW + c] = part[c * DR_WG_SIZE];
}

__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
damp_moments(__global dr_wide *partials, __global const float4 *x, __global const float4 *v,
             uint origin, uint n)
{
    __local dr_wide part[DR_DAMP_ROW * DR_WG_SIZE];
    dr_wide row[DR_DAMP_ROW];
    particle_row(row, x, v, get_global_id(0), n, x[origin]);
    group_rows(part, row);
    store_group(partials, part);
}

/* Tile t holds slots[t * DR_WG_SIZE ..] of body tile_body[t], whose first tile is
 * body_tiles[body] and whose first particle (slots[body_tiles[body] * DR_WG_SIZE]) is its
 * origin. */
static uint body_origin(__global const uint *slots, __global const uint *body_tiles, uint body)
{
    return slots[body_tiles[body] * DR_WG_SIZE];
}

__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
damp_body_moments(__global dr_wide *partials, __global const float4 *x, __global const float4 *v,
                  __global const uint *slots, __global const uint *tile_body,
                  __global const uint *body_tiles, uint n)
{
    __local dr_wide part[DR_DAMP_ROW * DR_WG_SIZE];
    const uint body = tile_body[get_group_id(0)];
    dr_wide row[DR_DAMP_ROW];
    particle_row(row, x, v, slots[get_global_id(0)], n, x[body_origin(slots, body_tiles, body)]);
    group_rows(part, row);
    store_group(partials, part);
}

/* rigid[3 body ..]: the body's centre of mass, its velocity, omega (dr_rigid_motion). */
__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
damp_body_solve(__global float4 *rigid, __global const dr_wide *partials, __global const float4 *x,
                __global const uint *slots, __global const uint *body_tiles)
{
    __local dr_wide part[DR_DAMP_ROW * DR_WG_SIZE];
    const uint body = get_group_id(0);
    dr_wide row[DR_DAMP_ROW];
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        row[c] = 0.0;
    for (uint t = body_tiles[body] + get_local_id(0); t < body_tiles[body + 1]; t += DR_WG_SIZE)
        for (int c = 0; c < DR_DAMP_ROW; ++c)
            row[c] += partials[t * DR_DAMP_ROW + c];
    group_rows(part, row);
    if (get_local_id(0) != 0)
        return;
    dr_wide s[DR_DAMP_ROW];
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        s[c] = part[c * DR_WG_SIZE];
    float4 out[3];
    dr_rigid_motion(s, x[body_origin(slots, body_tiles, body)], out);
    for (int k = 0; k < 3; ++k)
        rigid[3 * body + k] = out[k];
}

__kernel void damp_body_apply(__global float4 *v, __global const float4 *x,
                              __global const float4 *rigid, __global const uint *slots,
                              __global const uint *tile_body, float k, uint slot_count)
{
    const uint s = get_global_id(0);
    if (s >= slot_count || slots[s] == DR_NO_PARTICLE)
        return;
    const uint i = slots[s], body = tile_body[s / DR_WG_SIZE];
    v[i] =
        dr_damp_velocity(v[i], x[i], rigid[3 * body], rigid[3 * body + 1], rigid[3 * body + 2], k);
}

/* rigid[0..2] = centre of mass, its velocity, omega. */
__kernel void damp_solve(__global float4 *rigid, __global const dr_wide *sums,
                         __global const float4 *x, uint origin)
{
    if (get_global_id(0) != 0)
        return;
    dr_wide s[DR_DAMP_ROW];
    for (int k = 0; k < DR_DAMP_ROW; ++k)
        s[k] = sums[k];
    float4 out[3];
    dr_rigid_motion(s, x[origin], out);
    rigid[0] = out[0];
    rigid[1] = out[1];
    rigid[2] = out[2];
}

__kernel void damp_apply(__global float4 *v, __global const float4 *x, __global const float4 *rigid,
                         float k, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_damp_velocity(v[i], x[i], rigid[0], rigid[1], rigid[2], k);
}

/* Contacts between particles on the OpenCL backend: the buffers and launches of
 * kernels/particles.cl, which host/opencl/opencl_step.c calls once per substep (the grid) and once
 * per iteration (the gather). The CPU reference (host/cpu/particle_contacts.c) runs the same
 * kernels/drape_shared.h maths in the same order, and the two agree bitwise (opencl.parity).
 *
 * Launches per substep: a fill and particle_cells, scan_blocks, scan_partials, scan_write,
 * particle_scatter, then after the collider contacts particle_count and DR_REST_ROUNDS launches of
 * particle_rests (10 kernels); per iteration
 * particle_gather and particle_apply (under gravity particle_gather once per contact pass,
 * DR_CONTACT_PASSES, each writing its own particles to the gather output); after the update, with
 * restitution, particle_bounce and particle_apply (and a copy of the velocities after the
 * prediction when the grid is built). Device memory: per particle 16 B shape, 4 B group, 4 B cell,
 * 4 B rank in the cell, 4 B sorted index, 4 B count, 4 B candidate count, 16 B anchor (and 16 B
 * with 4 B of group in the grid's order), 16 B gather output, 1 B contact pass, 4 B per candidate
 * slot (DR_NBR_CAP of them), 8 B of rest flags (two buffers); per bucket 8 B (histogram and
 * starts), about two buckets per particle, and a spare bucket for the particles without a radius;
 * the scan's tile sums, 4 B per SCAN_PER x the work-group size buckets. The candidate search takes
 * the particles in the grid's order on GPUs (dr_cl_tunables.particles_by_grid); on other devices
 * the scans take a work-item per tile rather than a work-group
 * (dr_cl_tunables.particle_scan_serial), and the candidate search walks half of the cells, each
 * pair once, with particle_count_half in place of particle_count
 * (dr_cl_tunables.particle_search_half; two fills zero the counts first, unless
 * particle_pass_scatter does it). The step reads two integers back: the fullest bucket (the next
 * step's first grid build resets it on the device) and, where fast particles may split a step
 * (host/adaptive_substeps.c), after a fill and particle_speed at the end of each step, the next
 * step's measure of speed; steps are then read one by one.
 *
 * With the contact passes' member lists (dr_cl_tunables.particle_pass_lists, CPU devices) the grid
 * build also runs particle_pass_count, the three scan kernels on the passes' counts and
 * particle_pass_scatter (5 more launches per substep), and each substep reads 17 integers back
 * (each pass's first member and their total) before the candidate search, which, the gathers and
 * restitution then launch over the members alone; particle_apply_listed copies the members'
 * results back. Memory: 8 B per particle (the members and each one's place among them, the row of
 * its candidate list, which the half shells' appends read) and 8 B per pass and chunk of
 * DR_PASS_CHUNK particles (counts and starts, 2 B per particle).
 */
#include "world_internal.h"

#include "dr_cl.h"

#include <stdlib.h>

#define SCAN_PER 8u /* DR_SCAN_PER in kernels/particles.cl: buckets per work-item in the scan */

enum {
    K_CELLS,
    K_SCAN_BLOCKS,
    K_SCAN_PARTIALS,
    K_SCAN_WRITE,
    K_SCATTER,
    K_COUNT_PAIRS,
    K_GATHER,
    K_APPLY,
    K_BOUNCE,
    K_PASS_COUNT,
    K_PASS_SCATTER,
    K_APPLY_LISTED,
    K_SCAN_BLOCKS_SERIAL,
    K_SCAN_WRITE_SERIAL,
    K_COUNT_HALF,
    K_SPEED,
    K_RESTS,
    K_PARTICLE_KERNELS
};
static const char *const kernel_names[K_PARTICLE_KERNELS] = {
    "particle_cells",     "scan_blocks",         "scan_partials",         "scan_write",
    "particle_scatter",   "particle_count",      "particle_gather",       "particle_apply",
    "particle_bounce",    "particle_pass_count", "particle_pass_scatter", "particle_apply_listed",
    "scan_blocks_serial", "scan_write_serial",   "particle_count_half",   "particle_speed",
    "particle_rests"};

struct dr_cl_particles {
    cl_kernel k[K_PARTICLE_KERNELS];
    cl_mem shape, group, cell, rank, sorted, nbr, ncand, list, dnew, anchor, grid_anchor,
        grid_group, vpre, support, lift, pass_of; /* per particle */
    cl_mem rests,
        rests_before; /* rest flags (dr_particle_rests): this substep's, the one before's */
    cl_mem counts, start, partial; /* per bucket, per block */
    cl_mem fullest; /* three uints: the fullest bucket, the fastest particle (particle_speed), the
                       bucket cap (dr_grid_fits) */
    /* the contact passes' member lists (particle_pass_lists): per particle, per pass and chunk of
     * DR_PASS_CHUNK particles, and each pass's first member (DR_CONTACT_PASSES + 1 uints) */
    cl_mem members, row_of, pass_counts, pass_start, pass_first;
    /* restitution's rounds (dr_particle_bounce), made at the first step with restitution: per
     * candidate slot what its pair's bounce added, per particle its collider's target and part,
     * and per particle twice whether a round changed its velocity */
    cl_mem applied, wall, moved;
    uint32_t first[DR_CONTACT_PASSES + 1]; /* pass_first, read back once per substep */
    uint32_t particles, buckets;           /* sizes allocated */
    bool reset_fullest; /* the next grid is a step's first: the fullest bucket from 0 */
    uint64_t bytes;
};

#define A(value) DR_CL_ARG(value)

static void release_buffers(dr_cl_particles *p, dr_cl_context *ctx)
{
    cl_mem *all[] = {&p->shape,      &p->group,   &p->cell,    &p->rank,        &p->sorted,
                     &p->nbr,        &p->ncand,   &p->list,    &p->anchor,      &p->grid_anchor,
                     &p->grid_group, &p->dnew,    &p->counts,  &p->start,       &p->partial,
                     &p->vpre,       &p->support, &p->members, &p->pass_counts, &p->pass_start,
                     &p->pass_first, &p->pass_of, &p->row_of,  &p->lift,        &p->applied,
                     &p->wall,       &p->moved,   &p->rests,   &p->rests_before};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        dr_cl_buffer_release(ctx, all[i]);
    p->particles = p->buckets = 0;
    p->bytes = 0;
}

void dr_cl_particles_destroy(dr_cl_particles *p, dr_cl_context *ctx)
{
    if (!p)
        return;
    release_buffers(p, ctx);
    dr_cl_buffer_release(ctx, &p->fullest);
    for (int i = 0; i < K_PARTICLE_KERNELS; ++i)
        if (p->k[i])
            clReleaseKernel(p->k[i]);
    free(p);
}

drape_result dr_cl_particles_create(dr_cl_context *ctx, dr_cl_particles **out)
{
    *out = NULL;
    dr_cl_particles *p = calloc(1, sizeof *p);
    if (!p)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    drape_result r = DRAPE_OK;
    for (int i = 0; r == DRAPE_OK && i < K_PARTICLE_KERNELS; ++i)
        r = dr_cl_kernel_create(ctx, "particles.cl", kernel_names[i], &p->k[i]);
    const uint32_t limits[3] = {0, 0, DR_CELL_CAP};
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(ctx, &p->fullest, sizeof limits, "fullest bucket", limits);
    if (r != DRAPE_OK) {
        dr_cl_particles_destroy(p, ctx);
        return r;
    }
    *out = p;
    return DRAPE_OK;
}

/* The scan's tiles: one work-group of SCAN_PER buckets per work-item each. */
static uint32_t blocks_of(const dr_cl_context *ctx, uint32_t buckets)
{
    const uint32_t tile = SCAN_PER * (uint32_t)ctx->tunables.work_group_size;
    return (buckets + tile - 1) / tile;
}

/* The member lists' chunks of DR_PASS_CHUNK particles, and their scan's entries (one per pass and
 * chunk). */
static uint32_t chunks_of(uint32_t n) { return (n + DR_PASS_CHUNK - 1) / DR_PASS_CHUNK; }
static uint32_t pass_entries_of(uint32_t n) { return DR_CONTACT_PASSES * chunks_of(n); }

drape_result dr_cl_particles_upload(dr_cl_particles *p, dr_cl_context *ctx, const drape_world *w)
{
    const size_t n = w->particle_count, b = w->plan.buckets;
    if (!w->plan.enabled || n == 0)
        return DRAPE_OK;
    /* the scan tile sums serve the grid's scan and then the member lists' */
    const uint32_t scanned = (uint32_t)b + 1 > pass_entries_of((uint32_t)n)
                                 ? (uint32_t)b + 1
                                 : pass_entries_of((uint32_t)n);
    if (p->particles != n || p->buckets != b) {
        release_buffers(p, ctx);
        struct {
            cl_mem *buf;
            size_t bytes;
            const char *what;
        } all[] = {
            {&p->shape, n * sizeof(dr_vec4), "particle shapes"},
            {&p->group, n * sizeof(uint32_t), "particle groups"},
            {&p->cell, n * sizeof(uint32_t), "particle buckets"},
            {&p->rank, n * sizeof(uint32_t), "ranks in the buckets"},
            {&p->sorted, n * sizeof(uint32_t), "particles by bucket"},
            {&p->nbr, n * sizeof(uint32_t), "contact counts"},
            {&p->ncand, n * sizeof(uint32_t), "contact candidate counts"},
            {&p->list, n * DR_NBR_CAP * sizeof(uint32_t), "contact candidates"},
            {&p->dnew, n * sizeof(dr_vec4), "contact displacements"},
            {&p->anchor, n * sizeof(dr_vec4), "grid anchors"},
            {&p->grid_anchor, n * sizeof(dr_vec4), "grid anchors in the grid's order"},
            {&p->grid_group, n * sizeof(uint32_t), "particle groups in the grid's order"},
            {&p->vpre, n * sizeof(dr_vec4), "velocities after the prediction"},
            {&p->support, n * sizeof(float), "contact support"},
            {&p->lift, n * sizeof(float), "contact support lifts"},
            {&p->rests, n * sizeof(uint32_t), "rest flags"},
            {&p->rests_before, n * sizeof(uint32_t), "rest flags of the substep before"},
            {&p->pass_of, n, "contact passes"},
            {&p->counts, (b + 1) * sizeof(uint32_t), "bucket histogram"},
            {&p->start, (b + 2) * sizeof(uint32_t), "bucket starts"},
            {&p->partial, (blocks_of(ctx, scanned) + 1) * sizeof(uint32_t), "scan tile sums"},
            {&p->members, n * sizeof(uint32_t), "contact pass members"},
            {&p->row_of, n * sizeof(uint32_t), "places in the contact pass order"},
            {&p->pass_counts, pass_entries_of((uint32_t)n) * sizeof(uint32_t),
             "contact pass counts per chunk"},
            {&p->pass_start, (pass_entries_of((uint32_t)n) + 1) * sizeof(uint32_t),
             "contact pass starts per chunk"},
            {&p->pass_first, (DR_CONTACT_PASSES + 1) * sizeof(uint32_t), "contact pass starts"},
        };
        drape_result r = DRAPE_OK;
        for (size_t i = 0; r == DRAPE_OK && i < sizeof all / sizeof *all; ++i) {
            r = dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, all[i].bytes, all[i].what, all[i].buf);
            p->bytes += all[i].bytes;
        }
        if (r != DRAPE_OK) {
            release_buffers(p, ctx);
            return r;
        }
        p->particles = (uint32_t)n;
        p->buckets = (uint32_t)b;
        /* no support and no contacts before the first substep, as on the CPU reference; every
         * candidate slot a valid index from the start (correct code reads only the slots written
         * this substep, but a broken search then fails the parity tests instead of crashing) */
        const uint32_t zero = 0;
        DR_TRY(dr_cl_buffer_fill(ctx, p->nbr, &zero, sizeof zero, 0, n * sizeof zero));
        DR_TRY(dr_cl_buffer_fill(ctx, p->ncand, &zero, sizeof zero, 0, n * sizeof zero));
        DR_TRY(dr_cl_buffer_fill(ctx, p->support, &zero, sizeof zero, 0, n * sizeof zero));
        DR_TRY(dr_cl_buffer_fill(ctx, p->lift, &zero, sizeof zero, 0, n * sizeof zero));
        /* the rest flags before the first substep, as on the CPU reference */
        const uint32_t start = DR_REST_START;
        DR_TRY(dr_cl_buffer_fill(ctx, p->rests, &start, sizeof start, 0, n * sizeof start));
        DR_TRY(
            dr_cl_buffer_fill(ctx, p->list, &zero, sizeof zero, 0, n * DR_NBR_CAP * sizeof zero));
    }
    DR_TRY(dr_cl_buffer_write(ctx, p->fullest, 2 * sizeof(uint32_t), sizeof(uint32_t),
                              &w->plan.bucket_cap));
    DR_TRY(dr_cl_buffer_write(ctx, p->shape, 0, n * sizeof(dr_vec4), w->shape));
    return dr_cl_buffer_write(ctx, p->group, 0, n * sizeof(uint32_t), w->group);
}

static drape_result launch(dr_cl_particles *p, dr_cl_context *ctx, int kernel, size_t n, int phase)
{
    return dr_cl_launch_1d(ctx, p->k[kernel], n, phase);
}

/* One launch of particle_apply: dst = src, per particle. */
static drape_result copy(dr_cl_particles *p, dr_cl_context *ctx, cl_mem dst, cl_mem src, int phase)
{
    const cl_uint n = p->particles;
    DR_TRY(dr_cl_set_args(ctx, p->k[K_APPLY], 0, 3, A(dst), A(src), A(n)));
    return launch(p, ctx, K_APPLY, n, phase);
}

/* The exclusive scan of counts[0 .. entries) into start[0 .. entries], start[entries] the total, by
 * scan_blocks, scan_partials and scan_write (a work-group per tile; with particle_scan_serial their
 * _serial forms, a work-item per tile); the fullest of the first `counted` counts goes into the
 * fullest bucket (reset: from 0). */
static drape_result scan(dr_cl_particles *p, dr_cl_context *ctx, cl_mem counts, cl_mem start,
                         cl_uint entries, cl_uint counted, cl_uint reset, int phase)
{
    const cl_uint blocks = blocks_of(ctx, entries);
    const size_t wg = ctx->tunables.work_group_size;
    const bool serial = ctx->tunables.particle_scan_serial;
    const int sum = serial ? K_SCAN_BLOCKS_SERIAL : K_SCAN_BLOCKS,
              write = serial ? K_SCAN_WRITE_SERIAL : K_SCAN_WRITE;
    const size_t items = serial ? blocks : blocks * wg;
    DR_TRY(dr_cl_set_args(ctx, p->k[sum], 0, 3, A(counts), A(p->partial), A(entries)));
    DR_TRY(launch(p, ctx, sum, items, phase));
    DR_TRY(dr_cl_set_args(ctx, p->k[K_SCAN_PARTIALS], 0, 6, A(p->partial), A(start), A(p->fullest),
                          A(reset), A(blocks), A(entries)));
    DR_TRY(launch(p, ctx, K_SCAN_PARTIALS, wg, phase));
    DR_TRY(dr_cl_set_args(ctx, p->k[write], 0, 6, A(counts), A(p->partial), A(start), A(p->fullest),
                          A(entries), A(counted)));
    return launch(p, ctx, write, items, phase);
}

/* One launch of particle_apply_listed: dst = dnew for the members of the contact passes. */
static drape_result copy_members(dr_cl_particles *p, dr_cl_context *ctx, cl_mem dst, int phase)
{
    const cl_uint members = p->first[DR_CONTACT_PASSES];
    if (members == 0)
        return DRAPE_OK;
    DR_TRY(dr_cl_set_args(ctx, p->k[K_APPLY_LISTED], 0, 4, A(dst), A(p->dnew), A(p->members),
                          A(members)));
    return launch(p, ctx, K_APPLY_LISTED, members, phase);
}

drape_result dr_cl_particles_grid(dr_cl_particles *p, dr_cl_context *ctx, const drape_world *w,
                                  cl_mem x, cl_mem v, cl_mem d, int phase)
{
    /* The table's buckets and the spare one after them (particles without a radius). */
    const cl_uint n = p->particles, buckets = p->buckets, mask = buckets - 1, entries = buckets + 1;
    const float inv_cell = 1.0f / w->plan.cell, travel = w->def.particle_travel_limit,
                cap = dr_particle_support_cap(w);
    const dr_vec4 up = dr_particle_up(w);
    const cl_uint zero = 0;
    if (dr_particle_keeps_vpre(w))
        DR_TRY(copy(p, ctx, p->vpre, v, phase));
    DR_TRY(dr_cl_buffer_fill(ctx, p->counts, &zero, sizeof zero, 0, entries * sizeof zero));
    DR_TRY(dr_cl_set_args(ctx, p->k[K_CELLS], 0, 19, A(d), A(x), A(p->anchor), A(p->shape),
                          A(p->cell), A(p->counts), A(p->rank), A(p->support), A(p->lift),
                          A(p->nbr), A(p->group), A(p->pass_of), A(p->rests), A(up), A(cap),
                          A(inv_cell), A(mask), A(travel), A(n)));
    DR_TRY(launch(p, ctx, K_CELLS, n, phase));
    const cl_uint reset = p->reset_fullest ? 1u : 0u;
    p->reset_fullest = false;
    DR_TRY(scan(p, ctx, p->counts, p->start, entries, buckets, reset, phase));
    DR_TRY(dr_cl_set_args(ctx, p->k[K_SCATTER], 0, 10, A(p->cell), A(p->rank), A(p->start),
                          A(p->sorted), A(p->anchor), A(p->shape), A(p->group), A(p->grid_anchor),
                          A(p->grid_group), A(n)));
    DR_TRY(launch(p, ctx, K_SCATTER, n, phase));
    if (!ctx->tunables.particle_pass_lists)
        return DRAPE_OK;
    /* the contact passes' member lists: a stable counting sort by pass over chunks of particles */
    const cl_uint chunks = chunks_of(n), pass_entries = pass_entries_of(n);
    DR_TRY(dr_cl_set_args(ctx, p->k[K_PASS_COUNT], 0, 5, A(p->pass_of), A(p->shape),
                          A(p->pass_counts), A(chunks), A(n)));
    DR_TRY(launch(p, ctx, K_PASS_COUNT, chunks, phase));
    DR_TRY(scan(p, ctx, p->pass_counts, p->pass_start, pass_entries, 0, 0, phase));
    const cl_uint half_shells = ctx->tunables.particle_search_half ? 1u : 0u;
    DR_TRY(dr_cl_set_args(ctx, p->k[K_PASS_SCATTER], 0, 11, A(p->pass_of), A(p->shape),
                          A(p->pass_start), A(p->members), A(p->nbr), A(p->ncand), A(p->pass_first),
                          A(p->row_of), A(chunks), A(half_shells), A(n)));
    return launch(p, ctx, K_PASS_SCATTER, chunks, phase);
}

/* The rest flags of this substep (particle_rests) from the last's, after the candidates. */
static drape_result rests(dr_cl_particles *p, dr_cl_context *ctx, const drape_world *w, cl_mem x,
                          cl_mem contacts, cl_uint size, int phase)
{
    const cl_uint mask = p->buckets - 1, listed = ctx->tunables.particle_pass_lists ? 1u : 0u;
    const float inv_cell = 1.0f / w->plan.cell;
    const dr_vec4 up = dr_particle_up(w);
    DR_TRY(dr_cl_set_args(ctx, p->k[K_RESTS], 2, 18, A(x), A(contacts), A(p->grid_anchor),
                          A(p->grid_group), A(p->anchor), A(p->shape), A(p->group), A(p->ncand),
                          A(p->list), A(p->start), A(p->sorted), A(p->fullest), A(p->members),
                          A(up), A(inv_cell), A(mask), A(listed), A(size)));
    for (unsigned round = 0; round < DR_REST_ROUNDS; ++round) {
        cl_mem before = p->rests;
        p->rests = p->rests_before;
        p->rests_before = before;
        DR_TRY(dr_cl_set_args(ctx, p->k[K_RESTS], 0, 2, A(p->rests), A(p->rests_before)));
        DR_TRY(launch(p, ctx, K_RESTS, size, phase));
    }
    return DRAPE_OK;
}

drape_result dr_cl_particles_candidates(dr_cl_particles *p, dr_cl_context *ctx,
                                        const drape_world *w, cl_mem x, cl_mem contacts, int phase)
{
    const cl_uint n = p->particles, mask = p->buckets - 1,
                  by_grid = ctx->tunables.particles_by_grid ? 1u : 0u, /* kernels/particles.cl */
        listed = ctx->tunables.particle_pass_lists ? 1u : 0u;
    const float inv_cell = 1.0f / w->plan.cell;
    /* the contact passes' sizes, for this launch over the members and the iterations': 17
     * integers per substep */
    if (listed)
        DR_TRY(dr_cl_buffer_read(ctx, p->pass_first, 0, sizeof p->first, p->first));
    const cl_uint size = listed ? p->first[DR_CONTACT_PASSES] : n;
    if (size == 0)
        return DRAPE_OK;
    if (ctx->tunables.particle_search_half) {
        /* the half shells' appends count from 0: particle_pass_scatter zeroed the counts */
        const cl_uint zero = 0;
        if (!listed) {
            DR_TRY(dr_cl_buffer_fill(ctx, p->nbr, &zero, sizeof zero, 0, n * sizeof zero));
            DR_TRY(dr_cl_buffer_fill(ctx, p->ncand, &zero, sizeof zero, 0, n * sizeof zero));
        }
        DR_TRY(dr_cl_set_args(ctx, p->k[K_COUNT_HALF], 0, 19, A(p->grid_anchor), A(p->grid_group),
                              A(p->anchor), A(p->shape), A(p->group), A(p->nbr), A(p->ncand),
                              A(p->list), A(p->start), A(p->sorted), A(p->fullest), A(p->members),
                              A(p->rank), A(p->row_of), A(inv_cell), A(mask), A(by_grid), A(listed),
                              A(size)));
        DR_TRY(launch(p, ctx, K_COUNT_HALF, size, phase));
        return rests(p, ctx, w, x, contacts, size, phase);
    }
    DR_TRY(dr_cl_set_args(ctx, p->k[K_COUNT_PAIRS], 0, 17, A(p->grid_anchor), A(p->grid_group),
                          A(p->anchor), A(p->shape), A(p->group), A(p->nbr), A(p->ncand),
                          A(p->list), A(p->start), A(p->sorted), A(p->fullest), A(p->members),
                          A(inv_cell), A(mask), A(by_grid), A(listed), A(size)));
    DR_TRY(launch(p, ctx, K_COUNT_PAIRS, size, phase));
    return rests(p, ctx, w, x, contacts, size, phase);
}

drape_result dr_cl_particles_project(dr_cl_particles *p, dr_cl_context *ctx, const drape_world *w,
                                     cl_mem x, cl_mem d, cl_mem contacts, int iteration, int phase)
{
    const cl_uint n = p->particles, mask = p->buckets - 1;
    const float inv_cell = 1.0f / w->plan.cell, mu_s = w->def.particle_static_friction,
                mu_k = w->def.particle_kinetic_friction, relax = w->def.contact_relaxation;
    const cl_uint first_iteration = iteration == 0 ? 1u : 0u;
    const dr_vec4 up = dr_particle_up(w);
    const cl_uint passes = dr_contact_passes(up);
    /* each contact pass writes its own particles' results to dnew, reading the displacements from
     * d, or from dnew for the particles of the passes before it; then dnew goes back to d */
    /* with the member lists each pass's launch covers its members (p->first, from the substep's
     * grid), and only the members are copied back */
    const cl_uint listed = ctx->tunables.particle_pass_lists ? 1u : 0u;
    /* the arguments that are the same for every pass once (a GPU's host pays for each of them:
     * 16 passes a substep there), then per pass its first member, number and size */
    const float fast = dr_particle_impact_speed(w);
    DR_TRY(dr_cl_set_args(ctx, p->k[K_GATHER], 0, 30, A(p->dnew), A(p->support), A(x), A(d),
                          A(p->grid_anchor), A(p->grid_group), A(p->anchor), A(p->shape),
                          A(p->group), A(contacts), A(p->nbr), A(p->ncand), A(p->list), A(p->start),
                          A(p->sorted), A(p->fullest), A(p->pass_of), A(inv_cell), A(mask), A(mu_s),
                          A(mu_k), A(relax), A(up), A(p->lift), A(first_iteration), A(p->members),
                          A(listed), A(p->vpre), A(fast), A(p->rests)));
    for (cl_uint pass = 0; pass < passes; ++pass) {
        const cl_uint first = listed ? p->first[pass] : 0u,
                      size = listed ? p->first[pass + 1] - p->first[pass] : n;
        if (size == 0)
            continue;
        DR_TRY(dr_cl_set_args(ctx, p->k[K_GATHER], 30, 3, A(first), A(pass), A(size)));
        DR_TRY(launch(p, ctx, K_GATHER, size, phase));
    }
    return listed ? copy_members(p, ctx, d, phase) : copy(p, ctx, d, p->dnew, phase);
}

drape_result dr_cl_particles_bounce(dr_cl_particles *p, dr_cl_context *ctx, const drape_world *w,
                                    cl_mem x, cl_mem v, cl_mem d, cl_mem contacts, float slow,
                                    float h, int phase)
{
    const cl_uint n = p->particles, listed = ctx->tunables.particle_pass_lists ? 1u : 0u;
    const float e = w->def.particle_restitution, mu_s = w->def.particle_static_friction,
                mu_k = w->def.particle_kinetic_friction;
    if (!dr_particle_bounces(w, slow))
        return DRAPE_OK;
    /* with the member lists over the members alone: the others keep their velocities */
    const cl_uint size = listed ? p->first[DR_CONTACT_PASSES] : n;
    if (size == 0)
        return DRAPE_OK;
    const dr_vec4 g = dr_bounce_gravity(&w->def);
    const cl_uint total = p->particles;
    if (e > 0.0f && !p->moved) { /* all three, or none */
        struct {
            cl_mem *buf;
            size_t bytes;
            const char *what;
        } made[] = {
            {&p->applied, (size_t)total * DR_NBR_CAP * sizeof(float),
             "restitution per contact candidate"},
            {&p->wall, 2 * (size_t)total * sizeof(float), "restitution at the colliders"},
            {&p->moved, 2 * (size_t)total, "restitution's changed velocities"},
        };
        drape_result r = DRAPE_OK;
        for (size_t k = 0; r == DRAPE_OK && k < sizeof made / sizeof *made; ++k) {
            dr_cl_buffer_release(ctx, made[k].buf);
            r = dr_cl_buffer_create(ctx, CL_MEM_READ_WRITE, made[k].bytes, made[k].what,
                                    made[k].buf);
            p->bytes += r == DRAPE_OK ? made[k].bytes : 0;
        }
        if (r != DRAPE_OK) {
            for (size_t k = 0; k < sizeof made / sizeof *made; ++k)
                if (*made[k].buf) {
                    p->bytes -= made[k].bytes;
                    dr_cl_buffer_release(ctx, made[k].buf);
                }
            return r;
        }
    }
    /* without restitution never read or written: any valid buffers */
    cl_mem applied = p->moved ? p->applied : p->dnew, wall = p->moved ? p->wall : p->dnew,
           moved = p->moved ? p->moved : p->dnew;
    const cl_uint placed_first = w->placed_first, placed_count = w->placed_count;
    DR_TRY(dr_cl_set_args(ctx, p->k[K_BOUNCE], 0, 25, A(p->dnew), A(x), A(v), A(d), A(p->vpre),
                          A(p->shape), A(p->group), A(contacts), A(p->nbr), A(p->ncand), A(p->list),
                          A(p->fullest), A(p->members), A(listed), A(e), A(slow), A(mu_s), A(mu_k),
                          A(g), A(h), A(size), A(applied), A(wall), A(moved), A(total)));
    DR_TRY(dr_cl_set_args(ctx, p->k[K_BOUNCE], 26, 2, A(placed_first), A(placed_count)));
    /* the rounds go from v to dnew and back (each reads only members' velocities, which each
     * round writes), and an odd count's last result is copied to v */
    const cl_uint rounds = dr_bounce_rounds(w);
    for (cl_uint round = 0; round < rounds; ++round) {
        cl_mem from = round % 2 ? p->dnew : v, to = round % 2 ? v : p->dnew;
        DR_TRY(dr_cl_set_args(ctx, p->k[K_BOUNCE], 0, 1, A(to)));
        DR_TRY(dr_cl_set_args(ctx, p->k[K_BOUNCE], 2, 1, A(from)));
        DR_TRY(dr_cl_set_args(ctx, p->k[K_BOUNCE], 25, 1, A(round)));
        DR_TRY(launch(p, ctx, K_BOUNCE, size, phase));
    }
    if (rounds % 2 == 0)
        return DRAPE_OK;
    return listed ? copy_members(p, ctx, v, phase) : copy(p, ctx, v, p->dnew, phase);
}

drape_result dr_cl_particles_speed(dr_cl_particles *p, dr_cl_context *ctx, const drape_world *w,
                                   cl_mem v, int phase)
{
    const cl_uint n = p->particles;
    const float dt = w->def.dt, travel = dr_split_travel(w), g_dt = dr_gravity_over_step(w);
    const uint32_t zero = 0;
    DR_TRY(dr_cl_buffer_fill(ctx, p->fullest, &zero, sizeof zero, sizeof zero, sizeof zero));
    DR_TRY(dr_cl_set_args(ctx, p->k[K_SPEED], 0, 7, A(v), A(p->shape), A(p->fullest), A(g_dt),
                          A(dt), A(travel), A(n)));
    /* a few particles per work-item past 16384, so that the atomics stay few */
    return launch(p, ctx, K_SPEED, n < 16384u ? n : 16384u, phase);
}

drape_result dr_cl_particles_finish_step(dr_cl_particles *p, dr_cl_context *ctx, drape_world *w)
{
    uint32_t read[2] = {0, 0};
    DR_TRY(dr_cl_buffer_read(ctx, p->fullest, 0, sizeof read, read));
    w->fullest_bucket = read[0] > w->fullest_bucket ? read[0] : w->fullest_bucket;
    w->speed_bits = read[1];
    p->reset_fullest = true;
    return DRAPE_OK;
}

drape_result dr_cl_particles_count_contacts(dr_cl_particles *p, dr_cl_context *ctx, uint32_t n,
                                            uint64_t *pairs)
{
    *pairs = 0;
    if (!p->nbr || p->particles != n || n == 0)
        return DRAPE_OK;
    uint32_t *nbr = malloc((size_t)n * sizeof *nbr);
    if (!nbr)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    drape_result r = dr_cl_buffer_read(ctx, p->nbr, 0, (size_t)n * sizeof *nbr, nbr);
    for (uint32_t i = 0; r == DRAPE_OK && i < n; ++i)
        *pairs += nbr[i];
    free(nbr);
    return r;
}

uint64_t dr_cl_particles_bytes(const dr_cl_particles *p) { return p->bytes; }

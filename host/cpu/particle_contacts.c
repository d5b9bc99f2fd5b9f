/* Contacts between particles on the CPU reference: the plan (which particles take part, the grid's
 * cell and table size), the broad phase by counting sort, and the gather pass, with the
 * per-particle maths of kernels/drape_shared.h ("particle contacts"), in the order the OpenCL
 * backend runs it (host/opencl/opencl_particles.c, kernels/particles.cl). docs/particle-contacts.md
 * has the design.
 *
 * The counting sort here runs sequentially, so its buckets come out in index order, where the
 * device's atomics leave them in any order; the gather's fixed-point sums make the two agree
 * bitwise all the same.
 */
#include "world_internal.h"

#include <stdlib.h>
#include <string.h>

uint32_t dr_particle_take_group(drape_world *w, uint32_t group)
{
    if (group == DRAPE_GROUP_NEW)
        group = w->next_group <= DRAPE_GROUP_MAX ? w->next_group : DRAPE_GROUP_MAX;
    if (group >= w->next_group)
        w->next_group = group + 1;
    return group;
}

void dr_particle_mark_mesh(drape_world *w, uint32_t first, uint32_t count)
{
    for (uint32_t i = first; i < first + count; ++i) {
        w->group[i] |= DR_GROUP_MESH;
        w->inflate[i] = 0.0f; /* a cloth's thickness against colliders is the collision margin */
    }
    w->plan_dirty = true;
}

/* Enabled when some pair can collide: two particles with a radius in different groups, or in one
 * group that collides with itself. */
void dr_particle_plan_update(drape_world *w)
{
    if (!w->plan_dirty)
        return;
    /* At least 64 buckets: the 27 cells around a point then take 27 distinct buckets (dr_cell_walk
     * in kernels/drape_shared.h). */
    dr_particle_plan plan = {false, 0, 0.0f, 64, false, 1.0f, 0.0f, 0.0f, DR_CELL_CAP};
    uint32_t first_group = 0, self_members = 0;
    bool two_groups = false;
    float rmin = 0.0f, rmax = 0.0f, wmin = 0.0f, wmax = 0.0f;
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        float r = w->shape[i].w;
        if (!(r > 0.0f))
            continue;
        const float inv = w->x[i].w; /* pinned (0): they never move, and never speed another up */
        if (inv > 0.0f) {
            wmin = wmin > 0.0f && wmin < inv ? wmin : inv;
            wmax = wmax > inv ? wmax : inv;
        }
        uint32_t g = w->group[i] & DR_GROUP_ID;
        if (plan.members == 0)
            first_group = g;
        two_groups |= g != first_group;
        self_members += (w->group[i] & DR_GROUP_SELF) != 0;
        plan.mesh |= (w->group[i] & DR_GROUP_MESH) != 0;
        rmax = r > rmax ? r : rmax;
        rmin = rmin > 0.0f && rmin < r ? rmin : r;
        plan.members++;
    }
    plan.enabled = plan.members >= 2 && (two_groups || self_members >= 2);
    plan.mass_ratio = wmin > 0.0f ? wmax / wmin : 1.0f;
    plan.cell = 2.0f * rmax * (1.0f + DR_NBR_MARGIN); /* the candidates' reach */
    plan.rmin = rmin;
    plan.rmax = rmax;
    if (plan.members > 0 && DR_PAIR_BUDGET / plan.members > DR_CELL_CAP)
        plan.bucket_cap = DR_PAIR_BUDGET / plan.members;
    while (plan.buckets < 2u * plan.members && plan.buckets < (1u << 30))
        plan.buckets *= 2;
    w->plan = plan;
    w->plan_dirty = false;
    w->stale |= DR_STALE_PARTICLES;
}

void dr_particle_grid_free(dr_particle_grid *g)
{
    free(g->cell);
    free(g->coord);
    free(g->counts);
    free(g->start);
    free(g->sorted);
    free(g->nbr);
    free(g->ncand);
    free(g->vpre);
    free(g->dnew);
    free(g->sum);
    free(g->ground);
    free(g->pairs);
    free(g->touching);
    free(g->pair_xij);
    free(g->pair_ends);
    free(g->cand_pairs);
    free(g->dense_start);
    free(g->dense_sorted);
    free(g->anchor);
    free(g->grid_anchor);
    free(g->grid_group);
    free(g->support);
    free(g->lift);
    free(g->rests);
    free(g->rests_before);
    free(g->pass);
    free(g->member);
    free(g->local);
    free(g->ld);
    free(g->dense_anchor);
    free(g->dense_group);
    free(g->applied);
    free(g->wall);
    free(g->moved);
    memset(g, 0, sizeof *g);
}

static drape_result grid_alloc(drape_world *w)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t n = w->particle_count, b = w->plan.buckets;
    if (g->particles == n && g->buckets == b)
        return DRAPE_OK;
    dr_particle_grid_free(g);
    g->cell = malloc((size_t)n * sizeof *g->cell);
    g->coord = malloc((size_t)n * 8 * sizeof *g->coord);
    g->dense_sorted = malloc((size_t)n * sizeof *g->dense_sorted);
    g->sorted = malloc((size_t)n * sizeof *g->sorted);
    g->nbr = calloc(n, sizeof *g->nbr);
    g->ncand = calloc(n, sizeof *g->ncand);
    g->vpre = malloc((size_t)n * sizeof *g->vpre);
    g->dnew = malloc((size_t)n * sizeof *g->dnew);
    g->sum = calloc(n, sizeof *g->sum); /* zero, and left zero by every pass over them */
    g->ground = malloc((size_t)n * sizeof *g->ground);
    g->anchor = malloc((size_t)n * sizeof *g->anchor);
    g->grid_anchor = malloc((size_t)n * sizeof *g->grid_anchor);
    g->grid_group = malloc((size_t)n * sizeof *g->grid_group);
    g->support = calloc(n, sizeof *g->support);
    g->lift = calloc(n, sizeof *g->lift);
    g->rests = malloc((size_t)n * sizeof *g->rests);
    g->rests_before = malloc((size_t)n * sizeof *g->rests_before);
    g->pass = calloc(n, sizeof *g->pass);
    g->member = malloc((size_t)n * sizeof *g->member);
    g->local = malloc((size_t)n * sizeof *g->local);
    g->ld = malloc((size_t)n * sizeof *g->ld);
    g->dense_anchor = malloc((size_t)n * sizeof *g->dense_anchor);
    g->dense_group = malloc((size_t)n * sizeof *g->dense_group);
    g->wall = malloc(2 * (size_t)n * sizeof *g->wall);
    g->moved = malloc(2 * (size_t)n * sizeof *g->moved);
    g->counts = malloc((size_t)b * sizeof *g->counts);
    g->start = malloc(((size_t)b + 1) * sizeof *g->start);
    if (!g->cell || !g->coord || !g->dense_sorted || !g->sorted || !g->nbr || !g->ncand ||
        !g->vpre || !g->dnew || !g->sum || !g->ground || !g->anchor || !g->grid_anchor ||
        !g->grid_group || !g->support || !g->lift || !g->rests || !g->rests_before || !g->pass ||
        !g->member || !g->local || !g->ld || !g->dense_anchor || !g->dense_group || !g->wall ||
        !g->moved || !g->counts || !g->start) {
        dr_particle_grid_free(g);
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "drape_world_step: no memory for the particle grid (%u particles, %u "
                       "buckets)",
                       n, b);
    }
    for (uint32_t i = 0; i < n; ++i)
        g->rests[i] = DR_REST_START; /* before the first substep, as on the device */
    g->particles = n;
    g->buckets = b;
    return DRAPE_OK;
}

drape_result dr_cpu_particle_grid(drape_world *w)
{
    drape_result r = grid_alloc(w);
    if (r != DRAPE_OK)
        return r;
    dr_particle_grid *g = &w->grid;
    const uint32_t n = w->particle_count, mask = w->plan.buckets - 1;
    const float inv_cell = 1.0f / w->plan.cell, travel = w->def.particle_travel_limit,
                cap = dr_particle_support_cap(w);
    const dr_vec4 up = dr_particle_up(w);
    if (dr_particle_keeps_vpre(w))
        memcpy(g->vpre, w->v, (size_t)n * sizeof *g->vpre);
    /* cell ids and the histogram */
    memset(g->counts, 0, (size_t)w->plan.buckets * sizeof *g->counts);
    for (uint32_t i = 0; i < n; ++i) {
        g->cell[i] = DR_NO_CELL;
        if (!(w->shape[i].w > 0.0f))
            continue;
        w->d[i] = dr_limit_travel(dr_support_lift(w->d[i], &g->support[i], &g->lift[i], g->nbr[i],
                                                  up, cap, w->group[i], g->rests[i]),
                                  travel * w->shape[i].w);
        g->anchor[i] = dr_add3(w->x[i], w->d[i]);
        g->pass[i] = (uint8_t)dr_contact_pass(g->anchor[i], up, inv_cell);
        int32_t *c = &g->coord[4 * (size_t)i];
        c[0] = dr_cell_coord(g->anchor[i].x, inv_cell);
        c[1] = dr_cell_coord(g->anchor[i].y, inv_cell);
        c[2] = dr_cell_coord(g->anchor[i].z, inv_cell);
        g->cell[i] = dr_cell_bucket(c[0], c[1], c[2], mask);
        g->counts[g->cell[i]]++;
    }
    /* exclusive prefix scan, and the fullest bucket */
    uint32_t sum = 0, fullest = 0;
    for (uint32_t b = 0; b <= mask; ++b) {
        g->start[b] = sum;
        sum += g->counts[b];
        fullest = g->counts[b] > fullest ? g->counts[b] : fullest;
    }
    g->start[mask + 1] = sum;
    if (fullest > w->fullest_bucket)
        w->fullest_bucket = fullest;
    /* scatter: the cursor counts down from each bucket's end, as the device's atomic_dec does */
    int32_t *slot = &g->coord[4 * (size_t)n];
    for (uint32_t i = 0; i < n; ++i)
        if (g->cell[i] != DR_NO_CELL) {
            const uint32_t k = g->start[g->cell[i]] + --g->counts[g->cell[i]];
            g->sorted[k] = i;
            g->grid_anchor[k] =
                DR_V4(g->anchor[i].x, g->anchor[i].y, g->anchor[i].z, w->shape[i].w);
            g->grid_group[k] = w->group[i];
            memcpy(&slot[4 * (size_t)k], &g->coord[4 * (size_t)i], 3 * sizeof *slot);
            slot[4 * (size_t)k + 3] = (int32_t)i;
        }
    return DRAPE_OK;
}

/* The 13 neighbouring cells "after" a cell (half of the 26 around it): each pair of neighbouring
 * cells is visited once, from the earlier of the two. */
static const int8_t half_shell[13][3] = {
    {1, 0, 0},  {-1, 1, 0}, {0, 1, 0}, {1, 1, 0},  {-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
    {-1, 0, 1}, {0, 0, 1},  {1, 0, 1}, {-1, 1, 1}, {0, 1, 1},   {1, 1, 1},
};

/* i and j count each other as candidates (ncand), D their collision distance; `touching` when
 * they touch at their anchors (nbr). The pair goes into the list of candidate pairs (cand_pairs),
 * the CPU reference's only list of them: no per-particle lists as on the device (the pair pass
 * works from cand_pairs, and a particle with more than DR_NBR_CAP candidates searches the grid,
 * overflow_gather). */
static void add_candidates(dr_particle_grid *g, uint32_t i, uint32_t j, float D, bool touching)
{
    if (g->cand_count == g->cand_capacity) {
        const uint32_t capacity = g->cand_capacity < 1024u ? 1024u : 2u * g->cand_capacity;
        dr_cand_pair *p = capacity > g->cand_capacity
                              ? realloc(g->cand_pairs, (size_t)capacity * sizeof *p)
                              : NULL;
        if (p) {
            g->cand_pairs = p;
            g->cand_capacity = capacity;
        }
    }
    if (g->cand_count < g->cand_capacity)
        g->cand_pairs[g->cand_count++] = (dr_cand_pair){i, j, D};
    else
        g->cand_lost = true;
    g->ncand[i]++;
    g->ncand[j]++;
    g->nbr[i] += touching;
    g->nbr[j] += touching;
}

/* Lists i and j as each other's candidates when dr_pair_candidate accepts them. */
static void try_pair(drape_world *w, uint32_t i, uint32_t j)
{
    dr_particle_grid *g = &w->grid;
    const dr_vec4 si = w->shape[i], sj = w->shape[j], ai = g->anchor[i], aj = g->anchor[j];
    const uint32_t gi = w->group[i], gj = w->group[j];
    if (!dr_pair_candidate(si, gi, ai, sj, gj, aj))
        return;
    const float D = dr_pair_distance(si, gi, sj, gj);
    const dr_vec4 r = dr_sub3(ai, aj);
    add_candidates(g, i, j, D, dr_dot3(r, r) < D * D);
}

/* The pairs of particle i with the particles of bucket b that lie in cell c (another cell that
 * shares the bucket is not a neighbour; a particle of i's own cell: once per pair, from the lower
 * index). The bucket's slots carry their particles' cells, so that the walk reads them in order. */
static void pair_bucket(drape_world *w, uint32_t i, const int32_t *c, uint32_t b, bool own)
{
    dr_particle_grid *g = &w->grid;
    const int32_t *slot = &g->coord[4 * (size_t)w->particle_count];
    for (uint32_t k = g->start[b], end = g->start[b + 1]; k < end; ++k) {
        const int32_t *cj = &slot[4 * (size_t)k];
        const uint32_t j = (uint32_t)cj[3];
        if (cj[0] == c[0] && cj[1] == c[1] && cj[2] == c[2] && (!own || j > i))
            try_pair(w, i, j);
    }
}

/* The pass order (dr_particle_grid's `member`): the particles with a radius in `order` (the grid's,
 * dense or hashed), counted out by contact pass; each one's ground plane (dr_ground_plane);
 * overflow. The pair sums are zero already: zero from their allocation, and every pass over them
 * (pass_gather, dr_cpu_particle_bounce) zeroes those it added to. */
static void pass_order(drape_world *w, const uint32_t *order)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t count = g->start[w->plan.buckets];
    const dr_vec4 up = dr_particle_up(w);
    uint32_t cursor[DR_CONTACT_PASSES] = {0};
    for (uint32_t k = 0; k < count; ++k)
        cursor[g->pass[order[k]]]++;
    uint32_t sum = 0;
    for (uint32_t p = 0; p < DR_CONTACT_PASSES; ++p) {
        g->member_start[p] = sum;
        sum += cursor[p];
        cursor[p] = g->member_start[p];
    }
    g->member_start[DR_CONTACT_PASSES] = sum;
    g->overflow = false;
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t i = order[k], place = cursor[g->pass[i]]++;
        g->member[place] = i;
        g->local[i] = place;
        g->ground[place] = dr_ground_plane(w->contacts[i], w->x[i], up, w->shape[i].w);
        g->overflow |= g->ncand[i] > DR_NBR_CAP;
    }
}

/* Where pair_record writes the pair pass's pairs, and what it reads, loaded once for the loop over
 * the candidate pairs (the compiler cannot tell that the records' stores leave the grid's
 * pointers as they are). */
typedef struct pair_writer {
    dr_pair_record *pairs;
    dr_vec4 *xij;
    uint32_t *ends;
    const dr_vec4 *x;
    const uint32_t *local, *nbr, *group, *rests;
    const dr_vec4 *vpre;
    float fast; /* dr_particle_impact_speed */
    dr_vec4 up;
} pair_writer;

/* Pair q of the pair pass: (i, j) of collision distance D, worked out on i's side (and j's too
 * when `both`). */
static inline void pair_record(pair_writer o, uint32_t q, uint32_t i, uint32_t j, float D,
                               bool both)
{
    const dr_vec4 xi = o.x[i], xj = o.x[j];
    o.xij[q] = DR_V4(xi.x - xj.x, xi.y - xj.y, xi.z - xj.z, D);
    o.ends[2 * (size_t)q] = o.local[i];
    o.ends[2 * (size_t)q + 1] = o.local[j];
    const uint8_t unstacked = (uint8_t)dr_pair_unstacked(
        o.xij[q], o.vpre, i, j, o.fast, o.group[i], o.group[j], o.nbr[i], o.nbr[j], o.up, o.rests);
    o.pairs[q] = (dr_pair_record){i, j, xi.w, xj.w, o.nbr[i], o.nbr[j], both, unstacked};
}

/* This substep's rest flags (dr_particle_rest_seed, dr_particle_rests_on) from the last's, over the
 * candidate pairs, on both sides of each (kernels/particles.cl, particle_rests, over each
 * particle's candidates). */
static void rest_flags(drape_world *w)
{
    dr_particle_grid *g = &w->grid;
    const dr_vec4 up = dr_particle_up(w);
    const dr_cand_pair *cand = g->cand_pairs;
    const dr_vec4 *anchor = g->anchor;
    for (unsigned round = 0; round < DR_REST_ROUNDS; ++round) {
        uint32_t *before = g->rests, *rests = g->rests_before;
        g->rests = rests;
        g->rests_before = before;
        for (uint32_t i = 0; i < w->particle_count; ++i)
            if (g->cell[i] != DR_NO_CELL)
                rests[i] = dr_particle_rest_seed(w->x[i], w->group[i], w->contacts[i], up);
        for (uint32_t c = 0, end = g->cand_count; c < end; ++c) {
            const uint32_t i = cand[c].i, j = cand[c].j;
            rests[i] |= dr_particle_rests_on(anchor[i], anchor[j], before[j], up);
            rests[j] |= dr_particle_rests_on(anchor[j], anchor[i], before[i], up);
        }
        /* a round that changed nothing is a fixed point: the device's rounds after it (it runs
         * all of them) change nothing either */
        bool changed = false;
        for (uint32_t i = 0; i < w->particle_count && !changed; ++i)
            changed = g->cell[i] != DR_NO_CELL && rests[i] != before[i];
        if (!changed)
            break;
    }
}

/* The pair pass's pairs, from the candidate pairs, by contact pass (pass_start), in the pass order
 * of `order` (pass_order). A pair of particles with complete candidate lists in one pass is
 * worked out once for both; across two passes, on each side in its own pass (from the
 * displacements then); with one side's list incomplete, on the other side only (the incomplete
 * side searches the grid). */
static drape_result pair_records(drape_world *w, const uint32_t *order)
{
    dr_particle_grid *g = &w->grid;
    if (g->cand_lost)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "drape_world_step: no memory for the particle contact candidates");
    pass_order(w, order);
    rest_flags(w);
    /* without overflow (pass_order) every list is complete, and the loops below read no count */
    const bool complete = !g->overflow;
    uint64_t per_pass[DR_CONTACT_PASSES] = {0}, count = 0;
    for (uint32_t c = 0; c < g->cand_count; ++c) {
        const dr_cand_pair cp = g->cand_pairs[c];
        const bool ci = complete || g->ncand[cp.i] <= DR_NBR_CAP,
                   cj = complete || g->ncand[cp.j] <= DR_NBR_CAP;
        const uint32_t pi = g->pass[cp.i], pj = g->pass[cp.j];
        per_pass[pi] += ci;
        per_pass[pj] += cj && !(ci && pi == pj);
    }
    uint32_t cursor[DR_CONTACT_PASSES];
    for (uint32_t p = 0; p < DR_CONTACT_PASSES; ++p) {
        cursor[p] = (uint32_t)count;
        count += per_pass[p];
    }
    if (count > g->pair_capacity) {
        const uint64_t capacity = count + count / 2;
        bool ok = capacity <= UINT32_MAX;
        if (ok) {
            dr_pair_record *p = realloc(g->pairs, (size_t)capacity * sizeof *p);
            g->pairs = p ? p : g->pairs;
            dr_vec4 *x = realloc(g->pair_xij, (size_t)capacity * sizeof *x);
            g->pair_xij = x ? x : g->pair_xij;
            uint32_t *e = realloc(g->pair_ends, 2 * (size_t)capacity * sizeof *e);
            g->pair_ends = e ? e : g->pair_ends;
            uint32_t *t = realloc(g->touching, (size_t)capacity * sizeof *t);
            g->touching = t ? t : g->touching;
            ok = p && x && e && t;
        }
        if (!ok)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                           "drape_world_step: no memory for %llu particle contact pairs",
                           (unsigned long long)count);
        g->pair_capacity = (uint32_t)capacity;
    }
    for (uint32_t p = 0; p < DR_CONTACT_PASSES; ++p)
        g->pass_start[p] = cursor[p];
    g->pass_start[DR_CONTACT_PASSES] = (uint32_t)count;
    const pair_writer o = {
        g->pairs,         g->pair_xij, g->pair_ends, w->x,    g->local,
        g->nbr,           w->group,    g->rests,     g->vpre, dr_particle_impact_speed(w),
        dr_particle_up(w)};
    const dr_cand_pair *cand = g->cand_pairs;
    const uint32_t *ncand = g->ncand;
    const uint8_t *pass = g->pass;
    for (uint32_t c = 0, end = g->cand_count; c < end; ++c) {
        const dr_cand_pair cp = cand[c];
        const bool ci = complete || ncand[cp.i] <= DR_NBR_CAP,
                   cj = complete || ncand[cp.j] <= DR_NBR_CAP;
        const uint32_t pi = pass[cp.i], pj = pass[cp.j];
        if (ci)
            pair_record(o, cursor[pi]++, cp.i, cp.j, cp.D, cj && pi == pj);
        if (cj && !(ci && pi == pj))
            pair_record(o, cursor[pj]++, cp.j, cp.i, cp.D, false);
    }
    g->pair_count = (uint32_t)count;
    return DRAPE_OK;
}

/* The collision distance of i and j (dr_pair_distance) from their groups and radii, with their
 * rest positions read only where the groups' mesh filter needs them. */
static float pair_distance(const drape_world *w, uint32_t i, uint32_t gi, float ri, uint32_t j,
                           uint32_t gj, float rj)
{
    if (dr_pair_filters_rest(gi, gj))
        return dr_pair_distance(w->shape[i], gi, w->shape[j], gj);
    return dr_pair_distance(DR_V4(0.0f, 0.0f, 0.0f, ri), gi, DR_V4(0.0f, 0.0f, 0.0f, rj), gj);
}

/* The pairs of the particle at place k of dense_sorted (i, of group gi and radius ri) with those
 * at places near[0 .. found) within the reach of their radii, their anchors' squared distances in
 * d2: dr_pair_candidate's test, in full. */
static void list_near(drape_world *w, uint32_t k, const uint32_t *near, const float *d2,
                      uint32_t found)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t i = g->dense_sorted[k], gi = g->dense_group[k];
    const float ri = g->dense_anchor[k].w;
    for (uint32_t f = 0; f < found; ++f) {
        const uint32_t place = near[f], j = g->dense_sorted[place];
        const float D =
            pair_distance(w, i, gi, ri, j, g->dense_group[place], g->dense_anchor[place].w);
        if (dr_within_reach(D, d2[f]))
            add_candidates(g, i, j, D, d2[f] < D * D);
    }
}

/* The pairs of the particle at place k of dense_sorted with those at places [range[r][0],
 * range[r][1]) for r < ranges (all in neighbouring cells), from the anchors in that order: the
 * squared distance tried first without a branch (which pass it is as good as random) against
 * reach2, the squared reach of the two largest radii (dense_reach2: no pair reaches further), the
 * places within it listed, up to 64 at a time, for list_near's test in full. */
static void pair_ranges(drape_world *w, uint32_t k, const uint32_t (*range)[2], int ranges,
                        float reach2)
{
    const dr_vec4 *anchor = w->grid.dense_anchor;
    const dr_vec4 ai = anchor[k];
    uint32_t near[64], found = 0;
    float near_d2[64];
    for (int r = 0; r < ranges; ++r)
        for (uint32_t m = range[r][0]; m < range[r][1]; ++m) {
            const dr_vec4 d = dr_sub3(ai, anchor[m]);
            const float d2 = dr_dot3(d, d);
            near[found] = m;
            near_d2[found] = d2;
            found += (uint32_t)(d2 < reach2);
            if (found == 64u) {
                list_near(w, k, near, near_d2, found);
                found = 0;
            }
        }
    list_near(w, k, near, near_d2, found);
}

/* The square of the reach (dr_within_reach) of a pair of radius rmax each: every pair of radii at
 * most rmax has a reach whose square is at most this one (the sum, the product and the square
 * round monotonically), so that d2 < this bound holds for every pair dr_within_reach accepts. */
static float dense_reach2(float rmax)
{
    const float reach = (rmax + rmax) * (1.0f + DR_NBR_MARGIN);
    return reach * reach;
}

/* The candidates as in dr_cpu_particle_candidates, over a dense grid of the box of the occupied
 * cells, when that box has at most DENSE_CELLS cells per particle: counting sort by cell, x
 * fastest, so that three neighbouring cells in a row are one range and the half shell is five
 * ranges. Returns false (nothing done) for a larger box, or without memory for the grid. */
#define DENSE_CELLS 8u
static uint64_t dense_key(const int32_t *c, const int64_t *lo, int64_t nx, int64_t ny)
{
    return (uint64_t)((c[0] - lo[0]) + nx * ((c[1] - lo[1]) + ny * (c[2] - lo[2])));
}

static bool dense_candidates(drape_world *w)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t n = w->particle_count;
    int64_t lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, hi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    uint32_t members = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (g->cell[i] == DR_NO_CELL)
            continue;
        members++;
        for (int a = 0; a < 3; ++a) {
            const int64_t c = g->coord[4 * (size_t)i + a];
            lo[a] = c < lo[a] ? c : lo[a];
            hi[a] = c > hi[a] ? c : hi[a];
        }
    }
    if (members == 0)
        return true;
    const int64_t nx = hi[0] - lo[0] + 1, ny = hi[1] - lo[1] + 1, nz = hi[2] - lo[2] + 1;
    const uint64_t limit = (uint64_t)DENSE_CELLS * members + 64u;
    if ((uint64_t)nx > limit || (uint64_t)ny > limit / (uint64_t)nx ||
        (uint64_t)nz > limit / (uint64_t)(nx * ny))
        return false;
    const uint64_t cells = (uint64_t)(nx * ny * nz);
    if (cells + 1 > g->dense_capacity) {
        uint32_t *p = realloc(g->dense_start, (size_t)(limit + 1) * sizeof *p);
        if (!p)
            return false;
        g->dense_start = p;
        g->dense_capacity = limit + 1;
    }
    uint32_t *start = g->dense_start;
    memset(start, 0, (size_t)(cells + 1) * sizeof *start);
    for (uint32_t i = 0; i < n; ++i)
        if (g->cell[i] != DR_NO_CELL)
            start[dense_key(&g->coord[4 * (size_t)i], lo, nx, ny) + 1]++;
    for (uint64_t c = 0; c < cells; ++c)
        start[c + 1] += start[c];
    for (uint32_t i = 0; i < n; ++i)
        if (g->cell[i] != DR_NO_CELL)
            g->dense_sorted[start[dense_key(&g->coord[4 * (size_t)i], lo, nx, ny)]++] = i;
    /* the scatter moved each start to its cell's end, the next cell's start */
    memmove(start + 1, start, (size_t)cells * sizeof *start);
    start[0] = 0;
    float rmax = 0.0f;
    for (uint32_t k = 0; k < members; ++k) {
        const uint32_t i = g->dense_sorted[k];
        g->dense_anchor[k] = DR_V4(g->anchor[i].x, g->anchor[i].y, g->anchor[i].z, w->shape[i].w);
        g->dense_group[k] = w->group[i];
        rmax = w->shape[i].w > rmax ? w->shape[i].w : rmax;
    }
    const float reach2 = dense_reach2(rmax);
    /* the four rows of the half shell past the own row: (dy, dz) */
    static const int8_t rows[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    for (int64_t z = 0; z < nz; ++z)
        for (int64_t y = 0; y < ny; ++y)
            for (int64_t x = 0; x < nx; ++x) {
                const uint64_t c = (uint64_t)(x + nx * (y + ny * z));
                if (start[c] == start[c + 1])
                    continue;
                const int64_t x0 = x > 0 ? x - 1 : 0, x1 = x + 1 < nx ? x + 1 : x;
                /* the own cell after k and the next cell in the row; the rows of the half shell */
                uint32_t range[5][2] = {{0, start[(uint64_t)(x1 + nx * (y + ny * z)) + 1]}};
                int ranges = 1;
                for (int r = 0; r < 4; ++r) {
                    const int64_t yy = y + rows[r][0], zz = z + rows[r][1];
                    if (yy < 0 || yy >= ny || zz >= nz)
                        continue;
                    const uint64_t row = (uint64_t)(nx * (yy + ny * zz));
                    range[ranges][0] = start[row + (uint64_t)x0];
                    range[ranges++][1] = start[row + (uint64_t)x1 + 1];
                }
                for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
                    range[0][0] = k + 1;
                    pair_ranges(w, k, (const uint32_t(*)[2])range, ranges, reach2);
                }
            }
    return true;
}

/* The candidates of every particle: the pairs that dr_pair_candidate accepts among the particles of
 * neighbouring cells, each pair tested once and listed on both sides (dr_particle_candidates
 * searches 27 cells per particle on the device). The particles go in grid order, so that those of
 * one cell reuse its neighbours' buckets. The lists' order differs from the device's; the gather's
 * fixed-point sums do not depend on it. */
drape_result dr_cpu_particle_candidates(drape_world *w)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t n = w->particle_count, mask = w->plan.buckets - 1;
    memset(g->nbr, 0, (size_t)n * sizeof *g->nbr);
    memset(g->ncand, 0, (size_t)n * sizeof *g->ncand);
    g->pair_count = 0;
    g->cand_count = 0;
    g->cand_lost = false;
    if (dr_particle_crowded(w))
        return DRAPE_OK; /* the step reports it; no pair tests this step */
    if (dense_candidates(w))
        return pair_records(w, g->dense_sorted);
    int32_t near[13][3] = {{0}}; /* the half shell's cells and buckets around the last cell */
    uint32_t near_bucket[13] = {0};
    const int32_t *prev = NULL;
    for (uint32_t i = 0; i < n; ++i) {
        if (g->cell[i] == DR_NO_CELL)
            continue;
        const int32_t *ci = &g->coord[4 * (size_t)i];
        if (!prev || memcmp(ci, prev, 3 * sizeof *ci) != 0) {
            prev = ci;
            for (int h = 0; h < 13; ++h) {
                near[h][0] = ci[0] + half_shell[h][0];
                near[h][1] = ci[1] + half_shell[h][1];
                near[h][2] = ci[2] + half_shell[h][2];
                near_bucket[h] = dr_cell_bucket(near[h][0], near[h][1], near[h][2], mask);
            }
        }
        pair_bucket(w, i, ci, g->cell[i], true);
        for (int h = 0; h < 13; ++h)
            pair_bucket(w, i, near[h], near_bucket[h], false);
    }
    return pair_records(w, g->sorted);
}

dr_vec4 dr_particle_up(const drape_world *w)
{
    const dr_vec4 g = dr_vec4_from(w->def.gravity, 0.0f);
    const float len = dr_len3(g);
    return len > 0.0f ? dr_scale3(g, -1.0f / len) : dr_vec4_from((drape_vec3){0, 0, 0}, 0.0f);
}

float dr_particle_support_cap(const drape_world *w)
{
    const float h = w->substep;
    return dr_len3(dr_vec4_from(w->def.gravity, 0.0f)) * h * h;
}

/* The pushes of the pairs of contact pass `pass` (pair_records) on their listed side(s), each
 * pair's push worked out once: (j, i)'s is exactly the negation of (i, j)'s, and so is its stack
 * scaling (dr_stack_above is odd in r: a negated dot product, divided and clamped alike). Reads
 * and sums in the pass order (ld, sum). */
static void pair_pass(drape_world *w, dr_vec4 up, unsigned first, uint32_t pass)
{
    dr_particle_grid *g = &w->grid;
    const float mu_s = w->def.particle_static_friction, mu_k = w->def.particle_kinetic_friction,
                relax = w->def.contact_relaxation;
    const int gravity = dr_dot3(up, up) > 0.0f;
    const dr_vec4 *ld = g->ld, *xijs = g->pair_xij, *ground = g->ground;
    const uint32_t *ends = g->pair_ends, end = g->pass_start[pass + 1];
    const dr_pair_record *pairs = g->pairs;
    const float *lift = g->lift;
    uint32_t *touch = g->touching;
    dr_pair_sum *sum = g->sum;
    /* first the pairs within their collision distance, without a branch (which pairs touch is
     * as good as random); the grid's pointers loaded once (the compiler cannot tell that the
     * stores leave them as they are) */
    uint32_t touching = 0;
    for (uint32_t p = g->pass_start[pass]; p < end; ++p) {
        const dr_vec4 xij = xijs[p];
        const dr_vec4 r =
            dr_add3(xij, dr_sub3(ld[ends[2 * (size_t)p]], ld[ends[2 * (size_t)p + 1]]));
        touch[touching] = p;
        touching += dr_dot3(r, r) < xij.w * xij.w;
    }
    for (uint32_t t = 0; t < touching; ++t) {
        const uint32_t p = touch[t], i = ends[2 * (size_t)p], j = ends[2 * (size_t)p + 1];
        const dr_pair_record *pr = &pairs[p];
        const dr_vec4 di = ld[i], dj = ld[j];
        const float D = xijs[p].w;
        const dr_vec4 r = dr_add3(xijs[p], dr_sub3(di, dj));
        const float len2 = dr_dot3(r, r);
        const float above = dr_pair_stack(r, up, D, pr->unstacked);
        const int grounded_i = dr_grounded_at(ground[i], di),
                  grounded_j = dr_grounded_at(ground[j], dj);
        const float share_i = dr_pair_weigh(&sum[i], pr->wi, grounded_i, pr->ni, pr->wj, grounded_j,
                                            pr->nj, relax, above, gravity, pr->unstacked);
        float share_j = 0.0f;
        if (pr->both)
            share_j = dr_pair_weigh(&sum[j], pr->wj, grounded_j, pr->nj, pr->wi, grounded_i, pr->ni,
                                    relax, -above, gravity, pr->unstacked);
        if (!(share_i > 0.0f) && !(share_j > 0.0f))
            continue;
        const dr_vec4 push = dr_pair_push_vector(pr->pi, pr->pj, r, len2, D, di, dj, mu_s, mu_k, up,
                                                 lift[pr->pi], lift[pr->pj], first);
        if (share_i > 0.0f)
            dr_pair_add(&sum[i], push, share_i);
        if (share_j > 0.0f)
            dr_pair_add(&sum[j], dr_scale3(push, -1.0f), share_j);
    }
}

/* The new displacements, into dnew, of the particles at places [begin, end) of the pass order
 * with more than DR_NBR_CAP candidates: dr_particle_gather's grid search, from d, which holds
 * every member's displacement as in ld (pass_gather writes each pass's results to both). */
static void overflow_gather(drape_world *w, dr_vec4 up, unsigned first, uint32_t begin,
                            uint32_t end)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t mask = w->plan.buckets - 1;
    const float inv_cell = 1.0f / w->plan.cell;
    unsigned found;
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t i = g->member[k];
        if (g->ncand[i] > DR_NBR_CAP)
            g->dnew[k] = dr_particle_gather(
                i, w->x, w->d, g->grid_anchor, g->grid_group, g->anchor, w->shape, w->group,
                w->contacts, g->nbr, g->ncand, NULL /* unread past DR_NBR_CAP */, i, g->start,
                g->sorted, inv_cell, mask, w->def.particle_static_friction,
                w->def.particle_kinetic_friction, w->def.contact_relaxation, up, g->lift, first,
                w->d, g->pass, 0u, g->vpre, dr_particle_impact_speed(w), g->rests, &found);
    }
}

/* Contact pass `pass` of one iteration: the new displacements of its particles, from the
 * displacements before the pass (the pair pass for the particles with complete candidate lists,
 * the grid search for the others), then written. The pair sums are zero before, and left zero
 * after. */
static void pass_gather(drape_world *w, dr_vec4 up, unsigned first, uint32_t pass)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t begin = g->member_start[pass], end = g->member_start[pass + 1];
    const float relax = w->def.contact_relaxation;
    pair_pass(w, up, first, pass);
    if (g->overflow)
        overflow_gather(w, up, first, begin, end);
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t i = g->member[k];
        /* no pair within its collision distance: ld and the sums stay as they are, and its support
         * would only gain a zero (whose sign dr_support_lift drops) */
        if (g->sum[k].found == 0 && !(g->overflow && g->ncand[i] > DR_NBR_CAP))
            continue;
        const dr_vec4 dnew = g->overflow && g->ncand[i] > DR_NBR_CAP
                                 ? g->dnew[k]
                                 : dr_pair_sum_apply(g->sum[k], g->ld[k], relax);
        g->support[i] = dr_support_add(g->support[i], dnew, g->ld[k], up);
        g->ld[k] = dnew;
        if (g->overflow)
            w->d[i] = dnew; /* for the grid searches of the passes after this one */
        memset(&g->sum[k], 0, sizeof g->sum[k]);
    }
}

/* Iteration `iteration`'s contact pass: for each contact pass (dr_contact_passes) in turn,
 * dr_particle_gather's result for each of its particles, from the displacements after the pass
 * before, worked out in the pass order (pass_order) on copies of the displacements. */
void dr_cpu_particle_contacts(drape_world *w, int iteration)
{
    dr_particle_grid *g = &w->grid;
    if (dr_particle_crowded(w))
        return;
    const uint32_t members = g->member_start[DR_CONTACT_PASSES];
    const dr_vec4 up = dr_particle_up(w);
    const unsigned first = iteration == 0 ? 1u : 0u;
    const uint32_t passes = dr_contact_passes(up);
    for (uint32_t k = 0; k < members; ++k)
        g->ld[k] = w->d[g->member[k]];
    for (uint32_t pass = 0; pass < passes; ++pass)
        pass_gather(w, up, first, pass);
    for (uint32_t k = 0; k < members; ++k)
        w->d[g->member[k]] = g->ld[k];
}

uint32_t dr_bounce_rounds(const drape_world *w)
{
    return w->def.particle_restitution > 0.0f ? DR_BOUNCE_ROUNDS : 1u;
}

int dr_contact_tail(const drape_world *w)
{
    return w->plan.enabled && w->plan.mesh && w->def.mode == DRAPE_MODE_PBD ? w->def.contact_passes
                                                                            : 0;
}

bool dr_particle_bounces(const drape_world *w, float slow)
{
    return w->def.particle_restitution > 0.0f || slow > 0.0f || w->placed_count > 0;
}

bool dr_particle_keeps_vpre(const drape_world *w)
{
    return dr_particle_bounces(
        w, dr_restitution_threshold(dr_vec4_from(w->def.gravity, 0.0f), w->substep));
}

float dr_particle_impact_speed(const drape_world *w)
{
    return w->def.particle_restitution > 0.0f
               ? dr_restitution_threshold(dr_vec4_from(w->def.gravity, 0.0f), w->substep)
               : 0.0f;
}

/* Restitution between particles (dr_particle_bounce's result for every particle), pair by pair over
 * the candidate pairs: each pair's change (dr_bounce_gap, dr_bounce_change) is worked out once, and
 * added with i's share to i and, negated, with j's share to j, in the pair sums by place in the
 * pass order (zero before and after). A pair too slow for any gap (dr_bounce_quiet) is skipped
 * before any square root. */
drape_result dr_cpu_particle_bounce(drape_world *w, float slow, float h)
{
    dr_particle_grid *g = &w->grid;
    if (dr_particle_crowded(w) || !dr_particle_bounces(w, slow))
        return DRAPE_OK;
    const float e = w->def.particle_restitution, quiet = dr_bounce_quiet(e, slow),
                mu_s = w->def.particle_static_friction, mu_k = w->def.particle_kinetic_friction;
    const dr_vec4 *x = w->x, gravity = dr_bounce_gravity(&w->def);
    const uint32_t rounds = dr_bounce_rounds(w), members = g->member_start[DR_CONTACT_PASSES];
    if (e > 0.0f && g->applied_capacity < g->cand_count) {
        float *a = realloc(g->applied, (size_t)g->cand_capacity * sizeof *a);
        if (!a)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                           "drape_world_step: no memory for the restitution of %u particle pairs",
                           g->cand_count);
        g->applied = a;
        g->applied_capacity = g->cand_capacity;
    }
    dr_pair_sum *sum = g->sum;
    const size_t total = w->particle_count;
    for (uint32_t round = 0; round < rounds; ++round) {
        const dr_vec4 *v = w->v;
        /* as particle_bounce: this round's flags in one half of `moved`, the round before's in
         * the other */
        const uint8_t *before = &g->moved[((round + 1) & 1) * total];
        uint8_t *now = &g->moved[(round & 1) * total];
        for (uint32_t c = 0; c < g->cand_count; ++c) {
            const float done = e > 0.0f && round > 0 ? g->applied[c] : 0.0f;
            if (done < 0.0f) /* nothing to do in this round */
                continue;
            const dr_cand_pair cp = g->cand_pairs[c];
            const uint32_t i = cp.i, j = cp.j;
            if (round > 0 && !before[i] && !before[j])
                continue;
            dr_vec4 n, slip;
            int gi, gj, bounce;
            const float gap = dr_bounce_pair(
                x, v, w->d, w->contacts, g->vpre, g->ncand, i, j, cp.D, e, slow, quiet, gravity, h,
                ((w->group[i] | w->group[j]) & DR_GROUP_MESH) != 0, done, round, &n, &slip, &gi,
                &gj, &bounce, dr_pair_placed(i, j, w->placed_first, w->placed_count));
            if (gap != 0.0f) {
                const uint32_t ni = g->nbr[i], nj = g->nbr[j];
                const float wi = x[i].w, wj = x[j].w;
                const dr_vec4 change = dr_bounce_change(v[i], v[j], n, gap, slip, mu_s, mu_k);
                dr_bounce_add(&sum[g->local[i]], change, wi, gi, ni, wj, gj, nj, slow);
                dr_bounce_add(&sum[g->local[j]], dr_scale3(change, -1.0f), wj, gj, nj, wi, gi, ni,
                              slow);
            }
            if (e > 0.0f && round + 1 < rounds)
                g->applied[c] = dr_bounce_applied(bounce, done, gap);
        }
        /* dr_particle_bounce's end, for every member: the pairs' sum, then the collider's part */
        bool any = false;
        for (uint32_t k = 0; k < members; ++k) {
            const uint32_t i = g->member[k];
            const dr_vec4 vi = w->v[i];
            dr_vec4 vnew = vi;
            if (sum[k].found) {
                vnew = dr_pair_sum_apply(sum[k], vi, 1.0f);
                memset(&sum[k], 0, sizeof sum[k]);
            }
            if (e > 0.0f) {
                vnew = dr_bounce_wall(vnew, vi, g->vpre[i], w->contacts[i], &g->wall[2 * (size_t)i],
                                      round);
                now[i] = dr_bounce_moved(vi, vnew);
                any |= now[i] != 0;
            }
            w->v[i] = vnew;
        }
        if (!any) /* every round after would skip every pair, as the device's do */
            break;
    }
    return DRAPE_OK;
}

bool dr_particle_crowded(const drape_world *w) { return w->fullest_bucket > w->plan.bucket_cap; }

drape_result dr_particle_check(drape_world *w)
{
    if (!dr_particle_crowded(w))
        return DRAPE_OK;
    const dr_particle_plan *p = &w->plan;
    if (p->rmax > 4.0f * p->rmin)
        return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                       "drape_world_step: particle contacts: %u particles fell into one grid "
                       "bucket, more than the %u a bucket may hold with %u particles in contact; "
                       "the grid's cell (%g m) follows the largest radius (%g m), and particles "
                       "of the smallest (%g m) crowd into it. Give the particles closer radii, or "
                       "fewer of the small ones a radius. Particle contacts were skipped in this "
                       "step",
                       w->fullest_bucket, p->bucket_cap, p->members, (double)p->cell,
                       (double)p->rmax, (double)p->rmin);
    return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                   "drape_world_step: particle contacts: %u particles fell into one grid bucket "
                   "(cell %g m), more than the %u a bucket may hold with %u particles in contact; "
                   "the particles are packed far denser than their radii allow (all at one "
                   "point, or a radius as large as the scene?). Particle contacts were skipped in "
                   "this step",
                   w->fullest_bucket, (double)p->cell, p->bucket_cap, p->members);
}

/* The grid's arrays per particle: cell, sorted, nbr, ncand (4 B each), dnew, anchor, vpre, shape,
 * coord (2 x 16 B), group, support (4 B each), the pair sums, the ground plane
 * (16 B), the dense grid (at most 4 B + DENSE_CELLS + 1 starts); the pass order: member, local (4
 * B each), ld (16 B), pass (1 B); the dense grid's anchors (16 B) and groups (4 B); restitution's
 * collider parts (8 B) and changed flags (2 B); the rest flags (2 x 4 B). */
static uint64_t grid_bytes_per_particle(void)
{
    return 4 + 4 + 4 + 4 + 16 + 16 + 16 + 16 + 32 + 4 + 4 + sizeof(dr_pair_sum) + 16 +
           4 * (DENSE_CELLS + 2) + 4 + 4 + 16 + 1 + 16 + 4 + 8 + 2 + 8;
}

uint64_t dr_particle_grid_bytes_each(void)
{
    /* the table's counts and starts (at most 4 buckets per particle, dr_particle_plan_update), and
     * six candidate pairs with their pair records: a ball packed among twelve others, each pair
     * counted once (balls settled in a box hold 790 B per ball in all, drape-bench-particles'
     * grid MiB, when the CPU reference still kept them); and the OpenCL backend's candidate lists
     * (DR_NBR_CAP slots per particle), which the CPU reference does not keep */
    return grid_bytes_per_particle() + 4 * DR_NBR_CAP + 4 * 8 +
           6 * (sizeof(dr_cand_pair) + sizeof(dr_pair_record) + sizeof(dr_vec4) + 8 + 4);
}

static uint64_t grid_bytes(const drape_world *w)
{
    const uint64_t n = w->particle_count, b = w->plan.buckets;
    /* the arrays per particle; counts, start; the pair pass's pairs (a record, x_i - x_j, the two
     * places, a place in `touching`), the candidate pairs and restitution's sums per pair */
    const dr_particle_grid *g = &w->grid;
    return n * grid_bytes_per_particle() + b * 4 + (b + 1) * 4 +
           (uint64_t)g->pair_capacity * (sizeof(dr_pair_record) + sizeof(dr_vec4) + 8 + 4) +
           (uint64_t)g->cand_capacity * sizeof(dr_cand_pair) +
           (uint64_t)g->applied_capacity * sizeof(float);
}

drape_result drape_world_get_contact_stats(drape_world *w, drape_contact_stats *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_contact_stats";
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    dr_particle_plan_update(w);
    memset(out, 0, sizeof *out);
    out->enabled = w->plan.enabled;
    out->particles = w->plan.members;
    out->buckets = w->plan.buckets;
    out->cell_size = w->plan.cell;
    out->fullest_bucket = w->fullest_bucket;
    if (!w->plan.enabled)
        return DRAPE_OK;
    out->grid_bytes = w->cl ? dr_opencl_particle_bytes(w->cl) : grid_bytes(w);
    uint64_t sum = 0;
    if (w->cl) {
        drape_result r = dr_opencl_count_contacts(w->cl, w->particle_count, &sum);
        if (r != DRAPE_OK)
            return r;
    } else if (w->grid.nbr && w->grid.particles == w->particle_count) {
        for (uint32_t i = 0; i < w->particle_count; ++i)
            sum += w->grid.nbr[i];
    }
    out->contacts = (uint32_t)(sum / 2);
    return DRAPE_OK;
}

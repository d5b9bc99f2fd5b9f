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
    dr_particle_plan plan = {false, 0, 0.0f, 16};
    uint32_t first_group = 0, self_members = 0;
    bool two_groups = false;
    float rmax = 0.0f;
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        float r = w->shape[i].w;
        if (!(r > 0.0f))
            continue;
        uint32_t g = w->group[i] & DR_GROUP_ID;
        if (plan.members == 0)
            first_group = g;
        two_groups |= g != first_group;
        self_members += (w->group[i] & DR_GROUP_SELF) != 0;
        rmax = r > rmax ? r : rmax;
        plan.members++;
    }
    plan.enabled = plan.members >= 2 && (two_groups || self_members >= 2);
    plan.cell = 2.0f * rmax * (1.0f + DR_NBR_MARGIN); /* the candidates' reach */
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
    free(g->list);
    free(g->vpre);
    free(g->dnew);
    free(g->sum);
    free(g->grounded);
    free(g->anchor);
    free(g->support);
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
    g->coord = malloc((size_t)n * 4 * sizeof *g->coord);
    g->sorted = malloc((size_t)n * sizeof *g->sorted);
    g->nbr = calloc(n, sizeof *g->nbr);
    g->ncand = calloc(n, sizeof *g->ncand);
    g->list = malloc((size_t)n * DR_NBR_CAP * sizeof *g->list);
    g->vpre = malloc((size_t)n * sizeof *g->vpre);
    g->dnew = malloc((size_t)n * sizeof *g->dnew);
    g->sum = malloc((size_t)n * sizeof *g->sum);
    g->grounded = malloc((size_t)n * sizeof *g->grounded);
    g->anchor = malloc((size_t)n * sizeof *g->anchor);
    g->support = calloc(n, sizeof *g->support);
    g->counts = malloc((size_t)b * sizeof *g->counts);
    g->start = malloc(((size_t)b + 1) * sizeof *g->start);
    if (!g->cell || !g->coord || !g->sorted || !g->nbr || !g->ncand || !g->list || !g->vpre || !g->dnew ||
        !g->sum || !g->grounded ||
        !g->anchor || !g->support || !g->counts || !g->start) {
        dr_particle_grid_free(g);
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "drape_world_step: no memory for the particle grid (%u particles, %u "
                       "buckets)",
                       n, b);
    }
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
    if (w->def.particle_restitution > 0.0f)
        memcpy(g->vpre, w->v, (size_t)n * sizeof *g->vpre);
    /* cell ids and the histogram */
    memset(g->counts, 0, (size_t)w->plan.buckets * sizeof *g->counts);
    for (uint32_t i = 0; i < n; ++i) {
        g->cell[i] = DR_NO_CELL;
        if (!(w->shape[i].w > 0.0f))
            continue;
        w->d[i] = dr_limit_travel(dr_support_lift(w->d[i], &g->support[i], g->nbr[i], up, cap),
                                  travel * w->shape[i].w);
        g->anchor[i] = dr_add3(w->x[i], w->d[i]);
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
    for (uint32_t i = 0; i < n; ++i)
        if (g->cell[i] != DR_NO_CELL)
            g->sorted[g->start[g->cell[i]] + --g->counts[g->cell[i]]] = i;
    return DRAPE_OK;
}

/* The 13 neighbouring cells "after" a cell (half of the 26 around it): each pair of neighbouring
 * cells is visited once, from the earlier of the two. */
static const int8_t half_shell[13][3] = {
    {1, 0, 0},  {-1, 1, 0}, {0, 1, 0},  {1, 1, 0},   {-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
    {-1, 0, 1}, {0, 0, 1},  {1, 0, 1},  {-1, 1, 1},  {0, 1, 1},   {1, 1, 1},
};

/* i lists j and j lists i as candidates; `touching` when they touch at their anchors. */
static void add_candidates(dr_particle_grid *g, uint32_t i, uint32_t j, bool touching)
{
    if (g->ncand[i] < DR_NBR_CAP)
        g->list[(size_t)i * DR_NBR_CAP + g->ncand[i]] = j;
    if (g->ncand[j] < DR_NBR_CAP)
        g->list[(size_t)j * DR_NBR_CAP + g->ncand[j]] = i;
    g->ncand[i]++;
    g->ncand[j]++;
    g->nbr[i] += touching;
    g->nbr[j] += touching;
}

/* The pairs of particle i with the particles of bucket b that lie in cell c (another cell that
 * shares the bucket is not a neighbour; a particle of i's own cell: once per pair, from the lower
 * index). */
static void pair_bucket(drape_world *w, uint32_t i, const int32_t *c, uint32_t b, bool own)
{
    dr_particle_grid *g = &w->grid;
    const dr_vec4 si = w->shape[i], ai = g->anchor[i];
    const uint32_t gi = w->group[i];
    for (uint32_t k = g->start[b], end = g->start[b + 1]; k < end; ++k) {
        const uint32_t j = g->sorted[k];
        const int32_t *cj = &g->coord[4 * (size_t)j];
        if (cj[0] != c[0] || cj[1] != c[1] || cj[2] != c[2] || (own && j <= i))
            continue;
        const dr_vec4 sj = w->shape[j], aj = g->anchor[j];
        const uint32_t gj = w->group[j];
        if (!dr_pair_candidate(si, gi, ai, sj, gj, aj))
            continue;
        const float D = dr_pair_distance(si, gi, sj, gj);
        const dr_vec4 r = dr_sub3(ai, aj);
        add_candidates(g, i, j, dr_dot3(r, r) < D * D);
    }
}

/* The candidates of every particle: the pairs that dr_pair_candidate accepts among the particles of
 * neighbouring cells, each pair tested once and listed on both sides (dr_particle_candidates
 * searches 27 cells per particle on the device). The lists' order differs from the device's; the
 * gather's fixed-point sums do not depend on it. */
void dr_cpu_particle_candidates(drape_world *w)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t n = w->particle_count, mask = w->plan.buckets - 1;
    memset(g->nbr, 0, (size_t)n * sizeof *g->nbr);
    memset(g->ncand, 0, (size_t)n * sizeof *g->ncand);
    if (w->fullest_bucket > DR_CELL_CAP)
        return; /* the step reports it; no pair tests this step */
    for (uint32_t i = 0; i < n; ++i) {
        if (g->cell[i] == DR_NO_CELL)
            continue;
        const int32_t *ci = &g->coord[4 * (size_t)i];
        pair_bucket(w, i, ci, g->cell[i], true);
        for (int k = 0; k < 13; ++k) {
            const int32_t c[3] = {ci[0] + half_shell[k][0], ci[1] + half_shell[k][1],
                                  ci[2] + half_shell[k][2]};
            pair_bucket(w, i, c, dr_cell_bucket(c[0], c[1], c[2], mask), false);
        }
    }
}

dr_vec4 dr_particle_up(const drape_world *w)
{
    const dr_vec4 g = dr_vec4_from(w->def.gravity, 0.0f);
    const float len = dr_len3(g);
    return len > 0.0f ? dr_scale3(g, -1.0f / len) : dr_vec4_from((drape_vec3){0, 0, 0}, 0.0f);
}

float dr_particle_support_cap(const drape_world *w)
{
    const float h = w->def.dt / (float)w->def.substeps;
    return dr_len3(dr_vec4_from(w->def.gravity, 0.0f)) * h * h;
}

/* The pushes of every pair on its listed side(s), each pair's push worked out once: the pair
 * (i, j) from the lower index when both have complete lists, else from the side whose list is
 * complete. */
static void pair_pass(drape_world *w, dr_vec4 up)
{
    dr_particle_grid *g = &w->grid;
    const uint32_t n = w->particle_count;
    const float mu_s = w->def.particle_static_friction, mu_k = w->def.particle_kinetic_friction,
                relax = w->def.contact_relaxation;
    const int stacked = dr_dot3(up, up) > 0.0f;
    memset(g->sum, 0, (size_t)n * sizeof *g->sum);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t count = g->ncand[i];
        if (count == 0 || count > DR_NBR_CAP)
            continue;
        const dr_vec4 xi = w->x[i], di = w->d[i], si = w->shape[i];
        const uint32_t gi = w->group[i], ni = g->nbr[i];
        const int grounded_i = g->grounded[i];
        const uint32_t *list = &g->list[(size_t)i * DR_NBR_CAP];
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t j = list[k];
            const bool j_listed = g->ncand[j] <= DR_NBR_CAP;
            if (j < i && j_listed)
                continue; /* done from j's side */
            const dr_vec4 xj = w->x[j], dj = w->d[j];
            const float D = dr_pair_distance(si, gi, w->shape[j], w->group[j]);
            const dr_vec4 r = dr_add3(dr_sub3(xi, xj), dr_sub3(di, dj));
            const float len2 = dr_dot3(r, r);
            if (!(len2 < D * D))
                continue;
            const uint32_t nj = g->nbr[j];
            const int grounded_j = g->grounded[j];
            const float share_i =
                dr_pair_weigh(&g->sum[i], xi.w, grounded_i, ni, xj.w, grounded_j, nj, relax,
                              dr_stack_above(r, up, D), stacked);
            float share_j = 0.0f;
            if (j_listed) {
                const dr_vec4 rj = dr_add3(dr_sub3(xj, xi), dr_sub3(dj, di));
                share_j = dr_pair_weigh(&g->sum[j], xj.w, grounded_j, nj, xi.w, grounded_i, ni,
                                        relax, dr_stack_above(rj, up, D), stacked);
            }
            if (!(share_i > 0.0f) && !(share_j > 0.0f))
                continue;
            const dr_vec4 push = dr_pair_push_vector(i, j, r, len2, D, di, dj, mu_s, mu_k);
            if (share_i > 0.0f)
                dr_pair_add(&g->sum[i], push, share_i);
            if (share_j > 0.0f) /* (j, i)'s push is exactly -push */
                dr_pair_add(&g->sum[j], dr_scale3(push, -1.0f), share_j);
        }
    }
}

/* One gather pass (dr_particle_gather's result for every particle): the pair pass for the particles
 * with complete candidate lists, the grid search for the others. */
void dr_cpu_particle_contacts(drape_world *w)
{
    dr_particle_grid *g = &w->grid;
    if (w->fullest_bucket > DR_CELL_CAP)
        return;
    const uint32_t n = w->particle_count, mask = w->plan.buckets - 1;
    const float inv_cell = 1.0f / w->plan.cell;
    const dr_vec4 up = dr_particle_up(w);
    for (uint32_t i = 0; i < n; ++i)
        g->grounded[i] = (uint8_t)dr_particle_grounded(w->contacts[i], up);
    pair_pass(w, up);
    unsigned found;
    for (uint32_t i = 0; i < n; ++i) {
        if (g->ncand[i] > DR_NBR_CAP)
            g->dnew[i] = dr_particle_gather(
                i, w->x, w->d, g->anchor, w->shape, w->group, w->contacts, g->nbr, g->ncand,
                g->list, g->start, g->sorted, inv_cell, mask, w->def.particle_static_friction,
                w->def.particle_kinetic_friction, w->def.contact_relaxation, up, &found);
        else
            g->dnew[i] = dr_pair_sum_apply(g->sum[i], w->d[i], w->def.contact_relaxation);
        g->support[i] = dr_support_add(g->support[i], g->dnew[i], w->d[i], up);
    }
    memcpy(w->d, g->dnew, (size_t)n * sizeof *w->d);
}

bool dr_particle_bounces(const drape_world *w, float slow)
{
    return w->def.particle_restitution > 0.0f || slow > 0.0f;
}

void dr_cpu_particle_bounce(drape_world *w, float slow)
{
    dr_particle_grid *g = &w->grid;
    if (w->fullest_bucket > DR_CELL_CAP || !dr_particle_bounces(w, slow))
        return;
    const uint32_t n = w->particle_count;
    for (uint32_t i = 0; i < n; ++i)
        g->dnew[i] =
            dr_particle_bounce(i, w->x, w->v, g->vpre, w->shape, w->group, w->contacts, g->nbr,
                               g->ncand, g->list, w->def.particle_restitution, slow);
    memcpy(w->v, g->dnew, (size_t)n * sizeof *w->v);
}

drape_result dr_particle_check(drape_world *w)
{
    if (w->fullest_bucket <= DR_CELL_CAP)
        return DRAPE_OK;
    return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                   "drape_world_step: particle contacts: %u particles fell into one grid bucket "
                   "(cell %g m), more than the %u a bucket may hold; the particles are packed far "
                   "denser than their radii allow (all at one point, or a radius as large as the "
                   "scene?). Particle contacts were skipped in this step",
                   w->fullest_bucket, (double)w->plan.cell, DR_CELL_CAP);
}

static uint64_t grid_bytes(const drape_world *w)
{
    const uint64_t n = w->particle_count, b = w->plan.buckets;
    /* cell, sorted, nbr, ncand (4 B each), dnew, anchor, vpre, shape, coord (16 B each), group,
     * support (4 B each), the candidate lists, the pair sums, grounded (1 B); counts, start */
    return n * (4 + 4 + 4 + 4 + 16 + 16 + 16 + 16 + 16 + 4 + 4 + 4 * DR_NBR_CAP +
                sizeof(dr_pair_sum) + 1) +
           b * 4 + (b + 1) * 4;
}

drape_result drape_world_get_contact_stats(drape_world *w, drape_contact_stats *out)
{
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

/* Balloons: the pressure constraint of the PBD paper (Müller et al. 2007, section 4.4) on closed
 * triangle meshes, C = V - k_pressure V0 (kernels/drape_balloon.h), and the CPU reference's
 * projection of it.
 *
 * A mesh is accepted only when it encloses a volume: closed (every edge has a triangle on each
 * side), consistently oriented (each edge is walked once each way), manifold (no edge walked twice
 * the same way) and facing out (a positive volume). Each test names the edge or the triangles at
 * fault. The CPU reference projects every balloon after the coloured constraints of an iteration
 * with the device's order of operations (gradients of every vertex first, once per substep since
 * they are taken at its start, then in each iteration the sums lane by lane and every vertex
 * moved), so that the backends agree bit for bit.
 */
#include "balloons.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DR_MAX_PRESSURE 100.0f

/* How fast a balloon inflates to its pressure: its volume target doubles (or halves) once per this
 * many seconds from the rest volume, whatever the substep (so at most 2.3 m/s of the skin's speed
 * for a sphere of 1 m). Its target once moved straight to the pressure, within a factor of 2 a
 * substep (DR_BALLOON_GROWTH): the skin set off at a speed that grew with the substeps (75 m/s at
 * 16 substeps for the default sphere at 2 V0), and a soft skin could not take that energy out; at
 * 16 and 32 substeps it blew up (docs/scene-format.md, "Balloons"). */
#define DR_BALLOON_DOUBLING 0.1

float dr_balloon_target(const dr_balloon *b, double t)
{
    const double goal = b->pressure,
                 k = exp2((t > b->born ? t - b->born : 0.0) / DR_BALLOON_DOUBLING);
    return (float)((goal >= 1.0 ? fmin(goal, k) : fmax(goal, 1.0 / k)) * b->rest_volume);
}

drape_balloon_def drape_default_balloon_def(void)
{
    drape_balloon_def d = {
        NULL, 0, 1.0f, DRAPE_REST_FROM_POSITIONS, 1.0f, 0.0f, DRAPE_STIFFNESS_PBD};
    return d;
}

static void free_balloon(dr_balloon *b)
{
    free(b->triangles);
    free(b->vertices);
    free(b->offsets);
    free(b->incident);
    free(b->gradients);
    memset(b, 0, sizeof *b);
}

void dr_balloons_destroy(drape_world *w)
{
    dr_balloons *s = w->balloons;
    if (!s)
        return;
    for (uint32_t k = 0; k < s->count; ++k)
        free_balloon(&s->items[k]);
    free(s->items);
    free(s);
    w->balloons = NULL;
}

uint32_t drape_world_balloon_count(const drape_world *w)
{
    return w && w->balloons ? w->balloons->count : 0;
}

/* How fast a balloon's tense skin rings across itself against the substep h. A link stretched by
 * the strain e under its compliance alpha (m/N) pulls with the tension T = e L / alpha, and across
 * itself its ends feel the stiffness T / |e|, but the step pulls them along the link's direction at
 * the substep's start (dr_distance_step): for that transverse stiffness the step is explicit, and
 * stable only while omega h < 2. The skin's fastest transverse mode is 4.5 times one link's, (w_a +
 * w_b) T / |e|, on a mesh of six links at a vertex (the graph Laplacian's largest eigenvalue, 4.6
 * measured on the icosphere), and a balloon inflated to p times its volume is stretched by e =
 * p^(1/3) - 1 in every direction, so (omega h)^2 = 4.5 (w_a + w_b) e h^2 / (alpha (1 + e)). Past
 * DR_BALLOON_SKIN_STABLE the skin can boil: shake for good, its links turning 20 degrees a substep
 * until the direction blend stops them there, whatever the iterations or the damping. Measured on
 * the default icosphere (0.3 m, 642 particles of 0.16 g) in free space at 4 substeps, 10 s:
 * pressure 1.5 settles at omega h 2.05 and boils at 2.52 (0.27 J, 2.2 m/s), 1.2 settles at 2.72
 * and boils at 3.14, 3 boils at 2.09; 1.05 settles even at 4.0. The pressure's own push across the
 * skin lowers the bound as the balloon grows, so the warning names the skins that can boil, not
 * only those that will. */
#define DR_BALLOON_SKIN_STABLE 2.0
#define DR_BALLOON_SKIN_MODES 4.5

void dr_balloons_warn(drape_world *w)
{
    const dr_balloons *s = w->balloons;
    const dr_constraints *links = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    double h;
    if (!s || s->count == 0 || links->count == 0 ||
        !dr_substep_check_due(w, &w->balloon_check, s->version, &h))
        return;
    uint32_t *owner = calloc(w->particle_count, sizeof *owner); /* balloon + 1, 0: none */
    if (!owner)
        return; /* a warning is not worth failing the step for */
    for (uint32_t b = 0; b < s->count; ++b)
        for (uint32_t v = 0; v < s->items[b].vertex_count; ++v)
            owner[s->items[b].vertices[v]] = b + 1;
    double worst = 0.0;
    uint32_t at = 0, link = 0;
    for (uint32_t c = 0; c < links->count; ++c) {
        const uint32_t a = links->idx[2 * (size_t)c], o = links->idx[2 * (size_t)c + 1];
        const double alpha = links->compliance[c];
        if (!owner[a] || owner[a] != owner[o] || !(alpha > 0.0))
            continue;
        const double e = cbrt((double)s->items[owner[a] - 1].pressure) - 1.0;
        const double wsum = (double)w->x[a].w + (double)w->x[o].w;
        const double r =
            e > 0.0 ? sqrt(DR_BALLOON_SKIN_MODES * wsum * e / (alpha * (1.0 + e))) * h : 0.0;
        if (r > worst)
            worst = r, at = owner[a] - 1, link = c;
    }
    free(owner);
    if (!(worst > DR_BALLOON_SKIN_STABLE))
        return;
    w->balloon_check.warned = true;
    dr_log(
        &w->def, DRAPE_LOG_WARNING,
        "drape_world_step: the skin of balloon %u is too tense for the substep of %g s: inflated "
        "to %g times its volume, its link %u (compliance %g m/N) rings across the skin at "
        "omega h = %.3g, past the %g beyond which such a skin can boil (shake for good, never "
        "settling). Take at least %.0f substeps (def.substeps), or a softer skin (a larger "
        "compliance) or heavier particles. Said once per world",
        at, h, (double)s->items[at].pressure, link, (double)links->compliance[link], worst,
        DR_BALLOON_SKIN_STABLE, ceil(w->def.substeps * worst / DR_BALLOON_SKIN_STABLE));
}

/* The volume (m^3) of a mesh at the host's positions, in double. */
static double mesh_volume(const drape_world *w, const uint32_t *tri, uint32_t count)
{
    const dr_vec4 o = w->x[tri[0]];
    double sum = 0.0;
    for (uint32_t t = 0; t < count; ++t) {
        double p[3][3];
        for (int k = 0; k < 3; ++k) {
            const dr_vec4 q = w->x[tri[3 * t + k]];
            p[k][0] = (double)q.x - o.x, p[k][1] = (double)q.y - o.y, p[k][2] = (double)q.z - o.z;
        }
        sum += (p[0][1] * p[1][2] - p[0][2] * p[1][1]) * p[2][0] +
               (p[0][2] * p[1][0] - p[0][0] * p[1][2]) * p[2][1] +
               (p[0][0] * p[1][1] - p[0][1] * p[1][0]) * p[2][2];
    }
    return sum / 6.0;
}

int dr_compare_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int dr_compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Each directed edge (a -> b) of every triangle, as (a << 32 | b), sorted: the mesh is closed,
 * oriented and manifold when every key appears once and so does its reverse. */
static drape_result check_closed(const drape_world *w, const char *fn, const uint32_t *tri,
                                 uint32_t count)
{
    uint64_t *edges = malloc((size_t)3 * count * sizeof *edges);
    if (!edges)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory to check %u triangles",
                       fn, count);
    for (uint32_t t = 0; t < count; ++t)
        for (int k = 0; k < 3; ++k)
            edges[3 * (size_t)t + k] = (uint64_t)tri[3 * t + k] << 32 | tri[3 * t + (k + 1) % 3];
    const size_t n = (size_t)3 * count;
    qsort(edges, n, sizeof *edges, dr_compare_u64);
    drape_result r = DRAPE_OK;
    for (size_t e = 0; e < n && r == DRAPE_OK; ++e) {
        const uint32_t a = (uint32_t)(edges[e] >> 32), b = (uint32_t)edges[e];
        const uint64_t reverse = (uint64_t)b << 32 | a;
        if (e + 1 < n && edges[e + 1] == edges[e])
            r = dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                        "%s: the edge from particle %u to %u is walked the same way by two "
                        "triangles: the mesh is not consistently oriented (or an edge has more "
                        "than two triangles)",
                        fn, a, b);
        else if (!bsearch(&reverse, edges, n, sizeof *edges, dr_compare_u64))
            r = dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                        "%s: the mesh is open: the edge between particles %u and %u has a "
                        "triangle on one side only; a balloon needs a closed mesh",
                        fn, a, b);
    }
    free(edges);
    return r;
}

/* The balloon's vertices (its particles, increasing) and the adjacency over them. */
static drape_result index_vertices(const drape_world *w, const char *fn, dr_balloon *b)
{
    const size_t n3 = (size_t)3 * b->triangle_count;
    uint32_t *sorted = malloc(n3 * sizeof *sorted), *local = malloc(n3 * sizeof *local);
    drape_result r = DRAPE_OK;
    if (!sorted || !local)
        r = DRAPE_ERROR_OUT_OF_MEMORY;
    uint32_t v = 0;
    if (r == DRAPE_OK) {
        memcpy(sorted, b->triangles, n3 * sizeof *sorted);
        qsort(sorted, n3, sizeof *sorted, dr_compare_u32);
        for (size_t i = 0; i < n3; ++i)
            if (i == 0 || sorted[i] != sorted[v - 1])
                sorted[v++] = sorted[i];
    }
    if (r == DRAPE_OK) {
        b->vertex_count = v;
        b->vertices = malloc((size_t)v * sizeof *b->vertices);
        if (!b->vertices)
            r = DRAPE_ERROR_OUT_OF_MEMORY;
    }
    if (r == DRAPE_OK) {
        memcpy(b->vertices, sorted, (size_t)v * sizeof *sorted);
        for (size_t i = 0; i < n3; ++i) {
            const uint32_t *hit =
                bsearch(&b->triangles[i], b->vertices, v, sizeof *b->vertices, dr_compare_u32);
            local[i] = (uint32_t)(hit - b->vertices);
        }
        if (!dr_triangle_adjacency(local, b->triangle_count, v, &b->offsets, &b->incident))
            r = DRAPE_ERROR_OUT_OF_MEMORY;
    }
    free(sorted);
    free(local);
    if (r != DRAPE_OK)
        return dr_fail(&w->def, r, "%s: no memory for the balloon's %u triangles", fn,
                       b->triangle_count);
    return DRAPE_OK;
}

drape_result dr_add_balloon(drape_world *w, const char *fn, const drape_balloon_def *d,
                            uint32_t *out_id)
{
    if (!d)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    const uint32_t n = d->triangle_count;
    if (n > UINT32_MAX / 3)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->triangle_count = %u is more than the %u whose indices fit in 32 "
                       "bits",
                       fn, n, UINT32_MAX / 3);
    if (n < 4 || !d->triangles)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->triangle_count = %u: a closed mesh needs at least 4 triangles%s",
                       fn, n, d->triangles ? "" : " (and def->triangles is NULL)");
    for (uint32_t t = 0; t < n; ++t) {
        const uint32_t *c = &d->triangles[3 * (size_t)t];
        for (int k = 0; k < 3; ++k)
            if (c[k] >= w->particle_count)
                return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                               "%s: def->triangles[%zu] = %u, but the world has %u particles", fn,
                               3 * (size_t)t + k, c[k], w->particle_count);
        if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2])
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: triangle %u (%u, %u, %u) repeats a particle", fn, t, c[0], c[1],
                           c[2]);
    }
    if (!(d->pressure > 0.0f && d->pressure <= DR_MAX_PRESSURE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->pressure = %g must be in (0, %g]", fn, (double)d->pressure,
                       (double)DR_MAX_PRESSURE);
    const bool from_positions = d->rest_volume == DRAPE_REST_FROM_POSITIONS;
    if (!from_positions && !(d->rest_volume > 0.0f && d->rest_volume <= 1e27f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->rest_volume = %g m^3 must be > 0 and at most 1e27 (or "
                       "DRAPE_REST_FROM_POSITIONS: the current volume)",
                       fn, (double)d->rest_volume);
    drape_result r = dr_check_stiffness(&w->def, fn, "def->", DR_DEF_STIFFNESS(d));
    if (r == DRAPE_OK)
        r = check_closed(w, fn, d->triangles, n);
    if (r == DRAPE_OK)
        r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    const double volume = mesh_volume(w, d->triangles, n);
    if (!(volume > 0.0))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: the mesh encloses a volume of %g m^3: its triangles face inward (or "
                       "it is flat); list each triangle's particles in the other order",
                       fn, volume);

    if (!w->balloons && !(w->balloons = calloc(1, sizeof *w->balloons)))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for balloons", fn);
    dr_balloons *s = w->balloons;
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? 2 * s->capacity : 4;
        dr_balloon *items = realloc(s->items, cap * sizeof *items);
        if (!items)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for balloons", fn);
        s->items = items;
        s->capacity = cap;
    }
    dr_balloon b;
    memset(&b, 0, sizeof b);
    b.triangle_count = n;
    b.triangles = malloc((size_t)3 * n * sizeof *b.triangles);
    if (!b.triangles)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u triangles", fn, n);
    memcpy(b.triangles, d->triangles, (size_t)3 * n * sizeof *b.triangles);
    r = index_vertices(w, fn, &b);
    if (r == DRAPE_OK) {
        b.gradients = malloc((size_t)b.vertex_count * sizeof *b.gradients);
        if (!b.gradients)
            r = dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u gradients", fn,
                        b.vertex_count);
    }
    if (r != DRAPE_OK) {
        free_balloon(&b);
        return r;
    }
    b.rest_volume = from_positions ? (float)volume : d->rest_volume;
    b.born = w->time;
    b.pressure = d->pressure;
    b.stiffness = d->stiffness;
    b.compliance = dr_solver_compliance(DR_DEF_STIFFNESS(d));
    if (out_id)
        *out_id = s->count;
    s->items[s->count++] = b;
    s->version++;
    return DRAPE_OK;
}

drape_result drape_world_add_balloon(drape_world *w, const drape_balloon_def *d, uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    return dr_add_balloon(w, __func__, d, out_id);
}

static drape_result check_id(const drape_world *w, const char *fn, uint32_t id, const void *out)
{
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (id >= drape_world_balloon_count(w))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: balloon id %u does not exist (the world has %u)", fn, id,
                       drape_world_balloon_count(w));
    return DRAPE_OK;
}

drape_result drape_world_get_balloon(const drape_world *w, uint32_t id, drape_balloon_info *out)
{
    DR_CHECK_WORLD(w);
    drape_result r = check_id(w, "drape_world_get_balloon", id, out);
    if (r == DRAPE_OK)
        r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    const dr_balloon *b = &w->balloons->items[id];
    out->triangle_count = b->triangle_count;
    out->vertex_count = b->vertex_count;
    out->pressure = b->pressure;
    out->rest_volume = b->rest_volume;
    out->volume = (float)mesh_volume(w, b->triangles, b->triangle_count);
    return DRAPE_OK;
}

drape_result drape_world_get_balloon_triangles(const drape_world *w, uint32_t id, uint32_t *out)
{
    DR_CHECK_WORLD(w);
    drape_result r = check_id(w, "drape_world_get_balloon_triangles", id, out);
    if (r == DRAPE_OK) {
        const dr_balloon *b = &w->balloons->items[id];
        memcpy(out, b->triangles, (size_t)3 * b->triangle_count * sizeof *out);
    }
    return r;
}

bool dr_balloons_active(const drape_world *w)
{
    return w->balloons && w->balloons->count && w->def.mode == DRAPE_MODE_PBD;
}

void dr_balloons_project_cpu(drape_world *w, float h, bool start_substep)
{
    if (!dr_balloons_active(w))
        return;
    dr_balloons *s = w->balloons;
    const float inv_h2 = 1.0f / (h * h);
    for (uint32_t k = 0; k < s->count; ++k) {
        dr_balloon *b = &s->items[k];
        if (start_substep) { /* the start's positions, so the gradients hold for the substep */
            b->state = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
            const dr_vec4 o = w->x[b->vertices[0]];
            for (uint32_t v = 0; v < b->vertex_count; ++v)
                b->gradients[v] =
                    dr_balloon_gradient(w->x, b->triangles, b->incident, b->offsets[v],
                                        b->offsets[v + 1], b->vertices[v], o);
        }
        for (unsigned lane = 0; lane < DR_SUM_LANES; ++lane)
            dr_balloon_lane(w->x, w->d, b->triangles, b->triangle_count, b->gradients,
                            b->vertex_count, w->x[b->vertices[0]], lane, &s->partial[2 * lane]);
        b->state = dr_balloon_step(s->partial, dr_balloon_target(b, w->time),
                                   dr_corrected_stiffness(b->stiffness, w->def.iterations),
                                   b->compliance, inv_h2, b->state);
        for (uint32_t v = 0; v < b->vertex_count; ++v) {
            const uint32_t i = b->vertices[v];
            w->d[i] = dr_balloon_apply(w->d[i], b->gradients[v], b->state.y);
        }
    }
}

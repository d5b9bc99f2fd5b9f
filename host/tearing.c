/* Breakable links and tearing (Müller et al., "Position Based Dynamics", 2007: a vertex split by
 * the plane through it perpendicular to an over-stretched edge).
 *
 * After every step the host checks each breakable distance constraint against its limit (the
 * OpenCL backend's positions are read back first). A stretch link of a tearing cloth splits one of
 * its particles: a spare particle, reserved with the cloth so that no array grows in a step, takes
 * the position, the velocity and half the mass of the particle, and the links on the far side of
 * the plane. Other breakable links, and stretch links that cannot split, are removed. The links are
 * processed in id order, each at most once per step, so every backend tears the same way.
 *
 * The colouring is updated for the changed constraints only. A split cannot make two links of a
 * colour share a particle: the links it moves to the copy all shared the split particle, so their
 * colours were already distinct, and the copy has no other link. So a split rewrites the moved
 * links' particles in the solver's colour-ordered copy in place and keeps every colour. A broken
 * link leaves its colour: the distance type alone is recoloured before the next step. The render
 * triangles (drape_world_set_triangles) on the far side of the plane take the copy too, so the tear
 * opens where it is drawn (dr_render_split); dihedrals and aerodynamic triangles keep theirs.
 *
 * Tethers (tethers.c) must not hold what tears apart: a split particle loses its tether (the tear
 * may run between it and its anchor), and so does every particle that the step's tears cut off
 * from its anchor (no chain of links left between them), so that a torn-off piece falls.
 *
 * On the OpenCL backend the device measures the breakable links at the end of the step
 * (kernels/tear.cl, against their limits less DR_TEAR_WATCH_SLACK, so that it never misses one the
 * exact check would break), its answer comes back in the step's one read with the non-finite check,
 * and the positions are read back only when a link may be past its limit.
 */
#include "world_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DR_MAX_BREAK 1e6f
/* The device flags a link a little before its limit (a relative margin), so that rounding on the
 * device can never hide a link the host's check would break; the host decides exactly. */
#define DR_TEAR_WATCH_SLACK 1e-4f

typedef struct dr_tear {
    uint32_t capacity;   /* distance ids covered by limit and splittable */
    float *limit;        /* per distance id: the strain limit, 0 for unbreakable */
    uint8_t *splittable; /* per distance id: a stretch link of a tearing cloth */
    uint32_t breakable;  /* ids with a limit */
    uint32_t *spares;    /* reserved particles, used from the end */
    uint32_t spare_count, spare_capacity;
    drape_tear_stats stats;
    uint64_t version;          /* raised whenever a limit, a link's particles or its life change */
    struct dr_tear_cl *device; /* the check on the OpenCL device (tear_opencl.c); NULL until used */
    int watch;                 /* the device's check of the last step: WATCH_* */
} dr_tear;

/* dr_tear.watch: none (check every link on the host), enqueued and not read back yet (the same),
 * or read back: no link near its limit (nothing to do) or one may be past it (check on the host).
 */
enum { WATCH_NONE, WATCH_PENDING, WATCH_QUIET, WATCH_MAYBE };

void dr_tear_destroy(drape_world *w)
{
    dr_tear *t = w->tear;
    if (!t)
        return;
#if DRAPE_HAVE_OPENCL
    dr_tear_cl_destroy(w, t->device);
#endif
    free(t->limit);
    free(t->splittable);
    free(t->spares);
    free(t);
    w->tear = NULL;
}

/* The tearing state, covering every distance id so far. */
static dr_tear *get_tear(drape_world *w, const char *fn)
{
    if (!w->tear && !(w->tear = calloc(1, sizeof *w->tear))) {
        dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for tearing", fn);
        return NULL;
    }
    dr_tear *t = w->tear;
    const uint32_t need = w->constraints[DRAPE_CONSTRAINT_DISTANCE].count;
    if (need > t->capacity) {
        float *limit = realloc(t->limit, (size_t)need * sizeof *limit);
        if (limit)
            t->limit = limit;
        uint8_t *split = limit ? realloc(t->splittable, need) : NULL;
        if (split)
            t->splittable = split;
        if (!limit || !split) {
            dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u breakable links", fn,
                    need);
            return NULL;
        }
        memset(t->limit + t->capacity, 0, (size_t)(need - t->capacity) * sizeof *limit);
        memset(t->splittable + t->capacity, 0, need - t->capacity);
        t->capacity = need;
    }
    return t;
}

static bool valid_limit(float limit)
{
    return limit == 0.0f || (limit >= 1.0f && limit <= DR_MAX_BREAK);
}

drape_result drape_world_set_distance_break(drape_world *w, uint32_t id, float limit)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_distance_break";
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    if (id >= s->count || s->removed[id])
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: distance id %u does not exist (the world has %u)", fn, id, s->count);
    if (!valid_limit(limit))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: limit = %g must be at least 1 (a link breaks when stretched past limit "
                       "times its rest length) and at most %g, or 0 (unbreakable)",
                       fn, (double)limit, (double)DR_MAX_BREAK);
    dr_tear *t = get_tear(w, fn);
    if (!t)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    t->breakable += (limit > 0.0f) - (t->limit[id] > 0.0f);
    t->limit[id] = limit;
    t->version++;
    return DRAPE_OK;
}

bool dr_tear_active(const drape_world *w) { return w->tear && w->tear->breakable; }

drape_tear_stats drape_world_get_tear_stats(const drape_world *w)
{
    drape_tear_stats none = {0, 0, 0};
    if (!w || !w->tear)
        return none;
    drape_tear_stats s = w->tear->stats;
    s.spares_left = w->tear->spare_count;
    return s;
}

bool dr_valid_tear(const drape_cloth_def *d) { return valid_limit(d->tear_strain); }

drape_result dr_tear_cloth(drape_world *w, const drape_cloth_def *d, uint32_t first_distance,
                           uint32_t spares_first)
{
    static const char fn[] = "drape_world_add_cloth";
    if (d->tear_strain == 0.0f && d->tear_spares == 0)
        return DRAPE_OK;
    dr_tear *t = get_tear(w, fn);
    if (!t)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    if (t->spare_count + d->tear_spares > t->spare_capacity) {
        const uint32_t cap = t->spare_count + d->tear_spares;
        uint32_t *spares = realloc(t->spares, (size_t)cap * sizeof *spares);
        if (!spares)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u spares", fn,
                           cap);
        t->spares = spares;
        t->spare_capacity = cap;
    }
    /* used from the end: the lowest index first */
    for (uint32_t k = d->tear_spares; k-- > 0;)
        t->spares[t->spare_count++] = spares_first + k;
    if (d->tear_strain == 0.0f)
        return DRAPE_OK;
    t->version++;
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t id = first_distance; id < s->count; ++id) {
        t->breakable += t->limit[id] == 0.0f;
        t->limit[id] = d->tear_strain;
        t->splittable[id] = s->kind[id] == DRAPE_DISTANCE_STRETCH;
    }
    return DRAPE_OK;
}

/* The number of live distance links of particle v. */
static uint32_t links_of(const dr_constraints *s, uint32_t v)
{
    uint32_t n = 0;
    for (uint32_t id = 0; id < s->count; ++id)
        n += !s->removed[id] && (s->idx[2 * (size_t)id] == v || s->idx[2 * (size_t)id + 1] == v);
    return n;
}

/* Whether the other particle of link id (one of whose particles is v) lies beyond the plane through
 * v with normal e. */
static bool beyond(const drape_world *w, const dr_constraints *s, uint32_t id, uint32_t v,
                   dr_vec4 e)
{
    const uint32_t a = s->idx[2 * (size_t)id], b = s->idx[2 * (size_t)id + 1];
    const uint32_t o = a == v ? b : a;
    return dr_dot3(dr_sub3(w->x[o], w->x[v]), e) > 0.0f;
}

/* Splits particle v by the plane through it perpendicular to the direction to u; false (nothing
 * changed) when v is pinned, no spare is left, or all of v's links lie on one side. */
static bool split(drape_world *w, dr_tear *t, uint32_t v, uint32_t u)
{
    dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    if (!(w->x[v].w > 0.0f) || t->spare_count == 0)
        return false;
    const dr_vec4 e = dr_sub3(w->x[u], w->x[v]);
    uint32_t total = 0, ahead = 0;
    for (uint32_t id = 0; id < s->count; ++id)
        if (!s->removed[id] && (s->idx[2 * (size_t)id] == v || s->idx[2 * (size_t)id + 1] == v)) {
            total++;
            ahead += beyond(w, s, id, v, e);
        }
    if (ahead == 0 || ahead == total)
        return false;
    const uint32_t copy = t->spares[--t->spare_count];
    const unsigned bit = 1u << DRAPE_CONSTRAINT_DISTANCE;
    dr_solver_set *solved = &w->solver[DRAPE_CONSTRAINT_DISTANCE];
    const bool in_place = !w->solver_dirty && !(w->type_dirty & bit);
    for (uint32_t id = 0; id < s->count; ++id) {
        uint32_t *p = &s->idx[2 * (size_t)id];
        if (s->removed[id] || (p[0] != v && p[1] != v) || !beyond(w, s, id, v, e))
            continue;
        const int end = p[0] == v ? 0 : 1;
        p[end] = copy;
        if (in_place) /* the same link in colour order, its colour kept */
            solved->idx[2 * (size_t)solved->slot_of[id] + end] = copy;
    }
    w->stale |= DR_STALE_SET(DRAPE_CONSTRAINT_DISTANCE);
    dr_render_split(w, v, copy, e);
    dr_cut_tethers_of(w, v);
    w->x[v].w *= 2.0f; /* half the mass each */
    w->x[copy] = w->x[v];
    w->v[copy] = w->v[v];
    /* the copy collides as v does: its radius, group and rest position (so that v and the copy,
     * and v's old mesh neighbours, stay filtered as neighbours), its thickness against colliders */
    w->shape[copy] = w->shape[v];
    w->group[copy] = w->group[v];
    w->inflate[copy] = w->inflate[v];
    w->plan_dirty = true;
    t->stats.splits++;
    t->version++;
    return true;
}

uint32_t dr_tear_watch(const drape_world *w, uint32_t *pairs, float *threshold)
{
    const dr_tear *t = w->tear;
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    uint32_t n = 0;
    for (uint32_t id = 0; t && id < s->count && id < t->capacity; ++id) {
        if (s->removed[id] || t->limit[id] == 0.0f)
            continue;
        if (pairs) {
            pairs[2 * n] = s->idx[2 * (size_t)id];
            pairs[2 * n + 1] = s->idx[2 * (size_t)id + 1];
            threshold[n] = t->limit[id] * s->rest[id] * (1.0f - DR_TEAR_WATCH_SLACK);
        }
        n++;
    }
    return n;
}

#if DRAPE_HAVE_OPENCL
drape_result dr_tear_device_watch(drape_world *w, struct _cl_mem *x, struct _cl_mem *check,
                                  uint32_t slot, bool *enqueued)
{
    dr_tear *t = w->tear;
    *enqueued = false;
    if (!t)
        return DRAPE_OK;
    t->watch = WATCH_NONE;
    if (t->breakable == 0)
        return DRAPE_OK;
    DR_TRY(dr_tear_cl_enqueue(w, &t->device, t->version, x, check, slot, enqueued));
    t->watch = *enqueued ? WATCH_PENDING : WATCH_QUIET; /* no live breakable link: nothing to do */
    return DRAPE_OK;
}

void dr_tear_device_result(drape_world *w, uint32_t flagged)
{
    dr_tear *t = w->tear;
    if (t && t->watch == WATCH_PENDING)
        t->watch = flagged == DR_NO_PARTICLE ? WATCH_QUIET : WATCH_MAYBE;
}
#endif

drape_result dr_tear_after_step(drape_world *w)
{
    dr_tear *t = w->tear;
    if (!t || t->breakable == 0)
        return DRAPE_OK;
    const int watch = t->watch; /* the device measured the links first: read back only if needed */
    t->watch = WATCH_NONE;
    if (watch == WATCH_QUIET)
        return DRAPE_OK;
    drape_result r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    bool split_any = false, broke = false;
    uint32_t *linked = NULL; /* the pieces before the first tear, for the tethers */
    for (uint32_t id = 0; id < s->count && id < t->capacity; ++id) {
        if (s->removed[id] || t->limit[id] == 0.0f)
            continue;
        const uint32_t a = s->idx[2 * (size_t)id], b = s->idx[2 * (size_t)id + 1];
        const float len = dr_len3(dr_sub3(w->x[a], w->x[b]));
        if (!(len > t->limit[id] * s->rest[id]))
            continue;
        if (!split_any && !broke && (r = dr_link_components(w, &linked)) != DRAPE_OK)
            return r;
        if (t->splittable[id]) {
            const uint32_t la = links_of(s, a), lb = links_of(s, b);
            const uint32_t first = la > lb || (la == lb && a < b) ? a : b;
            const uint32_t second = first == a ? b : a;
            if (split(w, t, first, second) || split(w, t, second, first)) {
                split_any = true;
                continue;
            }
        }
        s->removed[id] = 1; /* the link breaks */
        s->live--;
        t->stats.breaks++;
        broke = true;
    }
    if (split_any) /* masses, and the copies' positions and velocities */
        w->stale |= DR_STALE_PARTICLES;
    if (broke)
        w->type_dirty |= 1u << DRAPE_CONSTRAINT_DISTANCE;
    if (broke || split_any) {
        t->version++;
        w->bodies.dirty = true; /* a piece may have come off, a spare joined */
    }
    r = dr_cut_torn_tethers(w, linked); /* a piece torn off its anchors falls */
    free(linked);
    return r;
}

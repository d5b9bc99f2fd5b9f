/* Tethers: long-range attachments (Kim, Chentanez, Müller, "Long Range Attachments - A Method to
 * Simulate Inextensible Clothing in Computer Games", SCA 2012).
 *
 * A hanging cloth stretches at few iterations because Gauss-Seidel carries the pull of a pin down a
 * chain of n links only one link per iteration. A tether ties each movable particle straight to a
 * pinned one with the one-sided C = |p - anchor| - max_length <= 0 (dr_solve_tether in
 * kernels/drape_shared.h), so no particle ever ends a projection farther from its anchor than its
 * rest distance, whatever the iteration count. A tether never moves its anchor (a pinned particle,
 * or one held by an attachment), so tethers that share an anchor no tether writes may share a
 * colour (host/constraints.c): a cloth's tethers, one per particle, colour in one colour.
 *
 * The cloth builder ties every movable particle to its nearest pinned particle. On a grid whose
 * particle (i, j) rests at origin + U i + V j, the distance to the pinned particles of a pinned row
 * j0 is |U (i' - i) + V (j0 - j)|, a convex quadratic in i': its integer minimum is one of the two
 * integers beside the real one, clamped to the row. So each pin family (a corner, a row, a column)
 * offers at most two candidates, and the search is O(1) per particle rather than O(pinned).
 */
#include "world_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* The longest max_length (m): its square must stay a float. */
#define DR_MAX_TETHER 1e10f

drape_tether_def drape_default_tether_def(void)
{
    drape_tether_def d = {
        0, 0, DRAPE_REST_FROM_POSITIONS, 1.0f, 0.0f, DRAPE_STIFFNESS_PBD, DR_DEF_COOKIE};
    return d;
}

drape_result dr_add_tether(drape_world *w, const char *fn, const drape_tether_def *def,
                           uint32_t *out_id)
{
    static const char *const names[] = {"particle", "anchor"};
    DR_CHECK_DEF(&w->def, def, fn, "tether");
    const uint32_t idx[2] = {def->particle, def->anchor};
    drape_result r = dr_check_constraint(w, fn, idx, names, 2, DR_DEF_STIFFNESS(def));
    if (r == DRAPE_OK)
        r = dr_world_pull(w); /* max_length may come from the current positions */
    if (r != DRAPE_OK)
        return r;
    const bool from_positions = def->max_length == DRAPE_REST_FROM_POSITIONS;
    if (!from_positions && !(def->max_length >= 0.0f && def->max_length <= DR_MAX_TETHER))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->max_length = %g m must be in [0, %g] (or "
                       "DRAPE_REST_FROM_POSITIONS: the current distance)",
                       fn, (double)def->max_length, (double)DR_MAX_TETHER);
    const float max_length = !from_positions
                                 ? def->max_length
                                 : dr_len3(dr_sub3(w->x[def->particle], w->x[def->anchor]));
    return dr_store_constraint(w, DRAPE_CONSTRAINT_TETHER, fn, idx, max_length,
                               DR_DEF_STIFFNESS(def), 0, DR_V4(0.0f, 0.0f, 0.0f, 0.0f), out_id);
}

drape_result drape_world_add_tether(drape_world *w, const drape_tether_def *def, uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    return dr_add_tether(w, __func__, def, out_id);
}

drape_result drape_world_get_tether(const drape_world *w, uint32_t id, drape_tether_def *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_tether";
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_TETHER];
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (id >= s->count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: tether id %u does not exist (the world has %u)", fn, id, s->count);
    out->particle = s->idx[2 * (size_t)id];
    out->anchor = s->idx[2 * (size_t)id + 1];
    out->max_length = s->rest[id];
    const drape_stiffness st = dr_stiffness_of_solver(s->stiffness[id], s->compliance[id]);
    DR_SET_STIFFNESS(out, st);
    out->cookie = DR_DEF_COOKIE;
    return DRAPE_OK;
}

/* ---- the cloth builder's tethers ------------------------------------------------------------- */

typedef struct grid {
    const drape_world *w;
    uint32_t base, nx, ny;
    double u[3], v[3]; /* m per grid step along i and along j */
} grid;

static uint32_t grid_index(const grid *g, uint32_t i, uint32_t j)
{
    return g->base + j * g->nx + i;
}

static double dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The best anchor so far: squared distance (from the float positions) and index. */
typedef struct nearest {
    double dist2;
    uint32_t anchor;
} nearest;

static void offer(const drape_world *w, uint32_t particle, uint32_t candidate, nearest *best)
{
    const dr_vec4 r = dr_sub3(w->x[particle], w->x[candidate]);
    const double d2 = (double)r.x * r.x + (double)r.y * r.y + (double)r.z * r.z;
    if (d2 < best->dist2 || (d2 == best->dist2 && candidate < best->anchor)) {
        best->dist2 = d2;
        best->anchor = candidate;
    }
}

/* The two integers beside i + k in [0, n - 1], k = argmin |a k + b off| over the reals: the
 * candidates along a pinned line whose direction per step is a, off steps away along b. */
static void line_candidates(const double *a, const double *b, double off, uint32_t i, uint32_t n,
                            uint32_t out[2])
{
    const double aa = dot(a, a);
    const double c = (double)i + (aa > 0.0 ? -dot(a, b) * off / aa : 0.0);
    for (int s = 0; s < 2; ++s) {
        double t = floor(c) + s;
        t = t < 0.0 ? 0.0 : t > (double)(n - 1) ? (double)(n - 1) : t;
        out[s] = (uint32_t)t;
    }
}

static nearest nearest_pin(const grid *g, uint32_t pins, uint32_t i, uint32_t j)
{
    const uint32_t nx = g->nx, ny = g->ny, me = grid_index(g, i, j);
    nearest best = {INFINITY, UINT32_MAX};
    static const uint32_t corner_flags[4] = {DRAPE_PIN_CORNER_00, DRAPE_PIN_CORNER_10,
                                             DRAPE_PIN_CORNER_01, DRAPE_PIN_CORNER_11};
    for (uint32_t c = 0; c < 4; ++c)
        if (pins & corner_flags[c])
            offer(g->w, me, grid_index(g, (c & 1) ? nx - 1 : 0, (c & 2) ? ny - 1 : 0), &best);
    for (int last = 0; last < 2; ++last) {
        uint32_t k[2];
        if (pins & (last ? DRAPE_PIN_ROW_LAST : DRAPE_PIN_ROW_FIRST)) {
            const uint32_t j0 = last ? ny - 1 : 0;
            line_candidates(g->u, g->v, (double)j0 - (double)j, i, nx, k);
            offer(g->w, me, grid_index(g, k[0], j0), &best);
            offer(g->w, me, grid_index(g, k[1], j0), &best);
        }
        if (pins & (last ? DRAPE_PIN_COLUMN_LAST : DRAPE_PIN_COLUMN_FIRST)) {
            const uint32_t i0 = last ? nx - 1 : 0;
            line_candidates(g->v, g->u, (double)i0 - (double)i, j, ny, k);
            offer(g->w, me, grid_index(g, i0, k[0]), &best);
            offer(g->w, me, grid_index(g, i0, k[1]), &best);
        }
    }
    return best;
}

drape_result dr_add_cloth_tethers(drape_world *w, const char *fn, uint32_t base,
                                  const drape_cloth_def *def)
{
    if (!def->tethers || def->pins == DRAPE_PIN_NONE)
        return DRAPE_OK;
    grid g = {w, base, def->nx, def->ny, {0}, {0}};
    const double su = 1.0 / (double)(def->nx - 1), sv = 1.0 / (double)(def->ny - 1);
    const drape_vec3 u = def->u_axis, v = def->v_axis;
    g.u[0] = u.x * su, g.u[1] = u.y * su, g.u[2] = u.z * su;
    g.v[0] = v.x * sv, g.v[1] = v.y * sv, g.v[2] = v.z * sv;
    drape_tether_def t = drape_default_tether_def();
    DR_SET_STIFFNESS(&t, def->tether_stiffness);
    for (uint32_t j = 0; j < def->ny; ++j)
        for (uint32_t i = 0; i < def->nx; ++i) {
            t.particle = grid_index(&g, i, j);
            if (!(w->x[t.particle].w > 0.0f))
                continue;
            const nearest n = nearest_pin(&g, def->pins, i, j);
            t.anchor = n.anchor;
            drape_result r = dr_add_tether(w, fn, &t, NULL);
            if (r != DRAPE_OK)
                return r;
        }
    return DRAPE_OK;
}

/* ---- the rope builder's tethers -------------------------------------------------------------- */

/* A rope is built straight, so the distance to a pinned end is also the distance along the rope. */
drape_result dr_add_rope_tethers(drape_world *w, const char *fn, uint32_t base,
                                 const drape_rope_def *def)
{
    if (!def->tethers || !(def->pin_start || def->pin_end))
        return DRAPE_OK;
    drape_tether_def t = drape_default_tether_def();
    DR_SET_STIFFNESS(&t, def->tether_stiffness);
    for (uint32_t i = 0; i < def->count; ++i) {
        t.particle = base + i;
        if (!(w->x[t.particle].w > 0.0f))
            continue;
        nearest n = {INFINITY, UINT32_MAX};
        if (def->pin_start)
            offer(w, t.particle, base, &n);
        if (def->pin_end)
            offer(w, t.particle, base + def->count - 1, &n);
        t.anchor = n.anchor;
        drape_result r = dr_add_tether(w, fn, &t, NULL);
        if (r != DRAPE_OK)
            return r;
    }
    return DRAPE_OK;
}

/* ---- tethers to given anchors --------------------------------------------------------------- */

/* The anchors as an implicit k-d tree (Bentley 1975), so that finding the nearest is O(log anchors)
 * rather than O(anchors): the node of range [lo, hi) is its middle element, split along the axis
 * recorded for it; the anchors before it lie at or below it along that axis, those after it at or
 * above. */
typedef struct anchor_tree {
    const drape_world *w;
    uint32_t *anchor;
    uint8_t *axis;
} anchor_tree;

static float along(dr_vec4 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

static void build_tree(anchor_tree *t, int64_t lo, int64_t hi)
{
    if (hi - lo < 2)
        return;
    float low[3] = {INFINITY, INFINITY, INFINITY}, high[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int64_t k = lo; k < hi; ++k)
        for (int c = 0; c < 3; ++c) {
            const float v = along(t->w->x[t->anchor[k]], c);
            low[c] = v < low[c] ? v : low[c];
            high[c] = v > high[c] ? v : high[c];
        }
    int ax = 0;
    for (int c = 1; c < 3; ++c)
        ax = high[c] - low[c] > high[ax] - low[ax] ? c : ax;
    /* Wirth's selection: the median along ax to mid, the smaller before it, the larger after */
    const int64_t mid = lo + (hi - lo) / 2;
    int64_t l = lo, r = hi - 1;
    while (l < r) {
        const float pivot = along(t->w->x[t->anchor[mid]], ax);
        int64_t i = l, j = r;
        do {
            while (along(t->w->x[t->anchor[i]], ax) < pivot)
                ++i;
            while (pivot < along(t->w->x[t->anchor[j]], ax))
                --j;
            if (i <= j) {
                const uint32_t swap = t->anchor[i];
                t->anchor[i++] = t->anchor[j];
                t->anchor[j--] = swap;
            }
        } while (i <= j);
        if (j < mid)
            l = i;
        if (mid < i)
            r = j;
    }
    t->axis[mid] = (uint8_t)ax;
    build_tree(t, lo, mid);
    build_tree(t, mid + 1, hi);
}

/* The nearest anchor to particle p as offer() ranks them: a far side is searched unless the plane
 * alone puts it farther than the best so far (by the same float difference offer() squares, so
 * that no anchor it would prefer, ties included, is skipped). */
static void nearest_in_tree(const anchor_tree *t, int64_t lo, int64_t hi, uint32_t p, nearest *best)
{
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const uint32_t a = t->anchor[mid];
        offer(t->w, p, a, best);
        const int ax = hi - lo > 1 ? t->axis[mid] : 0;
        const float diff = along(t->w->x[p], ax) - along(t->w->x[a], ax);
        const bool below = diff < 0.0f;
        nearest_in_tree(t, below ? lo : mid + 1, below ? mid : hi, p, best);
        if (!((double)diff * diff <= best->dist2))
            return;
        hi = below ? hi : mid;
        lo = below ? mid + 1 : lo;
    }
}

drape_result drape_world_add_nearest_tethers(drape_world *w, uint32_t first, uint32_t count,
                                             const uint32_t *anchors, uint32_t anchor_count,
                                             drape_stiffness stiffness)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_nearest_tethers";
    const uint32_t n = w->particle_count;
    if (first > n || count > n - first)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: particles [%u, %u + %u) are not all in the world (it has %u)", fn,
                       first, first, count, n);
    if (anchor_count > 0 && !anchors)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: anchors is NULL with anchor_count = %u", fn, anchor_count);
    for (uint32_t k = 0; k < anchor_count; ++k)
        if (anchors[k] >= n)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                           "%s: anchors[%u] = %u is not a particle (the world has %u)", fn, k,
                           anchors[k], n);
    /* checked here, so that its message names this function's argument, not the tether def's */
    const drape_result checked = dr_check_stiffness(&w->def, fn, "stiffness.", stiffness);
    if (checked != DRAPE_OK)
        return checked;
    if (anchor_count == 0 || count == 0)
        return DRAPE_OK;
    drape_result r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    uint8_t *is_anchor = calloc(n, 1);
    anchor_tree tree = {w, malloc(anchor_count * sizeof *tree.anchor),
                        calloc(anchor_count, sizeof *tree.axis)};
    if (!is_anchor || !tree.anchor || !tree.axis)
        r = dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u anchors", fn,
                    anchor_count);
    for (uint32_t k = 0; r == DRAPE_OK && k < anchor_count; ++k)
        is_anchor[anchors[k]] = 1, tree.anchor[k] = anchors[k];
    if (r == DRAPE_OK)
        build_tree(&tree, 0, anchor_count);
    drape_tether_def t = drape_default_tether_def();
    DR_SET_STIFFNESS(&t, stiffness);
    for (uint32_t p = first; p < first + count && r == DRAPE_OK; ++p) {
        if (is_anchor[p] || !(w->x[p].w > 0.0f))
            continue;
        nearest best = {INFINITY, UINT32_MAX};
        nearest_in_tree(&tree, 0, anchor_count, p, &best);
        t.particle = p;
        t.anchor = best.anchor;
        r = dr_add_tether(w, fn, &t, NULL);
    }
    free(is_anchor);
    free(tree.anchor);
    free(tree.axis);
    return r;
}

/* ---- tethers across a tear ------------------------------------------------------------------ */

drape_result dr_link_components(drape_world *w, uint32_t **out)
{
    *out = NULL;
    if (w->constraints[DRAPE_CONSTRAINT_TETHER].live == 0)
        return DRAPE_OK;
    uint32_t *parent = malloc(((size_t)w->particle_count + 1) * sizeof *parent);
    if (!parent)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "tearing: no memory for the tethers");
    for (uint32_t p = 0; p < w->particle_count; ++p)
        parent[p] = p;
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t id = 0; id < s->count; ++id)
        if (!s->removed[id])
            dr_join_roots(parent, s->idx[2 * (size_t)id], s->idx[2 * (size_t)id + 1]);
    for (uint32_t p = 0; p < w->particle_count; ++p)
        parent[p] = dr_root_of(parent, p);
    *out = parent;
    return DRAPE_OK;
}

/* Removes tether id (its slot stays; the tether type is recoloured before the next step). */
static void cut(drape_world *w, dr_constraints *t, uint32_t id)
{
    t->removed[id] = 1;
    t->live--;
    w->type_dirty |= 1u << DRAPE_CONSTRAINT_TETHER;
}

void dr_cut_tethers_of(drape_world *w, uint32_t particle)
{
    dr_constraints *t = &w->constraints[DRAPE_CONSTRAINT_TETHER];
    for (uint32_t id = 0; id < t->count && t->live > 0; ++id)
        if (!t->removed[id] && t->idx[2 * (size_t)id] == particle)
            cut(w, t, id);
}

drape_result dr_cut_torn_tethers(drape_world *w, const uint32_t *before)
{
    uint32_t *after = NULL;
    drape_result r = before ? dr_link_components(w, &after) : DRAPE_OK;
    if (r != DRAPE_OK || !after)
        return r;
    dr_constraints *t = &w->constraints[DRAPE_CONSTRAINT_TETHER];
    for (uint32_t id = 0; id < t->count; ++id) {
        const uint32_t p = t->idx[2 * (size_t)id], a = t->idx[2 * (size_t)id + 1];
        if (!t->removed[id] && before[p] == before[a] && after[p] != after[a])
            cut(w, t, id);
    }
    free(after);
    return DRAPE_OK;
}

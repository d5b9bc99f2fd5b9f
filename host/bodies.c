/* Bodies: the objects that momentum-preserving damping treats one by one.
 *
 * The PBD paper damps each object towards its own rigid motion (Müller et al., "Position Based
 * Dynamics", 2007, section 3.5, dampVelocities runs per object). A world holds many objects, and
 * the step sees only particles and constraints, so a body here is a connected component of the
 * movable particles: two movable particles are in one body when a constraint joins them (a
 * distance link, a bending quad, a tether, a volume, a Neo-Hookean tetrahedron) or a shape-matched
 * cluster holds both. Pinned particles join nothing (a pin is not part of a body's motion), nor do
 * attachments (one particle each) or contacts. A body of one particle has no motion but its own to
 * be damped towards, so only bodies of two or more particles are listed.
 *
 * The bodies are worked out again when constraints, clusters or pins change (dr_world_prepare);
 * both backends read the same list, the CPU directly, the OpenCL backend in work-group tiles
 * (host/opencl/opencl_step.c).
 */
#include "world_internal.h"

#include <stdlib.h>

uint32_t dr_root_of(uint32_t *parent, uint32_t p)
{
    while (parent[p] != p)
        p = parent[p] = parent[parent[p]]; /* path halving */
    return p;
}

void dr_join_roots(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = dr_root_of(parent, a);
    b = dr_root_of(parent, b);
    parent[a > b ? a : b] = a < b ? a : b; /* the lower index is the root */
}

/* Joins the movable particles among idx[0 .. n). */
static void join_movable(const drape_world *w, uint32_t *parent, const uint32_t *idx, uint32_t n)
{
    uint32_t first = DR_NO_PARTICLE;
    for (uint32_t k = 0; k < n; ++k) {
        if (w->x[idx[k]].w <= 0.0f)
            continue;
        if (first == DR_NO_PARTICLE)
            first = idx[k];
        else
            dr_join_roots(parent, first, idx[k]);
    }
}

void dr_bodies_free(dr_bodies *b)
{
    free(b->first);
    free(b->order);
    *b = (dr_bodies){.dirty = true};
}

drape_result dr_bodies_build(drape_world *w)
{
    const uint32_t n = w->particle_count;
    uint32_t *parent = malloc(((size_t)n + 1) * sizeof *parent);
    uint32_t *size = calloc((size_t)n + 1, sizeof *size);
    uint32_t *first = NULL, *order = NULL;
    if (!parent || !size)
        goto oom;
    for (uint32_t p = 0; p < n; ++p)
        parent[p] = p;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const dr_constraints *s = &w->constraints[t];
        if (s->arity < 2)
            continue;
        for (uint32_t id = 0; id < s->count; ++id)
            if (!s->removed[id])
                join_movable(w, parent, &s->idx[(size_t)s->arity * id], s->arity);
    }
    const dr_shape_matches *sm = &w->shapes;
    for (uint32_t c = 0; c < sm->count; ++c)
        join_movable(w, parent, &sm->members[sm->first[c]], sm->size[c]);

    /* Bodies in the order of their lowest particle (the root), each body's particles in index
     * order: a counting sort by root. size[root] counts the body's movable particles. */
    uint32_t bodies = 0, members = 0;
    for (uint32_t p = 0; p < n; ++p)
        if (w->x[p].w > 0.0f)
            size[dr_root_of(parent, p)]++;
    for (uint32_t p = 0; p < n; ++p)
        if (size[p] >= 2)
            bodies++, members += size[p];
    first = malloc(((size_t)bodies + 1) * sizeof *first);
    order = malloc(((size_t)members + 1) * sizeof *order);
    if (!first || !order)
        goto oom;
    /* size[root] becomes the body's next free place in order (the root's own place first) */
    uint32_t at = 0, b = 0;
    for (uint32_t p = 0; p < n; ++p)
        if (size[p] >= 2) {
            first[b++] = at;
            const uint32_t count = size[p];
            size[p] = at;
            at += count;
        } else {
            size[p] = DR_NO_PARTICLE;
        }
    first[bodies] = members;
    for (uint32_t p = 0; p < n; ++p) {
        if (w->x[p].w <= 0.0f)
            continue;
        const uint32_t root = dr_root_of(parent, p);
        if (size[root] != DR_NO_PARTICLE)
            order[size[root]++] = p;
    }
    free(parent);
    free(size);
    dr_bodies_free(&w->bodies);
    w->bodies = (dr_bodies){.count = bodies, .members = members, .first = first, .order = order};
    w->stale |= DR_STALE_BODIES;
    return DRAPE_OK;
oom:
    free(parent);
    free(size);
    free(first);
    free(order);
    return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                   "no memory to find the bodies that damping treats (%u particles)", n);
}

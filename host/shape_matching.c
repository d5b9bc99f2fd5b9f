/* Shape-matched clusters of particles (Müller et al., "Meshless Deformations Based on Shape
 * Matching", 2005), rigid (stiffness 1) or soft, solved by dr_shape_match in
 * kernels/drape_shared.h with the rotation extraction of Müller et al. 2016.
 *
 * A cluster's rest shape is its particles' positions when it is added: the offsets q_i from their
 * mass-weighted centre. Clusters have any number of members, so they are kept apart from the
 * fixed-arity constraint types: members and offsets in one array, each cluster a range. Clusters
 * that share a movable particle must not be projected at once, so they are coloured greedily (the
 * lowest colour none of its particles' clusters holds, up to 64) and copied into colour order, the
 * order both backends run; the last fitted rotation of each cluster stays in creation order (the
 * warm start of the next fit), reached through id.
 */
#include "world_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DR_SHAPE_MAX_COLORS 64

drape_shape_match_def drape_default_shape_match_def(void)
{
    drape_shape_match_def d = {NULL, 0, 1.0f, 0.0f, DRAPE_GROUP_NEW};
    return d;
}

void dr_shapes_free(dr_shape_matches *s)
{
    free(s->first);
    free(s->size);
    free(s->stiffness);
    free(s->rotation);
    free(s->members);
    free(s->rest);
    free(s->id);
    free(s->range);
    free(s->solver_members);
    free(s->solver_rest);
    free(s->kprime);
    free(s->offsets);
    memset(s, 0, sizeof *s);
}

drape_result drape_world_add_shape_match(drape_world *w, const drape_shape_match_def *def,
                                         uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_shape_match";
    if (!def)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    if (def->count < 2 || !def->particles || def->count > (1u << 24))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->count = %u: a cluster needs 2 to 2^24 particles (and "
                       "def->particles)",
                       fn, def->count);
    if (!(def->stiffness > 0.0f && def->stiffness <= 1.0f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->stiffness = %g must be in (0, 1] (1: rigid)", fn,
                       (double)def->stiffness);
    dr_body_contact contact;
    drape_result r = dr_take_body_contact(w, fn, def->contact_radius, def->group, &contact);
    if (r == DRAPE_OK)
        r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    dr_shape_matches *s = &w->shapes;
    uint8_t *seen = calloc((size_t)w->particle_count + 1, 1);
    if (!seen)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory", fn);
    double c[3] = {0.0, 0.0, 0.0}, mass = 0.0;
    for (uint32_t k = 0; k < def->count && r == DRAPE_OK; ++k) {
        const uint32_t i = def->particles[k];
        if (i >= w->particle_count)
            r = dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                        "%s: def->particles[%u] = %u is out of range (the world has %u particles)",
                        fn, k, i, w->particle_count);
        else if (seen[i])
            r = dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                        "%s: particle %u is in the cluster twice (def->particles[%u])", fn, i, k);
        else if (!(w->x[i].w > 0.0f))
            r = dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                        "%s: particle %u (def->particles[%u]) is pinned: a cluster's particles "
                        "must be movable",
                        fn, i, k);
        if (r != DRAPE_OK)
            break;
        seen[i] = 1;
        const double m = 1.0 / (double)w->x[i].w;
        c[0] += m * w->x[i].x, c[1] += m * w->x[i].y, c[2] += m * w->x[i].z;
        mass += m;
    }
    free(seen);
    if (r != DRAPE_OK)
        return r;
    const uint32_t n = s->member_count + def->count;
    if (!dr_grow((void **)&s->members, &s->member_capacity, n, sizeof *s->members))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory", fn);
    uint32_t cap = s->member_capacity == n ? n : s->member_capacity;
    dr_vec4 *rest = realloc(s->rest, (size_t)cap * sizeof *rest);
    if (!rest)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory", fn);
    s->rest = rest;
    uint32_t ccap = s->capacity;
    if (!dr_grow((void **)&s->first, &ccap, s->count + 1, sizeof *s->first))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory", fn);
    uint32_t *size = realloc(s->size, (size_t)ccap * sizeof *size);
    if (size)
        s->size = size;
    float *stiffness = size ? realloc(s->stiffness, (size_t)ccap * sizeof *stiffness) : NULL;
    if (stiffness)
        s->stiffness = stiffness;
    dr_vec4 *rotation = stiffness ? realloc(s->rotation, (size_t)ccap * sizeof *rotation) : NULL;
    if (!rotation)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory", fn);
    s->rotation = rotation;
    s->capacity = ccap;
    for (int a = 0; a < 3; ++a)
        c[a] /= mass;
    for (uint32_t k = 0; k < def->count; ++k) {
        const dr_vec4 p = w->x[def->particles[k]];
        s->members[s->member_count + k] = def->particles[k];
        s->rest[s->member_count + k] =
            DR_V4((float)(p.x - c[0]), (float)(p.y - c[1]), (float)(p.z - c[2]), 0.0f);
    }
    const uint32_t id = s->count++;
    s->first[id] = s->member_count;
    s->size[id] = def->count;
    s->stiffness[id] = def->stiffness;
    s->rotation[id] = DR_V4(0.0f, 0.0f, 0.0f, 1.0f);
    s->member_count = n;
    s->dirty = true;
    if (out_id)
        *out_id = id;
    if (contact.radius > 0.0f)
        dr_particles_set_contact(w, def->particles, def->count, contact);
    return DRAPE_OK;
}

uint32_t drape_world_shape_match_count(const drape_world *w) { return w ? w->shapes.count : 0; }

/* The greedy colour of every cluster into color[]; DRAPE_ERROR_UNSUPPORTED past 64 colours. */
static drape_result color_clusters(drape_world *w, uint32_t *color, uint32_t *colors)
{
    const dr_shape_matches *s = &w->shapes;
    uint64_t *used = calloc((size_t)w->particle_count + 1, sizeof *used);
    if (!used)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "no memory to colour the clusters");
    *colors = 0;
    for (uint32_t id = 0; id < s->count; ++id) {
        uint64_t taken = 0;
        for (uint32_t k = s->first[id]; k < s->first[id] + s->size[id]; ++k)
            if (w->x[s->members[k]].w > 0.0f)
                taken |= used[s->members[k]];
        uint32_t c = 0;
        while (c < DR_SHAPE_MAX_COLORS && (taken >> c & 1u))
            ++c;
        if (c == DR_SHAPE_MAX_COLORS) {
            free(used);
            return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                           "shape matching: cluster %u overlaps clusters of all %d colours", id,
                           DR_SHAPE_MAX_COLORS);
        }
        color[id] = c;
        *colors = c + 1 > *colors ? c + 1 : *colors;
        for (uint32_t k = s->first[id]; k < s->first[id] + s->size[id]; ++k)
            used[s->members[k]] |= (uint64_t)1 << c;
    }
    free(used);
    return DRAPE_OK;
}

static float corrected(float k, int iterations)
{
    return k >= 1.0f ? 1.0f : 1.0f - powf(1.0f - k, 1.0f / (float)iterations);
}

drape_result dr_shapes_prepare(drape_world *w, bool pins_or_iterations_changed)
{
    dr_shape_matches *s = &w->shapes;
    if (!s->dirty && !pins_or_iterations_changed)
        return DRAPE_OK;
    const size_t n = s->count, members = s->member_count;
    uint32_t *color = malloc((n + 1) * sizeof *color);
    uint32_t *offsets = calloc(DR_SHAPE_MAX_COLORS + 2, sizeof *offsets);
    uint32_t *id = malloc((n + 1) * sizeof *id), *range = malloc((2 * n + 1) * sizeof *range);
    uint32_t *sm = malloc((members + 1) * sizeof *sm);
    dr_vec4 *sr = malloc((members + 1) * sizeof *sr);
    float *kprime = malloc((n + 1) * sizeof *kprime);
    uint32_t colors = 0;
    drape_result r = DRAPE_ERROR_OUT_OF_MEMORY;
    if (!color || !offsets || !id || !range || !sm || !sr || !kprime)
        r = dr_fail(&w->def, r, "no memory for the shape-matching clusters' colour order");
    else
        r = color_clusters(w, color, &colors);
    if (r == DRAPE_OK) {
        /* counting sort by colour, creation order within a colour */
        for (size_t c = 0; c < n; ++c)
            offsets[color[c] + 1]++;
        for (uint32_t c = 0; c < colors; ++c)
            offsets[c + 1] += offsets[c];
        uint32_t *next = malloc((colors + 1) * sizeof *next);
        if (!next) {
            r = dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
        } else {
            memcpy(next, offsets, colors * sizeof *next);
            for (uint32_t c = 0; c < n; ++c)
                id[next[color[c]]++] = c;
            free(next);
            uint32_t at = 0;
            for (uint32_t slot = 0; slot < n; ++slot) {
                const uint32_t cid = id[slot];
                range[2 * slot] = at;
                range[2 * slot + 1] = s->size[cid];
                memcpy(&sm[at], &s->members[s->first[cid]], s->size[cid] * sizeof *sm);
                memcpy(&sr[at], &s->rest[s->first[cid]], s->size[cid] * sizeof *sr);
                at += s->size[cid];
                kprime[slot] = corrected(s->stiffness[cid], w->def.iterations);
            }
        }
    }
    free(color);
    if (r != DRAPE_OK) {
        free(offsets), free(id), free(range), free(sm), free(sr), free(kprime);
        return r;
    }
    free(s->id), free(s->range), free(s->solver_members), free(s->solver_rest), free(s->kprime);
    free(s->offsets);
    s->id = id, s->range = range, s->solver_members = sm, s->solver_rest = sr;
    s->kprime = kprime, s->offsets = offsets, s->colors = colors;
    s->dirty = false;
    w->stale |= DR_STALE_SHAPES;
    return DRAPE_OK;
}

void dr_shapes_project(drape_world *w)
{
    const dr_shape_matches *s = &w->shapes;
    for (uint32_t slot = 0; slot < s->count; ++slot)
        dr_shape_match(w->x, w->d, s->solver_members, s->solver_rest, s->range[2 * slot],
                       s->range[2 * slot + 1], s->kprime[slot], &s->rotation[s->id[slot]]);
}

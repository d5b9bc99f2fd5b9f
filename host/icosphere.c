/* The icosphere builder: a closed cloth sphere for balloons (the PBD paper's section 4.4 inflates
 * one). An icosahedron's 20 faces are split in four `subdivisions` times, each new vertex the
 * midpoint of an edge (shared by the edge's two faces through a hash of the edge), and every vertex
 * is pushed out onto the sphere: 10 * 4^s + 2 particles, 20 * 4^s triangles, all counter-clockwise
 * seen from outside. Every edge becomes a distance constraint; with bending, every edge also gets a
 * dihedral across it (its wings are the opposite corners of its two faces); with pressure, the
 * faces become a balloon (host/balloons.c).
 */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DR_MAX_SUBDIVISIONS 7u

drape_icosphere_def drape_default_icosphere_def(void)
{
    drape_icosphere_def d = {
        .centre = {0.0f, 1.0f, 0.0f},
        .radius = 0.3f,
        .subdivisions = 3,
        .velocity = {0.0f, 0.0f, 0.0f},
        .mass = 0.1f,
        .stretch = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .bending = true,
        .bend_stiffness = {0.1f, 0.0f, DRAPE_STIFFNESS_PBD},
        .pressure = 1.0f,
        .pressure_stiffness = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .contact_radius = 0.0f,
        .group = DRAPE_GROUP_NEW,
    };
    return d;
}

/* The unit sphere's mesh under construction. */
typedef struct mesh {
    double (*p)[3];
    uint32_t vertices;
    uint32_t *faces; /* 3 per face */
    uint32_t face_count;
} mesh;

/* An open-addressing map from an edge (a < b) to its midpoint's vertex. */
typedef struct edge_map {
    uint64_t *keys; /* 0: empty (no edge has a = b = 0) */
    uint32_t *values;
    size_t mask;
} edge_map;

static uint32_t midpoint(mesh *m, edge_map *map, uint32_t a, uint32_t b)
{
    const uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
    size_t slot = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & map->mask;
    while (map->keys[slot] && map->keys[slot] != key)
        slot = (slot + 1) & map->mask;
    if (map->keys[slot])
        return map->values[slot];
    const uint32_t v = m->vertices++;
    double q[3], len = 0.0;
    for (int k = 0; k < 3; ++k) {
        q[k] = 0.5 * (m->p[a][k] + m->p[b][k]);
        len += q[k] * q[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 3; ++k)
        m->p[v][k] = q[k] / len;
    map->keys[slot] = key;
    map->values[slot] = v;
    return v;
}

/* The unit icosphere of s subdivisions; false when out of memory. */
static bool make_mesh(uint32_t s, mesh *m)
{
    static const double t = 1.6180339887498949; /* the golden ratio */
    static const double ico[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                                      {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                                      {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    static const uint32_t faces[20][3] = {
        {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
        {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
        {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    const uint32_t final_faces = 20u << (2 * s), final_vertices = 10u * (1u << (2 * s)) + 2u;
    memset(m, 0, sizeof *m);
    m->p = malloc((size_t)final_vertices * sizeof *m->p);
    m->faces = malloc((size_t)3 * final_faces * sizeof *m->faces);
    uint32_t *next = malloc((size_t)3 * final_faces * sizeof *next);
    edge_map map = {NULL, NULL, 0};
    size_t cap = 64;
    while (cap < (size_t)4 * final_faces) /* edges: 3/2 per face, at most half full */
        cap *= 2;
    map.keys = calloc(cap, sizeof *map.keys);
    map.values = malloc(cap * sizeof *map.values);
    map.mask = cap - 1;
    const bool ok = m->p && m->faces && next && map.keys && map.values;
    if (ok) {
        for (uint32_t v = 0; v < 12; ++v) {
            const double len = sqrt(1.0 + t * t);
            for (int k = 0; k < 3; ++k)
                m->p[v][k] = ico[v][k] / len;
        }
        m->vertices = 12;
        memcpy(m->faces, faces, sizeof faces);
        m->face_count = 20;
        for (uint32_t level = 0; level < s; ++level) {
            memset(map.keys, 0, cap * sizeof *map.keys);
            uint32_t *out = next;
            for (uint32_t f = 0; f < m->face_count; ++f) {
                const uint32_t a = m->faces[3 * f], b = m->faces[3 * f + 1],
                               c = m->faces[3 * f + 2];
                const uint32_t ab = midpoint(m, &map, a, b), bc = midpoint(m, &map, b, c),
                               ca = midpoint(m, &map, c, a);
                const uint32_t split[4][3] = {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}};
                memcpy(out, split, sizeof split);
                out += 12;
            }
            m->face_count *= 4;
            memcpy(m->faces, next, (size_t)3 * m->face_count * sizeof *next);
        }
    }
    free(next);
    free(map.keys);
    free(map.values);
    if (!ok) {
        free(m->p);
        free(m->faces);
    }
    return ok;
}

/* Distances along every edge and, with bending, dihedrals across them. Each edge is walked a -> b
 * by one face and b -> a by the other; it is added once, from the face where a < b. The opposite
 * corner of the face walking b -> a is found through the sorted directed edges, each with the
 * corner opposite it in the low bits' place of a parallel array. */
static drape_result add_edges(drape_world *w, const char *fn, uint32_t base, const mesh *m,
                              const drape_icosphere_def *d)
{
    const size_t n = (size_t)3 * m->face_count;
    uint64_t *keys = malloc(n * sizeof *keys);
    if (!keys)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "drape_world_add_icosphere: no memory for %zu edges", n);
    /* key: a (21 bits) | b (21 bits) | opposite corner (21 bits): at most 163842 vertices */
    for (uint32_t f = 0; f < m->face_count; ++f)
        for (int k = 0; k < 3; ++k) {
            const uint64_t a = m->faces[3 * f + k], b = m->faces[3 * f + (k + 1) % 3],
                           c = m->faces[3 * f + (k + 2) % 3];
            keys[3 * (size_t)f + k] = a << 42 | b << 21 | c;
        }
    qsort(keys, n, sizeof *keys, dr_compare_u64);
    const uint64_t mask = (1u << 21) - 1u;
    drape_distance_def dist = drape_default_distance_def();
    DR_SET_STIFFNESS(&dist, d->stretch);
    drape_dihedral_def hinge = drape_default_dihedral_def();
    DR_SET_STIFFNESS(&hinge, d->bend_stiffness);
    drape_result r = DRAPE_OK;
    for (size_t e = 0; e < n && r == DRAPE_OK; ++e) {
        const uint32_t a = (uint32_t)(keys[e] >> 42), b = (uint32_t)(keys[e] >> 21 & mask);
        if (a > b)
            continue;
        dist.a = base + a, dist.b = base + b;
        r = dr_add_distance(w, fn, &dist, NULL);
        if (r != DRAPE_OK || !d->bending)
            continue;
        /* the face walking b -> a: the first key at or above (b, a, 0) */
        size_t lo = 0, hi = n;
        const uint64_t want = (uint64_t)b << 42 | (uint64_t)a << 21;
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (keys[mid] < want)
                lo = mid + 1;
            else
                hi = mid;
        }
        hinge.edge0 = base + a, hinge.edge1 = base + b;
        hinge.wing0 = base + (uint32_t)(keys[e] & mask);
        hinge.wing1 = base + (uint32_t)(keys[lo] & mask);
        r = dr_add_dihedral(w, fn, &hinge, NULL);
    }
    free(keys);
    return r;
}

drape_result drape_world_add_icosphere(drape_world *w, const drape_icosphere_def *d,
                                       drape_build_info *out, uint32_t *out_balloon)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_icosphere";
    if (out_balloon)
        *out_balloon = UINT32_MAX;
    if (!d)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    if (d->subdivisions > DR_MAX_SUBDIVISIONS)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->subdivisions = %u must be at most %u", fn, d->subdivisions,
                       DR_MAX_SUBDIVISIONS);
    if (!(d->radius > 0.0f) || !(d->radius <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->radius = %g m must be > 0 and at most %g", fn, (double)d->radius,
                       (double)DR_MAX_MAGNITUDE);
    const dr_field3 fields[] = {{"def->centre", "m", d->centre},
                                {"def->velocity", "m/s", d->velocity}};
    drape_result checked = dr_check_mass_and_vectors(&w->def, fn, d->mass, fields, 2);
    if (checked != DRAPE_OK)
        return checked;
    /* Its edges (the icosahedron's, 1.0515 r, halved by each subdivision) must stand out from the
     * float rounding of positions as far from the origin as the sphere reaches: a radius of 1e-9 m
     * at 1 m came out as one point, and was refused as a mesh facing inward. */
    const double edge = d->radius * 1.0514622 / (double)(1u << d->subdivisions);
    const double reach = fmax(fabs((double)d->centre.x),
                              fmax(fabs((double)d->centre.y), fabs((double)d->centre.z))) +
                         d->radius;
    if (!(edge >= 1e-4 * reach))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->radius = %g m is too small for %u subdivisions at a centre %g m "
                       "from the origin: its edges of %g m would be lost in the float rounding of "
                       "its positions (they need at least %g m: a radius of %g m, or fewer "
                       "subdivisions)",
                       fn, (double)d->radius, d->subdivisions, reach - d->radius, edge,
                       1e-4 * reach, d->radius * 1e-4 * reach / edge);
    static const char *const families[] = {"def->stretch.", "def->bend_stiffness.",
                                           "def->pressure_stiffness."};
    const drape_stiffness stiffness[] = {d->stretch, d->bend_stiffness, d->pressure_stiffness};
    checked = dr_check_stiffnesses(&w->def, fn, 3, families, stiffness);
    if (checked != DRAPE_OK)
        return checked;
    if (!(d->pressure >= 0.0f && d->pressure <= 100.0f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->pressure = %g must be in [0, 100] (0: no balloon)", fn,
                       (double)d->pressure);
    /* A skin that cannot stretch cannot hold more than its own volume: links and pressure fight,
     * and the fight flings the particles (90 m/s in a second in a scene of ours). */
    const bool hard = d->stretch.model == DRAPE_STIFFNESS_PBD ? d->stretch.stiffness >= 1.0f
                                                              : d->stretch.compliance <= 0.0f;
    if (d->pressure > 1.0f && hard)
        dr_log(&w->def, DRAPE_LOG_WARNING,
               "%s: def->pressure = %g with an inextensible skin (def->stretch is hard): the "
               "skin cannot hold more than its own volume, so its links and the pressure will "
               "fight; give def->stretch a compliance (about 0.1 m/N for the default sphere)",
               fn, (double)d->pressure);
    const uint32_t faces = 20u << (2 * d->subdivisions);
    const uint32_t n = 10u * (1u << (2 * d->subdivisions)) + 2u;
    char what[64];
    snprintf(what, sizeof what, "an icosphere of %u particles", n);
    drape_result r = dr_check_memory(w, fn, what, n, 3ull * faces / 2, 3ull * faces / 2);
    dr_body_contact contact;
    if (r == DRAPE_OK)
        r = dr_take_body_contact(w, fn, d->contact_radius, d->group, &contact);
    if (r != DRAPE_OK)
        return r;
    mesh m;
    drape_particle_def *defs = malloc((size_t)n * sizeof *defs);
    if (!defs || !make_mesh(d->subdivisions, &m)) {
        free(defs);
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %s", fn, what);
    }
    for (uint32_t v = 0; v < n; ++v) {
        drape_particle_def *p = &defs[v];
        *p = drape_default_particle_def(); /* no contact radius, group 0, unless asked */
        dr_apply_body_contact(p, contact);
        p->position = (drape_vec3){d->centre.x + d->radius * (float)m.p[v][0],
                                   d->centre.y + d->radius * (float)m.p[v][1],
                                   d->centre.z + d->radius * (float)m.p[v][2]};
        p->velocity = d->velocity;
        p->mass = d->mass / (float)n;
    }
    const dr_build_mark mark = dr_build_begin(w);
    uint32_t base = 0;
    r = dr_add_particles(w, fn, defs, n, &base);
    free(defs);
    if (r == DRAPE_OK && contact.radius > 0.0f)
        dr_particle_mark_mesh(w, base, n);
    if (r == DRAPE_OK)
        r = add_edges(w, fn, base, &m, d);
    if (r == DRAPE_OK && d->pressure > 0.0f) {
        for (size_t k = 0; k < (size_t)3 * faces; ++k)
            m.faces[k] += base;
        drape_balloon_def b = drape_default_balloon_def();
        b.triangles = m.faces;
        b.triangle_count = faces;
        b.pressure = d->pressure;
        DR_SET_STIFFNESS(&b, d->pressure_stiffness);
        r = dr_add_balloon(w, fn, &b, out_balloon);
    }
    free(m.p);
    free(m.faces);
    if (r != DRAPE_OK) {
        if (mark.particles != w->particle_count)
            dr_build_roll_back(w, &mark);
        return r;
    }
    dr_build_info_since(w, &mark, out);
    return DRAPE_OK;
}

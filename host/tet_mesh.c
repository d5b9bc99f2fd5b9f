/* The tetrahedral mesh builder: any mesh of tetrahedra (a TetGen mesh, a tetrahedralised box) made
 * into a body of particles.
 *
 * The mass is lumped as linear finite elements lump it: every tetrahedron gives a quarter of its
 * mass (density times rest volume) to each corner, so a refined mesh carries the same load where
 * the body is, which a beam's deflection depends on. Each tetrahedron becomes a Neo-Hookean pair
 * (host/neo_hookean.c) or, without a Young's modulus, a volume constraint (host/volumes.c) plus a
 * distance constraint along every edge, each shared edge once. The whole mesh is checked before
 * anything is added (indices, orientation, flatness, vertices no tetrahedron uses), so a bad mesh
 * is refused with the tetrahedron named and the world is left as it was.
 */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A tetrahedron flatter than this fraction of its longest edge cubed is degenerate (as volumes.c).
 */
#define DR_TET_MIN_VOLUME_RATIO 1e-6

drape_tet_mesh_def drape_default_tet_mesh_def(void)
{
    drape_tet_mesh_def d = {
        .positions = NULL,
        .vertex_count = 0,
        .tets = NULL,
        .tet_count = 0,
        .velocity = {0.0f, 0.0f, 0.0f},
        .density = 1000.0f,
        .youngs_modulus = 1e5f,
        .poisson_ratio = 0.3f,
        .edges = {0.5f, 0.0f, DRAPE_STIFFNESS_PBD},
        .volume = {1.0f, 0.0f, DRAPE_STIFFNESS_XPBD},
        .contact_radius = 0.0f,
        .group = DRAPE_GROUP_NEW,
    };
    return d;
}

/* The signed volume (m^3) of tetrahedron t and its longest edge (m), in double. */
static double tet_volume(const drape_tet_mesh_def *d, uint32_t t, double *longest)
{
    const uint32_t *q = &d->tets[4 * (size_t)t];
    double p[4][3];
    for (int k = 0; k < 4; ++k) {
        const drape_vec3 v = d->positions[q[k]];
        p[k][0] = v.x, p[k][1] = v.y, p[k][2] = v.z;
    }
    *longest = 0.0;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
            *longest = fmax(*longest, sqrt((p[a][0] - p[b][0]) * (p[a][0] - p[b][0]) +
                                           (p[a][1] - p[b][1]) * (p[a][1] - p[b][1]) +
                                           (p[a][2] - p[b][2]) * (p[a][2] - p[b][2])));
    double e[3][3];
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c)
            e[k][c] = p[k + 1][c] - p[0][c];
    return (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
            e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
            e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) /
           6.0;
}

/* Checks the mesh and fills each vertex's lumped mass (kg). */
typedef struct tet_key {
    uint32_t v[4]; /* a tetrahedron's vertices, ascending */
} tet_key;

static int compare_tet_keys(const void *pa, const void *pb)
{
    const tet_key *a = pa, *b = pb;
    for (int k = 0; k < 4; ++k)
        if (a->v[k] != b->v[k])
            return a->v[k] < b->v[k] ? -1 : 1;
    return 0;
}

static tet_key tet_key_of(const uint32_t *q)
{
    tet_key key = {{q[0], q[1], q[2], q[3]}};
    for (int i = 1; i < 4; ++i)
        for (int j = i; j > 0 && key.v[j - 1] > key.v[j]; --j) {
            const uint32_t t = key.v[j];
            key.v[j] = key.v[j - 1];
            key.v[j - 1] = t;
        }
    return key;
}

/* Fails when two tetrahedra have the same four vertices (a repeated line of a .ele file): each
 * would add its mass and its stiffness again. The keys are sorted, so O(T log T). */
static drape_result check_repeats(const drape_world *w, const char *fn, const drape_tet_mesh_def *d)
{
    tet_key *keys = malloc((size_t)d->tet_count * sizeof *keys);
    if (!keys)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "%s: no memory to check %u tetrahedra for repeats", fn, d->tet_count);
    for (uint32_t t = 0; t < d->tet_count; ++t)
        keys[t] = tet_key_of(&d->tets[4 * (size_t)t]);
    qsort(keys, d->tet_count, sizeof *keys, compare_tet_keys);
    uint32_t at = UINT32_MAX;
    for (uint32_t t = 1; t < d->tet_count && at == UINT32_MAX; ++t)
        if (compare_tet_keys(&keys[t - 1], &keys[t]) == 0)
            at = t;
    if (at == UINT32_MAX) {
        free(keys);
        return DRAPE_OK;
    }
    const tet_key repeated = keys[at];
    free(keys);
    uint32_t first = UINT32_MAX, second = UINT32_MAX;
    for (uint32_t t = 0; t < d->tet_count && second == UINT32_MAX; ++t) {
        const tet_key key = tet_key_of(&d->tets[4 * (size_t)t]);
        if (compare_tet_keys(&key, &repeated) == 0) {
            if (first == UINT32_MAX)
                first = t;
            else
                second = t;
        }
    }
    return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                   "%s: tetrahedra %u and %u have the same four vertices (%u, %u, %u, %u): each "
                   "would add its mass and stiffness again",
                   fn, first, second, repeated.v[0], repeated.v[1], repeated.v[2], repeated.v[3]);
}

static drape_result check_mesh(const drape_world *w, const char *fn, const drape_tet_mesh_def *d,
                               double *mass)
{
    for (uint32_t i = 0; i < d->vertex_count; ++i) {
        mass[i] = 0.0;
        if (!dr_within3(d->positions[i]))
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: def->positions[%u] must be finite and within %g m", fn, i,
                           (double)DR_MAX_MAGNITUDE);
    }
    for (uint32_t t = 0; t < d->tet_count; ++t) {
        const uint32_t *q = &d->tets[4 * (size_t)t];
        for (int k = 0; k < 4; ++k) {
            if (q[k] >= d->vertex_count)
                return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                               "%s: def->tets[%u] (tetrahedron %u, corner %d) = %u is out of range "
                               "(the mesh has %u vertices)",
                               fn, 4 * t + (uint32_t)k, t, k, q[k], d->vertex_count);
            for (int j = 0; j < k; ++j)
                if (q[j] == q[k])
                    return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                                   "%s: tetrahedron %u has vertex %u twice", fn, t, q[k]);
        }
        double longest, v = tet_volume(d, t, &longest);
        if (!(fabs(v) > DR_TET_MIN_VOLUME_RATIO * longest * longest * longest))
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: tetrahedron %u (vertices %u, %u, %u, %u) is degenerate: its volume "
                           "%g m^3 is below %g of its longest edge (%g m) cubed",
                           fn, t, q[0], q[1], q[2], q[3], v, DR_TET_MIN_VOLUME_RATIO, longest);
        if (v < 0.0)
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: tetrahedron %u (vertices %u, %u, %u, %u) is inverted (volume %g "
                           "m^3): p1 - p0, p2 - p0, p3 - p0 must make a right-handed frame",
                           fn, t, q[0], q[1], q[2], q[3], v);
        for (int k = 0; k < 4; ++k)
            mass[q[k]] += 0.25 * (double)d->density * v;
    }
    drape_result r = check_repeats(w, fn, d);
    if (r != DRAPE_OK)
        return r;
    for (uint32_t i = 0; i < d->vertex_count; ++i)
        if (!(mass[i] >= (double)DR_MIN_MASS))
            return dr_fail(
                &w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                "%s: vertex %u is a corner of no tetrahedron (or its mass %g kg is below "
                "%g): every vertex must belong to the mesh",
                fn, i, mass[i], (double)DR_MIN_MASS);
    return DRAPE_OK;
}

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

drape_result dr_add_tet_edges(drape_world *w, const char *fn, const uint32_t *tets,
                              uint32_t tet_count, uint32_t base, drape_stiffness s)
{
    const size_t n = 6 * (size_t)tet_count;
    uint64_t *keys = malloc((n + 1) * sizeof *keys);
    if (!keys)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %zu edges", fn, n);
    size_t k = 0;
    for (uint32_t t = 0; t < tet_count; ++t) {
        const uint32_t *q = &tets[4 * (size_t)t];
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) {
                const uint32_t lo = q[a] < q[b] ? q[a] : q[b], hi = q[a] < q[b] ? q[b] : q[a];
                keys[k++] = (uint64_t)lo << 32 | hi;
            }
    }
    qsort(keys, n, sizeof *keys, compare_u64);
    drape_distance_def e = drape_default_distance_def();
    DR_SET_STIFFNESS(&e, s);
    drape_result r = DRAPE_OK;
    for (size_t i = 0; i < n && r == DRAPE_OK; ++i) {
        if (i > 0 && keys[i] == keys[i - 1])
            continue;
        e.a = base + (uint32_t)(keys[i] >> 32);
        e.b = base + (uint32_t)keys[i];
        r = dr_add_distance(w, fn, &e, NULL);
    }
    free(keys);
    return r;
}

static drape_result add_elements(drape_world *w, const char *fn, const drape_tet_mesh_def *d,
                                 uint32_t base)
{
    const bool elastic = d->youngs_modulus > 0.0f;
    drape_result r =
        elastic ? DRAPE_OK : dr_add_tet_edges(w, fn, d->tets, d->tet_count, base, d->edges);
    drape_neo_hookean_def nh = drape_default_neo_hookean_def();
    nh.youngs_modulus = d->youngs_modulus;
    nh.poisson_ratio = d->poisson_ratio;
    drape_volume_def v = drape_default_volume_def();
    DR_SET_STIFFNESS(&v, d->volume);
    for (uint32_t t = 0; t < d->tet_count && r == DRAPE_OK; ++t) {
        for (int k = 0; k < 4; ++k)
            nh.particles[k] = v.particles[k] = base + d->tets[4 * (size_t)t + (size_t)k];
        r = elastic ? dr_add_neo_hookean(w, fn, &nh, NULL) : dr_add_volume(w, fn, &v, NULL);
    }
    return r;
}

drape_result dr_add_tet_mesh(drape_world *w, const char *fn, const drape_tet_mesh_def *d,
                             drape_build_info *out)
{
    if (!d)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    if (d->vertex_count < 4 || d->tet_count < 1 || !d->positions || !d->tets ||
        d->vertex_count > (1u << 26) || d->tet_count > (1u << 27))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->vertex_count = %u (4 .. 2^26) and def->tet_count = %u (1 .. 2^27) "
                       "with positions and tets given",
                       fn, d->vertex_count, d->tet_count);
    const dr_field3 velocity = {"def->velocity", "m/s", d->velocity};
    drape_result checked = dr_check_positive(&w->def, fn, "def->density", d->density, "kg/m^3");
    if (checked == DRAPE_OK)
        checked = dr_check_vectors(&w->def, fn, &velocity, 1);
    if (checked != DRAPE_OK)
        return checked;
    if (!(d->youngs_modulus >= 0.0f) || !isfinite(d->youngs_modulus) ||
        (d->youngs_modulus > 0.0f && !(d->poisson_ratio > -1.0f && d->poisson_ratio < 0.5f)))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->youngs_modulus = %g Pa must be >= 0 and finite and "
                       "def->poisson_ratio = %g in (-1, 0.5)",
                       fn, (double)d->youngs_modulus, (double)d->poisson_ratio);
    static const char *const families[] = {"def->edges.", "def->volume."};
    const drape_stiffness stiffness[] = {d->edges, d->volume};
    checked = dr_check_stiffnesses(&w->def, fn, 2, families, stiffness);
    if (checked != DRAPE_OK)
        return checked;
    char what[80];
    snprintf(what, sizeof what, "a mesh of %u tetrahedra", d->tet_count);
    const uint64_t tets = d->tet_count;
    /* a Neo-Hookean pair takes about three dihedrals' room; edges at most 6 per tetrahedron */
    drape_result r = dr_check_memory(w, fn, what, d->vertex_count,
                                     d->youngs_modulus > 0.0f ? 0 : 6 * tets, 3 * tets);
    if (r != DRAPE_OK)
        return r;
    double *mass = malloc((size_t)d->vertex_count * sizeof *mass);
    drape_particle_def *defs = malloc((size_t)d->vertex_count * sizeof *defs);
    if (!mass || !defs) {
        free(mass);
        free(defs);
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u vertices", fn,
                       d->vertex_count);
    }
    r = check_mesh(w, fn, d, mass);
    dr_body_contact contact = {0.0f, 0u};
    if (r == DRAPE_OK)
        r = dr_take_body_contact(w, fn, d->contact_radius, d->group, &contact);
    for (uint32_t i = 0; r == DRAPE_OK && i < d->vertex_count; ++i) {
        defs[i] = drape_default_particle_def(); /* no contact radius, group 0, unless asked */
        defs[i].position = d->positions[i];
        defs[i].velocity = d->velocity;
        defs[i].mass = (float)mass[i];
        dr_apply_body_contact(&defs[i], contact);
    }
    free(mass);
    const dr_build_mark mark = dr_build_begin(w);
    uint32_t base = 0;
    if (r == DRAPE_OK)
        r = dr_add_particles(w, fn, defs, d->vertex_count, &base);
    free(defs);
    if (r != DRAPE_OK)
        return r;
    if (contact.radius > 0.0f)
        dr_particle_mark_mesh(w, base, d->vertex_count);
    r = add_elements(w, fn, d, base);
    if (r != DRAPE_OK) {
        dr_build_roll_back(w, &mark);
        return r;
    }
    dr_build_info_since(w, &mark, out);
    return DRAPE_OK;
}

drape_result drape_world_add_tet_mesh(drape_world *w, const drape_tet_mesh_def *d,
                                      drape_build_info *out)
{
    DR_CHECK_WORLD(w);
    return dr_add_tet_mesh(w, __func__, d, out);
}

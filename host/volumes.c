/* Tetrahedral volumes: the volume constraint of the PBD paper (Müller et al. 2007, section 4.3),
 * C = 6 (V - V0) per tetrahedron, PBD or XPBD (dr_solve_volume in kernels/drape_shared.h), and the
 * soft box builder that fills a box with them.
 *
 * A tetrahedron must be positively oriented and have a volume: an inverted or flat one at creation
 * would have the constraint turn it inside out or divide by nothing, so both are refused, with the
 * particles named. The box is a grid of particles whose cubic cells are split into six tetrahedra
 * around a body diagonal, mirrored from cell to cell so that no direction is favoured
 * (dr_grid_tetrahedra); every edge of a tetrahedron becomes a distance constraint, which gives the
 * box its shape while the volumes keep its bulk.
 */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A tetrahedron flatter than this fraction of its longest edge cubed is degenerate. */
#define DR_MIN_VOLUME_RATIO 1e-6f
/* m^3: the largest rest volume given as a number, (1 km)^3. The projection moves the corners by
 * about the volume's error over the face areas at once: a rest volume of 1e15 m^3 on a tetrahedron
 * of 1 m^3 threw them past any float within a step (1e9 m^3 threw them 1e11 m). */
#define DR_MAX_VOLUME 1e9f

drape_volume_def drape_default_volume_def(void)
{
    drape_volume_def d = {{0, 0, 0, 0}, DRAPE_REST_FROM_POSITIONS, 1.0f,
                          0.0f,         DRAPE_STIFFNESS_PBD,       DR_DEF_COOKIE};
    return d;
}

/* 6 V of the tetrahedron of idx at the current positions, and its longest edge (m). */
static float current_volume6(const drape_world *w, const uint32_t idx[4], float *longest)
{
    dr_vec4 e[4];
    *longest = 0.0f;
    for (int k = 1; k < 4; ++k)
        e[k] = dr_sub3(w->x[idx[k]], w->x[idx[0]]);
    for (int a = 1; a < 4; ++a) {
        *longest = fmaxf(*longest, dr_len3(e[a]));
        for (int b = a + 1; b < 4; ++b)
            *longest = fmaxf(*longest, dr_len3(dr_sub3(e[a], e[b])));
    }
    return dr_volume6(e[1], e[2], e[3]);
}

drape_result dr_rest_tetrahedron(const drape_world *w, const char *fn, const uint32_t idx[4],
                                 float *rest6)
{
    float longest;
    *rest6 = current_volume6(w, idx, &longest);
    const float cube = longest * longest * longest;
    if (!(fabsf(*rest6) > 6.0f * DR_MIN_VOLUME_RATIO * cube))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: the tetrahedron of particles %u, %u, %u, %u is degenerate: its "
                       "volume %g m^3 is below %g of its longest edge (%g m) cubed",
                       fn, idx[0], idx[1], idx[2], idx[3], (double)(*rest6 / 6.0f),
                       (double)DR_MIN_VOLUME_RATIO, (double)longest);
    if (*rest6 < 0.0f)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: the tetrahedron of particles %u, %u, %u, %u is inverted (volume "
                       "%g m^3): p1 - p0, p2 - p0, p3 - p0 must make a right-handed frame; "
                       "swap two of its particles",
                       fn, idx[0], idx[1], idx[2], idx[3], (double)(*rest6 / 6.0f));
    return DRAPE_OK;
}

drape_result dr_add_volume(drape_world *w, const char *fn, const drape_volume_def *def,
                           uint32_t *out_id)
{
    static const char *const names[] = {"particles[0]", "particles[1]", "particles[2]",
                                        "particles[3]"};
    DR_CHECK_DEF(&w->def, def, fn, "volume");
    const uint32_t *idx = def->particles;
    drape_result r = dr_check_constraint(w, fn, idx, names, 4, DR_DEF_STIFFNESS(def));
    if (r == DRAPE_OK)
        r = dr_world_pull(w); /* the rest volume may come from the current positions */
    if (r != DRAPE_OK)
        return r;
    float rest6;
    if (def->rest_volume == DRAPE_REST_FROM_POSITIONS) {
        r = dr_rest_tetrahedron(w, fn, idx, &rest6);
        if (r != DRAPE_OK)
            return r;
    } else {
        if (!(def->rest_volume > 0.0f && def->rest_volume <= DR_MAX_VOLUME))
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: def->rest_volume = %g m^3 must be > 0 and at most %g (or "
                           "DRAPE_REST_FROM_POSITIONS: the current volume)",
                           fn, (double)def->rest_volume, (double)DR_MAX_VOLUME);
        rest6 = 6.0f * def->rest_volume;
    }
    return dr_store_constraint(w, DRAPE_CONSTRAINT_VOLUME, fn, idx, rest6, DR_DEF_STIFFNESS(def), 0,
                               DR_V4(0.0f, 0.0f, 0.0f, 0.0f), out_id);
}

drape_result drape_world_add_volume(drape_world *w, const drape_volume_def *def, uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    return dr_add_volume(w, __func__, def, out_id);
}

drape_result drape_world_get_volume(const drape_world *w, uint32_t id, drape_volume_def *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_volume";
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_VOLUME];
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (id >= s->count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: volume id %u does not exist (the world has %u)", fn, id, s->count);
    for (int k = 0; k < 4; ++k)
        out->particles[k] = s->idx[4 * (size_t)id + k];
    out->rest_volume = s->rest[id] / 6.0f;
    const drape_stiffness st = dr_stiffness_of_solver(s->stiffness[id], s->compliance[id]);
    DR_SET_STIFFNESS(out, st);
    out->cookie = DR_DEF_COOKIE;
    return DRAPE_OK;
}

/* ---- the soft box ---------------------------------------------------------------------------- */

drape_soft_box_def drape_default_soft_box_def(void)
{
    drape_soft_box_def d = {
        .nx = 4,
        .ny = 4,
        .nz = 4,
        .origin = {-0.25f, 1.0f, -0.25f},
        .size = {0.5f, 0.5f, 0.5f},
        .velocity = {0.0f, 0.0f, 0.0f},
        .mass = 1.0f,
        .edges = {0.5f, 0.0f, DRAPE_STIFFNESS_PBD},
        .volume = {1.0f, 0.0f, DRAPE_STIFFNESS_XPBD},
        .youngs_modulus = 0.0f,
        .poisson_ratio = 0.3f,
        .contact_radius = 0.0f,
        .group = DRAPE_GROUP_NEW,
        .cookie = DR_DEF_COOKIE,
    };
    return d;
}

typedef struct box {
    uint32_t base, nx, ny, nz;
} box;

static uint32_t box_index(const box *b, uint32_t i, uint32_t j, uint32_t k)
{
    return b->base + (k * b->ny + j) * b->nx + i;
}

/* The six tetrahedra of every cell: for each order (a, b, c) of the axes, the path 000 -> e_a ->
 * e_a + e_b -> 111 in the cell's own frame, which is the grid's mirrored along each axis whose cell
 * index is odd, so that the cells' diagonals point all eight ways (Kuhn's split, mirrored). The
 * same split in every cell favours one diagonal and is stiffer in bending: a Neo-Hookean
 * cantilever sagged 0.50 of the Euler-Bernoulli value with the unmirrored split at two cells
 * through its thickness, 0.59 with this one (docs/design.md). A face two cells share is mirrored
 * the same way from both sides, so both split it along the same diagonal and the mesh stays
 * conforming. Even orders in a frame mirrored an even number of times are right-handed; the others
 * swap their last two corners. */
void dr_grid_tetrahedra(uint32_t nx, uint32_t ny, uint32_t nz, uint32_t *out)
{
    static const int orders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                     {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    const box b = {0, nx, ny, nz};
    size_t n = 0;
    for (uint32_t k = 0; k + 1 < nz; ++k)
        for (uint32_t j = 0; j + 1 < ny; ++j)
            for (uint32_t i = 0; i + 1 < nx; ++i) {
                const uint32_t cell[3] = {i, j, k};
                const bool mirrored = ((i ^ j ^ k) & 1) != 0;
                for (int t = 0; t < 6; ++t) {
                    uint32_t step[3] = {0, 0, 0}, corner[4];
                    for (int c = 0; c < 4; ++c) {
                        if (c > 0)
                            step[orders[t][c - 1]] = 1;
                        uint32_t at[3];
                        for (int a = 0; a < 3; ++a)
                            at[a] = cell[a] + ((cell[a] & 1) ? 1 - step[a] : step[a]);
                        corner[c] = box_index(&b, at[0], at[1], at[2]);
                    }
                    const bool swap = (t >= 3) != mirrored;
                    out[n++] = corner[0], out[n++] = corner[1];
                    out[n++] = corner[swap ? 3 : 2], out[n++] = corner[swap ? 2 : 3];
                }
            }
}

static drape_result add_tetrahedra(drape_world *w, const char *fn, const box *b, drape_stiffness s,
                                   const uint32_t *tets, uint64_t count)
{
    drape_volume_def v = drape_default_volume_def();
    DR_SET_STIFFNESS(&v, s);
    for (uint64_t t = 0; t < count; ++t) {
        for (int c = 0; c < 4; ++c)
            v.particles[c] = b->base + tets[4 * t + (uint64_t)c];
        drape_result r = dr_add_volume(w, fn, &v, NULL);
        if (r != DRAPE_OK)
            return r;
    }
    return DRAPE_OK;
}

drape_result drape_world_add_soft_box(drape_world *w, const drape_soft_box_def *d,
                                      drape_build_info *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_soft_box";
    DR_CHECK_DEF(&w->def, d, fn, "soft_box");
    if (d->nx < 2 || d->ny < 2 || d->nz < 2 || (uint64_t)d->nx * d->ny * d->nz > (1u << 24))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->nx = %u, ny = %u, nz = %u: each must be >= 2 and nx*ny*nz <= "
                       "2^24",
                       fn, d->nx, d->ny, d->nz);
    const dr_field3 fields[] = {{"def->origin", "m", d->origin},
                                {"def->size", "m", d->size},
                                {"def->velocity", "m/s", d->velocity}};
    drape_result checked =
        dr_check_mass_and_vectors(&w->def, fn, d->mass, fields, sizeof fields / sizeof fields[0]);
    if (checked != DRAPE_OK)
        return checked;
    if (!(d->size.x > 0.0f && d->size.y > 0.0f && d->size.z > 0.0f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->size = (%g, %g, %g) m must be > 0 in every component", fn,
                       (double)d->size.x, (double)d->size.y, (double)d->size.z);
    static const char *const families[] = {"def->edges.", "def->volume."};
    const drape_stiffness stiffness[] = {d->edges, d->volume};
    checked = dr_check_stiffnesses(&w->def, fn, 2, families, stiffness);
    if (checked != DRAPE_OK)
        return checked;
    if (d->youngs_modulus != 0.0f && !(d->youngs_modulus > 0.0f && isfinite(d->youngs_modulus)))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->youngs_modulus = %g Pa must be > 0 and finite (or 0: edges and "
                       "volumes)",
                       fn, (double)d->youngs_modulus);
    const uint32_t nx = d->nx, ny = d->ny, nz = d->nz, n = nx * ny * nz;
    const uint64_t cells = (uint64_t)(nx - 1) * (ny - 1) * (nz - 1);
    char what[80];
    snprintf(what, sizeof what, "a %u x %u x %u soft box", nx, ny, nz);
    /* at most 7 edges per particle; a tetrahedron takes the room of a dihedral (4 particles) */
    drape_result r = dr_check_memory(w, fn, what, n, 7ull * n, 6 * cells);
    if (r != DRAPE_OK)
        return r;
    drape_particle_def *defs = malloc((size_t)n * sizeof *defs);
    uint32_t *tets = malloc((size_t)(24 * cells) * sizeof *tets);
    if (!defs || !tets) {
        free(defs);
        free(tets);
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u particles", fn, n);
    }
    const float m = d->mass / (float)n;
    for (uint32_t k = 0; k < nz; ++k)
        for (uint32_t j = 0; j < ny; ++j)
            for (uint32_t i = 0; i < nx; ++i) {
                drape_particle_def *p = &defs[(k * ny + j) * nx + i];
                *p = drape_default_particle_def(); /* no contact radius, unless asked (below) */
                p->position = (drape_vec3){d->origin.x + d->size.x * (float)i / (float)(nx - 1),
                                           d->origin.y + d->size.y * (float)j / (float)(ny - 1),
                                           d->origin.z + d->size.z * (float)k / (float)(nz - 1)};
                p->velocity = d->velocity;
                p->mass = m;
            }
    dr_grid_tetrahedra(nx, ny, nz, tets);
    if (d->youngs_modulus > 0.0f) {
        /* a Neo-Hookean solid: the tetrahedral mesh builder, with the box's mass by volume */
        drape_vec3 *pos = malloc((size_t)n * sizeof *pos);
        if (!pos)
            r = dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u particles", fn,
                        n);
        for (uint32_t i = 0; pos && i < n; ++i)
            pos[i] = defs[i].position;
        drape_tet_mesh_def t = drape_default_tet_mesh_def();
        t.positions = pos;
        t.vertex_count = n;
        t.tets = tets;
        t.tet_count = (uint32_t)(6 * cells);
        t.velocity = d->velocity;
        t.density = d->mass / (d->size.x * d->size.y * d->size.z);
        t.youngs_modulus = d->youngs_modulus;
        t.poisson_ratio = d->poisson_ratio;
        t.contact_radius = d->contact_radius;
        t.group = d->group;
        if (pos)
            r = dr_add_tet_mesh(w, fn, &t, out);
        free(pos);
        free(defs);
        free(tets);
        return r;
    }
    dr_body_contact contact;
    r = dr_take_body_contact(w, fn, d->contact_radius, d->group, &contact);
    for (uint32_t i = 0; r == DRAPE_OK && i < n; ++i)
        dr_apply_body_contact(&defs[i], contact);
    const dr_build_mark mark = dr_build_begin(w);
    box b = {0, nx, ny, nz};
    if (r == DRAPE_OK)
        r = dr_add_particles(w, fn, defs, n, &b.base);
    free(defs);
    if (r == DRAPE_OK) {
        if (contact.radius > 0.0f)
            dr_particle_mark_mesh(w, b.base, n);
        r = dr_add_tet_edges(w, fn, tets, (uint32_t)(6 * cells), b.base, d->edges);
        if (r == DRAPE_OK)
            r = add_tetrahedra(w, fn, &b, d->volume, tets, 6 * cells);
        if (r != DRAPE_OK)
            dr_build_roll_back(w, &mark);
    }
    free(tets);
    if (r != DRAPE_OK)
        return r;
    dr_build_info_since(w, &mark, out);
    return DRAPE_OK;
}

/* Builders: a rectangular cloth grid and a rope, made of particles and constraints through the same
 * public calls a user has.
 *
 * The cloth's constraints are generated family by family, each family split by index parity so that
 * no two constraints of one family share a particle: structural (horizontal, then vertical), shear
 * (both diagonals) and skip-one bending (horizontal, then vertical). Greedy first-fit colouring in
 * this natural order then reaches the lower bound (4, 8 and 12 colours; docs/design.md). The mass-
 * spring cloth of the Taichi mass-spring cloth demo uses the same three families of springs.
 *
 * Both give their particles a contact radius (half the rest spacing unless the def says otherwise)
 * and a collision group, and mark them as a mesh, so that particles that are neighbours in the rest
 * pose never collide (kernels/drape_shared.h, "particle contacts").
 */
#include "world_internal.h"

#include <stdio.h>
#include <stdlib.h>

drape_cloth_def drape_default_cloth_def(void)
{
    drape_cloth_def d = {
        .nx = 32,
        .ny = 32,
        .origin = {-0.5f, 1.0f, -0.5f},
        .u_axis = {1.0f, 0.0f, 0.0f},
        .v_axis = {0.0f, 0.0f, 1.0f},
        .velocity = {0.0f, 0.0f, 0.0f},
        .mass = 0.1f,
        .pins = DRAPE_PIN_NONE,
        .shear = true,
        .bending = DRAPE_BENDING_SKIP_ONE,
        .stretch = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .shear_stiffness = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .bend_stiffness = {0.2f, 0.0f, DRAPE_STIFFNESS_PBD},
        .tethers = true,
        .tether_stiffness = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .radius = -1.0f,
        .group = DRAPE_GROUP_NEW,
        .self_collision = false,
        .aerodynamic = true,
        .cookie = DR_DEF_COOKIE,
    };
    return d;
}

drape_rope_def drape_default_rope_def(void)
{
    drape_rope_def d = {
        .count = 16,
        .start = {0.0f, 1.0f, 0.0f},
        .end = {1.0f, 1.0f, 0.0f},
        .mass = 0.1f,
        .pin_start = true,
        .pin_end = false,
        .stretch = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .bending = false,
        .bend_stiffness = {0.2f, 0.0f, DRAPE_STIFFNESS_PBD},
        .tethers = true,
        .tether_stiffness = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .radius = -1.0f,
        .group = DRAPE_GROUP_NEW,
        .self_collision = false,
        .cookie = DR_DEF_COOKIE,
    };
    return d;
}

/* One family of distance constraints of a grid: particle (i, j) to (i + di, j + dj) for every i, j
 * where both exist, taking first those with (i / span) even (dj == 0) or (j / span) even (di == 0)
 * or i even (diagonals), then the rest: each half shares no particle. */
typedef struct grid_family {
    int di0, dj0, di1, dj1; /* the pair: (i + di0, j + dj0) -- (i + di1, j + dj1) */
    int span;               /* parity block: 1 for neighbours, 2 for skip-one */
    int along_j;            /* split by j instead of i */
    drape_distance_kind kind;
    drape_stiffness stiffness;
} grid_family;

static drape_result add_family(drape_world *w, const char *fn, uint32_t base, uint32_t nx,
                               uint32_t ny, const grid_family *f)
{
    for (int half = 0; half < 2; ++half)
        for (uint32_t j = 0; j < ny; ++j)
            for (uint32_t i = 0; i < nx; ++i) {
                int64_t i0 = (int64_t)i + f->di0, j0 = (int64_t)j + f->dj0;
                int64_t i1 = (int64_t)i + f->di1, j1 = (int64_t)j + f->dj1;
                if (i0 < 0 || j0 < 0 || i1 < 0 || j1 < 0 || i0 >= nx || i1 >= nx || j0 >= ny ||
                    j1 >= ny)
                    continue;
                uint32_t key = f->along_j ? j : i;
                if ((int)((key / (uint32_t)f->span) % 2) != half)
                    continue;
                drape_distance_def d = drape_default_distance_def();
                d.a = base + (uint32_t)(j0 * nx + i0);
                d.b = base + (uint32_t)(j1 * nx + i1);
                DR_SET_STIFFNESS(&d, f->stiffness);
                d.kind = f->kind;
                drape_result r = dr_add_distance(w, fn, &d, NULL);
                if (r != DRAPE_OK)
                    return r;
            }
    return DRAPE_OK;
}

/* One dihedral across the edge e0-e1 with wings w0 (the triangle that runs e0 -> e1) and w1. */
static drape_result add_hinge(drape_world *w, const char *fn, uint32_t e0, uint32_t e1, uint32_t w0,
                              uint32_t w1, drape_stiffness s)
{
    drape_dihedral_def d = drape_default_dihedral_def();
    d.edge0 = e0;
    d.edge1 = e1;
    d.wing0 = w0;
    d.wing1 = w1;
    DR_SET_STIFFNESS(&d, s);
    return dr_add_dihedral(w, fn, &d, NULL);
}

/* A dihedral constraint across every interior edge of the triangulated grid. Quad (i, j) splits
 * into A = (00, 10, 11) and B = (00, 11, 01); windings agree, so a flat cloth has angle 0
 * everywhere. Passes: the quad diagonals, then the edges across the grid's longer side, then the
 * others; each row by row. Natural first-fit then reaches the lower bound of 12 colours on any grid
 * (coloring/ drape_coloring.h); the other order of the last two passes costs a 13th colour on wide
 * grids. */
static drape_result add_dihedrals(drape_world *w, const char *fn, uint32_t base, uint32_t nx,
                                  uint32_t ny, drape_stiffness s)
{
#define P(i, j) (base + (uint32_t)(j)*nx + (uint32_t)(i))
    drape_result r = DRAPE_OK;
    for (uint32_t j = 0; j + 1 < ny && r == DRAPE_OK; ++j) /* quad diagonals */
        for (uint32_t i = 0; i + 1 < nx && r == DRAPE_OK; ++i)
            r = add_hinge(w, fn, P(i, j), P(i + 1, j + 1), P(i, j + 1), P(i + 1, j), s);
    for (int pass = 0; pass < 2 && r == DRAPE_OK; ++pass) {
        bool columns = (pass == 0) == (nx > ny);
        if (columns) { /* edges between columns: (i, j)-(i, j+1) */
            for (uint32_t j = 0; j + 1 < ny && r == DRAPE_OK; ++j)
                for (uint32_t i = 1; i + 1 < nx && r == DRAPE_OK; ++i)
                    r = add_hinge(w, fn, P(i, j), P(i, j + 1), P(i - 1, j), P(i + 1, j + 1), s);
        } else { /* edges between rows: (i, j)-(i+1, j) */
            for (uint32_t j = 1; j + 1 < ny && r == DRAPE_OK; ++j)
                for (uint32_t i = 0; i + 1 < nx && r == DRAPE_OK; ++i)
                    r = add_hinge(w, fn, P(i, j), P(i + 1, j), P(i + 1, j + 1), P(i, j - 1), s);
        }
    }
#undef P
    return r;
}

static bool pinned(uint32_t pins, uint32_t i, uint32_t j, uint32_t nx, uint32_t ny)
{
    bool first_i = i == 0, last_i = i == nx - 1, first_j = j == 0, last_j = j == ny - 1;
    return ((pins & DRAPE_PIN_CORNER_00) && first_i && first_j) ||
           ((pins & DRAPE_PIN_CORNER_10) && last_i && first_j) ||
           ((pins & DRAPE_PIN_CORNER_01) && first_i && last_j) ||
           ((pins & DRAPE_PIN_CORNER_11) && last_i && last_j) ||
           ((pins & DRAPE_PIN_ROW_FIRST) && first_j) || ((pins & DRAPE_PIN_ROW_LAST) && last_j) ||
           ((pins & DRAPE_PIN_COLUMN_FIRST) && first_i) ||
           ((pins & DRAPE_PIN_COLUMN_LAST) && last_i);
}

/* The contact radius and group a builder gives its particles: `radius` < 0 takes half the rest
 * `spacing` (m). */
typedef struct mesh_contact {
    float radius;
    uint32_t group;
    bool self;
} mesh_contact;

static drape_result check_mesh_contact(drape_world *w, float radius, uint32_t group, const char *fn)
{
    if (!(fabsf(radius) <= DR_MAX_MAGNITUDE)) /* NaN, -inf (it read as "< 0") and +inf too */
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->radius = %g m must be finite and at most %g (< 0: half the rest "
                       "spacing)",
                       fn, (double)radius, (double)DR_MAX_MAGNITUDE);
    if (group > DRAPE_GROUP_MAX && group != DRAPE_GROUP_NEW)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->group = %u is neither <= DRAPE_GROUP_MAX nor DRAPE_GROUP_NEW", fn,
                       group);
    return DRAPE_OK;
}

static mesh_contact take_mesh_contact(drape_world *w, float radius, float spacing, uint32_t group,
                                      bool self)
{
    mesh_contact c = {radius < 0.0f ? 0.5f * spacing : radius, dr_particle_take_group(w, group),
                      self};
    return c;
}

static void apply_mesh_contact(drape_particle_def *p, mesh_contact c)
{
    p->radius = c.radius;
    p->group = c.group;
    p->self_collide = c.self;
}

drape_result dr_take_body_contact(drape_world *w, const char *fn, float radius, uint32_t group,
                                  dr_body_contact *out)
{
    if (!(radius >= 0.0f && radius <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->contact_radius = %g m must be >= 0 and at most %g (0: no "
                       "contacts)",
                       fn, (double)radius, (double)DR_MAX_MAGNITUDE);
    DR_TRY(check_mesh_contact(w, radius, group, fn));
    out->radius = radius;
    out->group = radius > 0.0f ? dr_particle_take_group(w, group) : 0u;
    return DRAPE_OK;
}

void dr_apply_body_contact(drape_particle_def *p, dr_body_contact c)
{
    if (c.radius > 0.0f) {
        p->radius = c.radius;
        p->group = c.group;
        p->self_collide = false;
    }
}

static float length3(drape_vec3 a) { return dr_len3(dr_vec4_from(a, 0.0f)); }

dr_build_mark dr_build_begin(const drape_world *w)
{
    dr_build_mark m = {w->particle_count, {0}};
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        m.counts[t] = w->constraints[t].count;
    return m;
}

/* Attachments are the one type that builders never add to and users remove from. */
static bool built_type(int t) { return t != DRAPE_CONSTRAINT_ATTACHMENT; }

void dr_build_roll_back(drape_world *w, const dr_build_mark *m)
{
    w->particle_count = m->particles;
    dr_placement_clip(w);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        if (built_type(t)) {
            w->constraints[t].count = m->counts[t];
            w->constraints[t].live = m->counts[t];
        }
    w->solver_dirty = true;
    w->plan_dirty = true;
    w->stale = DR_STALE_ALL;
}

void dr_build_info_since(const drape_world *w, const dr_build_mark *m, drape_build_info *out)
{
    if (!out)
        return;
    const dr_constraints *c = w->constraints;
    out->first_particle = m->particles;
    out->particle_count = w->particle_count - m->particles;
    out->first_distance = m->counts[DRAPE_CONSTRAINT_DISTANCE];
    out->distance_count = c[DRAPE_CONSTRAINT_DISTANCE].count - out->first_distance;
    out->first_dihedral = m->counts[DRAPE_CONSTRAINT_DIHEDRAL];
    out->dihedral_count = c[DRAPE_CONSTRAINT_DIHEDRAL].count - out->first_dihedral;
    out->first_tether = m->counts[DRAPE_CONSTRAINT_TETHER];
    out->tether_count = c[DRAPE_CONSTRAINT_TETHER].count - out->first_tether;
    out->first_volume = m->counts[DRAPE_CONSTRAINT_VOLUME];
    out->volume_count = c[DRAPE_CONSTRAINT_VOLUME].count - out->first_volume;
    out->first_neo_hookean = m->counts[DRAPE_CONSTRAINT_NEO_HOOKEAN];
    out->neo_hookean_count = c[DRAPE_CONSTRAINT_NEO_HOOKEAN].count - out->first_neo_hookean;
}

drape_result drape_world_add_cloth(drape_world *w, const drape_cloth_def *d, drape_build_info *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_cloth";
    DR_CHECK_DEF(&w->def, d, fn, "cloth");
    if (d->nx < 2 || d->ny < 2 || (uint64_t)d->nx * d->ny > (1u << 28))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->nx = %u, def->ny = %u: each must be >= 2 and nx*ny <= 2^28", fn,
                       d->nx, d->ny);
    const dr_field3 fields[] = {{"def->origin", "m", d->origin},
                                {"def->u_axis", "m", d->u_axis},
                                {"def->v_axis", "m", d->v_axis},
                                {"def->velocity", "m/s", d->velocity}};
    drape_result checked =
        dr_check_mass_and_vectors(&w->def, fn, d->mass, fields, sizeof fields / sizeof fields[0]);
    if (checked != DRAPE_OK)
        return checked;
    const dr_vec4 area = dr_cross3(dr_vec4_from(d->u_axis, 0.0f), dr_vec4_from(d->v_axis, 0.0f));
    if (!(dr_dot3(area, area) > 0.0f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->u_axis (%g, %g, %g) m and def->v_axis (%g, %g, %g) m span no area "
                       "(one is zero, or they are parallel): the cloth's particles would lie on a "
                       "line",
                       fn, (double)d->u_axis.x, (double)d->u_axis.y, (double)d->u_axis.z,
                       (double)d->v_axis.x, (double)d->v_axis.y, (double)d->v_axis.z);
    static const char *const names[] = {"def->stretch.", "def->shear_stiffness.",
                                        "def->bend_stiffness.", "def->tether_stiffness."};
    const drape_stiffness stiffness[] = {d->stretch, d->shear_stiffness, d->bend_stiffness,
                                         d->tether_stiffness};
    checked = dr_check_stiffnesses(&w->def, fn, 4, names, stiffness);
    if (checked != DRAPE_OK)
        return checked;
    if ((unsigned)d->bending > DRAPE_BENDING_DIHEDRAL)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def->bending = %d is not a mode",
                       fn, (int)d->bending);
    const uint32_t all_pins = (uint32_t)DRAPE_PIN_COLUMN_LAST * 2u - 1u;
    if (d->pins & ~all_pins) /* pinned nothing, and a tether then had no anchor */
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->pins = 0x%x holds bits that are not drape_cloth_pin flags (0x%x)",
                       fn, d->pins, d->pins & ~all_pins);
    checked = check_mesh_contact(w, d->radius, d->group, fn);
    if (checked != DRAPE_OK)
        return checked;
    if (!dr_valid_tear(d))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->tear_strain = %g must be 0 (no tearing) or from 1 to 1e6 (a link "
                       "tears when stretched past that many times its rest length)",
                       fn, (double)d->tear_strain);
    if ((uint64_t)d->tear_spares > (uint64_t)d->nx * d->ny)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->tear_spares = %u must be at most nx * ny = %u", fn, d->tear_spares,
                       d->nx * d->ny);

    const uint32_t nx = d->nx, ny = d->ny, n = nx * ny;
    /* What the cloth will need, before any of it is allocated: at most 2 stretch, 2 shear and 2
     * skip-one springs per particle, 3 dihedrals per quad, a tether per particle (the size of a
     * spring). */
    const uint64_t quads = (uint64_t)(nx - 1) * (ny - 1);
    const uint64_t springs = 2ull * n + (d->shear ? 2 * quads : 0) +
                             (d->bending == DRAPE_BENDING_SKIP_ONE ? 2ull * n : 0) +
                             (d->tethers && d->pins != DRAPE_PIN_NONE ? n : 0);
    char what[64];
    snprintf(what, sizeof what, "a %u x %u cloth", nx, ny);
    drape_result fits = dr_check_memory(w, fn, what, n, springs,
                                        d->bending == DRAPE_BENDING_DIHEDRAL ? 3 * quads : 0);
    if (fits != DRAPE_OK)
        return fits;
    drape_particle_def *defs = malloc((size_t)n * sizeof *defs);
    if (!defs)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u particles", fn, n);
    float m = d->mass / (float)n;
    const float spacing_u = length3(d->u_axis) / (float)(nx - 1),
                spacing_v = length3(d->v_axis) / (float)(ny - 1);
    const mesh_contact contact = take_mesh_contact(
        w, d->radius, spacing_u < spacing_v ? spacing_u : spacing_v, d->group, d->self_collision);
    for (uint32_t j = 0; j < ny; ++j)
        for (uint32_t i = 0; i < nx; ++i) {
            float s = (float)i / (float)(nx - 1), t = (float)j / (float)(ny - 1);
            drape_particle_def *p = &defs[j * nx + i];
            p->position = (drape_vec3){d->origin.x + d->u_axis.x * s + d->v_axis.x * t,
                                       d->origin.y + d->u_axis.y * s + d->v_axis.y * t,
                                       d->origin.z + d->u_axis.z * s + d->v_axis.z * t};
            p->velocity = d->velocity;
            p->mass = pinned(d->pins, i, j, nx, ny) ? 0.0f : m;
            apply_mesh_contact(p, contact);
        }
    const dr_build_mark mark = dr_build_begin(w);
    uint32_t base;
    drape_result r = dr_add_particles(w, fn, defs, n, &base);
    free(defs);
    if (r != DRAPE_OK)
        return r;
    dr_particle_mark_mesh(w, base, n);

    const grid_family families[] = {
        {0, 0, 1, 0, 1, 0, DRAPE_DISTANCE_STRETCH, d->stretch},
        {0, 0, 0, 1, 1, 1, DRAPE_DISTANCE_STRETCH, d->stretch},
        {0, 0, 1, 1, 1, 0, DRAPE_DISTANCE_SHEAR, d->shear_stiffness},
        {1, 0, 0, 1, 1, 0, DRAPE_DISTANCE_SHEAR, d->shear_stiffness},
        {0, 0, 2, 0, 2, 0, DRAPE_DISTANCE_BEND, d->bend_stiffness},
        {0, 0, 0, 2, 2, 1, DRAPE_DISTANCE_BEND, d->bend_stiffness},
    };
    size_t family_count = d->bending == DRAPE_BENDING_SKIP_ONE ? 6 : 4;
    for (size_t f = 0; f < family_count && r == DRAPE_OK; ++f)
        if (d->shear || families[f].kind != DRAPE_DISTANCE_SHEAR)
            r = add_family(w, fn, base, nx, ny, &families[f]);
    if (r == DRAPE_OK && d->bending == DRAPE_BENDING_DIHEDRAL)
        r = add_dihedrals(w, fn, base, nx, ny, d->bend_stiffness);
    if (r == DRAPE_OK)
        r = dr_add_cloth_tethers(w, fn, base, d);
    if (r == DRAPE_OK && d->aerodynamic)
        r = dr_add_cloth_aero(w, fn, base, nx, ny);
    uint32_t spares = 0;
    if (r == DRAPE_OK && d->tear_spares) { /* pinned and unlinked until a tear uses them */
        drape_particle_def spare = drape_default_particle_def();
        spare.position = d->origin;
        spare.mass = 0.0f;
        for (uint32_t k = 0; k < d->tear_spares && r == DRAPE_OK; ++k)
            r = dr_add_particles(w, fn, &spare, 1, k ? NULL : &spares);
    }
    if (r == DRAPE_OK)
        r = dr_tear_cloth(w, d, mark.counts[DRAPE_CONSTRAINT_DISTANCE], spares);
    if (r != DRAPE_OK) {
        dr_build_roll_back(w, &mark);
        return r;
    }
    dr_build_info_since(w, &mark, out);
    return DRAPE_OK;
}

drape_result drape_world_add_rope(drape_world *w, const drape_rope_def *d, drape_build_info *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_rope";
    DR_CHECK_DEF(&w->def, d, fn, "rope");
    if (d->count < 2 || d->count > (1u << 28))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->count = %u must be in [2, 2^28]", fn, d->count);
    const dr_field3 ends[] = {{"def->start", "m", d->start}, {"def->end", "m", d->end}};
    drape_result checked = dr_check_mass_and_vectors(&w->def, fn, d->mass, ends, 2);
    if (checked != DRAPE_OK)
        return checked;
    if (!(length3((drape_vec3){d->end.x - d->start.x, d->end.y - d->start.y,
                               d->end.z - d->start.z}) > 0.0f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->start and def->end are the same point (%g, %g, %g) m: the rope "
                       "has no length",
                       fn, (double)d->start.x, (double)d->start.y, (double)d->start.z);
    static const char *const names[] = {"def->stretch.", "def->bend_stiffness.",
                                        "def->tether_stiffness."};
    const drape_stiffness stiffness[] = {d->stretch, d->bend_stiffness, d->tether_stiffness};
    checked = dr_check_stiffnesses(&w->def, fn, 3, names, stiffness);
    if (checked == DRAPE_OK)
        checked = check_mesh_contact(w, d->radius, d->group, fn);
    if (checked != DRAPE_OK)
        return checked;
    const dr_build_mark mark = dr_build_begin(w);
    char what[64];
    snprintf(what, sizeof what, "a rope of %u particles", d->count);
    /* At most a link, a skip-one spring and a tether per particle (each the size of a spring). */
    const uint64_t springs = (uint64_t)d->count * (1u + (d->bending ? 1u : 0u) +
                                                   (d->tethers && (d->pin_start || d->pin_end)));
    drape_result fits = dr_check_memory(w, fn, what, d->count, springs, 0);
    if (fits != DRAPE_OK)
        return fits;
    drape_particle_def *defs = malloc((size_t)d->count * sizeof *defs);
    if (!defs)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u particles", fn,
                       d->count);
    float m = d->mass / (float)d->count;
    const drape_vec3 span = {d->end.x - d->start.x, d->end.y - d->start.y, d->end.z - d->start.z};
    const mesh_contact contact = take_mesh_contact(
        w, d->radius, length3(span) / (float)(d->count - 1), d->group, d->self_collision);
    for (uint32_t i = 0; i < d->count; ++i) {
        float s = (float)i / (float)(d->count - 1);
        defs[i].position = (drape_vec3){d->start.x + (d->end.x - d->start.x) * s,
                                        d->start.y + (d->end.y - d->start.y) * s,
                                        d->start.z + (d->end.z - d->start.z) * s};
        defs[i].velocity = (drape_vec3){0.0f, 0.0f, 0.0f};
        bool pin = (i == 0 && d->pin_start) || (i == d->count - 1 && d->pin_end);
        defs[i].mass = pin ? 0.0f : m;
        apply_mesh_contact(&defs[i], contact);
    }
    uint32_t base;
    drape_result r = dr_add_particles(w, fn, defs, d->count, &base);
    free(defs);
    if (r != DRAPE_OK)
        return r;
    dr_particle_mark_mesh(w, base, d->count);
    /* A rope is a grid one particle wide. */
    const grid_family links = {0, 0, 1, 0, 1, 0, DRAPE_DISTANCE_STRETCH, d->stretch};
    const grid_family bends = {0, 0, 2, 0, 2, 0, DRAPE_DISTANCE_BEND, d->bend_stiffness};
    r = add_family(w, fn, base, d->count, 1, &links);
    if (r == DRAPE_OK && d->bending)
        r = add_family(w, fn, base, d->count, 1, &bends);
    if (r == DRAPE_OK)
        r = dr_add_rope_tethers(w, fn, base, d);
    if (r != DRAPE_OK) {
        dr_build_roll_back(w, &mark);
        return r;
    }
    dr_build_info_since(w, &mark, out);
    return DRAPE_OK;
}

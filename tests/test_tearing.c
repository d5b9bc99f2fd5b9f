/* Breakable links and tearing: a cloth whose top edge is pulled apart from both ends tears in two
 * by vertex splits, with no NaN, no particle lost or duplicated and a valid colouring after every
 * tear; a breakable link breaks past its limit and only then; limits below 1 are refused by name.
 * Runs on the backend tu_def() picks (core.tearing on the CPU, opencl.core.tearing).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NX = 24, NY = 16, SPARES = 200, GRIP = 12 };

static uint32_t find(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

typedef struct tear_check {
    uint32_t components, smallest; /* over the active particles, through the live links */
    bool ok;
} tear_check;

/* Every check of a torn cloth: finite state; active particles (mass > 0) = the grid + the splits,
 * their mass the cloth's; every live link between active particles; no two links of a colour on one
 * movable particle. And its connected components. */
static void check_cloth(drape_world *w, const drape_build_info *info, float mass, tear_check *out)
{
    *out = (tear_check){0, 0, false};
    const uint32_t n = info->particle_count, links = info->distance_count;
    const drape_tear_stats ts = drape_world_get_tear_stats(w);
    tu_state s;
    drape_distance_def *d = malloc(links * sizeof *d);
    uint32_t *color = malloc(links * sizeof *color), *parent = malloc(n * sizeof *parent);
    uint32_t *owner = malloc(n * sizeof *owner);
    if (!d || !color || !parent || !owner || !tu_read(w, &s)) {
        ENSURE_MSG(false, "out of memory or no state");
    }
    bool ok = drape_world_get_distances(w, info->first_distance, links, d) == DRAPE_OK &&
              drape_world_get_constraint_colors(w, DRAPE_CONSTRAINT_DISTANCE, info->first_distance,
                                                links, color) == DRAPE_OK;
    ENSURE_MSG(ok, "reading the links and their colours");
    uint32_t active = 0;
    double total = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        ENSURE_MSG(isfinite(s.x[i].x) && isfinite(s.x[i].y) && isfinite(s.x[i].z) &&
                       isfinite(s.v[i].x) && isfinite(s.v[i].y) && isfinite(s.v[i].z),
                   "particle %u is not finite", i);
        active += s.m[i] > 0.0f;
        total += s.m[i];
        parent[i] = i;
    }
    ENSURE_MSG(active == NX * NY + ts.splits, "%u active particles, %u + %u splits", active,
               NX * NY, ts.splits);
    ENSURE_MSG(ts.spares_left + ts.splits == SPARES, "%u spares left after %u splits",
               ts.spares_left, ts.splits);
    /* a spare that a split used takes the split particle's contact radius */
    drape_contact_stats cs;
    ENSURE_OK(drape_world_get_contact_stats(w, &cs));
    ENSURE_MSG(cs.particles == NX * NY + ts.splits,
               "%u particles with a contact radius, %u + %u "
               "splits",
               cs.particles, NX * NY, ts.splits);
    ENSURE_MSG(fabs(total - mass) < 1e-6 * mass, "total mass %.9g kg, want %g", total,
               (double)mass);
    /* The solver projects the links the world holds: its residual (over its colour-ordered copy)
     * is the one of the links read back. */
    double sq = 0.0;
    uint32_t live = 0;
    for (uint32_t k = 0; k < links; ++k)
        if (color[k] != UINT32_MAX) {
            const double c = tu_dist(s.x[d[k].a], s.x[d[k].b]) - d[k].rest_length;
            sq += c * c;
            live++;
        }
    drape_diagnostics diag;
    ENSURE_OK(drape_world_get_diagnostics(w, &diag));
    const double rms = live ? sqrt(sq / live) : 0.0;
    ENSURE_MSG(fabs(diag.distance_residual - rms) <= 1e-3 * rms + 1e-9,
               "the solver's residual %.9g m, the links' %.9g m", diag.distance_residual, rms);
    uint32_t colors = 0;
    for (uint32_t k = 0; k < links; ++k)
        if (color[k] != UINT32_MAX) {
            ENSURE_MSG(s.m[d[k].a] > 0.0f && s.m[d[k].b] > 0.0f, "link %u on a spare", k);
            parent[find(parent, d[k].a)] = find(parent, d[k].b);
            colors = color[k] + 1 > colors ? color[k] + 1 : colors;
        }
    for (uint32_t c = 0; c < colors; ++c) {
        for (uint32_t i = 0; i < n; ++i)
            owner[i] = UINT32_MAX;
        for (uint32_t k = 0; k < links; ++k) {
            if (color[k] != c)
                continue;
            const uint32_t ends[2] = {d[k].a, d[k].b};
            for (int e = 0; e < 2; ++e) {
                const uint32_t p = ends[e] - info->first_particle;
                if (s.m[ends[e]] <= 0.0f)
                    continue;
                ENSURE_MSG(owner[p] == UINT32_MAX,
                           "colour %u: links %u and %u share the movable particle %u", c, owner[p],
                           k, ends[e]);
                owner[p] = k;
            }
        }
    }
    out->smallest = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i)
        if (s.m[i] > 0.0f && find(parent, i) == i) {
            uint32_t size = 0;
            for (uint32_t q = 0; q < n; ++q)
                size += s.m[q] > 0.0f && find(parent, q) == i;
            out->components++;
            out->smallest = size < out->smallest ? size : out->smallest;
        }
    out->ok = true;
    tu_state_free(&s);
    free(d);
    free(color);
    free(parent);
    free(owner);
}

/* The render triangles (drape_world_get_triangles) after the tears: how many join particles of two
 * pieces (through the live links), the longest triangle edge (m), and whether the world's normals
 * of them are finite. */
static void triangles_across(drape_world *w, const drape_build_info *info, uint32_t *across,
                             uint32_t *hidden, double *longest, bool *normals_ok)
{
    *across = UINT32_MAX, *hidden = 0, *longest = INFINITY, *normals_ok = false;
    const uint32_t n = info->particle_count, links = info->distance_count;
    const uint32_t count = drape_world_get_triangles(w, NULL);
    uint32_t *tri = malloc((3 * (size_t)count + 1) * sizeof *tri);
    uint32_t *parent = malloc(n * sizeof *parent), *color = malloc(links * sizeof *color);
    drape_distance_def *d = malloc(links * sizeof *d);
    float *pos = malloc(4 * (size_t)n * sizeof *pos), *nrm = malloc(4 * (size_t)n * sizeof *nrm);
    tu_state s;
    if (!tri || !parent || !color || !d || !pos || !nrm || !tu_read(w, &s)) {
        ENSURE_MSG(false, "out of memory or no state");
    }
    drape_world_get_triangles(w, tri);
    ENSURE_OK(drape_world_get_distances(w, info->first_distance, links, d));
    ENSURE_OK(drape_world_get_constraint_colors(w, DRAPE_CONSTRAINT_DISTANCE, info->first_distance,
                                                links, color));
    for (uint32_t i = 0; i < n; ++i)
        parent[i] = i;
    for (uint32_t k = 0; k < links; ++k)
        if (color[k] != UINT32_MAX) /* live */
            parent[find(parent, d[k].a)] = find(parent, d[k].b);
    *across = 0;
    *longest = 0.0;
    for (uint32_t t = 0; t < count; ++t) {
        const uint32_t *v = &tri[3 * (size_t)t];
        *hidden += v[0] == v[1] && v[1] == v[2]; /* the tear ran through it */
        *across +=
            find(parent, v[0]) != find(parent, v[1]) || find(parent, v[0]) != find(parent, v[2]);
        for (int e = 0; e < 3; ++e)
            *longest = fmax(*longest, tu_dist(s.x[v[e]], s.x[v[(e + 1) % 3]]));
    }
    ENSURE_OK(drape_world_get_render_data(w, info->first_particle, n, pos, nrm));
    *normals_ok = true;
    for (size_t k = 0; k < 4 * (size_t)n; ++k)
        *normals_ok = *normals_ok && isfinite(nrm[k]);
    tu_state_free(&s);
    free(tri);
    free(parent);
    free(color);
    free(d);
    free(pos);
    free(nrm);
}

/* The must-show: a 24 x 16 cloth hanging in the xy plane whose top row is gripped, its left half
 * moving left and its right half right at 0.5 m/s. It tears from the middle of the top edge down,
 * by vertex splits, into two pieces; every check holds after every step in which it tore. */
static void test_cloth_tears_in_two(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = NX, c.ny = NY;
    c.origin = tu_v3(-0.6f, 1.5f, 0.0f);
    c.u_axis = tu_v3(1.2f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -0.8f, 0.0f);
    c.tear_strain = 1.3f;
    c.tear_spares = SPARES;
    drape_build_info info;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info));
    ENSURE(info.particle_count == NX * NY + SPARES);
    drape_attachment_id grip[2][GRIP];
    drape_vec3 home[2][GRIP];
    for (int k = 0; k < 2; ++k)
        for (int q = 0; q < GRIP; ++q) {
            drape_attachment_def a = drape_default_attachment_def();
            a.particle = info.first_particle + (k ? NX - 1 - q : q);
            ENSURE_OK(drape_world_get_positions(w, a.particle, 1, &a.target));
            home[k][q] = a.target;
            ENSURE_OK(drape_world_add_attachment(w, &a, &grip[k][q]));
        }
    const uint32_t tri_count = drape_cloth_triangles(NX, NY, info.first_particle, NULL);
    uint32_t *tri = malloc(3 * (size_t)tri_count * sizeof *tri);
    ENSURE(tri);
    drape_cloth_triangles(NX, NY, info.first_particle, tri);
    ENSURE_OK(drape_world_set_triangles(w, tri, tri_count));
    free(tri);
    drape_coloring_stats first;
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, &first)); /* coloured now */
    const uint32_t particles = drape_world_particle_count(w);
    uint32_t tears = 0, checked = 0, breaks = 0, split_only = 0;
    tear_check last = {0, 0, false};
    drape_profile before, after;
    for (int step = 0; step < 240; ++step) {
        const float t = (float)(step + 1) / 60.0f;
        for (int k = 0; k < 2; ++k)
            for (int q = 0; q < GRIP; ++q) {
                drape_vec3 p = home[k][q];
                p.x += (k ? 0.5f : -0.5f) * t;
                ENSURE_OK(drape_world_set_attachment_target(w, grip[k][q], p));
            }
        ENSURE_OK(drape_world_get_profile(w, &before));
        ENSURE_OK(drape_world_step(w));
        ENSURE(drape_world_particle_count(w) == particles); /* nothing allocated in a step */
        const drape_tear_stats ts = drape_world_get_tear_stats(w);
        if (ts.splits + ts.breaks == tears)
            continue;
        tears = ts.splits + ts.breaks;
        check_cloth(w, &info, c.mass, &last); /* its colours: the world recolours what it must */
        ENSURE(last.ok);
        checked++;
        ENSURE_OK(drape_world_get_profile(w, &after));
        if (ts.breaks == breaks) { /* splits alone: the moved links keep their colours */
            ENSURE_MSG(after.recolored == before.recolored, "a split recoloured %llu links",
                       (unsigned long long)(after.recolored - before.recolored));
            split_only++;
        }
        breaks = ts.breaks;
    }
    const drape_tear_stats ts = drape_world_get_tear_stats(w);
    printf("  %u splits, %u links broken, checked after %u steps that tore (%u with splits "
           "alone, which recoloured nothing); %u pieces, the smaller of %u particles\n",
           ts.splits, ts.breaks, checked, split_only, last.components, last.smallest);
    ENSURE(ts.splits >= 5);
    ENSURE(last.components == 2);
    ENSURE(last.smallest >= NX * NY / 4); /* two real pieces, not a crumb */
    /* the render triangles follow the splits: none joins the two pieces, so the tear opens */
    uint32_t across, hidden;
    double longest;
    bool normals_ok;
    triangles_across(w, &info, &across, &hidden, &longest, &normals_ok);
    printf("  render triangles: %u of %u join the two pieces, %u hidden (torn through); the "
           "longest edge %.3f m (the grid's diagonal %.3f m)\n",
           across, drape_world_get_triangles(w, NULL), hidden, longest, hypot(1.2 / 23, 0.8 / 15));
    ENSURE(drape_world_get_triangles(w, NULL) == tri_count);
    ENSURE(across == 0 && normals_ok && hidden <= 2 * ts.splits);
    drape_world_destroy(w);
}

/* Two particles and a breakable link, one pinned, the other pulled away: the link holds up to its
 * limit and breaks past it, once. */
static void test_link_breaks_past_its_limit(void)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p = drape_default_particle_def();
    p.mass = 0.0f;
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    p.mass = 0.1f;
    p.position = tu_v3(1.0f, 0.0f, 0.0f);
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1;
    d.compliance = 1e-3f, d.model = DRAPE_STIFFNESS_XPBD; /* soft: it stretches under the pull */
    uint32_t link;
    ENSURE_OK(drape_world_add_distance(w, &d, &link));
    ENSURE_OK(drape_world_set_distance_break(w, link, 1.2f));
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = 1;
    a.target = p.position;
    a.compliance = 1e-3f, a.model = DRAPE_STIFFNESS_XPBD;
    drape_attachment_id pull;
    ENSURE_OK(drape_world_add_attachment(w, &a, &pull));
    double longest_held = 0.0;
    int broke_at = -1;
    for (int step = 0; step < 120 && broke_at < 0; ++step) {
        ENSURE_OK(drape_world_set_attachment_target(w, pull, tu_v3(1.0f + 0.01f * step, 0, 0)));
        ENSURE_OK(drape_world_step(w));
        tu_state s;
        ENSURE(tu_read(w, &s));
        const double len = tu_dist(s.x[0], s.x[1]);
        tu_state_free(&s);
        if (drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE) == 1)
            longest_held = len;
        else
            broke_at = step;
    }
    printf("  held up to %.4f m (limit 1.2 m), broke at step %d\n", longest_held, broke_at);
    ENSURE(broke_at > 0);
    ENSURE(longest_held <= 1.2 + 1e-6 && longest_held > 1.1);
    ENSURE(drape_world_get_tear_stats(w).breaks == 1);
    ENSURE(tu_step(w, 5));
    ENSURE(drape_world_get_tear_stats(w).breaks == 1);
    drape_world_destroy(w);
}

static void test_bad_tear_input(void)
{
    tu_log log = {0};
    drape_world_def def = tu_def(&log);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 4;
    c.tear_strain = 0.9f;
    ENSURE_RESULT(drape_world_add_cloth(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->tear_strain = 0.9 must be 0 (no tearing) or from 1 to 1e6"));
    c.tear_strain = NAN;
    ENSURE_RESULT(drape_world_add_cloth(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->tear_strain = nan"));
    c.tear_strain = 1.5f;
    c.tear_spares = 17;
    ENSURE_RESULT(drape_world_add_cloth(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->tear_spares = 17 must be at most nx * ny = 16"));
    ENSURE(drape_world_particle_count(w) == 0);
    c.tear_spares = 4;
    drape_build_info info;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info));
    ENSURE(info.particle_count == 20 && drape_world_get_tear_stats(w).spares_left == 4);
    ENSURE_RESULT(drape_world_set_distance_break(w, 0, 0.5f), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "limit = 0.5 must be at least 1"));
    ENSURE_RESULT(drape_world_set_distance_break(w, 9999, 2.0f), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "distance id 9999 does not exist"));
    ENSURE_OK(drape_world_set_distance_break(w, 0, 0.0f));
    uint32_t color;
    ENSURE_RESULT(drape_world_get_constraint_colors(w, DRAPE_CONSTRAINT_DISTANCE, 9999, 1, &color),
                  DRAPE_ERROR_OUT_OF_RANGE);
    drape_world_destroy(w);
}

/* A tearing cloth that hangs still tears nothing: on the OpenCL backend each of its steps reads
 * back once, the non-finite check and the device's tearing watch together (16 bytes), where reading
 * the positions and velocities for the host's check would be 32 bytes a particle a step. */
static void test_quiet_steps_read_little(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = NX, c.ny = NY;
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.tear_strain = 1.3f;
    c.tear_spares = SPARES;
    ENSURE_OK(drape_world_add_cloth(w, &c, NULL));
    ENSURE(tu_step(w, 2)); /* the first steps upload, build and colour */
    drape_world_reset_profile(w);
    enum { STEPS = 30 };
    for (int i = 0; i < STEPS; ++i)
        ENSURE_OK(drape_world_step(w));
    drape_profile p;
    ENSURE_OK(drape_world_get_profile(w, &p));
    const uint64_t pull = (uint64_t)STEPS * drape_world_particle_count(w) * 32;
    printf(
        "  %d quiet steps of a tearing cloth read %llu bytes back (a read-back of the state each "
        "step: %llu)\n",
        STEPS, (unsigned long long)p.read_bytes, (unsigned long long)pull);
    ENSURE(drape_world_get_tear_stats(w).splits == 0 && drape_world_get_tear_stats(w).breaks == 0);
    if (drape_world_backend(w) == DRAPE_BACKEND_OPENCL) {
        ENSURE(p.reads == STEPS);
        ENSURE(p.read_bytes == (uint64_t)STEPS * 16);
    } else
        ENSURE(p.reads == 0 && p.read_bytes == 0);
    drape_world_destroy(w);
}

int suite_tearing(void)
{
    RUN_TEST(test_cloth_tears_in_two);
    RUN_TEST(test_link_breaks_past_its_limit);
    RUN_TEST(test_bad_tear_input);
    RUN_TEST(test_quiet_steps_read_little);
    return test_finish();
}

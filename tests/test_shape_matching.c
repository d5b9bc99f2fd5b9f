/* Shape matching: a rigid cluster keeps every pairwise distance within 1e-4 relative while it
 * tumbles, falls and lands; a soft one gives on landing and takes its shape back; a cluster of two
 * particles (a rank-deficient fit) stays finite; bad clusters are refused with a message that names
 * what is wrong. Runs on the backend tu_def() picks (core.shape_matching on the CPU,
 * opencl.core.shape_matching).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

/* An n x n x n block of particles (no constraints) of edge `size` from `origin`, spinning about a
 * tilted axis at `spin` rad/s and moving at v; its particle indices in *idx (n^3 of them). */
static uint32_t add_block(drape_world *w, uint32_t n, float size, drape_vec3 origin, float spin,
                          drape_vec3 v, uint32_t *idx)
{
    drape_particle_def p[64];
    const float half = 0.5f * size;
    uint32_t k = 0;
    for (uint32_t c = 0; c < n; ++c)
        for (uint32_t b = 0; b < n; ++b)
            for (uint32_t a = 0; a < n; ++a, ++k) {
                const float rx = size * (float)a / (float)(n - 1) - half;
                const float ry = size * (float)b / (float)(n - 1) - half;
                const float rz = size * (float)c / (float)(n - 1) - half;
                /* omega = spin (0.6, 0.8, 0) x r */
                const float ox = 0.6f * spin, oy = 0.8f * spin;
                p[k] = drape_default_particle_def();
                p[k].position = tu_v3(origin.x + rx, origin.y + ry, origin.z + rz);
                p[k].velocity = tu_v3(v.x + oy * rz, v.y - ox * rz, v.z + ox * ry - oy * rx);
                p[k].mass = 0.1f;
            }
    uint32_t first = 0;
    if (drape_world_add_particles(w, p, k, &first) != DRAPE_OK)
        return 0;
    for (uint32_t i = 0; i < k; ++i)
        idx[i] = first + i;
    return k;
}

/* The largest |d_ij - d0_ij| / d0_ij over the pairs of particles first .. first + n - 1. */
static double worst_pair_change(const tu_state *s, const drape_vec3 *x0, uint32_t n)
{
    double worst = 0.0;
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = i + 1; j < n; ++j) {
            const double d0 = tu_dist(x0[i], x0[j]), d = tu_dist(s->x[i], s->x[j]);
            worst = fmax(worst, fabs(d - d0) / d0);
        }
    return worst;
}

static void run_block(float stiffness, double *worst, double *final, double *lowest, double *turn)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    uint32_t idx[64];
    const uint32_t n =
        add_block(w, 4, 0.3f, tu_v3(0.0f, 1.0f, 0.0f), 6.0f, tu_v3(0.5f, 1.0f, 0.0f), idx);
    ENSURE(n == 64);
    drape_shape_match_def c = drape_default_shape_match_def();
    c.particles = idx, c.count = n, c.stiffness = stiffness;
    ENSURE_OK(drape_world_add_shape_match(w, &c, NULL));
    ENSURE(drape_world_shape_match_count(w) == 1);
    drape_collider_def ground = drape_default_collider_def();
    ENSURE_OK(drape_world_add_collider(w, &ground, NULL));
    tu_state s;
    ENSURE(tu_read(w, &s));
    drape_vec3 x0[64];
    for (uint32_t i = 0; i < n; ++i)
        x0[i] = s.x[i];
    tu_state_free(&s);
    *worst = 0.0, *lowest = INFINITY, *turn = 0.0;
    for (int step = 0; step < 180; ++step) {
        ENSURE(tu_step(w, 1));
        ENSURE(tu_read(w, &s));
        *final = worst_pair_change(&s, x0, n);
        *worst = fmax(*worst, *final);
        for (uint32_t i = 0; i < n; ++i)
            *lowest = fmin(*lowest, s.x[i].y);
        /* how far the edge from corner 0 to corner 3 has turned (rad) */
        const double a[3] = {x0[3].x - x0[0].x, x0[3].y - x0[0].y, x0[3].z - x0[0].z};
        const double b[3] = {s.x[3].x - s.x[0].x, s.x[3].y - s.x[0].y, s.x[3].z - s.x[0].z};
        const double cosine = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (tu_len3(a) * tu_len3(b));
        *turn = fmax(*turn, acos(fmin(1.0, fmax(-1.0, cosine))));
        tu_state_free(&s);
    }
    drape_world_destroy(w);
}

static void test_rigid_cluster_stays_rigid(void)
{
    double worst, final, lowest, turn;
    run_block(1.0f, &worst, &final, &lowest, &turn);
    printf("  rigid block: pairwise distances change at most %.2e relative over 3 s; it turned "
           "%.2f rad and came down to %.4f m\n",
           worst, turn, lowest);
    ENSURE_LE(worst, 1e-4);
    ENSURE(turn > 1.0);                      /* it tumbled */
    ENSURE(lowest > -0.01 && lowest < 0.02); /* and landed on the plane */
}

static void test_soft_cluster_gives_and_recovers(void)
{
    double worst, final, lowest, turn;
    run_block(0.5f, &worst, &final, &lowest, &turn);
    printf("  soft block (k = 0.5): distances change up to %.2e relative, %.2e at the end\n", worst,
           final);
    ENSURE(worst > 1e-2);           /* it gave */
    ENSURE_LE(final, 0.05 * worst); /* and took its shape back (but for its sag at rest) */
}

/* A rigid block spinning in free space (6 rad/s about a tilted axis, no gravity or colliders) for
 * 2 s keeps its linear and angular momentum and its kinetic energy, at 1 substep and at 4: the
 * fit's corrections are turned so that they carry no torque about the substep's start, and their
 * mean is taken out (dr_shape_match). Fitted to the predictions alone, the block kept 47% of its
 * kinetic energy after 2 s at 1 substep. The energy is compared with the first step's: v = d / h
 * is the chord of the turn, which changes it once by about (omega h)^2 / 4 (0.2% here). */
static void test_spinning_block_keeps_momentum(void)
{
    for (int substeps = 1; substeps <= 4; substeps += 3) {
        drape_world *w = tu_weightless_world(substeps);
        ENSURE(w);
        uint32_t idx[64];
        const uint32_t n =
            add_block(w, 4, 0.3f, tu_v3(0.2f, 1.0f, -0.1f), 6.0f, tu_v3(0.5f, 0.2f, 0.0f), idx);
        ENSURE(n == 64);
        drape_shape_match_def c = drape_default_shape_match_def();
        c.particles = idx, c.count = n;
        ENSURE_OK(drape_world_add_shape_match(w, &c, NULL));
        tu_body b[3]; /* at the start, after the first step, after 2 s */
        for (int k = 0; k < 3; ++k) {
            tu_state s;
            ENSURE(k == 0 || tu_step(w, k == 1 ? 1 : 119));
            ENSURE(tu_read(w, &s));
            tu_body_of(&s, &b[k]);
            tu_state_free(&s);
        }
        const double dP = tu_rel3(b[2].P, b[0].P), dL = tu_rel3(b[2].Lcm, b[0].Lcm);
        printf("  %d substep(s), after 2 s: P drifted %.2e, L about the centre %.2e relative; "
               "kinetic energy %.5f of the first step's\n",
               substeps, dP, dL, b[2].ke / b[1].ke);
        ENSURE_LE(dP, 1e-5);
        ENSURE_LE(dL, 1e-3);
        ENSURE_NEAR(b[2].ke / b[1].ke, 1.0, 1e-3);
        ENSURE_NEAR(b[1].ke / b[0].ke, 1.0, 5e-3);
        drape_world_destroy(w);
    }
}

/* Two particles: the fit has no rotation about their axis (A is rank one); it must stay finite. */
static void test_two_particle_cluster(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {{{0, 1, 0}, {0, 2, 1}, 1, 0.0f, 0, false},
                               {{0.2f, 1, 0}, {1, 0, 0}, 1, 0.0f, 0, false}};
    uint32_t idx[2] = {0, 1};
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    drape_shape_match_def c = drape_default_shape_match_def();
    c.particles = idx, c.count = 2;
    ENSURE_OK(drape_world_add_shape_match(w, &c, NULL));
    ENSURE(tu_step(w, 60));
    tu_state s;
    ENSURE(tu_read(w, &s));
    ENSURE(isfinite(s.x[0].x) && isfinite(s.x[1].y));
    ENSURE_NEAR(tu_dist(s.x[0], s.x[1]), 0.2, 2e-5);
    tu_state_free(&s);
    drape_world_destroy(w);
}

static void test_bad_clusters(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[3] = {{{0, 0, 0}, {0, 0, 0}, 1, 0.0f, 0, false},
                               {{1, 0, 0}, {0, 0, 0}, 1, 0.0f, 0, false},
                               {{0, 1, 0}, {0, 0, 0}, 0, 0.0f, 0, false}};
    ENSURE_OK(drape_world_add_particles(w, p, 3, NULL));
    drape_shape_match_def c = drape_default_shape_match_def();
    const uint32_t dup[2] = {1, 1}, out[2] = {0, 7}, pinned[3] = {0, 1, 2}, ok[2] = {0, 1};
    c.particles = dup, c.count = 2;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "particle 1 is in the cluster twice"));
    c.particles = out;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "def->particles[1] = 7 is out of range"));
    c.particles = pinned, c.count = 3;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "particle 2 (def->particles[2]) is pinned"));
    c.particles = ok, c.count = 1;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->count = 1"));
    c.count = 2, c.stiffness = 0.0f;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->stiffness = 0 must be in (0, 1]"));
    c.stiffness = 1.0f, c.contact_radius = -0.1f;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->contact_radius = -0.1 m must be >= 0"));
    c.contact_radius = 0.1f, c.group = DRAPE_GROUP_MAX + 1;
    ENSURE_RESULT(drape_world_add_shape_match(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->group"));
    ENSURE(drape_world_shape_match_count(w) == 0);
    drape_world_destroy(w);
}

/* Two rigid boxes of 3 x 3 x 3 particles, each cluster giving its particles a contact radius of
 * half their spacing in a group of its own, the upper dropped onto the lower on the ground: it
 * comes to rest on it, every particle of one at least nearly two radii from every particle of the
 * other, where without the radius it falls through. */
static double stacked_gap(float contact_radius)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    if (!w)
        return NAN;
    drape_collider_def ground = drape_default_collider_def();
    double gap = NAN;
    if (drape_world_add_collider(w, &ground, NULL) != DRAPE_OK)
        goto done;
    for (int k = 0; k < 2; ++k) {
        drape_soft_box_def b = drape_default_soft_box_def();
        b.nx = b.ny = b.nz = 3;
        b.origin = tu_v3(0.03f * (float)k, 0.05f + 0.4f * (float)k, 0.02f * (float)k);
        b.size = tu_v3(0.2f, 0.2f, 0.2f);
        drape_shape_match_def m = drape_default_shape_match_def();
        m.contact_radius = contact_radius;
        if (tu_add_matched_box(w, b, m, NULL) != DRAPE_OK)
            goto done;
    }
    tu_state s;
    if (!tu_step(w, 90) || !tu_read(w, &s))
        goto done;
    gap = INFINITY;
    for (uint32_t i = 0; i < 27; ++i)
        for (uint32_t j = 27; j < 54; ++j)
            gap = fmin(gap, tu_dist(s.x[i], s.x[j]));
    tu_state_free(&s);
done:
    drape_world_destroy(w);
    return gap;
}

static void test_clusters_collide(void)
{
    const double with = stacked_gap(0.05f), without = stacked_gap(0.0f);
    printf("  two rigid boxes stacked: closest particles %.4f m apart with a contact radius of "
           "0.05 m, %.4f m without\n",
           with, without);
    ENSURE(with > 0.09 && with < 0.11); /* resting on it: 2 radii, less a little squeeze */
    ENSURE(without < 0.05);
}

/* The centre of mass of a rigid 3 x 3 x 3 block of 0.2 m resting on the ground under gravity tilted
 * by `degrees` (a slope of that angle, the default friction mu_s 0.4, mu_k 0.3), after `steps`.
 * With `emit`, a particle is added 10 m away before every step, and the first one is moved there
 * again (drape_world_set_particle): placements elsewhere in the world. */
static double block_on_slope_emitting(double degrees, int substeps, int steps, bool emit)
{
    const double g = 9.81, th = degrees * 3.14159265358979323846 / 180.0;
    drape_world_def def = tu_def(NULL);
    def.substeps = substeps;
    def.gravity = tu_v3((float)(g * sin(th)), (float)(-g * cos(th)), 0.0f);
    drape_world *w = tu_world(&def);
    drape_collider_def ground = drape_default_collider_def();
    uint32_t idx[27];
    double x = NAN;
    if (!w || drape_world_add_collider(w, &ground, NULL) != DRAPE_OK ||
        add_block(w, 3, 0.2f, tu_v3(0.0f, 0.105f, 0.0f), 0.0f, tu_v3(0.0f, 0.0f, 0.0f), idx) != 27)
        goto done;
    drape_shape_match_def m = drape_default_shape_match_def();
    m.particles = idx, m.count = 27;
    drape_vec3 p[27];
    if (drape_world_add_shape_match(w, &m, NULL) != DRAPE_OK)
        goto done;
    for (int k = 0; k < steps; ++k) {
        drape_particle_def far = drape_default_particle_def();
        far.position = tu_v3(10.0f, 1.0f, (float)k * 0.1f);
        uint32_t first = 0;
        if (emit && (drape_world_add_particles(w, &far, 1, &first) != DRAPE_OK ||
                     drape_world_set_particle(w, first - (uint32_t)k, &far) != DRAPE_OK))
            goto done;
        if (!tu_step(w, 1))
            goto done;
    }
    if (drape_world_get_positions(w, idx[0], 27, p) != DRAPE_OK)
        goto done;
    x = 0.0;
    for (int i = 0; i < 27; ++i)
        x += p[i].x / 27.0;
done:
    drape_world_destroy(w);
    return x;
}

static double block_on_slope(double degrees, int substeps, int steps)
{
    return block_on_slope_emitting(degrees, substeps, steps, false);
}

/* On a slope past its friction angle a rigid block slides as ½ g (sin - mu_k cos) t^2 (1.1781 m
 * in 1 s at 30 degrees); below it, it should stay put, but creeps: the collider's contacts hold
 * its bottom layer and each fit gives back part of that (docs/design.md, "What a rigid cluster
 * does not yet do"). At 4 substeps it creeps at 2.0 mm/s on 15 degrees; this bounds it at 3 so
 * that the creep is known not to grow, and at 1 mm/s at 16 substeps (0.5 measured), so that it is
 * known to shrink with h. */
static void test_block_on_a_slope(void)
{
    const double g = 9.81, th = 30.0 * 3.14159265358979323846 / 180.0;
    const double slid = block_on_slope(30.0, 4, 60), expected = 0.5 * g * (sin(th) - 0.3 * cos(th));
    printf("  slid %.4f m in 1 s at 30 degrees (1/2 g (sin - mu_k cos) t^2 = %.4f m)\n", slid,
           expected);
    ENSURE_NEAR(slid, expected, 0.01 * expected);
    /* particles placed elsewhere mend no placement of the block's: its friction is the same */
    const double emitting = block_on_slope_emitting(30.0, 4, 60, true);
    printf("  slid %.4f m while a particle was added and one moved 10 m away before every step\n",
           emitting);
    ENSURE_NEAR(emitting, slid, 1e-4 * expected);
    for (int substeps = 4; substeps <= 16; substeps *= 4) {
        const double creep =
            (block_on_slope(15.0, substeps, 600) - block_on_slope(15.0, substeps, 300)) / 5.0;
        printf("  creeps at %.2f mm/s on 15 degrees at %d substeps\n", 1e3 * creep, substeps);
        ENSURE(creep >= 0.0);
        ENSURE_LE(creep, substeps == 4 ? 3e-3 : 1e-3);
    }
}

int suite_shape_matching(void)
{
    RUN_TEST(test_rigid_cluster_stays_rigid);
    RUN_TEST(test_soft_cluster_gives_and_recovers);
    RUN_TEST(test_spinning_block_keeps_momentum);
    RUN_TEST(test_two_particle_cluster);
    RUN_TEST(test_bad_clusters);
    RUN_TEST(test_clusters_collide);
    RUN_TEST(test_block_on_a_slope);
    return test_finish();
}

/* Aerodynamics: the flag of scenes/flag.json in a steady 10 m/s wind keeps fluttering with lift and
 * drag, where the per-particle air drag lets it go still; the drag and lift on a single triangle
 * are the formula's, and a falling one reaches its terminal velocity; seeded turbulence is
 * deterministic; coefficients of zero change nothing; bad input is refused with the parameter
 * named. Runs on the backend tu_def() picks (core.aero on the CPU, opencl.core.aero).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The wind of the flag tests: 10 m/s, mostly along the flag, partly across it. */
static const drape_vec3 wind10 = {9.486833f, 0.0f, 3.1622777f};

/* scenes/flag.json's flag: 32 x 20 particles, 1.5 m x 1 m, `mass` kg (the scene's: 0.15), pinned
 * along one side, at `substeps` (0: the default). */
static drape_world *flag_world(drape_vec3 wind, float air_drag, const drape_aero_def *aero,
                               float mass, int substeps)
{
    drape_world_def def = tu_def(NULL);
    def.wind = wind;
    def.air_drag = air_drag;
    def.substeps = substeps > 0 ? substeps : def.substeps;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 32, c.ny = 20;
    c.origin = tu_v3(0.0f, 2.0f, 0.0f);
    c.u_axis = tu_v3(1.5f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -1.0f, 0.0f);
    c.mass = mass;
    c.pins = DRAPE_PIN_COLUMN_FIRST;
    c.bend_stiffness.stiffness = 0.1f;
    if (drape_world_add_cloth(w, &c, NULL) != DRAPE_OK ||
        (aero && drape_world_set_aero(w, aero) != DRAPE_OK)) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

typedef struct energy_window {
    double mean, min, max; /* J */
    int turns;             /* local extrema of the kinetic energy, step to step */
} energy_window;

/* Steps to t0 (s), then records the kinetic energy every step until t1. */
static bool energy_after(drape_world *w, double t0, double t1, energy_window *out)
{
    const int first = (int)lround(t0 * 60.0), last = (int)lround(t1 * 60.0);
    double sum = 0.0, prev = NAN, slope = 0.0;
    *out = (energy_window){0.0, INFINITY, 0.0, 0};
    for (int step = 0; step < last; ++step) {
        if (drape_world_step(w) != DRAPE_OK)
            return false;
        if (step < first)
            continue;
        drape_diagnostics d;
        if (drape_world_get_diagnostics(w, &d) != DRAPE_OK)
            return false;
        const double ke = d.kinetic_energy;
        sum += ke;
        out->min = fmin(out->min, ke);
        out->max = fmax(out->max, ke);
        if (!isnan(prev)) {
            const double s = ke - prev;
            if (s * slope < 0.0)
                out->turns++;
            if (s != 0.0)
                slope = s;
        }
        prev = ke;
    }
    out->mean = sum / (last - first);
    return true;
}

/* The must-show: after 10 s in a steady 10 m/s wind the flag with lift and drag still moves, its
 * kinetic energy rising and falling; with only the per-particle air drag towards the wind (the
 * model before aerodynamics) it has come to rest. */
static void test_flag_keeps_fluttering(void)
{
    drape_aero_def aero = drape_default_aero_def();
    aero.drag = 1.2f;
    aero.lift = 0.5f;
    drape_world *w = flag_world(wind10, 0.0f, &aero, 0.15f, 0);
    ENSURE(w);
    energy_window e;
    ENSURE(energy_after(w, 10.0, 12.0, &e));
    drape_world_destroy(w);
    drape_world *still = flag_world(wind10, 1.0f, NULL, 0.15f, 0);
    ENSURE(still);
    energy_window s;
    ENSURE(energy_after(still, 10.0, 12.0, &s));
    drape_world_destroy(still);
    printf("  lift and drag: kinetic energy 10-12 s mean %.4g J, min %.4g, max %.4g, %d turns\n",
           e.mean, e.min, e.max, e.turns);
    printf("  air drag only: kinetic energy 10-12 s mean %.3g J, max %.3g\n", s.mean, s.max);
    ENSURE(e.mean > 0.01);                /* a 0.15 kg flag moving at ~0.4 m/s on average */
    ENSURE(e.max - e.min > 0.3 * e.mean); /* not a steady state */
    ENSURE(e.turns >= 10);                /* up and down, many times in 2 s */
    ENSURE(s.max < 1e-4);                 /* the old model: still */
}

/* A light flag (20 g) at 1 substep, and one in a 20 m/s wind at 4: the air's pull relaxes a
 * particle's motion through the air faster than one substep (dr_aero_apply), and taken as an
 * explicit step in full it overshot, each step further: the flag flew at 178 and 708 m/s. Now no
 * particle is ever faster than the wind over 5 s. */
static void test_light_flag_stays_below_the_wind(void)
{
    drape_aero_def aero = drape_default_aero_def();
    aero.drag = 1.2f;
    aero.lift = 0.5f;
    for (int k = 0; k < 2; ++k) {
        const float gust = k ? 2.0f : 1.0f;
        const drape_vec3 wind = tu_v3(gust * wind10.x, gust * wind10.y, gust * wind10.z);
        drape_world *w = flag_world(wind, 0.0f, &aero, 0.02f, k ? 4 : 1);
        ENSURE(w);
        if (!w)
            return;
        double fastest = 0.0;
        for (int step = 0; step < 300; ++step) {
            ENSURE(tu_step(w, 1));
            tu_state st;
            ENSURE(tu_read(w, &st));
            for (uint32_t i = 0; i < st.n; ++i)
                fastest = fmax(fastest,
                               sqrt((double)st.v[i].x * st.v[i].x + (double)st.v[i].y * st.v[i].y +
                                    (double)st.v[i].z * st.v[i].z));
            tu_state_free(&st);
        }
        drape_world_destroy(w);
        printf("  20 g flag, %d substep(s), wind %g m/s: fastest particle %.2f m/s\n", k ? 4 : 1,
               10.0 * gust, fastest);
        ENSURE_LE(fastest, 10.0 * gust);
    }
}

/* Three particles of `mass` kg at `at`, moving at `velocity`, made one aerodynamic triangle in air
 * of density 1.25 kg/m^3 with drag 1.1 and lift `lift`. */
static void add_triangle(drape_world *w, const drape_vec3 at[3], float mass, drape_vec3 velocity,
                         float lift)
{
    drape_particle_def p = drape_default_particle_def();
    p.mass = mass;
    p.velocity = velocity;
    for (int k = 0; k < 3; ++k) {
        p.position = at[k];
        ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    }
    const uint32_t tri[3] = {0, 1, 2};
    ENSURE_OK(drape_world_add_aero_triangles(w, tri, 1));
    drape_aero_def aero = drape_default_aero_def();
    aero.drag = 1.1f, aero.lift = lift, aero.air_density = 1.25f;
    ENSURE_OK(drape_world_set_aero(w, &aero));
}

/* One free triangle (no gravity, no constraints) moving through still air: after one substep its
 * velocity changed by h F / m with F the formula's, in double here. Face-on: drag alone, opposite
 * the motion. Tilted: drag along the motion and lift across it, in the plane of motion and normal.
 */
static void check_triangle(float tilt)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    def.substeps = 1;
    def.dt = 1e-3f;
    drape_world *w = tu_world(&def);
    ENSURE(w);
    const double c = cos(tilt), s = sin(tilt), m = 0.01, speed = 5.0;
    /* a right triangle with legs 0.2 m along x and along (0, c, s): normal (0, -s, c) */
    const drape_vec3 at[3] = {
        {0.0f, 0.0f, 0.0f}, {0.2f, 0.0f, 0.0f}, {0.0f, 0.2f * (float)c, 0.2f * (float)s}};
    add_triangle(w, at, (float)m, tu_v3(0.0f, 0.0f, -(float)speed), 0.7f);
    ENSURE_OK(drape_world_step(w));
    tu_state st;
    ENSURE(tu_read(w, &st));
    /* u = (0, 0, -5), n = (0, -s, c): cos t = -c */
    const double area = 0.5 * 0.2 * 0.2, q = 0.5 * 1.25 * area * speed;
    const double u[3] = {0.0, 0.0, -speed}, n[3] = {0.0, -s, c};
    const double cs = -c, sn = sqrt(1.0 - c * c); /* liftDir = n |u| - u cos t */
    double f[3];
    for (int k = 0; k < 3; ++k) {
        const double lift_dir = n[k] * speed - u[k] * cs;
        f[k] = -q * 1.1 * fabs(cs) * u[k] - q * 0.7 * cs * sn * lift_dir;
    }
    for (int k = 0; k < 3; ++k) {
        const double dv[3] = {st.v[k].x - u[0], st.v[k].y - u[1], st.v[k].z - u[2]};
        const double want[3] = {1e-3 * f[0] / (3 * m), 1e-3 * f[1] / (3 * m),
                                1e-3 * f[2] / (3 * m)};
        ENSURE_MSG(tu_rel3(dv, want) < 1e-3, "tilt %g: dv (%g, %g, %g), want (%g, %g, %g)",
                   (double)tilt, dv[0], dv[1], dv[2], want[0], want[1], want[2]);
    }
    tu_state_free(&st);
    drape_world_destroy(w);
}

static void test_triangle_forces(void)
{
    check_triangle(0.0f);  /* face-on */
    check_triangle(0.6f);  /* tilted: lift */
    check_triangle(-1.1f); /* the other way: lift turns over */
}

/* A triangle of three 10 g particles falling face down under gravity through still air (drag 1.1,
 * 1.25 kg/m^3, 0.02 m^2) reaches the terminal velocity where drag bears its weight, sqrt(2 m g /
 * (rho A C_D)) = 4.626 m/s, within 1e-3 after 5 s, at 1 substep and at 4: the forces come from the
 * velocities at the substep's start. Taken after gravity's kick, they held it g h short of it
 * (4.463 m/s at 1 substep, 3.5%). */
static void test_terminal_velocity(void)
{
    for (int substeps = 1; substeps <= 4; substeps += 3) {
        drape_world_def def = tu_def(NULL);
        def.substeps = substeps;
        drape_world *w = tu_world(&def);
        ENSURE(w);
        if (!w)
            return;
        const drape_vec3 at[3] = {{0.0f, 0.0f, 0.0f}, {0.2f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.2f}};
        add_triangle(w, at, 0.01f, tu_v3(0.0f, 0.0f, 0.0f), 0.0f);
        ENSURE(tu_step(w, 300));
        drape_vec3 v[3];
        ENSURE_OK(drape_world_get_velocities(w, 0, 3, v));
        drape_world_destroy(w);
        const double want = sqrt(2.0 * 0.03 * 9.81 / (1.25 * 0.02 * 1.1));
        printf("  %d substep(s): falls at %.4f m/s (terminal %.4f)\n", substeps, -(double)v[0].y,
               want);
        for (int k = 0; k < 3; ++k)
            ENSURE_LE(fabs(-(double)v[k].y / want - 1.0), 1e-3);
    }
}

/* Seeded gusts: the same seed gives the same flag bit for bit, another seed another flag. */
static void test_turbulence_is_seeded(void)
{
    drape_aero_def aero = drape_default_aero_def();
    aero.drag = 1.0f, aero.lift = 0.3f, aero.turbulence = 3.0f, aero.gust_length = 0.5f;
    tu_state st[3];
    for (int k = 0; k < 3; ++k) {
        aero.seed = k == 2 ? 7u : 1u;
        drape_world *w = flag_world(wind10, 0.0f, &aero, 0.15f, 0);
        ENSURE(w);
        ENSURE(tu_step(w, 60));
        ENSURE(tu_read(w, &st[k]));
        drape_world_destroy(w);
    }
    ENSURE(tu_same_bits(st[0].x, st[1].x, st[0].n * sizeof *st[0].x));
    ENSURE(!tu_same_bits(st[0].x, st[2].x, st[0].n * sizeof *st[0].x));
    for (int k = 0; k < 3; ++k)
        tu_state_free(&st[k]);
}

/* A cloth whose triangles feel the air but whose coefficients are zero steps bit for bit like one
 * without aerodynamic triangles. */
static void test_zero_coefficients_change_nothing(void)
{
    tu_state st[2];
    for (int k = 0; k < 2; ++k) {
        drape_world_def def = tu_def(NULL);
        def.wind = wind10;
        def.air_drag = 0.5f;
        drape_world *w = tu_world(&def);
        ENSURE(w);
        drape_cloth_def c = drape_default_cloth_def();
        c.nx = c.ny = 8;
        c.pins = DRAPE_PIN_CORNER_00;
        c.aerodynamic = k == 0;
        ENSURE_OK(drape_world_add_cloth(w, &c, NULL));
        ENSURE(drape_world_aero_triangle_count(w) == (k == 0 ? 2u * 7 * 7 : 0u));
        ENSURE(tu_step(w, 30));
        ENSURE(tu_read(w, &st[k]));
        drape_world_destroy(w);
    }
    ENSURE(tu_same_bits(st[0].x, st[1].x, st[0].n * sizeof *st[0].x));
    ENSURE(tu_same_bits(st[0].v, st[1].v, st[0].n * sizeof *st[0].v));
    tu_state_free(&st[0]);
    tu_state_free(&st[1]);
}

static void test_bad_input(void)
{
    tu_log log = {0};
    drape_world_def def = tu_def(&log);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_aero_def a = drape_default_aero_def();
    a.drag = -1.0f;
    ENSURE_RESULT(drape_world_set_aero(w, &a), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->drag = -1"));
    a = drape_default_aero_def();
    a.lift = NAN;
    ENSURE_RESULT(drape_world_set_aero(w, &a), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->lift = nan"));
    a = drape_default_aero_def();
    a.air_density = 0.0f;
    ENSURE_RESULT(drape_world_set_aero(w, &a), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->air_density = 0 kg/m^3"));
    a = drape_default_aero_def();
    a.turbulence = INFINITY;
    ENSURE_RESULT(drape_world_set_aero(w, &a), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->turbulence = inf"));
    a = drape_default_aero_def();
    a.gust_length = 0.0f;
    ENSURE_RESULT(drape_world_set_aero(w, &a), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->gust_length = 0 m"));
    ENSURE_RESULT(drape_world_set_aero(w, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(drape_world_get_aero(w).drag == 0.0f); /* nothing taken */

    drape_particle_def p = drape_default_particle_def();
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    const uint32_t far[6] = {0, 1, 2, 0, 1, 5};
    ENSURE_RESULT(drape_world_add_aero_triangles(w, far, 2), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "indices[5] = 5, but the world has 3 particles"));
    const uint32_t twice[3] = {0, 1, 1};
    ENSURE_RESULT(drape_world_add_aero_triangles(w, twice, 1), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "triangle 0 (0, 1, 1) repeats a particle"));
    ENSURE_RESULT(drape_world_add_aero_triangles(w, NULL, 1), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(drape_world_aero_triangle_count(w) == 0);
    drape_world_destroy(w);
}

int suite_aero(void)
{
    RUN_TEST(test_flag_keeps_fluttering);
    RUN_TEST(test_light_flag_stays_below_the_wind);
    RUN_TEST(test_triangle_forces);
    RUN_TEST(test_terminal_velocity);
    RUN_TEST(test_turbulence_is_seeded);
    RUN_TEST(test_zero_coefficients_change_nothing);
    RUN_TEST(test_bad_input);
    return test_finish();
}

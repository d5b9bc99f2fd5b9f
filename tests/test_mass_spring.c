/* Mass-spring mode (the Taichi mass-spring cloth demo): distance constraints become Hooke springs
 * with damping along them, integrated by semi-implicit Euler or velocity Verlet.
 *
 * - For both integrators, a particle of 0.5 kg hanging from a pin by a spring of 100 N/m (given
 *   either as the world's spring_stiffness or as the constraint's compliance 0.01 m/N) settles at
 *   the static extension m g / k = 49 mm, within 2%.
 * - A free particle falls exactly like semi-implicit Euler (bit for bit, as in PBD mode) under that
 *   integrator, and on the exact parabola x0 + v0 t + g t^2 / 2 under velocity Verlet, which is
 * exact for constant acceleration (and so differs from Euler by g h t / 2, 3.1 cm after 1.5 s).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdio.h>

static void check_hanging_spring(drape_integrator integrator, bool use_compliance)
{
    const double k = 100.0, m = 0.5, g = 9.81, rest = 0.5;
    drape_world_def def = tu_def(NULL);
    def.mode = DRAPE_MODE_MASS_SPRING;
    def.integrator = integrator;
    def.spring_stiffness = use_compliance ? 5000.0f : (float)k; /* overridden by the compliance */
    def.spring_damping = 5.0f;
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {
        {{0.0f, 2.0f, 0.0f}, {0, 0, 0}, 0.0f, 0.0f, 0, true},
        {{0.0f, 1.5f, 0.0f}, {0, 0, 0}, (float)m, 0.0f, 0, true},
    };
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = (float)rest;
    if (use_compliance)
        d.compliance = (float)(1.0 / k), d.model = DRAPE_STIFFNESS_XPBD;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    ENSURE(tu_step(w, 300));
    drape_vec3 x[2], v;
    ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
    ENSURE_OK(drape_world_get_velocities(w, 1, 1, &v));
    const double ext = tu_dist(x[0], x[1]) - rest, expected = m * g / k;
    printf("  %s, k from %s: extension %.4f mm, m g / k = %.4f mm\n",
           integrator == DRAPE_INTEGRATOR_VELOCITY_VERLET ? "velocity Verlet"
                                                          : "semi-implicit Euler",
           use_compliance ? "compliance" : "spring_stiffness", 1e3 * ext, 1e3 * expected);
    ENSURE_NEAR(ext, expected, 0.02 * expected);
    ENSURE_NEAR(x[1].x, 0.0, 1e-6); /* hangs straight down */
    ENSURE_LE(fabs(v.y), 1e-3);     /* settled */
    drape_world_destroy(w);
}

static void test_hanging_spring_static_extension(void)
{
    check_hanging_spring(DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, false);
    check_hanging_spring(DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, true);
    check_hanging_spring(DRAPE_INTEGRATOR_VELOCITY_VERLET, false);
    check_hanging_spring(DRAPE_INTEGRATOR_VELOCITY_VERLET, true);
}

static drape_world *free_particle(drape_integrator integrator, drape_particle_def p)
{
    drape_world_def def = tu_def(NULL);
    def.mode = DRAPE_MODE_MASS_SPRING;
    def.integrator = integrator;
    def.gravity = tu_v3(0.3f, -9.81f, 0.0f);
    drape_world *w = tu_world(&def);
    if (w && drape_world_add_particles(w, &p, 1, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        w = NULL;
    }
    return w;
}

static void test_free_particle_semi_implicit_euler_bitwise(void)
{
    drape_particle_def p = {{0.1f, 3.0f, -0.2f}, {1.0f, 2.0f, 0.5f}, 0.25f, 0.0f, 0, true};
    drape_world *w = free_particle(DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, p);
    ENSURE(w);
    const drape_world_def def = drape_world_get_def(w);
    const float h = def.dt / (float)def.substeps;
    drape_vec3 rx = p.position, rv = p.velocity;
    for (int step = 1; step <= 90; ++step) {
        ENSURE_OK(drape_world_step(w));
        for (int s = 0; s < def.substeps; ++s) {
            rv.x = rv.x + def.gravity.x * h, rv.y = rv.y + def.gravity.y * h;
            rv.z = rv.z + def.gravity.z * h;
            rx.x = rx.x + rv.x * h, rx.y = rx.y + rv.y * h, rx.z = rx.z + rv.z * h;
        }
        drape_vec3 x, v;
        ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
        ENSURE_OK(drape_world_get_velocities(w, 0, 1, &v));
        ENSURE_MSG(tu_same_bits(&x, &rx, sizeof x) && tu_same_bits(&v, &rv, sizeof v),
                   "step %d: x = (%.9g, %.9g, %.9g), v = (%.9g, %.9g, %.9g); Euler gives "
                   "x = (%.9g, %.9g, %.9g), v = (%.9g, %.9g, %.9g)",
                   step, x.x, x.y, x.z, v.x, v.y, v.z, rx.x, rx.y, rx.z, rv.x, rv.y, rv.z);
    }
    drape_world_destroy(w);
}

static void test_free_particle_velocity_verlet_parabola(void)
{
    drape_particle_def p = {{0.1f, 3.0f, -0.2f}, {1.0f, 2.0f, 0.5f}, 0.25f, 0.0f, 0, true};
    drape_world *w = free_particle(DRAPE_INTEGRATOR_VELOCITY_VERLET, p);
    ENSURE(w);
    const drape_world_def def = drape_world_get_def(w);
    const double g[3] = {def.gravity.x, def.gravity.y, def.gravity.z};
    const double x0[3] = {p.position.x, p.position.y, p.position.z};
    const double v0[3] = {p.velocity.x, p.velocity.y, p.velocity.z};
    for (int step = 1; step <= 90; ++step) {
        ENSURE_OK(drape_world_step(w));
        const double t = step * (double)def.dt;
        drape_vec3 x, v;
        ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
        ENSURE_OK(drape_world_get_velocities(w, 0, 1, &v));
        const float xs[3] = {x.x, x.y, x.z}, vs[3] = {v.x, v.y, v.z};
        for (int k = 0; k < 3; ++k) {
            /* 1 mm, 1 mm/s: float accumulation over 360 substeps, 30 times below the Euler gap */
            ENSURE_NEAR(xs[k], x0[k] + v0[k] * t + 0.5 * g[k] * t * t, 1e-3);
            ENSURE_NEAR(vs[k], v0[k] + g[k] * t, 1e-3);
        }
    }
    /* 1.5 s in, semi-implicit Euler would be at y0 + v0 t + g h^2 n (n + 1) / 2 after n substeps,
     * g h t / 2 = 3.1 cm lower: this is not Euler. */
    const int n = 90 * def.substeps;
    const double h = (double)def.dt / def.substeps, t = n * h;
    const double y_euler = x0[1] + v0[1] * t + g[1] * h * h * n * (n + 1) / 2.0;
    drape_vec3 x;
    ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
    ENSURE_LE(0.025, fabs(x.y - y_euler));
    drape_world_destroy(w);
}

/* The defaults work: the default cloth dropped on a sphere in mass-spring mode, both integrators,
 * stays finite and keeps its springs within 10% of their rest length on average. */
static void test_defaults_are_stable_on_the_default_cloth(void)
{
    for (int k = 0; k < 2; ++k) {
        drape_world_def def = tu_def(NULL);
        def.mode = DRAPE_MODE_MASS_SPRING;
        def.integrator =
            k ? DRAPE_INTEGRATOR_VELOCITY_VERLET : DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER;
        drape_world *w = tu_world(&def);
        ENSURE(w != NULL);
        drape_cloth_def c = drape_default_cloth_def();
        c.origin = tu_v3(-0.5f, 0.6f, -0.5f);
        drape_collider_def s = drape_default_collider_def();
        s.type = DRAPE_COLLIDER_SPHERE;
        s.radius = 0.3f;
        ENSURE_OK(drape_world_add_cloth(w, &c, NULL));
        ENSURE_OK(drape_world_add_collider(w, &s, NULL));
        ENSURE(tu_step(w, 300));
        drape_diagnostics d;
        ENSURE_OK(drape_world_get_diagnostics(w, &d));
        printf("  %s: kinetic energy %.3g J, distance residual %.3g m after 300 steps\n",
               k ? "Verlet" : "Euler", d.kinetic_energy, d.distance_residual);
        ENSURE(isfinite(d.kinetic_energy) && isfinite(d.distance_residual));
        ENSURE_LE(d.distance_residual, 0.1 * (1.0 / 31.0));
        drape_world_destroy(w);
    }
}

/* The mass-spring mode solves springs and attachments alone: a cloth with tethers and a balloon
 * step without them, and the log says so, once per world. */
static void test_left_out_parts_are_named(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    def.mode = DRAPE_MODE_MASS_SPRING;
    drape_world *w = tu_world(&def);
    ENSURE(w != NULL);
    if (!w)
        return;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 8;
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.tethers = true;
    ENSURE_OK(drape_world_add_cloth(w, &c, NULL));
    drape_icosphere_def b = drape_default_icosphere_def();
    b.centre = tu_v3(3.0f, 1.0f, 0.0f);
    b.stretch = drape_stiffness_xpbd(0.1f);
    ENSURE_OK(drape_world_add_icosphere(w, &b, NULL, NULL));
    tu_log_reset(&log);
    ENSURE(tu_step(w, 1));
    printf("  %s\n", log.last);
    ENSURE(log.count == 1 && tu_log_has(&log, "the mass-spring mode leaves out") &&
           tu_log_has(&log, "tethers") && tu_log_has(&log, "balloons"));
    ENSURE(tu_step(w, 5));
    ENSURE(log.count == 1); /* once per world */
    drape_world_destroy(w);
}

int suite_mass_spring(void)
{
    RUN_TEST(test_hanging_spring_static_extension);
    RUN_TEST(test_free_particle_semi_implicit_euler_bitwise);
    RUN_TEST(test_free_particle_velocity_verlet_parabola);
    RUN_TEST(test_defaults_are_stable_on_the_default_cloth);
    RUN_TEST(test_left_out_parts_are_named);
    return test_finish();
}

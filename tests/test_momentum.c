/* Momentum conservation of the internal constraints and of the PBD damping.
 *
 * A 16 x 16 cloth flies and tumbles with no gravity, colliders, pins or drag: it is given a
 * velocity, a spin and a non-rigid velocity field that makes the constraints work hard. Every
 * constraint projection moves its particles along the constraint gradient, weighted by inverse
 * mass, so the sum of the corrections carries no linear or angular momentum (Müller et al. 2007,
 * section 3.3); masses are made unequal so that a projection that ignored them would show. The
 * momentum-preserving damping (section 3.5) only removes the velocity that deviates from the
 * best-fit rigid motion, so it too keeps both momenta while the kinetic energy of deformation falls
 * faster than without it.
 *
 * Momenta are computed in double from read-back (test_util.c): P = sum m v, L = sum m x x v about
 * the world origin; "relative" is |Q(t) - Q(0)| / |Q(0)|.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>

enum { N = 16, STEPS = 500 };

typedef struct scene {
    drape_bending bending;
    float damping;
    int substeps;
    int iterations;
    float spin;        /* rad/s */
    float velocity;    /* m/s */
    float wobble;      /* m/s, amplitude of the non-rigid velocity field */
    float mass_spread; /* 0: equal masses */
} scene;

/* Builds the tumbling cloth. */
static drape_world *make_world(scene sc)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    def.damping = sc.damping;
    def.air_drag = 0.0f;
    def.substeps = sc.substeps;
    def.iterations = sc.iterations;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = N, cd.ny = N;
    cd.origin = tu_v3(-0.5f, 0.0f, -0.5f); /* centred on the origin */
    cd.bending = sc.bending;
    cd.bend_stiffness.stiffness = 0.5f;
    cd.pins = DRAPE_PIN_NONE;
    drape_build_info info;
    if (drape_world_add_cloth(w, &cd, &info) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    /* Unequal masses, a rigid velocity and spin, and a smooth non-rigid velocity field. */
    const float om[3] = {0.3f * sc.spin, sc.spin, -0.6f * sc.spin};
    const float vc[3] = {sc.velocity, 0.5f * sc.velocity, -0.25f * sc.velocity};
    for (uint32_t j = 0; j < N; ++j)
        for (uint32_t i = 0; i < N; ++i) {
            uint32_t k = info.first_particle + j * N + i;
            drape_particle_def p;
            drape_vec3 x;
            if (drape_world_get_positions(w, k, 1, &x) != DRAPE_OK) {
                drape_world_destroy(w);
                return NULL;
            }
            p.position = x;
            p.mass =
                0.1f / (N * N) * (1.0f + sc.mass_spread * ((float)((i * 7 + j * 3) % 5) - 2.0f));
            p.velocity.x = vc[0] + om[1] * x.z - om[2] * x.y + sc.wobble * sinf(3.0f * x.z);
            p.velocity.y = vc[1] + om[2] * x.x - om[0] * x.z + sc.wobble * cosf(4.0f * x.x);
            p.velocity.z = vc[2] + om[0] * x.y - om[1] * x.x + 0.5f * sc.wobble * sinf(5.0f * x.x);
            if (drape_world_set_particle(w, k, &p) != DRAPE_OK) {
                drape_world_destroy(w);
                return NULL;
            }
        }
    return w;
}

typedef struct run_result {
    double dP, dL;                /* largest relative drift of P and L over the run */
    double ke_deform0, ke_deform; /* kinetic energy of deformation at the start and the end */
    bool ok;
} run_result;

static run_result run(scene sc)
{
    run_result r = {0};
    drape_world *w = make_world(sc);
    if (!w)
        return r;
    tu_state s;
    tu_body b0, b;
    if (!tu_read(w, &s)) {
        drape_world_destroy(w);
        return r;
    }
    tu_body_of(&s, &b0);
    tu_state_free(&s);
    r.ke_deform0 = b0.ke_deform;
    for (int step = 1; step <= STEPS; ++step) {
        if (!tu_step(w, 1) || !tu_read(w, &s)) {
            drape_world_destroy(w);
            return r;
        }
        tu_body_of(&s, &b);
        tu_state_free(&s);
        double dP = tu_rel3(b.P, b0.P), dL = tu_rel3(b.L, b0.L);
        r.dP = dP > r.dP || dP != dP ? dP : r.dP;
        r.dL = dL > r.dL || dL != dL ? dL : r.dL;
    }
    r.ke_deform = b.ke_deform;
    r.ok = true;
    drape_world_destroy(w);
    return r;
}

/* The default solver settings (4 substeps, 8 iterations), a 0.5 rad/s tumble, 0.3 m/s drift and a
 * 0.2 m/s non-rigid velocity field; masses 0.5 to 1.5 times the mean. */
static scene tumbling(drape_bending bending, float damping)
{
    scene sc = {bending, damping, 4, 8, 0.5f, 0.3f, 0.2f, 0.25f};
    return sc;
}

/* The undamped skip-one run, shared by two tests (it is the slowest part of this file). */
static run_result undamped_skip_one(void)
{
    static run_result r;
    static bool done;
    if (!done)
        r = run(tumbling(DRAPE_BENDING_SKIP_ONE, 0.0f)), done = true;
    return r;
}

static void check_conserved(run_result r, const char *what)
{
    ENSURE(r.ok);
    printf("  %s: max relative drift over %d steps: P %.3g, L %.3g\n", what, STEPS, r.dP, r.dL);
    ENSURE_LE(r.dP, 1e-5);
    ENSURE_LE(r.dL, 1e-5);
}

static void test_stretch_shear_skip_one_conserve_momentum(void)
{
    check_conserved(undamped_skip_one(), "skip-one bending");
}

static void test_dihedral_bending_conserves_momentum(void)
{
    check_conserved(run(tumbling(DRAPE_BENDING_DIHEDRAL, 0.0f)), "dihedral bending");
}

/* damping = 0.1 keeps both momenta and removes deformation energy faster than no damping. */
static void test_damping_conserves_momentum_and_damps_deformation(void)
{
    run_result free = undamped_skip_one();
    run_result damped = run(tumbling(DRAPE_BENDING_SKIP_ONE, 0.1f));
    ENSURE(free.ok && damped.ok);
    printf("  kinetic energy of deformation: start %.3g J, after %d steps %.3g J undamped, %.3g J "
           "with damping 0.1\n",
           damped.ke_deform0, STEPS, free.ke_deform, damped.ke_deform);
    printf("  damping 0.1: max relative drift over %d steps: P %.3g, L %.3g\n", STEPS, damped.dP,
           damped.dL);
    ENSURE(damped.ke_deform0 > 1e-4); /* the scene does deform */
    ENSURE_LE(damped.ke_deform, 0.1 * free.ke_deform);
    /* float damping sums on the device (doubles hidden): docs/opencl-variants.md's bound */
    const bool floats = tu_float_sums();
    ENSURE_LE(damped.dP, floats ? 3e-5 : 1e-5);
    ENSURE_LE(damped.dL, floats ? 1e-4 : 1e-5);
}

int suite_momentum(void)
{
    RUN_TEST(test_stretch_shear_skip_one_conserve_momentum);
    RUN_TEST(test_dihedral_bending_conserves_momentum);
    RUN_TEST(test_damping_conserves_momentum_and_damps_deformation);
    return test_finish();
}

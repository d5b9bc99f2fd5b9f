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

/* Adds the tumbling cloth, centred on (shift, 0, 0); false on failure. */
static bool add_tumbling_cloth(drape_world *w, scene sc, float shift)
{
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = N, cd.ny = N;
    cd.origin = tu_v3(shift - 0.5f, 0.0f, -0.5f);
    cd.bending = sc.bending;
    cd.bend_stiffness.stiffness = 0.5f;
    cd.pins = DRAPE_PIN_NONE;
    drape_build_info info;
    if (drape_world_add_cloth(w, &cd, &info) != DRAPE_OK)
        return false;
    /* Unequal masses, a rigid velocity and spin, and a smooth non-rigid velocity field. */
    const float om[3] = {0.3f * sc.spin, sc.spin, -0.6f * sc.spin};
    const float vc[3] = {sc.velocity, 0.5f * sc.velocity, -0.25f * sc.velocity};
    for (uint32_t j = 0; j < N; ++j)
        for (uint32_t i = 0; i < N; ++i) {
            uint32_t k = info.first_particle + j * N + i;
            drape_particle_def p;
            drape_vec3 x;
            if (drape_world_get_positions(w, k, 1, &x) != DRAPE_OK)
                return false;
            p.position = x;
            p.mass =
                0.1f / (N * N) * (1.0f + sc.mass_spread * ((float)((i * 7 + j * 3) % 5) - 2.0f));
            p.velocity.x = vc[0] + om[1] * x.z - om[2] * x.y + sc.wobble * sinf(3.0f * x.z);
            p.velocity.y = vc[1] + om[2] * x.x - om[0] * x.z + sc.wobble * cosf(4.0f * x.x);
            p.velocity.z = vc[2] + om[0] * x.y - om[1] * x.x + 0.5f * sc.wobble * sinf(5.0f * x.x);
            if (drape_world_set_particle(w, k, &p) != DRAPE_OK)
                return false;
        }
    return true;
}

/* A world with no gravity or drag at the scene's settings. */
static drape_world *empty_world(scene sc)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    def.damping = sc.damping;
    def.air_drag = 0.0f;
    def.substeps = sc.substeps;
    def.iterations = sc.iterations;
    return tu_world(&def);
}

/* Builds the tumbling cloth. */
static drape_world *make_world(scene sc)
{
    drape_world *w = empty_world(sc);
    if (w && !add_tumbling_cloth(w, sc, 0.0f)) {
        drape_world_destroy(w);
        return NULL;
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

/* The state of particles first .. first + count - 1 of s, as a state of its own. */
static tu_state part_of(const tu_state *s, uint32_t first, uint32_t count)
{
    return (tu_state){count, s->x + first, s->v + first, s->m + first};
}

/* Damping treats each body on its own (the PBD paper's dampVelocities runs per object): beside a
 * tumbling, deforming cloth, a second cloth that only translates and a loose particle keep their
 * velocities, and the tumbling cloth keeps its own momenta while its deformation is damped. */
static void test_damping_treats_bodies_apart(void)
{
    scene tumble = tumbling(DRAPE_BENDING_SKIP_ONE, 0.1f);
    scene glide = tumble;
    glide.spin = glide.wobble = 0.0f, glide.velocity = 1.0f;
    drape_world *w = empty_world(tumble);
    ENSURE(w != NULL);
    ENSURE(add_tumbling_cloth(w, tumble, -1.5f));
    ENSURE(add_tumbling_cloth(w, glide, 1.5f));
    tu_state s;
    tu_body b0, b;
    ENSURE(tu_read(w, &s));
    tu_state cloth = part_of(&s, 0, N * N);
    tu_body_of(&cloth, &b0);
    tu_state_free(&s);
    /* the loose particle joins after a step, once the bodies have been worked out */
    ENSURE(tu_step(w, 1));
    drape_particle_def loose = drape_default_particle_def();
    loose.position = tu_v3(0.0f, 3.0f, 0.0f);
    loose.velocity = tu_v3(0.0f, 0.0f, 2.0f);
    ENSURE_EQ(drape_world_add_particles(w, &loose, 1, NULL), DRAPE_OK);
    ENSURE(tu_step(w, 119));
    ENSURE(tu_read(w, &s));
    cloth = part_of(&s, 0, N * N);
    tu_body_of(&cloth, &b);
    const float want[3] = {1.0f, 0.5f, -0.25f}; /* the gliding cloth's velocity (make_world) */
    double off = 0.0;
    for (uint32_t i = N * N; i < 2 * N * N; ++i) {
        const float got[3] = {s.v[i].x, s.v[i].y, s.v[i].z};
        for (int c = 0; c < 3; ++c)
            off = fmax(off, fabs((double)got[c] - want[c]));
    }
    const drape_vec3 vl = s.v[2 * N * N];
    tu_state_free(&s);
    drape_world_destroy(w);
    printf("  gliding cloth: largest velocity change %.3g m/s; loose particle (%g, %g, %g) m/s; "
           "tumbling cloth: P drift %.3g, L drift %.3g, deformation energy %.3g -> %.3g J\n",
           off, vl.x, vl.y, vl.z, tu_rel3(b.P, b0.P), tu_rel3(b.L, b0.L), b0.ke_deform,
           b.ke_deform);
    ENSURE_LE(off, 1e-4); /* the solver alone leaves 3e-5 */
    ENSURE(vl.x == 0.0f && vl.y == 0.0f && vl.z == 2.0f);
    const bool floats = tu_float_sums();
    ENSURE_LE(tu_rel3(b.P, b0.P), floats ? 3e-5 : 1e-5);
    ENSURE_LE(tu_rel3(b.L, b0.L), floats ? 1e-4 : 1e-5);
    ENSURE_LE(b.ke_deform, 0.5 * b0.ke_deform);
}

/* A particle added to a world of one damped body, after the bodies were worked out, is in no body:
 * it keeps its velocity (on OpenCL a world of one body holding every movable particle takes the
 * path that sums all particles, which the new one must send down the per-body path). */
static void test_damping_leaves_a_later_particle_alone(void)
{
    drape_world *w = make_world(tumbling(DRAPE_BENDING_SKIP_ONE, 0.1f));
    ENSURE(w != NULL);
    if (!w)
        return;
    ENSURE(tu_step(w, 1));
    drape_particle_def loose = drape_default_particle_def();
    loose.position = tu_v3(0.0f, 3.0f, 0.0f);
    loose.velocity = tu_v3(0.0f, 0.0f, 2.0f);
    uint32_t at = 0;
    ENSURE_EQ(drape_world_add_particles(w, &loose, 1, &at), DRAPE_OK);
    ENSURE(tu_step(w, 60));
    drape_vec3 v = {0, 0, 0};
    ENSURE_EQ(drape_world_get_velocities(w, at, 1, &v), DRAPE_OK);
    drape_world_destroy(w);
    printf("  particle added after the first step: (%g, %g, %g) m/s\n", v.x, v.y, v.z);
    ENSURE(v.x == 0.0f && v.y == 0.0f && v.z == 2.0f);
}

int suite_momentum(void)
{
    RUN_TEST(test_stretch_shear_skip_one_conserve_momentum);
    RUN_TEST(test_dihedral_bending_conserves_momentum);
    RUN_TEST(test_damping_conserves_momentum_and_damps_deformation);
    RUN_TEST(test_damping_treats_bodies_apart);
    RUN_TEST(test_damping_leaves_a_later_particle_alone);
    return test_finish();
}

/* Integration of free and pinned particles.
 *
 * - An unconstrained particle in PBD mode follows semi-implicit Euler bit for bit: per substep,
 *   h = dt / substeps, v = v + g h; x = x + v h, evaluated in float component by component in that
 *   order (the library and this file are both compiled with -ffp-contract=off, so neither side
 * fuses the multiply-adds). Any extra rounding, reordering or hidden force shows up as a bit
 * difference. So the velocities are exact under gravity, and the positions lie g h t / 2 past
 * the parabola's along g (the README's figure), which the test checks against the closed form.
 * - A pinned particle (mass 0) never moves: not under gravity, not when given a velocity, not when
 *   distance, dihedral and attachment constraints pull on it, not when it sits inside colliders,
 * and not when it is pinned part way through a run.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

/* The reference: semi-implicit Euler in float, in the operation order of the brief. */
static void euler_substep(drape_vec3 *x, drape_vec3 *v, drape_vec3 g, float h)
{
    v->x = v->x + g.x * h;
    v->y = v->y + g.y * h;
    v->z = v->z + g.z * h;
    x->x = x->x + v->x * h;
    x->y = x->y + v->y * h;
    x->z = x->z + v->z * h;
}

typedef struct fall_case {
    drape_vec3 gravity;
    float dt;
    int substeps;
} fall_case;

static void check_free_fall(fall_case fc)
{
    enum { N = 4, STEPS = 120 };
    drape_world_def def = tu_def(NULL);
    def.gravity = fc.gravity;
    def.dt = fc.dt;
    def.substeps = fc.substeps;
    drape_world *w = tu_world(&def);
    ENSURE(w);
    /* Masses do not matter for free fall; very different ones catch a mass leaking into it. */
    drape_particle_def p[N] = {
        {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true},
        {{0.25f, 2.0f, -0.75f}, {1.0f, 3.5f, -0.5f}, 0.01f, 0.0f, 0, true},
        {{-3.0f, 0.1f, 7.0f}, {-2.25f, -1.0f, 0.125f}, 250.0f, 0.0f, 0, true},
        {{1e-3f, -4.0f, 0.3f}, {0.1f, 0.2f, 0.3f}, 0.37f, 0.0f, 0, true},
    };
    ENSURE_OK(drape_world_add_particles(w, p, N, NULL));
    drape_vec3 rx[N], rv[N];
    for (int i = 0; i < N; ++i) {
        rx[i] = p[i].position;
        rv[i] = p[i].velocity;
    }
    const float h = def.dt / (float)def.substeps;
    for (int step = 1; step <= STEPS; ++step) {
        ENSURE_OK(drape_world_step(w));
        for (int s = 0; s < def.substeps; ++s)
            for (int i = 0; i < N; ++i)
                euler_substep(&rx[i], &rv[i], def.gravity, h);
        drape_vec3 x[N], v[N];
        ENSURE_OK(drape_world_get_positions(w, 0, N, x));
        ENSURE_OK(drape_world_get_velocities(w, 0, N, v));
        for (int i = 0; i < N; ++i) {
            ENSURE_MSG(tu_same_bits(&x[i], &rx[i], sizeof x[i]),
                       "step %d particle %d: x = (%.9g, %.9g, %.9g), semi-implicit Euler gives "
                       "(%.9g, %.9g, %.9g)",
                       step, i, x[i].x, x[i].y, x[i].z, rx[i].x, rx[i].y, rx[i].z);
            ENSURE_MSG(tu_same_bits(&v[i], &rv[i], sizeof v[i]),
                       "step %d particle %d: v = (%.9g, %.9g, %.9g), semi-implicit Euler gives "
                       "(%.9g, %.9g, %.9g)",
                       step, i, v[i].x, v[i].y, v[i].z, rv[i].x, rv[i].y, rv[i].z);
        }
    }
    ENSURE_NEAR(drape_world_time(w), STEPS * (double)def.dt, 1e-4);
    /* What the README says of it: velocities exact, positions g h t / 2 past the parabola's. */
    drape_vec3 x[N], v[N];
    ENSURE_OK(drape_world_get_positions(w, 0, N, x));
    ENSURE_OK(drape_world_get_velocities(w, 0, N, v));
    const double t = STEPS * (double)def.dt;
    for (int i = 0; i < N; ++i) {
        const float *x0 = &p[i].position.x, *v0 = &p[i].velocity.x, *g = &fc.gravity.x;
        const float *xi = &x[i].x, *vi = &v[i].x;
        for (int k = 0; k < 3; ++k) {
            ENSURE_NEAR(vi[k], v0[k] + g[k] * t, 1e-4 * (1.0 + fabs(v0[k] + g[k] * t)));
            const double parabola = x0[k] + v0[k] * t + 0.5 * g[k] * t * t;
            ENSURE_NEAR(xi[k] - parabola, 0.5 * g[k] * h * t, 2e-4 * (1.0 + fabs(parabola)));
        }
    }
    drape_world_destroy(w);
}

static void test_free_fall_is_semi_implicit_euler_bitwise(void)
{
    check_free_fall((fall_case){{0.0f, -9.81f, 0.0f}, 1.0f / 60.0f, 4});
}

static void test_free_fall_other_gravity_dt_substeps(void)
{
    check_free_fall((fall_case){{0.5f, -9.81f, -1.25f}, 1.0f / 50.0f, 7});
    check_free_fall((fall_case){{0.0f, -3.7f, 0.0f}, 0.01f, 1});
    check_free_fall((fall_case){{0.0f, 0.0f, 0.0f}, 1.0f / 60.0f, 20});
}

/* A pinned particle tied by every constraint kind to moving particles, inside three colliders. */
static void test_pinned_particle_never_moves(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[4] = {
        /* the pin: it is even given a velocity, which must not move it */
        {{0.0f, 1.0f, 0.0f}, {1.0f, -2.0f, 0.5f}, 0.0f, 0.0f, 0, true},
        {{0.5f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true},
        {{0.25f, 1.0f, 0.5f}, {0.0f, 3.0f, 0.0f}, 0.5f, 0.0f, 0, true},
        {{0.25f, 1.0f, -0.5f}, {0.0f, -1.0f, 2.0f}, 2.0f, 0.0f, 0, true},
    };
    ENSURE_OK(drape_world_add_particles(w, p, 4, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = 0.8f; /* wants to push particle 0 away */
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    d.a = 2, d.b = 0, d.rest_length = 0.1f; /* wants to pull it */
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    drape_dihedral_def b = drape_default_dihedral_def();
    b.edge0 = 0, b.edge1 = 1, b.wing0 = 2, b.wing1 = 3, b.rest_angle = 1.0f;
    ENSURE_OK(drape_world_add_dihedral(w, &b, NULL));
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = 0, a.target = tu_v3(3.0f, 4.0f, 5.0f);
    ENSURE_OK(drape_world_add_attachment(w, &a, NULL));
    /* Colliders around the pin: it is inside the sphere, below the plane and inside a capsule that
     * moves through it. */
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE, c.position = tu_v3(0.05f, 1.0f, 0.0f), c.radius = 0.2f;
    ENSURE_OK(drape_world_add_collider(w, &c, NULL));
    c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_PLANE, c.position = tu_v3(0.0f, 1.5f, 0.0f), c.normal = tu_v3(0, 1, 0);
    ENSURE_OK(drape_world_add_collider(w, &c, NULL));
    c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_CAPSULE, c.position = tu_v3(-0.5f, 1.0f, -0.5f);
    c.end = tu_v3(-0.5f, 1.0f, 0.5f), c.radius = 0.1f, c.velocity = tu_v3(0.5f, 0.0f, 0.0f);
    ENSURE_OK(drape_world_add_collider(w, &c, NULL));

    float m0;
    ENSURE_OK(drape_world_get_masses(w, 0, 1, &m0));
    ENSURE(m0 == 0.0f);
    drape_vec3 moved_from[4];
    ENSURE_OK(drape_world_get_positions(w, 0, 4, moved_from));
    for (int step = 0; step < 120; ++step) {
        ENSURE_OK(drape_world_step(w));
        drape_vec3 x, v;
        ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
        ENSURE_OK(drape_world_get_velocities(w, 0, 1, &v));
        ENSURE_MSG(tu_same_bits(&x, &p[0].position, sizeof x),
                   "step %d: the pinned particle moved to (%.9g, %.9g, %.9g)", step, x.x, x.y, x.z);
        ENSURE_MSG(v.x == 0.0f && v.y == 0.0f && v.z == 0.0f,
                   "step %d: the pinned particle has velocity (%g, %g, %g)", step, v.x, v.y, v.z);
    }
    /* The scene did act: the movable particles moved. */
    drape_vec3 x[4];
    ENSURE_OK(drape_world_get_positions(w, 0, 4, x));
    for (int i = 1; i < 4; ++i)
        ENSURE(tu_dist(x[i], moved_from[i]) > 0.01);
    drape_world_destroy(w);
}

/* The pinned edge of a cloth stays put while the rest falls; a particle pinned part way through a
 * run stops where it is. */
static void test_pinned_cloth_edge_and_late_pin(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 8, cd.ny = 8;
    cd.pins = DRAPE_PIN_ROW_FIRST;
    drape_build_info info;
    ENSURE_OK(drape_world_add_cloth(w, &cd, &info));
    ENSURE(info.particle_count == 64);
    tu_state s0;
    ENSURE(tu_read(w, &s0));
    for (uint32_t i = 0; i < 8; ++i)
        ENSURE(s0.m[info.first_particle + i] == 0.0f);
    for (uint32_t i = 8; i < 64; ++i)
        ENSURE(s0.m[info.first_particle + i] > 0.0f);
    ENSURE(tu_step(w, 30));
    /* Pin the far corner (particle (7, 7)) where it is now, keeping its position. */
    const uint32_t corner = info.first_particle + 63;
    drape_vec3 xc;
    ENSURE_OK(drape_world_get_positions(w, corner, 1, &xc));
    drape_particle_def pin = {xc, {0.0f, 0.0f, 0.0f}, 0.0f, 0.0f, 0, true};
    ENSURE_OK(drape_world_set_particle(w, corner, &pin));
    ENSURE(tu_step(w, 60));
    tu_state s1;
    ENSURE(tu_read(w, &s1));
    for (uint32_t i = 0; i < 8; ++i) {
        uint32_t k = info.first_particle + i;
        ENSURE_MSG(tu_same_bits(&s1.x[k], &s0.x[k], sizeof s1.x[k]), "pinned row particle %u moved",
                   k);
    }
    ENSURE(tu_same_bits(&s1.x[corner], &xc, sizeof xc));
    ENSURE(s1.m[corner] == 0.0f);
    /* The free middle of the cloth fell. */
    uint32_t mid = info.first_particle + 4 * 8 + 4;
    ENSURE(s1.x[mid].y < s0.x[mid].y - 0.05f);
    tu_state_free(&s0);
    tu_state_free(&s1);
    drape_world_destroy(w);
}

int suite_integration(void)
{
    RUN_TEST(test_free_fall_is_semi_implicit_euler_bitwise);
    RUN_TEST(test_free_fall_other_gravity_dt_substeps);
    RUN_TEST(test_pinned_particle_never_moves);
    RUN_TEST(test_pinned_cloth_edge_and_late_pin);
    return test_finish();
}

/* Collisions and friction.
 *
 * - A 32 x 32 cloth dropped on a sphere, and one thrown (tilted, at 6 m/s) at a plane whose normal
 * is not unit length, never have a particle inside the collider by more than half the collision
 *   margin: drape_world_collider_distance (which excludes the margin) >= -0.5 * margin for every
 *   particle after every one of 300 steps. The solver aims for +margin; the stated tolerance,
 *   -0.5 * margin = -2.5 mm, allows for the last iteration's cloth constraints pulling a particle
 *   back after its contact was projected. The cloth must also end up touching the collider.
 * - A capsule, static and moving, keeps a small cloth out in the same way.
 * - Coulomb friction on a 30 degree plane: a patch resting on it (at distance collision_margin)
 * with static friction 0.8 > tan 30 = 0.577 stays put (it moves < 1 mm along the slope over the
 * last 100 of 200 steps); with static 0.5 and kinetic 0.4, both below tan 30, it slides,
 * accelerating at about g (sin 30 - 0.4 cos 30) = 1.50 m/s^2.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdio.h>

static const double PI = 3.14159265358979323846;

/* The signed distance of every particle to collider `id`; the smallest. */
static bool min_distance(const drape_world *w, uint32_t id, double *out)
{
    tu_state s;
    if (!tu_read(w, &s))
        return false;
    double m = INFINITY;
    for (uint32_t i = 0; i < s.n; ++i) {
        float d;
        if (drape_world_collider_distance(w, id, s.x[i], &d) != DRAPE_OK || !isfinite(d)) {
            tu_state_free(&s);
            return false;
        }
        m = d < m ? d : m;
    }
    tu_state_free(&s);
    *out = m;
    return true;
}

/* Steps `steps` times; after each step no particle may be deeper than half the margin inside
 * collider `id`. The smallest distance of the last step goes to *last_min, which stays NaN when a
 * check fails (so that the caller's own check on it fails too, rather than read garbage). */
static void check_kept_out(drape_world *w, uint32_t id, int steps, double *last_min)
{
    *last_min = NAN;
    const double margin = drape_world_get_def(w).collision_margin;
    double worst = INFINITY, m = 0.0;
    int worst_step = -1;
    for (int step = 1; step <= steps; ++step) {
        ENSURE_OK(drape_world_step(w));
        ENSURE(min_distance(w, id, &m));
        if (m < worst)
            worst = m, worst_step = step;
    }
    printf("  deepest particle: %.3g mm (step %d); at the end %.3g mm; margin %.3g mm\n",
           1e3 * worst, worst_step, 1e3 * m, 1e3 * margin);
    ENSURE_LE(-0.5 * margin, worst);
    *last_min = m;
}

static void test_cloth_on_sphere_stays_outside(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE, c.position = tu_v3(0.0f, 0.0f, 0.0f), c.radius = 0.5f;
    uint32_t id;
    ENSURE_OK(drape_world_add_collider(w, &c, &id));
    drape_cloth_def cd = drape_default_cloth_def(); /* 32 x 32, 1 m, at y = 1 */
    cd.nx = 32, cd.ny = 32;
    cd.origin = tu_v3(-0.5f, 0.8f, -0.5f);
    ENSURE_OK(drape_world_add_cloth(w, &cd, NULL));
    double last;
    check_kept_out(w, id, 300, &last);
    ENSURE_LE(last, 2.0 * def.collision_margin); /* it rests on the sphere */
    drape_world_destroy(w);
}

static void test_cloth_thrown_at_plane_stays_outside(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_PLANE, c.position = tu_v3(0.0f, 0.0f, 0.0f);
    c.normal = tu_v3(0.2f, 2.0f, 0.0f); /* not unit length, slightly tilted */
    uint32_t id;
    ENSURE_OK(drape_world_add_collider(w, &c, &id));
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 32, cd.ny = 32;
    cd.origin = tu_v3(-0.5f, 0.6f, -0.5f);
    cd.v_axis = tu_v3(0.0f, 0.4f, 0.9f); /* tilted: one edge lands first */
    cd.velocity = tu_v3(0.5f, -6.0f, 0.0f);
    ENSURE_OK(drape_world_add_cloth(w, &cd, NULL));
    double last;
    check_kept_out(w, id, 300, &last);
    ENSURE_LE(last, 2.0 * def.collision_margin);
    drape_world_destroy(w);
}

static void test_capsule_static_and_moving_keep_cloth_out(void)
{
    for (int moving = 0; moving < 2; ++moving) {
        drape_world_def def = tu_def(NULL);
        drape_world *w = tu_world(&def);
        ENSURE(w);
        drape_collider_def c = drape_default_collider_def();
        c.type = DRAPE_COLLIDER_CAPSULE;
        c.position = tu_v3(-0.6f, 0.0f, 0.0f), c.end = tu_v3(0.6f, 0.0f, 0.0f), c.radius = 0.15f;
        if (moving)
            c.velocity = tu_v3(0.0f, 0.5f, 0.2f); /* rises into the falling cloth */
        uint32_t id;
        ENSURE_OK(drape_world_add_collider(w, &c, &id));
        drape_cloth_def cd = drape_default_cloth_def();
        cd.nx = 16, cd.ny = 16;
        cd.origin = tu_v3(-0.4f, 0.5f, -0.4f);
        cd.u_axis = tu_v3(0.8f, 0.0f, 0.0f), cd.v_axis = tu_v3(0.0f, 0.0f, 0.8f);
        ENSURE_OK(drape_world_add_cloth(w, &cd, NULL));
        double last;
        check_kept_out(w, id, 120, &last);
        ENSURE_LE(last, 2.0 * def.collision_margin);
        drape_world_destroy(w);
    }
}

/* A 6 x 6 patch, 0.1 m square, resting on a plane through the origin tilted by 30 degrees about z,
 * at collision_margin above it. Returns the distance the patch's centre moved down the slope during
 * steps [0, 100) and [100, 200). */
static bool slide(float static_friction, float kinetic_friction, double *d1, double *d2)
{
    const double a = 30.0 * PI / 180.0;
    /* Up-slope tangent t and normal n: the slope rises along +x. */
    const double t[3] = {cos(a), sin(a), 0.0}, n[3] = {-sin(a), cos(a), 0.0};
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    if (!w)
        return false;
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_PLANE;
    c.position = tu_v3(0.0f, 0.0f, 0.0f);
    c.normal = tu_v3((float)n[0], (float)n[1], (float)n[2]);
    c.static_friction = static_friction, c.kinetic_friction = kinetic_friction;
    bool ok = drape_world_add_collider(w, &c, NULL) == DRAPE_OK;
    const double m = def.collision_margin, size = 0.1;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 6, cd.ny = 6;
    cd.origin = tu_v3((float)(m * n[0]), (float)(m * n[1]), -0.05f);
    cd.u_axis = tu_v3((float)(size * t[0]), (float)(size * t[1]), 0.0f);
    cd.v_axis = tu_v3(0.0f, 0.0f, (float)size);
    drape_build_info info;
    ok = ok && drape_world_add_cloth(w, &cd, &info) == DRAPE_OK;
    double along[3] = {0};
    for (int k = 0; ok && k < 3; ++k) {
        if (k > 0)
            ok = tu_step(w, 100);
        tu_state s;
        ok = ok && tu_read(w, &s);
        if (!ok)
            break;
        tu_body b;
        tu_body_of(&s, &b);
        tu_state_free(&s);
        along[k] = -(b.xcm[0] * t[0] + b.xcm[1] * t[1]); /* down the slope is -t */
    }
    drape_world_destroy(w);
    *d1 = along[1] - along[0];
    *d2 = along[2] - along[1];
    return ok;
}

static void test_friction_above_tan_angle_holds_on_slope(void)
{
    double d1, d2;
    ENSURE(slide(0.8f, 0.7f, &d1, &d2));
    printf("  mu_s 0.8: moved %.3g mm down the slope in steps 0-100, %.3g mm in steps 100-200\n",
           1e3 * d1, 1e3 * d2);
    ENSURE_LE(fabs(d2), 1e-3);
}

static void test_friction_below_tan_angle_slides(void)
{
    double d1, d2;
    ENSURE(slide(0.5f, 0.4f, &d1, &d2));
    /* From rest with constant acceleration a: d1 = a t^2 / 2, d2 = 3 d1 (t = 100 steps). */
    const double t = 100.0 / 60.0, a = (d1 + d2) / (0.5 * (2.0 * t) * (2.0 * t));
    const double expected = 9.81 * (sin(PI / 6.0) - 0.4 * cos(PI / 6.0));
    printf("  mu_s 0.5, mu_k 0.4: moved %.3g m in steps 0-100, %.3g m in steps 100-200; "
           "acceleration %.3f m/s^2, Coulomb %.3f m/s^2\n",
           d1, d2, a, expected);
    ENSURE(d1 > 0.01);
    ENSURE(d2 > 2.0 * d1); /* accelerating */
    ENSURE_NEAR(a, expected, 0.1 * expected);
}

int suite_collision(void)
{
    RUN_TEST(test_cloth_on_sphere_stays_outside);
    RUN_TEST(test_cloth_thrown_at_plane_stays_outside);
    RUN_TEST(test_capsule_static_and_moving_keep_cloth_out);
    RUN_TEST(test_friction_above_tan_angle_holds_on_slope);
    RUN_TEST(test_friction_below_tan_angle_slides);
    return test_finish();
}

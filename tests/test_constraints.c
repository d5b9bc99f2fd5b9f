/* The constraint kinds on their own, in scenes small enough to check against closed forms.
 *
 * - Distance: two free particles with a stiff (k = 1) constraint converge to the rest length within
 *   1e-5 m without moving their centre of mass; so do a soft PBD one (k = 0.3) and an XPBD one with
 *   compliance 0, given time. A negative rest length takes the distance at creation.
 * - Pendulum: a 1 m pendulum (pinned pivot, one distance constraint, g = 9.81, no damping, 20
 *   substeps, 0.05 rad amplitude) swings with the small-angle period 2 pi sqrt(L / g) within 1%,
 *   measured from the zero crossings of x over several periods, and keeps its length; the same
 *   with the pivot at the origin and 2 m up.
 * - Dihedral: a two-triangle hinge (4 kg, 1 m edge) held together by distance constraints and bent
 *   away from its rest angle returns to it (the signed hinge angle, measured from positions, within
 *   0.01 rad) and settles there without chattering: the velocity left that is not rigid motion
 *   carries < 0.1% of the kinetic energy. The same as a flap (only wing1 movable), which must come
 *   to rest (< 1 mm/s). Rest angles 0 (taken from the flat start), +1 and -1 rad, approached from
 *   either side and through flat.
 * - Attachment: a particle tied to a point hangs at it under gravity, follows the point when it
 *   moves, falls freely once the attachment is removed; removed ids are reused.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdio.h>

static const double PI = 3.14159265358979323846;

/* Two particles of masses 1 and 3 kg, 1.3 m apart, no gravity, tied at `rest`. */
static void check_pair_converges(float rest, drape_stiffness stiffness, int steps)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {
        {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true},
        {{1.2f, 0.5f, 0.0f}, {0.0f, 0.0f, 0.0f}, 3.0f, 0.0f, 0, true},
    };
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = rest, d.stiffness = stiffness.stiffness;
    d.compliance = stiffness.compliance, d.model = stiffness.model;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    ENSURE(tu_step(w, steps));
    tu_state s;
    ENSURE(tu_read(w, &s));
    double len = tu_dist(s.x[0], s.x[1]);
    ENSURE_NEAR(len, rest, 1e-5);
    /* Internal: the centre of mass (initially at 0.9, 0.375, 0) has not moved. (1 mm: velocities
     * taken from float positions carry noise of about ulp(x) / h = 3e-5 m/s per substep, which
     * over the soft case's 2 s can carry the centre of mass a few tenths of a millimetre; a
     * projection that ignored the masses would move it by centimetres.) */
    tu_body b;
    tu_body_of(&s, &b);
    ENSURE_NEAR(b.xcm[0], 0.9, 1e-3);
    ENSURE_NEAR(b.xcm[1], 0.375, 1e-3);
    ENSURE_NEAR(b.xcm[2], 0.0, 1e-3);
    /* Converged means at rest too. */
    ENSURE_NEAR(s.v[0].x - s.v[1].x, 0.0, 1e-4);
    ENSURE_NEAR(s.v[0].y - s.v[1].y, 0.0, 1e-4);
    tu_state_free(&s);
    drape_world_destroy(w);
}

static void test_stiff_distance_converges_to_rest_length(void)
{
    check_pair_converges(1.0f, drape_stiffness_pbd(1.0f), 10); /* pulled together */
    check_pair_converges(2.0f, drape_stiffness_pbd(1.0f), 10); /* pushed apart */
    check_pair_converges(0.25f, drape_stiffness_pbd(1.0f), 10);
    check_pair_converges(1.0f, drape_stiffness_xpbd(0.0f), 10); /* XPBD, compliance 0 */
    check_pair_converges(1.0f, drape_stiffness_pbd(0.3f), 120); /* soft PBD still gets there */
}

static void test_default_rest_length_takes_current_distance(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {
        {{0.0f, 2.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0.0f, 0.0f, 0, true},
        {{0.3f, 2.0f, 0.4f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true},
    };
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1; /* the rest length from the positions by default */
    ENSURE(d.rest_length == DRAPE_REST_FROM_POSITIONS);
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    /* It swings down through the bottom (0.5 m below the pivot) keeping the length. */
    float lowest = 2.0f;
    for (int step = 0; step < 60; ++step) {
        ENSURE(tu_step(w, 1));
        drape_vec3 x[2];
        ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
        ENSURE_NEAR(tu_dist(x[0], x[1]), 0.5, 1e-5);
        lowest = fminf(lowest, x[1].y);
    }
    ENSURE_NEAR(lowest, 1.5, 1e-3);
    drape_world_destroy(w);
}

/* Linear interpolation of the time at which x crosses zero between two samples. */
static double crossing_time(double t0, double x0, double t1, double x1)
{
    return t0 + (t1 - t0) * x0 / (x0 - x1);
}

/* The pendulum hangs from `pivot`; the period must not depend on where that is. */
static void check_pendulum(drape_vec3 pivot)
{
    const double L = 1.0, g = 9.81, theta0 = 0.05;
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, (float)-g, 0.0f);
    def.substeps = 20;
    def.damping = 0.0f;
    def.air_drag = 0.0f;
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {
        {pivot, {0.0f, 0.0f, 0.0f}, 0.0f, 0.0f, 0, true},
        {{pivot.x + (float)(L * sin(theta0)), pivot.y - (float)(L * cos(theta0)), pivot.z},
         {0.0f, 0.0f, 0.0f},
         1.0f,
         0.0f,
         0,
         true},
    };
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = (float)L;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));

    const double T0 = 2.0 * PI * sqrt(L / g);   /* 2.006 s */
    const int steps = (int)(5.5 * T0 / def.dt); /* five and a half periods */
    double crossings[16];
    int n = 0;
    double t_prev = 0.0, x_prev = p[1].position.x - pivot.x, max_len_error = 0.0, max_x = 0.0;
    for (int step = 1; step <= steps; ++step) {
        ENSURE_OK(drape_world_step(w));
        drape_vec3 x[2];
        ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
        double t = drape_world_time(w), xr = (double)x[1].x - pivot.x;
        double err = fabs(tu_dist(x[0], x[1]) - L);
        max_len_error = err > max_len_error ? err : max_len_error;
        max_x = fabs(xr) > max_x ? fabs(xr) : max_x;
        if ((x_prev > 0.0) != (xr > 0.0) && n < 16)
            crossings[n++] = crossing_time(t_prev, x_prev, t, xr);
        t_prev = t, x_prev = xr;
    }
    drape_world_destroy(w); /* before the checks, so that a failure leaks nothing */
    ENSURE_MSG(n >= 10, "only %d zero crossings in %d steps", n, steps);
    /* Consecutive crossings are half a period apart. */
    double T = 2.0 * (crossings[n - 1] - crossings[0]) / (n - 1);
    printf("  pivot (%g, %g, %g): period %.5f s over %d half swings, small-angle theory %.5f s "
           "(%+.3f%%); max |x| %.4f m, max length error %.2g m\n",
           pivot.x, pivot.y, pivot.z, T, n - 1, T0, 100.0 * (T - T0) / T0, max_x, max_len_error);
    ENSURE_LE(fabs(T - T0) / T0, 0.01);
    ENSURE_LE(max_len_error, 1e-4);
    /* No damping: the amplitude has neither collapsed nor grown. */
    ENSURE_LE(max_x, L * sin(theta0) * 1.01);
    ENSURE_LE(L * sin(theta0) * 0.9, max_x);
}

static void test_pendulum_small_angle_period(void)
{
    check_pendulum(tu_v3(0.0f, 0.0f, 0.0f));
    check_pendulum(tu_v3(0.0f, 2.0f, 0.0f)); /* hung from a 2 m ceiling */
}

/* A hinge along z: edge (0,0,0)-(0,0,1), wings at x = -0.5 and x = +0.5, flat (angle 0) at
 * creation; the front of the first triangle faces -y. Distance constraints on its five edges keep
 * the triangles rigid. rest_angle DRAPE_REST_FROM_POSITIONS takes the angle at creation (flat).
 * Then wing1 is turned about the edge to the signed hinge angle `start`. */
static void check_hinge(float rest_angle, float start, bool flap)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[4] = {
        {{0.0f, 0.0f, 0.0f}, {0, 0, 0}, 1.0f, 0.0f, 0, true},
        {{0.0f, 0.0f, 1.0f}, {0, 0, 0}, 1.0f, 0.0f, 0, true},
        {{-0.5f, 0.0f, 0.5f}, {0, 0, 0}, 1.0f, 0.0f, 0, true},
        {{0.5f, 0.0f, 0.5f}, {0, 0, 0}, 1.0f, 0.0f, 0, true},
    };
    if (flap) /* only wing1 moves */
        p[0].mass = p[1].mass = p[2].mass = 0.0f;
    ENSURE_OK(drape_world_add_particles(w, p, 4, NULL));
    const uint32_t edges[5][2] = {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}};
    for (int e = 0; e < 5; ++e) {
        drape_distance_def d = drape_default_distance_def();
        d.a = edges[e][0], d.b = edges[e][1];
        ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    }
    drape_dihedral_def h = drape_default_dihedral_def();
    ENSURE(h.rest_angle == DRAPE_REST_FROM_POSITIONS); /* the default: the current angle */
    h.edge0 = 0, h.edge1 = 1, h.wing0 = 2, h.wing1 = 3, h.rest_angle = rest_angle;
    ENSURE_OK(drape_world_add_dihedral(w, &h, NULL));
    const double rest = rest_angle == DRAPE_REST_FROM_POSITIONS ? 0.0 : rest_angle;
    drape_particle_def bent = p[3];
    bent.position = tu_v3(0.5f * cosf(start), -0.5f * sinf(start), 0.5f);
    ENSURE_OK(drape_world_set_particle(w, 3, &bent));
    drape_vec3 x[4];
    ENSURE_OK(drape_world_get_positions(w, 0, 4, x));
    double a0 = tu_dihedral_angle(x[0], x[1], x[2], x[3]);
    ENSURE_NEAR(a0, start, 1e-5);
    ENSURE_LE(0.4, fabs(a0 - rest)); /* really bent away from rest */
    ENSURE(tu_step(w, 240));
    ENSURE_OK(drape_world_get_positions(w, 0, 4, x));
    double a = tu_dihedral_angle(x[0], x[1], x[2], x[3]);
    ENSURE_NEAR(a, rest, 0.01);
    /* And it stays there instead of swinging through it or chattering. A free hinge may keep
     * spinning as a whole after snapping back (PBD gives the large correction of the first
     * substeps some angular momentum), so what must vanish is the velocity that is not rigid
     * motion: the kinetic energy of deformation must stay below 0.1% of the kinetic energy (plus
     * 1e-9 J of float noise). A flap (wing1 alone movable) must simply be still: < 1 mm/s. */
    tu_state s;
    tu_body body = {0};
    double farthest = 0.0, worst_ratio = 0.0, worst_speed = 0.0;
    bool ok = true;
    for (int i = 0; ok && i < 60; ++i) {
        ok = tu_step(w, 1) && tu_read(w, &s);
        if (!ok)
            break;
        tu_body_of(&s, &body);
        a = tu_dihedral_angle(s.x[0], s.x[1], s.x[2], s.x[3]);
        drape_vec3 v = s.v[3];
        tu_state_free(&s);
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
        double ratio = body.ke_deform / (body.ke + 1e-6);
        farthest = fabs(a - rest) > farthest ? fabs(a - rest) : farthest;
        worst_ratio = ratio > worst_ratio ? ratio : worst_ratio;
        worst_speed = speed > worst_speed ? speed : worst_speed;
    }
    drape_world_destroy(w);
    ENSURE(ok);
    printf(
        "  %s, rest %+.2f rad, bent to %+.2f: angle %+.6f rad after 300 steps; over the last 60 "
        "steps: kinetic energy of deformation / kinetic energy <= %.2g, wing1 speed <= %.2g m/s\n",
        flap ? "flap " : "hinge", rest, (double)start, a, worst_ratio, worst_speed);
    ENSURE_LE(farthest, 0.01);
    if (flap)
        ENSURE_LE(worst_speed, 1e-3);
    else
        ENSURE_LE(worst_ratio, 1e-3);
}

static void test_dihedral_hinge_returns_to_rest_angle(void)
{
    for (int flap = 0; flap < 2; ++flap) {
        const float flat = DRAPE_REST_FROM_POSITIONS; /* the flat angle at creation */
        check_hinge(flat, 1.2f, flap);                /* folded to the front */
        check_hinge(flat, -1.2f, flap);               /* folded to the back */
        check_hinge(1.0f, 0.2f, flap);                /* rest 1 rad: opens up */
        check_hinge(1.0f, 2.0f, flap);                /* closes */
        check_hinge(1.0f, -0.5f, flap);               /* through flat from the other side */
        check_hinge(-1.0f, 0.5f, flap);               /* a negative rest angle, also through flat */
    }
}

static void test_attachment_holds_follows_and_releases(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p = {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true};
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = 0, a.target = tu_v3(0.2f, 1.5f, -0.1f);
    drape_attachment_id id;
    ENSURE_OK(drape_world_add_attachment(w, &a, &id));
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_ATTACHMENT) == 1);
    ENSURE(tu_step(w, 10));
    drape_vec3 x;
    ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
    ENSURE_LE(tu_dist(x, a.target), 1e-5);
    /* A moving target: the particle goes with it. */
    drape_vec3 target = tu_v3(-0.4f, 0.8f, 0.3f);
    ENSURE_OK(drape_world_set_attachment_target(w, id, target));
    ENSURE(tu_step(w, 10));
    ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
    ENSURE_LE(tu_dist(x, target), 1e-5);
    /* Removed: it falls. */
    ENSURE_OK(drape_world_remove_attachment(w, id));
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_ATTACHMENT) == 0);
    ENSURE(tu_step(w, 30));
    ENSURE_OK(drape_world_get_positions(w, 0, 1, &x));
    ENSURE(x.y < target.y - 0.5f * 9.81f * 0.25f * 0.9f); /* about g t^2 / 2 after 0.5 s */
    /* The slot is reused by the next attachment, with the next generation: the removed id names
     * nothing, though a new attachment holds its slot. */
    drape_attachment_id id2;
    ENSURE_OK(drape_world_add_attachment(w, &a, &id2));
    ENSURE(id2.index == id.index && id2.generation == id.generation + 1);
    ENSURE_RESULT(drape_world_set_attachment_target(w, id, target), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE_RESULT(drape_world_remove_attachment(w, id), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_ATTACHMENT) == 1);
    ENSURE_OK(drape_world_set_attachment_target(w, id2, target));
    const drape_attachment_id zero = {0, 0};
    ENSURE_RESULT(drape_world_remove_attachment(w, zero), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE_OK(drape_world_remove_attachment(w, id2));
    drape_world_destroy(w);
}

/* Whether (a, b, c) is, up to rotation, one of the `count` triangles. */
static bool is_triangle(const uint32_t *tri, uint32_t count, uint32_t a, uint32_t b, uint32_t c)
{
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t *t = tri + 3 * (size_t)k;
        for (int r = 0; r < 3; ++r)
            if (t[r] == a && t[(r + 1) % 3] == b && t[(r + 2) % 3] == c)
                return true;
    }
    return false;
}

/* drape_cloth_triangles is the triangulation the cloth's dihedrals hinge on: each dihedral's
 * (edge0, edge1, wing0) and (edge1, edge0, wing1) are triangles of it, with the winding the
 * dihedral assumes; every particle of the cloth is on a triangle. */
static void test_cloth_triangles_carry_the_dihedrals(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def extra = drape_default_particle_def(); /* the cloth does not start at 0 */
    ENSURE_OK(drape_world_add_particles(w, &extra, 1, NULL));
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 5, c.ny = 4;
    c.bending = DRAPE_BENDING_DIHEDRAL;
    drape_build_info info;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info));
    const uint32_t count = drape_cloth_triangles(c.nx, c.ny, info.first_particle, NULL);
    ENSURE(count == 2 * 4 * 3);
    uint32_t tri[3 * 24], seen[21] = {0};
    ENSURE(drape_cloth_triangles(c.nx, c.ny, info.first_particle, tri) == count);
    for (uint32_t k = 0; k < 3 * count; ++k) {
        ENSURE(tri[k] >= info.first_particle && tri[k] < info.first_particle + 20);
        seen[tri[k]]++;
    }
    for (uint32_t i = info.first_particle; i < info.first_particle + 20; ++i)
        ENSURE(seen[i] > 0);
    ENSURE(info.dihedral_count > 0);
    for (uint32_t k = 0; k < info.dihedral_count; ++k) {
        drape_dihedral_def h;
        ENSURE_OK(drape_world_get_dihedrals(w, info.first_dihedral + k, 1, &h));
        ENSURE_MSG(is_triangle(tri, count, h.edge0, h.edge1, h.wing0) &&
                       is_triangle(tri, count, h.edge1, h.edge0, h.wing1),
                   "dihedral %u (%u, %u; %u, %u) does not hinge two triangles", k, h.edge0, h.edge1,
                   h.wing0, h.wing1);
    }
    ENSURE(drape_cloth_triangles(1, 4, 0, NULL) == 0);
    /* counts past 32 bits are 0, not wrapped (65536 x 65536: 2 x 65535^2 wrapped modulo
     * 2^32, and a first particle near the top wrapped its indices) */
    ENSURE(drape_cloth_triangles(65536, 65536, 0, NULL) == 0);
    ENSURE(drape_cloth_triangles(26756, 26756, 0, NULL) == 0); /* 3 x count just past 2^32 */
    ENSURE(drape_cloth_triangles(26755, 26755, 0, NULL) == 1431553032u); /* within */
    ENSURE(drape_cloth_triangles(4, 4, UINT32_MAX - 15, NULL) == 18);    /* the last index fits */
    ENSURE(drape_cloth_triangles(4, 4, UINT32_MAX - 14, NULL) == 0);
    drape_world_destroy(w);
}

int suite_constraints(void)
{
    RUN_TEST(test_stiff_distance_converges_to_rest_length);
    RUN_TEST(test_default_rest_length_takes_current_distance);
    RUN_TEST(test_pendulum_small_angle_period);
    RUN_TEST(test_dihedral_hinge_returns_to_rest_angle);
    RUN_TEST(test_attachment_holds_follows_and_releases);
    RUN_TEST(test_cloth_triangles_carry_the_dihedrals);
    return test_finish();
}

/* XPBD compliance and the PBD stiffness correction.
 *
 * - XPBD with compliance 0 is a hard constraint, like PBD with k = 1: the same swinging chain and
 * the same hanging cloth built both ways agree to 1e-3 relative (of the chain length / cloth size).
 * - XPBD with compliance alpha > 0 is a spring of stiffness 1 / alpha: a 1 kg particle hanging from
 *   a pin settles at rest length + alpha m g (within 2%), independent of the substep count; let go,
 *   it oscillates as backward Euler does: its period and the amplitude it keeps per period within
 *   0.2% and 1% of that scheme's, at 1 substep and at 4.
 * - With k' = 1 - (1 - k)^(1/n), the steady-state stretch of a hanging cloth (pinned along its top
 *   edge, PBD k = 0.5) does not depend on the iteration count: the mean relative stretch of the
 *   structural constraints differs by less than 5% between 5 and 50 iterations.
 * - XPBD bending keeps to the energy that gravity and the links can give where PBD bending runs
 *   away: one hinge of a 2 x 2 cloth without shear links, its stretch compliant (1 m/N), pinned
 *   at a corner, at 32 substeps. Its triangles fold flat through themselves (nothing resists
 *   shear), which turns the hinge angle over by pi with no work done; PBD bending snaps that back
 *   the harder the more substeps (1e10 J), a compliance c with at most the energy of that fold,
 *   pi^2 / (2 c) (docs/scene-format.md, Dihedrals).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Largest distance between corresponding particles of two worlds. */
static bool max_difference(const drape_world *a, const drape_world *b, double *out)
{
    tu_state sa, sb;
    bool ok = tu_read(a, &sa) && tu_read(b, &sb) && sa.n == sb.n;
    double m = 0.0;
    for (uint32_t i = 0; ok && i < sa.n; ++i) {
        double d = tu_dist(sa.x[i], sb.x[i]);
        m = d > m || d != d ? d : m;
    }
    tu_state_free(&sa);
    tu_state_free(&sb);
    *out = m;
    return ok;
}

static drape_world *chain(drape_stiffness stretch)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_rope_def rd = drape_default_rope_def(); /* 16 particles, 1 m, horizontal, start pinned */
    rd.stretch = stretch;
    if (drape_world_add_rope(w, &rd, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static drape_world *hanging_cloth(int iterations, drape_stiffness stretch, float damping,
                                  float drag)
{
    drape_world_def def = tu_def(NULL);
    def.iterations = iterations;
    def.damping = damping;
    def.air_drag = drag;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 12, cd.ny = 12;
    cd.origin = tu_v3(-0.5f, 2.0f, 0.0f);
    cd.u_axis = tu_v3(1.0f, 0.0f, 0.0f);
    cd.v_axis = tu_v3(0.0f, -1.0f, 0.0f); /* hangs down from row 0 */
    cd.pins = DRAPE_PIN_ROW_FIRST;
    cd.stretch = stretch;
    cd.shear_stiffness = stretch;
    cd.tethers = false; /* the springs' own stretch, which tethers would cap */
    if (drape_world_add_cloth(w, &cd, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static void test_compliance_zero_matches_hard_pbd(void)
{
    /* A horizontal chain released to swing. */
    drape_world *pbd = chain(drape_stiffness_pbd(1.0f)), *xpbd = chain(drape_stiffness_xpbd(0.0f));
    ENSURE(pbd && xpbd);
    ENSURE(tu_step(pbd, 120) && tu_step(xpbd, 120));
    double d;
    ENSURE(max_difference(pbd, xpbd, &d));
    printf("  swinging chain, 120 steps: largest PBD/XPBD difference %.3g m (chain 1 m)\n", d);
    ENSURE_LE(d, 1e-3 * 1.0);
    drape_world_destroy(pbd);
    drape_world_destroy(xpbd);
    /* A cloth hanging from its top edge, with a sideways push. */
    drape_stiffness hard_pbd = drape_stiffness_pbd(1.0f), hard_xpbd = drape_stiffness_xpbd(0.0f);
    pbd = hanging_cloth(8, hard_pbd, 0.0f, 0.0f);
    xpbd = hanging_cloth(8, hard_xpbd, 0.0f, 0.0f);
    ENSURE(pbd && xpbd);
    drape_world_def def = drape_world_get_def(pbd);
    def.wind = tu_v3(0.0f, 0.0f, 3.0f), def.air_drag = 0.5f;
    ENSURE_OK(drape_world_set_def(pbd, &def));
    ENSURE_OK(drape_world_set_def(xpbd, &def));
    ENSURE(tu_step(pbd, 120) && tu_step(xpbd, 120));
    ENSURE(max_difference(pbd, xpbd, &d));
    printf("  hanging cloth in wind, 120 steps: largest PBD/XPBD difference %.3g m (cloth 1 m)\n",
           d);
    ENSURE_LE(d, 1e-3 * 1.0);
    drape_world_destroy(pbd);
    drape_world_destroy(xpbd);
}

/* A pinned particle at (0, 2, 0) and a 1 kg particle at height `y` below it, tied by one XPBD
 * distance constraint of rest length `rest` (m) and compliance `alpha` (m/N). NULL on failure. */
static drape_world *hanging_spring(const drape_world_def *def, float y, float rest, float alpha)
{
    drape_world *w = tu_world(def);
    if (!w)
        return NULL;
    drape_particle_def p[2] = {
        {{0.0f, 2.0f, 0.0f}, {0, 0, 0}, 0.0f, 0.0f, 0, true},
        {{0.0f, y, 0.0f}, {0, 0, 0}, 1.0f, 0.0f, 0, true},
    };
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = rest, d.compliance = alpha;
    d.model = DRAPE_STIFFNESS_XPBD;
    if (drape_world_add_particles(w, p, 2, NULL) != DRAPE_OK ||
        drape_world_add_distance(w, &d, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static void test_compliance_gives_static_extension(void)
{
    const float alpha = 1e-3f; /* m/N: 9.81 mm under a 1 kg weight */
    const int substeps[2] = {4, 16};
    for (int k = 0; k < 2; ++k) {
        drape_world_def def = tu_def(NULL);
        def.substeps = substeps[k];
        def.air_drag = 4.0f; /* settles */
        drape_world *w = hanging_spring(&def, 1.5f, 0.5f, alpha);
        ENSURE(w);
        ENSURE(tu_step(w, 240));
        drape_vec3 x[2];
        ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
        double ext = tu_dist(x[0], x[1]) - 0.5, expected = alpha * 1.0 * 9.81;
        printf("  substeps %d: extension %.4g mm, alpha m g = %.4g mm\n", substeps[k], 1e3 * ext,
               1e3 * expected);
        ENSURE_NEAR(ext, expected, 0.02 * expected);
        drape_world_destroy(w);
    }
}

/* A 1 kg particle on an XPBD spring of 100 N/m (compliance 0.01 m/N), let go at the rest length
 * with no damping or drag: one constraint along one line, which XPBD solves exactly, so a substep
 * is a step of backward (implicit) Euler, as Macklin et al. ("Small Steps in Physics Simulation",
 * 2019) explain. Backward Euler turns the oscillator's phase by atan(w h) per substep and shrinks
 * its amplitude by 1 / sqrt(1 + (w h)^2), w = sqrt(k / m) = 10 rad/s: at 1 substep of 1/60 s the
 * period is 0.634 s (the spring's own 0.628 s) and each period keeps 0.594 of the amplitude; at 4
 * substeps 0.6287 s and 0.877. The period is measured over the first six swings (the minima of the
 * height, read once a step, each placed by the parabola through it and its two neighbours), the
 * amplitude as the depths of the minima below the equilibrium rest + m g alpha. */
static void test_spring_steps_as_backward_euler(void)
{
    const double alpha = 0.01, omega = 10.0, g = 9.81, rest = 1.0, dt = 1.0 / 60.0;
    for (int substeps = 1; substeps <= 4; substeps *= 4) {
        drape_world_def def = tu_def(NULL);
        def.substeps = substeps;
        drape_world *w = hanging_spring(&def, 2.0f - (float)rest, (float)rest, (float)alpha);
        ENSURE(w);
        enum { STEPS = 300, MINIMA = 7 };
        double y[STEPS], at[MINIMA], depth[MINIMA];
        for (int i = 0; i < STEPS; ++i) {
            drape_vec3 x[2];
            ENSURE(tu_step(w, 1));
            ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
            y[i] = x[1].y;
        }
        drape_world_destroy(w);
        const double equilibrium = 2.0 - rest - alpha * g;
        int found = 0;
        for (int i = 1; i + 1 < STEPS && found < MINIMA; ++i)
            if (y[i] < y[i - 1] && y[i] <= y[i + 1]) { /* the parabola through i - 1, i, i + 1 */
                const double a = 0.5 * (y[i - 1] + y[i + 1]) - y[i],
                             b = 0.5 * (y[i + 1] - y[i - 1]);
                const double shift = a > 0.0 ? -b / (2.0 * a) : 0.0;
                at[found] = (i + 1 + shift) * dt;
                depth[found++] = equilibrium - (y[i] + b * shift + a * shift * shift);
            }
        ENSURE(found == MINIMA);
        const double h = dt / substeps, period = (at[MINIMA - 1] - at[0]) / (MINIMA - 1);
        const double euler_period = 8.0 * atan(1.0) * h / atan(omega * h);
        const double euler_kept = pow(1.0 + omega * h * omega * h, -0.5 * euler_period / h);
        const double kept = pow(depth[MINIMA - 1] / depth[0], 1.0 / (MINIMA - 1));
        printf("  %d substep(s): period %.4f s (backward Euler %.4f, the spring 0.6283), amplitude "
               "kept per period %.4f (%.4f)\n",
               substeps, period, euler_period, kept, euler_kept);
        ENSURE_NEAR(period, euler_period, 2e-3 * euler_period);
        ENSURE_NEAR(kept, euler_kept, 0.01 * euler_kept);
    }
}

/* The mean of (length - rest) / rest over the structural springs of the 12 x 12 hanging cloth. */
static bool mean_structural_stretch(const drape_world *w, double *out)
{
    tu_state s;
    if (!tu_read(w, &s) || s.n != 144)
        return false;
    const double rest = 1.0 / 11.0;
    double sum = 0.0;
    int n = 0;
    for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 12; ++i) {
            if (i + 1 < 12)
                sum += (tu_dist(s.x[j * 12 + i], s.x[j * 12 + i + 1]) - rest) / rest, n++;
            if (j + 1 < 12)
                sum += (tu_dist(s.x[j * 12 + i], s.x[(j + 1) * 12 + i]) - rest) / rest, n++;
        }
    tu_state_free(&s);
    *out = sum / n;
    return true;
}

static void test_stiffness_correction_makes_stretch_iteration_independent(void)
{
    drape_stiffness soft = drape_stiffness_pbd(0.5f);
    double stretch[2];
    const int iterations[2] = {5, 50};
    for (int k = 0; k < 2; ++k) {
        drape_world *w = hanging_cloth(iterations[k], soft, 0.1f, 2.0f);
        ENSURE(w);
        ENSURE(tu_step(w, 300));
        double before;
        ENSURE(mean_structural_stretch(w, &before));
        ENSURE(tu_step(w, 60));
        ENSURE(mean_structural_stretch(w, &stretch[k]));
        /* steady: the stretch no longer changes */
        ENSURE_NEAR(stretch[k], before, 0.01 * fabs(before));
        drape_world_destroy(w);
    }
    double rel = fabs(stretch[0] - stretch[1]) / stretch[1];
    printf("  mean structural stretch: %.4g%% at 5 iterations, %.4g%% at 50 (differ by %.2f%%)\n",
           100.0 * stretch[0], 100.0 * stretch[1], 100.0 * rel);
    ENSURE(stretch[1] > 1e-4); /* k = 0.5 really is soft */
    ENSURE_LE(rel, 0.05);
}

/* The model is chosen, not read from the sign of the compliance: a default distance def given only
 * a stiffness of 0.5 is PBD, so that one substep of one iteration halves the error of a pair of
 * equal masses held 2 m apart with rest length 1 m (k' = k at one iteration): 1.5 m; a
 * zero-initialised family {.stiffness = 0.5f} set with drape_world_set_stiffness is the same PBD;
 * the hard XPBD constraint (compliance 0) that both once silently meant closes the gap. */
static double pair_length_after_one_step(int variant)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    def.substeps = 1, def.iterations = 1;
    drape_world *w = tu_world(&def);
    if (!w)
        return -1.0;
    drape_particle_def p[2] = {drape_default_particle_def(), drape_default_particle_def()};
    p[1].position = tu_v3(2.0f, 0.0f, 0.0f);
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = 1.0f;
    if (variant == 0)
        d.stiffness = 0.5f;
    if (variant == 2)
        d.model = DRAPE_STIFFNESS_XPBD;
    const drape_stiffness family = {.stiffness = 0.5f};
    drape_vec3 x[2];
    bool ok = drape_world_add_particles(w, p, 2, NULL) == DRAPE_OK &&
              drape_world_add_distance(w, &d, NULL) == DRAPE_OK &&
              (variant != 1 ||
               drape_world_set_stiffness(w, DRAPE_CONSTRAINT_DISTANCE, ~0u, family) == DRAPE_OK) &&
              tu_step(w, 1) && drape_world_get_positions(w, 0, 2, x) == DRAPE_OK;
    drape_world_destroy(w);
    return ok ? tu_dist(x[0], x[1]) : -1.0;
}

static void test_stiffness_alone_is_pbd(void)
{
    ENSURE_NEAR(pair_length_after_one_step(0), 1.5, 1e-6);
    ENSURE_NEAR(pair_length_after_one_step(1), 1.5, 1e-6);
    ENSURE_NEAR(pair_length_after_one_step(2), 1.0, 1e-6);
}

/* The most kinetic energy (J) of that hinge over 10 s at 32 substeps, or -1 on a failure. */
static double hinge_peak_energy(drape_stiffness bend)
{
    drape_world_def def = tu_def(NULL);
    def.substeps = 32;
    def.iterations = 1;
    drape_world *w = tu_world(&def);
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = cd.ny = 2;
    cd.shear = false;
    cd.bending = DRAPE_BENDING_DIHEDRAL;
    cd.stretch = drape_stiffness_xpbd(1.0f);
    cd.bend_stiffness = bend;
    cd.pins = DRAPE_PIN_CORNER_00;
    cd.tethers = false;
    bool ok = w && drape_world_add_cloth(w, &cd, NULL) == DRAPE_OK;
    double peak = 0.0;
    for (int step = 0; ok && step < 600; ++step) {
        tu_state s;
        ok = tu_step(w, 1) && tu_read(w, &s);
        if (!ok)
            break;
        tu_body b;
        tu_body_of(&s, &b);
        tu_state_free(&s);
        ok = isfinite(b.ke);
        peak = b.ke > peak ? b.ke : peak;
    }
    drape_world_destroy(w);
    return ok ? peak : -1.0;
}

static void test_xpbd_bending_holds_a_shearing_hinge(void)
{
    /* From rest, the kinetic energy is at most the potential energy that gravity and the four
     * links of 1 N/m can give up: 1.131 J from the flat start to hanging straight down (three
     * particles of 0.025 kg, the far one 2.49 m below the pin). A compliance of 10 rad/(N m)
     * keeps to it (0.96 J; 0.92 J without bending); 1 rad/(N m), whose fold by pi holds 4.9 J,
     * peaks at 4.4 J; PBD bending of stiffness 0.1 at 1e10 J. */
    double peak = hinge_peak_energy(drape_stiffness_xpbd(10.0f));
    ENSURE_MSG(peak >= 0.0 && peak < 1.131, "peak kinetic energy %.3g J", peak);
}

int suite_xpbd(void)
{
    RUN_TEST(test_xpbd_bending_holds_a_shearing_hinge);
    RUN_TEST(test_stiffness_alone_is_pbd);
    RUN_TEST(test_compliance_zero_matches_hard_pbd);
    RUN_TEST(test_compliance_gives_static_extension);
    RUN_TEST(test_spring_steps_as_backward_euler);
    RUN_TEST(test_stiffness_correction_makes_stretch_iteration_independent);
    return test_finish();
}

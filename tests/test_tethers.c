/* Tethers (long-range attachments, Kim et al. 2012): a long curtain that does not stretch at few
 * iterations, pinned or on attachments, the cloth builder's choice of anchors, the one-sided
 * constraint that never moves its anchor, a tether cut when a link between particle and anchor
 * breaks, its colouring and its bad input. Runs on the backend tu_def() picks (core.tethers on the
 * CPU, opencl.core.tethers).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

/* A 1 m x 4 m curtain (11 x 41 particles, 10 cm apart) pinned along its top edge, hanging in the
 * x-y plane, at 5 iterations; or held by an attachment at each particle of its top edge instead of
 * pins (attached), with tethers to the nearest of those (drape_world_add_nearest_tethers). */
static drape_world *hung_curtain(bool tethers, bool attached, int substeps)
{
    drape_world_def def = tu_def(NULL);
    def.iterations = 5;
    def.substeps = substeps;
    def.damping = 0.05f;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 11, c.ny = 41;
    c.origin = tu_v3(-0.5f, 4.5f, 0.0f);
    c.u_axis = tu_v3(1.0f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -4.0f, 0.0f);
    c.mass = 0.4f;
    c.pins = attached ? DRAPE_PIN_NONE : DRAPE_PIN_ROW_FIRST;
    c.tethers = tethers;
    bool ok = drape_world_add_cloth(w, &c, NULL) == DRAPE_OK;
    uint32_t top[11];
    for (uint32_t i = 0; ok && attached && i < 11; ++i) {
        drape_attachment_def a = drape_default_attachment_def();
        a.particle = top[i] = i;
        a.target = tu_v3(-0.5f + 0.1f * (float)i, 4.5f, 0.0f);
        ok = drape_world_add_attachment(w, &a, NULL) == DRAPE_OK;
    }
    if (ok && attached && tethers)
        ok = drape_world_add_nearest_tethers(w, 0, 11 * 41, top, 11, drape_stiffness_pbd(1.0f)) ==
             DRAPE_OK;
    if (!ok) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static drape_world *curtain(bool tethers)
{
    return hung_curtain(tethers, false, drape_default_world_def().substeps);
}

/* The curtain's stretch: over its columns, the mean of (the sum of the column's link lengths) / 4 m
 * - 1; and the largest relative stretch of one vertical link. */
static void curtain_stretch(const tu_state *s, double *mean, double *largest)
{
    double sum = 0.0;
    *largest = 0.0;
    for (uint32_t i = 0; i < 11; ++i) {
        double length = 0.0;
        for (uint32_t j = 0; j + 1 < 41; ++j) {
            double l = tu_dist(s->x[j * 11 + i], s->x[(j + 1) * 11 + i]);
            length += l;
            *largest = fmax(*largest, l / 0.1 - 1.0);
        }
        sum += length / 4.0 - 1.0;
    }
    *mean = sum / 11.0;
}

/* Steps a curtain 3 s (settled), measures its stretch (curtain_stretch) and destroys it. */
static void settled_stretch(drape_world *w, double *mean, double *largest)
{
    ENSURE(w);
    ENSURE(tu_step(w, 180));
    tu_state s;
    ENSURE(tu_read(w, &s));
    curtain_stretch(&s, mean, largest);
    tu_state_free(&s);
    drape_world_destroy(w);
}

/* The stretches without tethers ([0], at least `untethered`) and with them ([1]): five times less,
 * as the mean and as the largest link. */
static void check_five_times_less(const char *what, const double mean[2], const double largest[2],
                                  double untethered)
{
    printf("  %s: stretch %.3f%% without tethers, %.2g%% with (largest link %.3f%%, %.2g%%)\n",
           what, 100.0 * mean[0], 100.0 * mean[1], 100.0 * largest[0], 100.0 * largest[1]);
    ENSURE(mean[0] > untethered);
    ENSURE_LE(5.0 * fabs(mean[1]), mean[0]);
    ENSURE_LE(5.0 * largest[1], largest[0]);
}

static void test_curtain_stretches_five_times_less(void)
{
    double mean[2], largest[2];
    for (int k = 0; k < 2; ++k)
        settled_stretch(curtain(k == 1), &mean[k], &largest[k]);
    /* without tethers it really stretches (8 mm over the 4 m) */
    check_five_times_less("1 m x 4 m curtain, 5 iterations", mean, largest, 0.002);
}

/* Every movable particle of a pinned cloth gets one tether, to a pinned particle no farther than
 * any other, with that distance as its max_length; on a skewed grid with three pin families. */
static void test_builder_ties_each_particle_to_its_nearest_pin(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 9, c.ny = 13;
    c.origin = tu_v3(0.1f, 2.0f, -0.3f);
    c.u_axis = tu_v3(1.0f, 0.1f, 0.6f);
    c.v_axis = tu_v3(0.7f, -1.5f, 0.2f);
    c.pins = DRAPE_PIN_ROW_FIRST | DRAPE_PIN_COLUMN_LAST | DRAPE_PIN_CORNER_01;
    drape_build_info info;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info));
    tu_state s;
    ENSURE(tu_read(w, &s));
    uint32_t movable = 0;
    for (uint32_t i = 0; i < s.n; ++i)
        movable += s.m[i] > 0.0f;
    ENSURE(info.tether_count == movable);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == movable);
    uint8_t *seen = calloc(s.n, 1);
    ENSURE(seen);
    for (uint32_t id = info.first_tether; id < info.first_tether + info.tether_count; ++id) {
        drape_tether_def t;
        ENSURE_OK(drape_world_get_tether(w, id, &t));
        ENSURE(t.particle < s.n && t.anchor < s.n);
        ENSURE(s.m[t.particle] > 0.0f && s.m[t.anchor] == 0.0f);
        ENSURE(!seen[t.particle]);
        seen[t.particle] = 1;
        double nearest = INFINITY;
        for (uint32_t p = 0; p < s.n; ++p)
            if (s.m[p] == 0.0f)
                nearest = fmin(nearest, tu_dist(s.x[t.particle], s.x[p]));
        const double d = tu_dist(s.x[t.particle], s.x[t.anchor]);
        ENSURE_LE(d, nearest * (1.0 + 1e-6));
        ENSURE_NEAR(t.max_length, d, 1e-6 * d);
        ENSURE(t.stiffness == 1.0f && t.model == DRAPE_STIFFNESS_PBD);
    }
    free(seen);
    tu_state_free(&s);
    /* One tether per movable particle, each to a pinned anchor: one colour. */
    drape_coloring_stats st;
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_TETHER, &st));
    ENSURE(st.colors == 1 && st.constraints == movable);
    drape_world_destroy(w);
}

static void test_no_tethers_without_pins_or_when_off(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 6;
    drape_build_info info;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info)); /* no pins */
    ENSURE(info.tether_count == 0);
    c.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    c.tethers = false;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info));
    ENSURE(info.tether_count == 0);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 0);
    c.tethers = true;
    ENSURE_OK(drape_world_add_cloth(w, &c, &info));
    ENSURE(info.tether_count == 34 && info.first_tether == 0);
    drape_world_destroy(w);
}

/* A rope is tethered like a cloth: every movable particle to its nearer pinned end (ties to the
 * start), with the distance along the rope as max_length; none when tethers are off or neither end
 * is pinned. */
static void test_rope_ties_each_particle_to_its_nearer_end(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_rope_def r = drape_default_rope_def();
    r.count = 9, r.start = tu_v3(0.0f, 2.0f, 0.0f), r.end = tu_v3(0.8f, 2.0f, 0.6f); /* 12.5 cm */
    r.pin_end = true;
    drape_build_info info;
    ENSURE_OK(drape_world_add_rope(w, &r, &info));
    ENSURE(info.tether_count == 7);
    for (uint32_t id = info.first_tether; id < info.first_tether + 7; ++id) {
        drape_tether_def t;
        ENSURE_OK(drape_world_get_tether(w, id, &t));
        const uint32_t i = t.particle - info.first_particle;
        ENSURE(i >= 1 && i <= 7);
        ENSURE(t.anchor == info.first_particle + (i <= 4 ? 0 : 8)); /* 4 is halfway: the start */
        ENSURE_NEAR(t.max_length, 0.125 * (i <= 4 ? i : 8 - i), 1e-6);
    }
    r.pin_end = r.pin_start = false;
    ENSURE_OK(drape_world_add_rope(w, &r, &info));
    ENSURE(info.tether_count == 0);
    r.pin_start = true, r.tethers = false;
    ENSURE_OK(drape_world_add_rope(w, &r, &info));
    ENSURE(info.tether_count == 0);
    drape_world_destroy(w);
}

/* A rope of 64 particles, 1 m, pinned at its top end, at the default iterations and 1 substep:
 * the largest stretch over 3 s of the sum of its links, hanging (let go straight down) or swinging
 * (let go horizontal). Gauss-Seidel carries the pin's pull one link per iteration, so without
 * tethers the rope stretches to nearly twice its length either way. With them it cannot hang any
 * longer than it is; swinging, it bends, the tethers of the particles below the bend go slack, and
 * only the stretch along its chord is held. */
static double rope_stretch(bool tethers, bool swinging)
{
    drape_world_def def = tu_def(NULL);
    def.substeps = 1;
    drape_world *w = tu_world(&def);
    if (!w)
        return NAN;
    drape_rope_def r = drape_default_rope_def();
    r.count = 64, r.start = tu_v3(0.0f, 2.0f, 0.0f);
    r.end = swinging ? tu_v3(1.0f, 2.0f, 0.0f) : tu_v3(0.0f, 1.0f, 0.0f);
    r.tethers = tethers;
    double worst = NAN;
    if (drape_world_add_rope(w, &r, NULL) == DRAPE_OK) {
        worst = 0.0;
        drape_vec3 x[64];
        for (int step = 0;
             step < 180 && tu_step(w, 1) && drape_world_get_positions(w, 0, 64, x) == DRAPE_OK;
             ++step) {
            double length = 0.0;
            for (int i = 0; i + 1 < 64; ++i)
                length += tu_dist(x[i], x[i + 1]);
            worst = fmax(worst, length - 1.0);
        }
    }
    drape_world_destroy(w);
    return worst;
}

static void test_rope_keeps_its_length_at_one_substep(void)
{
    double worst[2][2]; /* [swinging][tethers] */
    for (int swinging = 0; swinging < 2; ++swinging)
        for (int tethers = 0; tethers < 2; ++tethers)
            worst[swinging][tethers] = rope_stretch(tethers, swinging);
    printf("  64-particle rope, 1 substep, largest stretch: hanging %.1f%% without tethers, "
           "%.2g%% with; swinging %.1f%%, %.1f%%\n",
           100.0 * worst[0][0], 100.0 * worst[0][1], 100.0 * worst[1][0], 100.0 * worst[1][1]);
    ENSURE(worst[0][0] > 0.3 && worst[1][0] > 0.3);
    ENSURE_LE(worst[0][1], 1e-5);
    ENSURE_LE(4.0 * worst[1][1], worst[1][0]);
}

/* Inside its max_length a tether does nothing: the particle falls bitwise as a free one does; past
 * it, the particle hangs at max_length. */
static void test_one_sided(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[3] = {drape_default_particle_def(), drape_default_particle_def(),
                               drape_default_particle_def()};
    p[0].mass = 0.0f;
    p[1].position = tu_v3(0.1f, -0.2f, 0.0f);
    p[2].position = tu_v3(0.1f, -0.2f, 5.0f); /* the same, untethered */
    ENSURE_OK(drape_world_add_particles(w, p, 3, NULL));
    drape_tether_def t = drape_default_tether_def();
    t.particle = 1, t.anchor = 0, t.max_length = 1.0f;
    uint32_t id;
    ENSURE_OK(drape_world_add_tether(w, &t, &id));
    int free_steps = 0;
    for (int step = 0; step < 120; ++step) {
        ENSURE(tu_step(w, 1));
        drape_vec3 x[3];
        ENSURE_OK(drape_world_get_positions(w, 0, 3, x));
        const double d = tu_dist(x[1], x[0]);
        if (d < 0.999) { /* still inside: exactly the free particle's fall */
            ENSURE(x[1].x == x[2].x && x[1].y == x[2].y);
            ++free_steps;
        }
        ENSURE_LE(d, 1.0 + 1e-5);
    }
    drape_vec3 x[2];
    ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
    printf("  %d steps of free fall inside the tether, then hanging at %.6f m\n", free_steps,
           tu_dist(x[1], x[0]));
    ENSURE(free_steps >= 15);                    /* it fell 0.8 m before the tether took it */
    ENSURE_NEAR(tu_dist(x[1], x[0]), 1.0, 1e-4); /* and then hangs on it */
    drape_world_destroy(w);
}

/* Held by attachments rather than pins, the curtain stretches as much (at 1 substep: a ramp of
 * the attachments' corrections down 40 rows), and tethers to the attached particles
 * (drape_world_add_nearest_tethers) cut that as the builder's cut it for pins: one per movable
 * particle, to the attached particle straight above it. */
/* A tether moves only its particle: with a movable anchor in free space, the particle is pulled in
 * to max_length and the anchor stays where it was, bit for bit. */
static void test_anchor_never_moves(void)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {drape_default_particle_def(), drape_default_particle_def()};
    p[0].position = tu_v3(0.25f, 0.5f, -0.75f);
    p[1].position = tu_v3(2.25f, 0.5f, -0.75f);
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    drape_tether_def t = drape_default_tether_def();
    t.particle = 1, t.anchor = 0, t.max_length = 1.0f;
    ENSURE_OK(drape_world_add_tether(w, &t, NULL));
    ENSURE(tu_step(w, 1));
    drape_vec3 x[2];
    ENSURE_OK(drape_world_get_positions(w, 0, 2, x));
    printf("  anchor at (%g, %g, %g), the particle %.6f m from it\n", x[0].x, x[0].y, x[0].z,
           tu_dist(x[1], x[0]));
    ENSURE(x[0].x == 0.25f && x[0].y == 0.5f && x[0].z == -0.75f);
    ENSURE_NEAR(tu_dist(x[1], x[0]), 1.0, 1e-5);
    drape_world_destroy(w);
}

/* A world (tu_def) with five particles in a row, particle k at k * step (m); the first pinned if
 * asked. */
static drape_world *five_in_a_row(drape_vec3 step, bool pin_first)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    drape_particle_def p[5];
    for (int k = 0; k < 5; ++k) {
        p[k] = drape_default_particle_def();
        p[k].position = tu_v3(step.x * (float)k, step.y * (float)k, step.z * (float)k);
    }
    p[0].mass = pin_first ? 0.0f : p[0].mass;
    if (w && drape_world_add_particles(w, p, 5, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

/* Tethers never write their anchors, so tethers that share a movable anchor share a colour, as
 * they would a pinned one; but a tether whose anchor is another tether's particle reads what that
 * one writes, so the two must differ in colour. */
static void test_colours_around_read_only_anchors(void)
{
    drape_world *w = five_in_a_row(tu_v3(0.1f, 0.0f, 0.0f), false);
    ENSURE(w);
    drape_tether_def t = drape_default_tether_def();
    uint32_t colors[4];
    drape_coloring_stats st;
    for (uint32_t k = 1; k < 4; ++k) { /* 1, 2, 3 to the movable particle 0 */
        t.particle = k, t.anchor = 0;
        ENSURE_OK(drape_world_add_tether(w, &t, NULL));
    }
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_TETHER, &st));
    ENSURE(st.colors == 1);
    t.particle = 4, t.anchor = 3; /* reads particle 3, which tether 2 writes */
    ENSURE_OK(drape_world_add_tether(w, &t, NULL));
    ENSURE_OK(drape_world_get_constraint_colors(w, DRAPE_CONSTRAINT_TETHER, 0, 4, colors));
    printf("  tethers 1, 2, 3 -> 0 and 4 -> 3: colours %u %u %u %u\n", colors[0], colors[1],
           colors[2], colors[3]);
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_TETHER, &st));
    ENSURE(st.colors == 2 && colors[3] != colors[2]);
    drape_world_destroy(w);
}

static void test_attached_curtain_tethered_to_its_attachments(void)
{
    double mean[2], largest[2];
    for (int k = 0; k < 2; ++k) {
        drape_world *w = hung_curtain(k == 1, true, 1);
        ENSURE(w);
        if (k == 1) {
            ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 11 * 40);
            drape_coloring_stats st; /* 40 on each attached particle, all in one colour */
            ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_TETHER, &st));
            ENSURE(st.colors == 1);
            drape_tether_def t;
            ENSURE_OK(drape_world_get_tether(w, 8 * 11 + 3 - 11, &t)); /* particle (3, 8) */
            ENSURE(t.particle == 8 * 11 + 3 && t.anchor == 3);
            ENSURE_NEAR(t.max_length, 0.8, 1e-6);
        }
        settled_stretch(w, &mean[k], &largest[k]);
    }
    check_five_times_less("the curtain on attachments, 1 substep x 5 iterations", mean, largest,
                          0.01);
}

/* drape_world_add_nearest_tethers finds each particle's nearest anchor through a k-d tree: on a
 * 40 x 40 cloth at whole metres (so many distances are exactly equal) with its first row and a
 * random seventh of the rest as anchors, every tether goes to the anchor a search of all of them
 * picks, ties to the lower index, with the same float differences squared in double. */
static void test_nearest_anchor_as_a_full_search_finds_it(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 40;
    c.origin = tu_v3(0.0f, 0.0f, 0.0f);
    c.u_axis = tu_v3(39.0f, 0.0f, 0.0f); /* particles 1 m apart, at whole metres: exact ties */
    c.v_axis = tu_v3(0.0f, 0.0f, 39.0f);
    c.tethers = false;
    ENSURE_OK(drape_world_add_cloth(w, &c, NULL));
    uint32_t anchors[1600], n = 0;
    uint8_t is_anchor[1600] = {0};
    uint32_t seed = 12345u;
    for (uint32_t p = 0; p < 1600; ++p) {
        seed = seed * 1664525u + 1013904223u;
        if (p < 40 || (seed >> 16) % 7 == 0)
            anchors[n++] = p, is_anchor[p] = 1;
    }
    ENSURE_OK(drape_world_add_nearest_tethers(w, 0, 1600, anchors, n, drape_stiffness_pbd(1.0f)));
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 1600 - n);
    drape_vec3 x[1600];
    ENSURE_OK(drape_world_get_positions(w, 0, 1600, x));
    uint32_t id = 0, ties = 0;
    for (uint32_t p = 0; p < 1600; ++p) {
        if (is_anchor[p])
            continue;
        double best = INFINITY;
        uint32_t want = UINT32_MAX;
        for (uint32_t k = 0; k < n; ++k) {
            const float dx = x[p].x - x[anchors[k]].x, dy = x[p].y - x[anchors[k]].y,
                        dz = x[p].z - x[anchors[k]].z;
            const double d2 = (double)dx * dx + (double)dy * dy + (double)dz * dz;
            ties += d2 == best;
            if (d2 < best || (d2 == best && anchors[k] < want))
                best = d2, want = anchors[k];
        }
        drape_tether_def t;
        ENSURE_OK(drape_world_get_tether(w, id++, &t));
        ENSURE(t.particle == p && t.anchor == want);
    }
    printf("  %u particles tied to the nearest of %u anchors (%u ties on the way)\n", 1600 - n, n,
           ties);
    ENSURE(ties > 0);
    drape_world_destroy(w);
}

/* A chain of five particles hanging from a pinned one, every particle tethered to the pin; the
 * second link is inert (k = 0), shorter than the particles' distance (9 cm for 10) and breakable at
 * 1.05, so it breaks after the first step. The tethers of the three particles below it are removed
 * with it, and they fall freely; the one above keeps its tether. */
static void test_torn_off_piece_falls(void)
{
    drape_world *w = five_in_a_row(tu_v3(0.0f, -0.1f, 0.0f), true);
    ENSURE(w);
    for (uint32_t k = 0; k < 4; ++k) {
        drape_distance_def d = drape_default_distance_def();
        d.a = k, d.b = k + 1;
        if (k == 1)
            d.rest_length = 0.09f, d.stiffness = 0.0f;
        ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    }
    ENSURE_OK(drape_world_set_distance_break(w, 1, 1.05f));
    const uint32_t pin = 0;
    ENSURE_OK(drape_world_add_nearest_tethers(w, 0, 5, &pin, 1, drape_stiffness_pbd(1.0f)));
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 4);
    ENSURE(tu_step(w, 30)); /* 0.5 s */
    drape_vec3 x[5];
    ENSURE_OK(drape_world_get_positions(w, 0, 5, x));
    printf("  after 0.5 s: %u tether left; the piece's top at y = %.3f m\n",
           drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER), x[2].y);
    ENSURE(drape_world_get_tear_stats(w).breaks == 1);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 1);
    ENSURE_NEAR(x[1].y, -0.1, 1e-3); /* still hanging */
    /* in free fall after the first step: 9.81 (0.5 - 1/60)^2 / 2 = 1.15 m below where it was */
    ENSURE(x[2].y < -0.2 - 1.1 && x[4].y < -0.4 - 1.1);
    /* the removed tethers keep their ids and defs, without a colour */
    uint32_t colors[4];
    ENSURE_OK(drape_world_get_constraint_colors(w, DRAPE_CONSTRAINT_TETHER, 0, 4, colors));
    for (uint32_t id = 0; id < 4; ++id) {
        drape_tether_def t;
        ENSURE_OK(drape_world_get_tether(w, id, &t));
        ENSURE(t.particle == id + 1 && t.anchor == 0);
        ENSURE((colors[id] == UINT32_MAX) == (id > 0));
    }
    drape_world_destroy(w);
}

static void test_bad_tethers(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[2] = {drape_default_particle_def(), drape_default_particle_def()};
    p[1].position = tu_v3(1.0f, 0.0f, 0.0f);
    ENSURE_OK(drape_world_add_particles(w, p, 2, NULL));
    tu_log_reset(&log);
    ENSURE_RESULT(drape_world_add_tether(w, NULL, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def is NULL"));
    drape_tether_def t = drape_default_tether_def();
    t.particle = 0, t.anchor = 2;
    ENSURE_RESULT(drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "def->anchor = 2 is out of range"));
    t.anchor = 0;
    ENSURE_RESULT(drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->particle and def->anchor are both particle 0"));
    t.anchor = 1;
    const float bad_lengths[] = {NAN, INFINITY, -INFINITY, 2e10f};
    for (size_t i = 0; i < sizeof bad_lengths / sizeof *bad_lengths; ++i) {
        t.max_length = bad_lengths[i];
        ENSURE_RESULT(drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
        ENSURE(tu_log_has(&log, "def->max_length"));
    }
    t.max_length = DRAPE_REST_FROM_POSITIONS;
    t.stiffness = 1.5f;
    ENSURE_RESULT(drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->stiffness = 1.5"));
    t.stiffness = 1.0f, t.compliance = NAN, t.model = DRAPE_STIFFNESS_XPBD;
    ENSURE_RESULT(drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def->compliance"));
    drape_tether_def got;
    ENSURE_RESULT(drape_world_get_tether(w, 0, &got), DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "tether id 0 does not exist"));
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 0);
    /* A cloth with a bad tether stiffness adds nothing. */
    drape_cloth_def c = drape_default_cloth_def();
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.tether_stiffness.stiffness = -0.5f;
    ENSURE_RESULT(drape_world_add_cloth(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "tether_stiffness"));
    ENSURE(drape_world_particle_count(w) == 2);
    /* The default max_length is the current distance. */
    t.compliance = 0.0f, t.model = DRAPE_STIFFNESS_PBD;
    ENSURE_OK(drape_world_add_tether(w, &t, NULL));
    ENSURE_OK(drape_world_get_tether(w, 0, &got));
    ENSURE(got.particle == 0 && got.anchor == 1 && got.max_length == 1.0f);
    /* Tethers to the nearest anchor: the range, the anchors and the stiffness are checked. */
    const uint32_t anchors[2] = {1, 2};
    const drape_stiffness k1 = drape_stiffness_pbd(1.0f);
    ENSURE_RESULT(drape_world_add_nearest_tethers(w, 1, 2, anchors, 1, k1),
                  DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "particles [1, 1 + 2) are not all in the world (it has 2)"));
    ENSURE_RESULT(drape_world_add_nearest_tethers(w, 0, 2, NULL, 1, k1),
                  DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "anchors is NULL"));
    ENSURE_RESULT(drape_world_add_nearest_tethers(w, 0, 2, anchors, 2, k1),
                  DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(tu_log_has(&log, "anchors[1] = 2 is not a particle"));
    ENSURE_RESULT(drape_world_add_nearest_tethers(w, 0, 2, anchors, 1, drape_stiffness_pbd(2.0f)),
                  DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "stiffness"));
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 1);
    ENSURE_OK(drape_world_add_nearest_tethers(w, 0, 2, NULL, 0, k1)); /* no anchor: nothing */
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 1);
    drape_world_destroy(w);
}

int suite_tethers(void)
{
    RUN_TEST(test_curtain_stretches_five_times_less);
    RUN_TEST(test_builder_ties_each_particle_to_its_nearest_pin);
    RUN_TEST(test_no_tethers_without_pins_or_when_off);
    RUN_TEST(test_rope_ties_each_particle_to_its_nearer_end);
    RUN_TEST(test_rope_keeps_its_length_at_one_substep);
    RUN_TEST(test_one_sided);
    RUN_TEST(test_anchor_never_moves);
    RUN_TEST(test_colours_around_read_only_anchors);
    RUN_TEST(test_attached_curtain_tethered_to_its_attachments);
    RUN_TEST(test_nearest_anchor_as_a_full_search_finds_it);
    RUN_TEST(test_torn_off_piece_falls);
    RUN_TEST(test_bad_tethers);
    return test_finish();
}

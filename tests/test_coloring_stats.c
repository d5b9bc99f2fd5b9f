/* The colouring as the world reports it (drape_world_get_coloring), for the constraint sets the
 * builders make. For each type: it colours every live constraint (stats.constraints equals
 * drape_world_constraint_count), uses at least as many colours as its lower bound (the most
 * constraints on one movable particle, which no colouring can beat), and its size statistics are
 * consistent (smallest <= mean <= largest, colours * mean = constraints). On a cloth grid the lower
 * bound is known: 12 for structural + shear + skip-one bending (4 + 4 + 4 at an interior particle).
 * The report follows the world: adding constraints recolours, and all three orders are valid.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdio.h>

static void check_stats(const drape_world *w, drape_constraint_type type, const char *what)
{
    drape_coloring_stats s;
    ENSURE_OK(drape_world_get_coloring(w, type, &s));
    const uint32_t live = drape_world_constraint_count(w, type);
    printf("  %-28s %6u constraints, %3u colours (lower bound %u), sizes %u..%u, mean %.1f\n", what,
           s.constraints, s.colors, s.lower_bound, s.smallest, s.largest, (double)s.mean);
    ENSURE(s.constraints == live);
    ENSURE(s.colors >= s.lower_bound);
    if (live == 0) {
        ENSURE(s.colors == 0);
        return;
    }
    ENSURE(s.lower_bound >= 1);
    ENSURE(s.smallest >= 1);
    ENSURE(s.smallest <= s.largest);
    ENSURE_LE(s.smallest, s.mean);
    ENSURE_LE(s.mean, s.largest);
    ENSURE_NEAR((double)s.mean * s.colors, s.constraints, 1e-3 * s.constraints);
    ENSURE((uint64_t)s.largest * s.colors >= s.constraints);
}

static drape_world *cloth(drape_color_order order, drape_bending bending, uint32_t pins)
{
    drape_world_def def = tu_def(NULL);
    def.color_order = order;
    def.color_seed = 7;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 24, cd.ny = 20;
    cd.bending = bending;
    cd.pins = pins;
    if (drape_world_add_cloth(w, &cd, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static void test_cloth_coloring_stats(void)
{
    const drape_color_order orders[3] = {DRAPE_COLOR_ORDER_NATURAL, DRAPE_COLOR_ORDER_LARGEST_FIRST,
                                         DRAPE_COLOR_ORDER_RANDOM};
    const char *names[3] = {"natural", "largest first", "random"};
    for (int o = 0; o < 3; ++o) {
        drape_world *w = cloth(orders[o], DRAPE_BENDING_SKIP_ONE, DRAPE_PIN_NONE);
        ENSURE(w);
        char what[64];
        snprintf(what, sizeof what, "distance, %s", names[o]);
        check_stats(w, DRAPE_CONSTRAINT_DISTANCE, what);
        drape_coloring_stats s;
        ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, &s));
        ENSURE(s.lower_bound == 12);
        ENSURE(s.constraints == 2 * 24 * 20 - 24 - 20 /* structural */ + 2 * 23 * 19 /* shear */ +
                                    2 * 24 * 20 - 2 * 24 - 2 * 20 /* skip-one */);
        check_stats(w, DRAPE_CONSTRAINT_DIHEDRAL, "dihedral (none)");
        check_stats(w, DRAPE_CONSTRAINT_ATTACHMENT, "attachment (none)");
        /* The colouring still holds after a step. */
        ENSURE(tu_step(w, 2));
        check_stats(w, DRAPE_CONSTRAINT_DISTANCE, what);
        drape_world_destroy(w);
    }
}

/* The builders' constraint order lets natural first-fit reach the lower bound exactly: 4, 8 and 12
 * colours for structural, shear and skip-one springs, 12 for dihedrals, on square, tall and wide
 * grids alike. */
static void test_builder_order_reaches_the_bound(void)
{
    static const uint32_t sizes[][2] = {{5, 5}, {64, 64}, {32, 64}, {64, 32}, {100, 37}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (int variant = 0; variant < 4; ++variant) {
            drape_world_def def = tu_def(NULL);
            drape_world *w = tu_world(&def);
            ENSURE(w != NULL);
            drape_cloth_def c = drape_default_cloth_def();
            c.nx = sizes[k][0], c.ny = sizes[k][1];
            c.shear = variant >= 1;
            c.bending = variant == 2   ? DRAPE_BENDING_SKIP_ONE
                        : variant == 3 ? DRAPE_BENDING_DIHEDRAL
                                       : DRAPE_BENDING_NONE;
            ENSURE_OK(drape_world_add_cloth(w, &c, NULL));
            drape_coloring_stats s;
            ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, &s));
            const uint32_t nx = c.nx, ny = c.ny;
            ENSURE(drape_world_distance_count(w, DRAPE_DISTANCE_STRETCH) ==
                   (nx - 1) * ny + nx * (ny - 1));
            ENSURE(drape_world_distance_count(w, DRAPE_DISTANCE_SHEAR) ==
                   (c.shear ? 2 * (nx - 1) * (ny - 1) : 0));
            ENSURE(drape_world_distance_count(w, DRAPE_DISTANCE_BEND) ==
                   (variant == 2 ? (nx - 2) * ny + nx * (ny - 2) : 0));
            ENSURE(drape_world_host_bytes(w) > (uint64_t)nx * ny * 6 * 16);
            static const uint32_t expected[4] = {4, 8, 12, 8};
            ENSURE(s.lower_bound == expected[variant] && s.colors == s.lower_bound);
            if (variant == 3) {
                ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_DIHEDRAL, &s));
                ENSURE(s.lower_bound == 12 && s.colors == 12);
            }
            drape_world_destroy(w);
        }
}

static void test_dihedral_and_attachment_coloring_follows_the_world(void)
{
    drape_world *w = cloth(DRAPE_COLOR_ORDER_NATURAL, DRAPE_BENDING_DIHEDRAL, DRAPE_PIN_ROW_FIRST);
    ENSURE(w);
    check_stats(w, DRAPE_CONSTRAINT_DISTANCE, "distance, pinned row");
    check_stats(w, DRAPE_CONSTRAINT_DIHEDRAL, "dihedral");
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_DIHEDRAL) > 0);
    /* Attachments on different particles share no particle: one colour. Two on one particle need
     * two. */
    drape_attachment_def a = drape_default_attachment_def();
    for (uint32_t i = 100; i < 110; ++i) {
        a.particle = i;
        ENSURE_OK(drape_world_add_attachment(w, &a, NULL));
    }
    drape_coloring_stats s;
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_ATTACHMENT, &s));
    ENSURE(s.constraints == 10 && s.lower_bound == 1 && s.colors == 1);
    a.particle = 105;
    drape_attachment_id id;
    ENSURE_OK(drape_world_add_attachment(w, &a, &id));
    check_stats(w, DRAPE_CONSTRAINT_ATTACHMENT, "attachment");
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_ATTACHMENT, &s));
    ENSURE(s.constraints == 11 && s.lower_bound == 2 && s.colors >= 2);
    ENSURE_OK(drape_world_remove_attachment(w, id));
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_ATTACHMENT, &s));
    ENSURE(s.constraints == 10 && s.lower_bound == 1);
    /* More distance constraints: recoloured, still consistent. */
    drape_distance_def d = drape_default_distance_def();
    for (uint32_t i = 30; i < 60; ++i) {
        d.a = i, d.b = i + 200;
        ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    }
    check_stats(w, DRAPE_CONSTRAINT_DISTANCE, "distance, 30 more");
    drape_world_destroy(w);
}

int suite_coloring_stats(void)
{
    RUN_TEST(test_cloth_coloring_stats);
    RUN_TEST(test_builder_order_reaches_the_bound);
    RUN_TEST(test_dihedral_and_attachment_coloring_follows_the_world);
    return test_finish();
}

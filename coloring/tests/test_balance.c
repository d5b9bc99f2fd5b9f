/* Balancing: colour sizes even out, the colour count never grows, the colouring stays valid. */
#include "check.h"
#include "meshes.h"
#include "drape_test.h"
#include "test_list.h"

/* Colours `set` without and with balancing; asserts the count is kept and returns both ratios. */
static void ratios(const cset *set, const uint8_t *movable, uint32_t particles,
                   drape_color_order order, double *before, double *after)
{
    drape_color_input in = color_input(set, movable, particles, order, 1, false);
    drape_coloring plain = color_checked(&in);
    in.balance = true;
    drape_coloring balanced = color_checked(&in);
    ENSURE_EQ(balanced.stats.colors, plain.stats.colors);
    *before = size_ratio(&plain);
    *after = size_ratio(&balanced);
    drape_coloring_free(&plain);
    drape_coloring_free(&balanced);
}

void test_balance_evens_sizes(void)
{
    cset springs, dihedrals;
    grid_springs(&springs, 96, 80, GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND);
    grid_dihedrals(&dihedrals, 96, 80);
    uint8_t *movable = movable_all(96 * 80);
    const cset *sets[2] = {&springs, &dihedrals};
    for (int s = 0; s < 2; ++s) {
        for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
            double before, after;
            ratios(sets[s], movable, 96 * 80, color_orders[o], &before, &after);
            ENSURE(after <= before);
            ENSURE(after < 1.1);
            /* Random first-fit leaves nearly empty last colours; balancing fills them. */
            if (color_orders[o] == DRAPE_COLOR_ORDER_RANDOM)
                ENSURE(before > 2.0 * after);
        }
    }
    free(movable);
    cset_free(&springs);
    cset_free(&dihedrals);
}

/* Well over 64 colours: balancing works window by window and still never adds a colour. */
void test_balance_across_windows(void)
{
    test_rng rng = {5};
    for (int trial = 0; trial < 3; ++trial) {
        uint32_t particles = 40;
        cset set;
        random_constraints(&set, particles, 2500, 4, &rng);
        uint8_t *movable = movable_all(particles);
        double before, after;
        ratios(&set, movable, particles, DRAPE_COLOR_ORDER_NATURAL, &before, &after);
        ENSURE(after < before);
        drape_color_input in = color_input(&set, movable, particles, 0, 0, true);
        drape_coloring out = color_checked(&in);
        ENSURE(out.stats.colors > 128u); /* more than two windows of 64 */
        drape_coloring_free(&out);
        free(movable);
        cset_free(&set);
    }
}

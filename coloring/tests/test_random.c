/* Property tests on random constraint graphs: random arity 1..4 with unused slots and repeated
 * particles, random pins, every order, with and without balancing; first-fit compared with a
 * brute-force reference, also beyond 64 colours where the library works window by window. */
#include "check.h"
#include "meshes.h"
#include "drape_test.h"
#include "test_list.h"

/* A random graph: up to `max_particles` particles, up to `max_count` constraints of stored arity
 * 1..4, a random share of them pinned. */
typedef struct random_graph {
    cset set;
    uint8_t *movable;
    uint32_t particle_count;
} random_graph;

static random_graph make_random_graph(test_rng *rng, uint32_t max_particles, uint32_t max_count)
{
    random_graph g;
    g.particle_count = 1u + test_rng_below(rng, max_particles);
    uint32_t count = test_rng_below(rng, max_count + 1u);
    uint32_t arity = 1u + test_rng_below(rng, 4);
    random_constraints(&g.set, g.particle_count, count, arity, rng);
    g.movable = movable_all(g.particle_count);
    pin_random(g.movable, g.particle_count, test_rng_unit(rng) * 0.5, rng);
    return g;
}

static void free_random_graph(random_graph *g)
{
    cset_free(&g->set);
    free(g->movable);
}

void test_random_graphs(void)
{
    test_rng rng = {2024};
    for (int trial = 0; trial < 150; ++trial) {
        random_graph g = make_random_graph(&rng, 400, 1500);
        check_all_orders(color_input(&g.set, g.movable, g.particle_count, 0, (uint64_t)trial, 0));
        free_random_graph(&g);
    }
}

/* Colours the graph in natural order without balancing and compares every constraint's colour
 * with the brute-force first-fit. */
static void ensure_matches_reference(const random_graph *g)
{
    drape_color_input in =
        color_input(&g->set, g->movable, g->particle_count, DRAPE_COLOR_ORDER_NATURAL, 0, false);
    drape_coloring out;
    ENSURE_EQ(drape_color_constraints(&in, &out), DRAPE_OK);
    uint32_t *colors = malloc(((size_t)in.count + 1u) * sizeof *colors);
    uint32_t *expected = malloc(((size_t)in.count + 1u) * sizeof *expected);
    ENSURE(colors != NULL && expected != NULL);
    check_coloring(&in, &out, colors);
    reference_first_fit(&in, expected);
    for (uint32_t c = 0; c < in.count; ++c)
        ENSURE_EQ(colors[c], expected[c]);
    free(colors);
    free(expected);
    drape_coloring_free(&out);
}

void test_first_fit_matches_reference(void)
{
    test_rng rng = {77};
    for (int trial = 0; trial < 60; ++trial) {
        random_graph g = make_random_graph(&rng, 300, 1200);
        ensure_matches_reference(&g);
        free_random_graph(&g);
    }
    /* Dense graphs: well over 64 colours, so several windows. */
    for (int trial = 0; trial < 4; ++trial) {
        random_graph g;
        g.particle_count = 30u + test_rng_below(&rng, 30);
        random_constraints(&g.set, g.particle_count, 1500u + test_rng_below(&rng, 1500), 3, &rng);
        g.movable = movable_all(g.particle_count);
        pin_random(g.movable, g.particle_count, 0.1, &rng);
        ensure_matches_reference(&g);
        free_random_graph(&g);
    }
}

void test_many_colors(void)
{
    /* A star: 300 constraints on one movable hub need 300 colours, and every order finds them. */
    const uint32_t leaves = 300;
    cset star;
    cset_init(&star, 2);
    for (uint32_t k = 0; k < leaves; ++k) {
        uint32_t pair[2] = {k % 2 ? leaves : k, k % 2 ? k : leaves}; /* hub in either slot */
        cset_add(&star, pair);
    }
    uint8_t *movable = movable_all(leaves + 1u);
    drape_color_input in = color_input(&star, movable, leaves + 1u, 0, 5, false);
    ENSURE_EQ(check_all_orders(in), leaves);
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        in.order = color_orders[o];
        drape_coloring out = color_checked(&in);
        ENSURE_EQ(out.stats.colors, leaves);
        ENSURE_EQ(out.stats.lower_bound, leaves);
        ENSURE_EQ(out.stats.smallest, 1);
        ENSURE_EQ(out.stats.largest, 1);
        drape_coloring_free(&out);
    }
    /* Pinning the hub removes every conflict: one colour. */
    movable[leaves] = 0;
    drape_coloring out = color_checked(&in);
    ENSURE_EQ(out.stats.colors, 1);
    ENSURE_EQ(out.stats.lower_bound, 1);
    drape_coloring_free(&out);
    free(movable);
    cset_free(&star);
}

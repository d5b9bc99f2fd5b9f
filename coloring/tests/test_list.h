/* Every test of coloring_test, once. test_main.c runs them; coloring/CMakeLists.txt reads the
 * entries below to register one ctest test "coloring.<name>" each. A test is
 * `void test_<name>(void)`. */
#ifndef DRAPE_COLORING_TEST_LIST_H
#define DRAPE_COLORING_TEST_LIST_H

#define COLORING_TESTS(X)                                                                          \
    X(grid_springs_reach_bound)                                                                    \
    X(grid_springs_pinned_reach_bound)                                                             \
    X(grid_springs_small)                                                                          \
    X(grid_springs_interleaved_order)                                                              \
    X(grid_dihedrals_reach_bound)                                                                  \
    X(grid_dihedrals_sorted_order)                                                                 \
    X(disc_mesh)                                                                                   \
    X(irregular_mesh)                                                                              \
    X(random_graphs)                                                                               \
    X(first_fit_matches_reference)                                                                 \
    X(many_colors)                                                                                 \
    X(pinned_constraints)                                                                          \
    X(empty_input)                                                                                 \
    X(invalid_input)                                                                               \
    X(free_is_idempotent)                                                                          \
    X(random_order_deterministic)                                                                  \
    X(determinism_hash)                                                                            \
    X(balance_evens_sizes)                                                                         \
    X(balance_across_windows)

#define COLORING_DECLARE_TEST(name) void test_##name(void);
COLORING_TESTS(COLORING_DECLARE_TEST)

#endif

/* The engine core's tests, one entry per concept: `X(name)` is `int suite_<name>(void)` in
 * test_<name>.c, run as `drape_core_tests <name>` (tests/harness/drape_test.h).
 * tests/CMakeLists.txt reads the lists below to build the program and register the ctest tests. */
#ifndef DRAPE_CORE_TEST_LIST_H
#define DRAPE_CORE_TEST_LIST_H

#include "drape_test.h"

/* core.<name> on the CPU reference, and opencl.core.<name>.<variant> on the OpenCL backend once per
 * kernel variant (the same code, with tu_def() choosing OpenCL). */
#define CORE_TESTS_BOTH_BACKENDS(X)                                                                \
    X(integration)                                                                                 \
    X(momentum)                                                                                    \
    X(constraints)                                                                                 \
    X(collision)                                                                                   \
    X(xpbd)                                                                                        \
    X(mass_spring)                                                                                 \
    X(contact)                                                                                     \
    X(constraint_edit)                                                                             \
    X(tethers)                                                                                     \
    X(volumes)                                                                                     \
    X(step_n)                                                                                      \
    X(shape_matching)                                                                              \
    X(aero)                                                                                        \
    X(balloons)                                                                                    \
    X(tearing)                                                                                     \
    X(particles)

/* core.<name> on the CPU reference only. */
#define CORE_TESTS_CPU(X)                                                                          \
    X(worlds)                                                                                      \
    X(bad_input)                                                                                   \
    X(coloring_stats)                                                                              \
    X(neo_hookean)                                                                                 \
    X(cell_hash)

/* The OpenCL backend through the public API (opencl.backend, opencl.parity.<variant>,
 * opencl.variants), in a build with the OpenCL backend only. */
#define CORE_TESTS_OPENCL(X)                                                                       \
    X(backend)                                                                                     \
    X(parity)                                                                                      \
    X(variants)

#if DRAPE_TEST_OPENCL
#define TEST_LIST(X) CORE_TESTS_BOTH_BACKENDS(X) CORE_TESTS_CPU(X) CORE_TESTS_OPENCL(X)
#else
#define TEST_LIST(X) CORE_TESTS_BOTH_BACKENDS(X) CORE_TESTS_CPU(X)
#endif

TEST_LIST(TEST_DECLARE)

#endif

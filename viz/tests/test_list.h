/* The viewer's tests that need no window: `X(name)` is `int suite_<name>(void)` in test_<name>.c,
 * run as `viz_tests <name>` and registered by CMakeLists.txt, which reads this list, as
 * viz.<name>. */
#ifndef VIZ_TEST_LIST_H
#define VIZ_TEST_LIST_H

#include "drape_test.h"

#define TEST_LIST(X)                                                                               \
    X(render_api)                                                                                  \
    X(sim)                                                                                         \
    X(pacer)                                                                                       \
    X(settings)                                                                                    \
    X(gl_vendor)

TEST_LIST(TEST_DECLARE)

#endif

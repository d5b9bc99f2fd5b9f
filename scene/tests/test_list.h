/* The scene library's tests: `X(name)` is `int suite_<name>(void)` in test_<name>.c, run as
 * `drape_scene_tests <name>` and registered by CMakeLists.txt, which reads this list, as
 * scene.<name>. */
#ifndef DRAPE_SCENE_TEST_LIST_H
#define DRAPE_SCENE_TEST_LIST_H

#include "drape_test.h"

#define TEST_LIST(X)                                                                               \
    X(obj)                                                                                         \
    X(parse)                                                                                       \
    X(builtin)                                                                                     \
    X(output)                                                                                      \
    X(parity)                                                                                      \
    X(sweep)                                                                                       \
    X(tetgen)                                                                                      \
    X(self_collision)                                                                              \
    X(soft_contacts)                                                                               \
    X(scene_start)                                                                                 \
    X(tear_scene)

TEST_LIST(TEST_DECLARE)

#endif

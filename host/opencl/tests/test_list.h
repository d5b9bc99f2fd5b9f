/* The tests of the OpenCL infrastructure: `X(name)` is `int suite_<name>(void)` in test_opencl.c,
 * run as `drape_opencl_tests <name> [scratch directory]` and registered by CMakeLists.txt, which
 * reads this list, as opencl.<name>. */
#ifndef DRAPE_OPENCL_TEST_LIST_H
#define DRAPE_OPENCL_TEST_LIST_H

#include "drape_test.h"

#define TEST_LIST(X)                                                                               \
    X(errors)                                                                                      \
    X(no_platform)                                                                                 \
    X(devices)                                                                                     \
    X(device_missing)                                                                              \
    X(gpu)                                                                                         \
    X(build)                                                                                       \
    X(build_failure)                                                                               \
    X(hide_fp64)                                                                                   \
    X(probe_copy)                                                                                  \
    X(two_contexts)                                                                                \
    X(oversize_alloc)                                                                              \
    X(cache)                                                                                       \
    X(sum)                                                                                         \
    X(profile)                                                                                     \
    X(profile_later)

TEST_LIST(TEST_DECLARE)

#endif

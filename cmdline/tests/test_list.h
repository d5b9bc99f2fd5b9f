/* The tests of the command-line parser: `X(name)` is `int suite_<name>(void)` in test_cmdline.c,
 * run as `cmdline_tests <name>` and registered by CMakeLists.txt, which reads this list, as
 * cmdline.<name>. */
#ifndef DRAPE_CMDLINE_TEST_LIST_H
#define DRAPE_CMDLINE_TEST_LIST_H

#include "drape_test.h"

#define TEST_LIST(X)                                                                               \
    X(values_flags_and_positionals)                                                                \
    X(unknown_option)                                                                              \
    X(missing_value)                                                                               \
    X(flag_given_a_value)                                                                          \
    X(bad_number)                                                                                  \
    X(bad_choice)                                                                                  \
    X(apply_refuses)                                                                               \
    X(too_many_positionals)                                                                        \
    X(help_from_the_table)                                                                         \
    X(number_only)

TEST_LIST(TEST_DECLARE)

#endif

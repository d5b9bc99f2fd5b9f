/* The viewer tests' one check: CHECK(cond) prints file:line and the condition when it fails and
 * counts the failure; a test's main ends with `return check_finish("name");`. Header-only: each
 * test executable is one translation unit with its own counter. */
#ifndef VIZ_TESTS_CHECK_H
#define VIZ_TESTS_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                      \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

static inline int check_finish(const char *name)
{
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("%s: all checks passed\n", name);
    return failures ? 1 : 0;
}

#endif

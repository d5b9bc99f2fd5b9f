/* A tiny test harness in the style of Box2D's: ENSURE checks a condition and ends the test program
 * with the file, line and expression when it fails; each test is a void function listed once in
 * test_list.h, from which test_main.c runs them and CMake registers one ctest test per name. */
#ifndef DRAPE_COLORING_TEST_H
#define DRAPE_COLORING_TEST_H

#include <stdio.h>
#include <stdlib.h>

#define ENSURE(condition)                                                                          \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            fprintf(stderr, "%s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__, #condition);         \
            exit(EXIT_FAILURE);                                                                    \
        }                                                                                          \
    } while (0)

/* ENSURE(a == b) for unsigned values, printing both. */
#define ENSURE_EQ(a, b)                                                                            \
    do {                                                                                           \
        unsigned long long ensure_a_ = (a), ensure_b_ = (b);                                       \
        if (ensure_a_ != ensure_b_) {                                                              \
            fprintf(stderr, "%s:%d: ENSURE_EQ(%s, %s) failed: %llu != %llu\n", __FILE__, __LINE__, \
                    #a, #b, ensure_a_, ensure_b_);                                                 \
            exit(EXIT_FAILURE);                                                                    \
        }                                                                                          \
    } while (0)

#endif

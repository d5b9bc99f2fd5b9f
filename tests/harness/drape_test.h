/* The test harness of every test folder, in the style of Box2D's: each folder builds one test
 * program from the entries of its test_list.h (`X(name)`: a function `int suite_<name>(void)`,
 * run by `<program> <name> [arguments]`, one ctest test each), and CMake reads the same list to
 * register them (cmake/testing.cmake). Adding a test is one line in test_list.h.
 *
 * ENSURE and its kin stop the test program at the first failed check, printing file:line, the
 * expression and the values, and exit 1, so that a check works in helpers of any return type.
 * EXPECT records a failure and goes on; the program then fails at the end. An entry returns 0
 * (passed), TEST_SKIP (77, ctest's SKIP_RETURN_CODE) or non-zero (failed).
 */
#ifndef DRAPE_TEST_H
#define DRAPE_TEST_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define TEST_SKIP 77

typedef struct test_entry {
    const char *name;
    int (*run)(void);
} test_entry;

/* Declares an entry of TEST_LIST(X); each test_list.h ends with TEST_LIST(TEST_DECLARE). */
#define TEST_DECLARE(name) int suite_##name(void);

/* Runs the entry named by argv[1] (its arguments are test_argc() and test_argv()), or lists the
 * entries; the exit status of the program. */
int test_run(int argc, char **argv, const test_entry *entries, size_t count);
/* The running entry's arguments: argv[0] is its name, then what followed it on the command line. */
int test_argc(void);
char **test_argv(void);

/* Prints "file:line: FAILED: ..." and exits 1. */
void test_fail(const char *file, int line, const char *fmt, ...);
/* Prints the same, counts the failure and returns (EXPECT). */
void test_fail_later(const char *file, int line, const char *fmt, ...);
/* 1 when any EXPECT failed, else 0, after a line with the count of tests run. */
int test_finish(void);
/* Seconds on a monotonic clock. */
double test_now(void);
/* Prints "name ok time" for a test that began at t0 (RUN_TEST). */
void test_passed(const char *name, double t0);

/* Runs a void test function and says it passed with its time (a failed check exits earlier). */
#define RUN_TEST(fn)                                                                               \
    do {                                                                                           \
        double test_t0_ = test_now();                                                              \
        fn();                                                                                      \
        test_passed(#fn, test_t0_);                                                                \
    } while (0)

#define ENSURE(cond)                                                                               \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail(__FILE__, __LINE__, "%s", #cond);                                            \
    } while (0)

/* Like ENSURE, with a printf-style explanation (the values) on failure. */
#define ENSURE_MSG(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail(__FILE__, __LINE__, __VA_ARGS__);                                            \
    } while (0)

/* a == b for integers (compared as long long: give both the same signedness), printing both. */
#define ENSURE_EQ(a, b)                                                                            \
    do {                                                                                           \
        long long test_a_ = (long long)(a), test_b_ = (long long)(b);                              \
        if (test_a_ != test_b_)                                                                    \
            test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, test_a_, test_b_);     \
    } while (0)

/* |a - b| <= tol, in double; NaN fails. */
#define ENSURE_NEAR(a, b, tol)                                                                     \
    do {                                                                                           \
        double test_a_ = (double)(a), test_b_ = (double)(b), test_t_ = (double)(tol);              \
        if (!(fabs(test_a_ - test_b_) <= test_t_))                                                 \
            test_fail(__FILE__, __LINE__, "%s = %.9g, %s = %.9g: |difference| %.3g > %.3g", #a,    \
                      test_a_, #b, test_b_, fabs(test_a_ - test_b_), test_t_);                     \
    } while (0)

/* a <= b, in double; NaN fails. */
#define ENSURE_LE(a, b)                                                                            \
    do {                                                                                           \
        double test_a_ = (double)(a), test_b_ = (double)(b);                                       \
        if (!(test_a_ <= test_b_))                                                                 \
            test_fail(__FILE__, __LINE__, "%s <= %s: %.9g > %.9g", #a, #b, test_a_, test_b_);      \
    } while (0)

/* A drape call returns exactly the expected drape_result (needs drape/drape.h). */
#define ENSURE_RESULT(expr, expected)                                                              \
    do {                                                                                           \
        drape_result test_r_ = (expr), test_e_ = (expected);                                       \
        if (test_r_ != test_e_)                                                                    \
            test_fail(__FILE__, __LINE__, "%s returned %d (%s), expected %d (%s)", #expr,          \
                      (int)test_r_, drape_result_string(test_r_), (int)test_e_,                    \
                      drape_result_string(test_e_));                                               \
    } while (0)

#define ENSURE_OK(expr) ENSURE_RESULT(expr, DRAPE_OK)

/* Records a failure (file:line and the expression) and goes on. */
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail_later(__FILE__, __LINE__, "%s", #cond);                                      \
    } while (0)

#endif

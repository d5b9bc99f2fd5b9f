/* A tiny test harness in the style of Box2D's: RUN_TEST runs one test function and times it; the
 * ENSURE macros check a condition and, when it fails, print file:line with the values involved,
 * count the failure and return from the test function (so a test stops at its first failed check).
 * main ends with `return th_finish();`, which is non-zero when any check failed.
 *
 * Header-only on purpose: every test executable is one translation unit plus test_util.c, and the
 * counters below are that executable's own.
 */
#ifndef DRAPE_TEST_HARNESS_H
#define DRAPE_TEST_HARNESS_H

#include <drape/drape.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static int th_failed_checks; /* failed checks in this executable */
static int th_failed_tests;  /* tests with at least one failed check */
static int th_run_tests;
static int th_current_failed; /* the running test has failed */

static inline void th_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: FAILED: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    th_failed_checks++;
    th_current_failed = 1;
}

static inline double th_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void th_run(const char *name, void (*fn)(void))
{
    th_current_failed = 0;
    double t0 = th_now();
    fn();
    double ms = 1e3 * (th_now() - t0);
    th_run_tests++;
    if (th_current_failed)
        th_failed_tests++;
    printf("%-44s %s  %8.1f ms\n", name, th_current_failed ? "FAIL" : "ok  ", ms);
    fflush(stdout);
}

static inline int th_finish(void)
{
    printf("%d test(s), %d failed, %d failed check(s)\n", th_run_tests, th_failed_tests,
           th_failed_checks);
    return th_failed_checks ? 1 : 0;
}

#define RUN_TEST(fn) th_run(#fn, fn)

/* Fails (and returns from the test) unless cond holds. */
#define ENSURE(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            th_fail(__FILE__, __LINE__, "%s", #cond);                                              \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* Like ENSURE, with a printf-style explanation (values) on failure. */
#define ENSURE_MSG(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            th_fail(__FILE__, __LINE__, __VA_ARGS__);                                              \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* |a - b| <= tol, in double; NaN fails. */
#define ENSURE_NEAR(a, b, tol)                                                                     \
    do {                                                                                           \
        double th_a_ = (double)(a), th_b_ = (double)(b), th_t_ = (double)(tol);                    \
        if (!(fabs(th_a_ - th_b_) <= th_t_)) {                                                     \
            th_fail(__FILE__, __LINE__, "%s = %.9g, %s = %.9g: |difference| %.3g > %.3g", #a,      \
                    th_a_, #b, th_b_, fabs(th_a_ - th_b_), th_t_);                                 \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* a <= b, in double; NaN fails. */
#define ENSURE_LE(a, b)                                                                            \
    do {                                                                                           \
        double th_a_ = (double)(a), th_b_ = (double)(b);                                           \
        if (!(th_a_ <= th_b_)) {                                                                   \
            th_fail(__FILE__, __LINE__, "%s <= %s: %.9g > %.9g", #a, #b, th_a_, th_b_);            \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* An API call returns exactly the expected drape_result. */
#define ENSURE_RESULT(expr, expected)                                                              \
    do {                                                                                           \
        drape_result th_r_ = (expr), th_e_ = (expected);                                           \
        if (th_r_ != th_e_) {                                                                      \
            th_fail(__FILE__, __LINE__, "%s returned %d (%s), expected %d (%s)", #expr,            \
                    (int)th_r_, drape_result_string(th_r_), (int)th_e_,                            \
                    drape_result_string(th_e_));                                                   \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define ENSURE_OK(expr) ENSURE_RESULT(expr, DRAPE_OK)

#endif

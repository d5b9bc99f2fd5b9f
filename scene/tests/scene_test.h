/* A small test harness for the scene library's tests, with no global state: each test function
 * takes the run's st_run context, CHECK stops the test at its first failed check (printing file,
 * line and an explanation), and st_finish gives the exit code. ctest treats 77 as a skip.
 *
 * Also the helpers the tests share: where the shipped scenes and the test data are, and a check
 * that a load failed with a message holding given pieces.
 */
#ifndef DRAPE_SCENE_TEST_H
#define DRAPE_SCENE_TEST_H

#include <drape/scene.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct st_run {
    int tests, failed_tests, failed_checks;
    int current_failed;
} st_run;

static inline void st_fail(st_run *t, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: FAILED: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    t->failed_checks++;
    t->current_failed = 1;
}

static inline double st_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void st_test(st_run *t, const char *name, void (*fn)(st_run *))
{
    t->current_failed = 0;
    double t0 = st_now();
    fn(t);
    t->tests++;
    t->failed_tests += t->current_failed;
    printf("%-48s %s %8.1f ms\n", name, t->current_failed ? "FAIL" : "ok  ", 1e3 * (st_now() - t0));
    fflush(stdout);
}

static inline int st_finish(const st_run *t)
{
    printf("%d test(s), %d failed, %d failed check(s)\n", t->tests, t->failed_tests,
           t->failed_checks);
    return t->failed_checks ? 1 : 0;
}

#define RUN(t, fn) st_test(t, #fn, fn)

#define CHECK(t, cond)                                                                             \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            st_fail(t, __FILE__, __LINE__, "%s", #cond);                                           \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(t, cond, ...)                                                                    \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            st_fail(t, __FILE__, __LINE__, __VA_ARGS__);                                           \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* ---- shared helpers (scene_test_util.c) ---- */

/* DRAPE_SCENES_DIR "/" name and DRAPE_TEST_DATA_DIR "/" name, in a caller's buffer. */
const char *st_scene_path(char *buf, size_t size, const char *name);
const char *st_data_path(char *buf, size_t size, const char *name);

/* True when msg contains every NULL-terminated piece; prints the message when it does not. */
int st_has_all(const char *msg, ...);

/* Options for tests: CPU backend, messages to stderr. */
drape_scene_options st_cpu_options(void);

/* True when an OpenCL device is there (quietly). */
int st_have_opencl(void);

/* A fresh directory under the build tree for a test's output. */
const char *st_scratch_dir(char *buf, size_t size, const char *name);

#endif

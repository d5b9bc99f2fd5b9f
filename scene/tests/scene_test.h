/* The scene library's tests: the shared harness (tests/harness/drape_test.h) as these tests spell
 * it, CHECK(t, cond) stopping the program at its first failed check with file, line and an
 * explanation; ctest treats 77 as a skip.
 *
 * Also the helpers the tests share: where the shipped scenes and the test data are, and a check
 * that a load failed with a message holding given pieces.
 */
#ifndef DRAPE_SCENE_TEST_H
#define DRAPE_SCENE_TEST_H

#include "drape_test.h"
#include "test_list.h"

#include <drape/scene.h>

#include <stdio.h>
#include <string.h>

/* The scene tests' spelling of the shared harness (tests/harness/drape_test.h): each test function
 * takes the run's st_run, CHECK(t, cond) is ENSURE(cond) and RUN(t, fn) is RUN_TEST. */
typedef struct st_run {
    int tests; /* test functions passed */
} st_run;

static inline double st_now(void) { return test_now(); }

static inline int st_finish(const st_run *t)
{
    (void)t;
    return test_finish();
}

#define RUN(t, fn)                                                                                 \
    do {                                                                                           \
        double st_t0_ = test_now();                                                                \
        fn(t);                                                                                     \
        (t)->tests++;                                                                              \
        test_passed(#fn, st_t0_);                                                                  \
    } while (0)

#define CHECK(t, cond)                                                                             \
    do {                                                                                           \
        (void)(t);                                                                                 \
        ENSURE(cond);                                                                              \
    } while (0)

#define CHECK_MSG(t, cond, ...)                                                                    \
    do {                                                                                           \
        (void)(t);                                                                                 \
        ENSURE_MSG(cond, __VA_ARGS__);                                                             \
    } while (0)

/* ---- shared helpers (scene_test_util.c) ---- */

/* DRAPE_SCENES_DIR "/" name and DRAPE_TEST_DATA_DIR "/" name, in a caller's buffer. */
const char *st_scene_path(char *buf, size_t size, const char *name);
const char *st_data_path(char *buf, size_t size, const char *name);

/* True when msg contains every NULL-terminated piece; prints the message when it does not. */
int st_has_all(const char *msg, ...);

/* Options for tests: CPU backend, messages to stderr. */
drape_scene_options st_cpu_options(void);

/* Scene text `json` (size bytes) loaded on the CPU backend as `name`; stops the test with the
 * message when it does not load. */
drape_scene *st_load_cpu(const char *json, size_t size, const char *name);

/* The energy per kg of n particles of equal mass at positions x (m) and velocities v (m/s):
 * kinetic plus gravitational, g = 9.81 m/s^2 along -y (J/kg). */
double st_energy(const drape_vec3 *x, const drape_vec3 *v, uint32_t n);

/* True when an OpenCL device is there (quietly). */
int st_have_opencl(void);

/* A fresh directory under the build tree for a test's output. */
const char *st_scratch_dir(char *buf, size_t size, const char *name);

#endif

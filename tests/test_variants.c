/* The OpenCL backend's kernel variants (drape_distance_kernel): every variant is run by the test
 * suite, each is chosen by the def, by $DRAPE_DISTANCE_KERNEL, or by device type, and all give
 * bitwise the CPU reference's state.
 *
 * Usage: drape_core_tests variants VARIANT... where the arguments are the variants ctest runs the
 * OpenCL core and parity tests with (tests/CMakeLists.txt); a variant of the enum missing from them
 * fails here, so that a new kernel cannot go untested. Skips (77) without OpenCL.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static int listed_count;
static char **listed;

static drape_world *cloth(drape_world_def *def)
{
    drape_world *w = NULL;
    if (drape_world_create(def, &w) != DRAPE_OK)
        return NULL;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 21, c.ny = 19; /* colours of sizes that are not multiples of sixteen */
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.stretch = drape_stiffness_xpbd(1e-7f); /* XPBD: the multipliers are read and written */
    drape_collider_def s = drape_default_collider_def();
    s.type = DRAPE_COLLIDER_SPHERE;
    s.position = tu_v3(0.5f, -0.4f, 0.4f);
    s.radius = 0.3f;
    if (drape_world_add_cloth(w, &c, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &s, NULL) != DRAPE_OK || !tu_step(w, 40)) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static void every_variant_is_run_by_ctest(void)
{
    for (int k = 1; k < DRAPE_DISTANCE_KERNEL_COUNT; ++k) {
        const char *name = drape_distance_kernel_name((drape_distance_kernel)k);
        bool found = false;
        for (int i = 0; i < listed_count; ++i)
            found = found || !strcmp(listed[i], name);
        ENSURE_MSG(found, "the %s kernel is never selected by a test run", name);
    }
    for (int i = 0; i < listed_count; ++i) {
        bool known = false;
        for (int k = 1; k < DRAPE_DISTANCE_KERNEL_COUNT; ++k)
            known =
                known || !strcmp(listed[i], drape_distance_kernel_name((drape_distance_kernel)k));
        ENSURE_MSG(known, "\"%s\" is not a distance kernel", listed[i]);
    }
    ENSURE(drape_distance_kernel_name(DRAPE_DISTANCE_KERNEL_COUNT) == NULL);
}

/* Each variant, asked for by the def, runs and agrees bitwise with the CPU reference. */
static void variants_match_the_reference(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *cpu = cloth(&def);
    ENSURE(cpu != NULL);
    ENSURE(drape_world_distance_kernel(cpu) == DRAPE_DISTANCE_KERNEL_AUTO);
    tu_state ref;
    ENSURE(tu_read(cpu, &ref));
    def.backend.type = DRAPE_BACKEND_OPENCL;
    for (int k = 1; k < DRAPE_DISTANCE_KERNEL_COUNT; ++k) {
        def.distance_kernel = (drape_distance_kernel)k;
        drape_world *w = cloth(&def);
        ENSURE(w != NULL);
        ENSURE(drape_world_distance_kernel(w) == (drape_distance_kernel)k);
        tu_state s;
        ENSURE(tu_read(w, &s));
        ENSURE(s.n == ref.n);
        ENSURE_MSG(tu_same_bits(s.x, ref.x, s.n * sizeof *s.x) &&
                       tu_same_bits(s.v, ref.v, s.n * sizeof *s.v),
                   "the %s kernel differs from the CPU reference",
                   drape_distance_kernel_name((drape_distance_kernel)k));
        tu_state_free(&s);
        drape_world_destroy(w);
    }
    tu_state_free(&ref);
    drape_world_destroy(cpu);
}

/* A world of independent cloths of different sizes: AUTO fuses it when each fits a work-group, one
 * work-group per cloth (the smallest shares its neighbour's), bitwise as the CPU reference. */
static void many_cloths_fuse(void)
{
    unsetenv("DRAPE_DISTANCE_KERNEL");
    drape_world_def def = tu_def(NULL);
    def.color_order = DRAPE_COLOR_ORDER_RANDOM; /* the cloths' constraints mixed in each colour */
    drape_world *w[2] = {NULL, NULL};
    for (int k = 0; k < 2; ++k) {
        def.backend.type = k ? DRAPE_BACKEND_OPENCL : DRAPE_BACKEND_CPU;
        ENSURE_OK(drape_world_create(&def, &w[k]));
        ENSURE_OK(tu_add_cloth_pieces(w[k]));
        ENSURE(tu_step(w[k], 60));
    }
    /* in global memory on CPU devices, in local memory on GPUs (as the small cloth in
     * choice_and_override) */
    const bool cpu_device = strstr(drape_world_device(w[1]), "; CPU;") != NULL;
    ENSURE_MSG(drape_world_distance_kernel(w[1]) ==
                   (cpu_device ? DRAPE_DISTANCE_KERNEL_FUSED : DRAPE_DISTANCE_KERNEL_FUSED_LOCAL),
               "the cloth pieces run %s on %s",
               drape_distance_kernel_name(drape_world_distance_kernel(w[1])),
               drape_world_device(w[1]));
    drape_profile p;
    ENSURE_OK(drape_world_get_profile(w[1], &p));
    ENSURE_MSG(p.work_groups == TU_CLOTH_PIECES_GROUPS, "%u work-groups", (unsigned)p.work_groups);
    tu_state a, b;
    ENSURE(tu_read(w[0], &a) && tu_read(w[1], &b));
    ENSURE(a.n == b.n);
    ENSURE_MSG(tu_same_bits(a.x, b.x, a.n * sizeof *a.x), "positions differ");
    tu_state_free(&a);
    tu_state_free(&b);
    /* per colour on request: no work-groups reported */
    drape_world_def d = drape_world_get_def(w[1]);
    d.distance_kernel = DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT;
    ENSURE_OK(drape_world_set_def(w[1], &d));
    ENSURE_OK(drape_world_get_profile(w[1], &p));
    ENSURE(p.work_groups == 0);
    drape_world_destroy(w[0]);
    drape_world_destroy(w[1]);
}

/* AUTO: the environment's choice, else by device type; the def wins over the environment; a bad
 * name in the environment or the def fails with a message that names it; set_def switches. */
static void choice_and_override(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    unsetenv("DRAPE_DISTANCE_KERNEL");
    drape_world *w = NULL;
    ENSURE_OK(drape_world_create(&def, &w));
    const bool cpu_device = strstr(drape_world_device(w), "; CPU;") != NULL;
    ENSURE(drape_world_distance_kernel(w) ==
           (cpu_device ? DRAPE_DISTANCE_KERNEL_LANES16 : DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT));
    /* a small cloth: AUTO fuses its projection into one launch, on every device type (on GPUs
     * with the displacements in local memory) */
    drape_cloth_def small = drape_default_cloth_def();
    small.nx = small.ny = 10;
    ENSURE_OK(drape_world_add_cloth(w, &small, NULL));
    ENSURE(tu_step(w, 2));
    ENSURE(drape_world_distance_kernel(w) ==
           (cpu_device ? DRAPE_DISTANCE_KERNEL_FUSED : DRAPE_DISTANCE_KERNEL_FUSED_LOCAL));
    drape_world_def d = drape_world_get_def(w);
    d.distance_kernel = DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT;
    ENSURE_OK(drape_world_set_def(w, &d));
    ENSURE(drape_world_distance_kernel(w) == DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT);
    d.distance_kernel = DRAPE_DISTANCE_KERNEL_LANES16;
    ENSURE_OK(drape_world_set_def(w, &d));
    ENSURE(drape_world_distance_kernel(w) == DRAPE_DISTANCE_KERNEL_LANES16);
    d.distance_kernel = (drape_distance_kernel)7;
    ENSURE_RESULT(drape_world_set_def(w, &d), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(tu_log_has(&log, "def.distance_kernel = 7"));
    ENSURE(drape_world_distance_kernel(w) == DRAPE_DISTANCE_KERNEL_LANES16);
    drape_world_destroy(w);

    /* drape-bench's 64 x 64 cloth (24 k constraints): on GPUs AUTO fuses it with fused-local
     * where its 4096 displacements (48 kB) fit the device's local memory beside the kernel's own
     * use, and runs it per constraint otherwise (on an H100 the driver keeps part of the 48 kB, and
     * per-constraint, 0.56 ms, beat the fused kernel in global memory, 0.63 ms); CPU devices run
     * lanes16 */
    ENSURE_OK(drape_world_create(&def, &w));
    drape_cloth_def bench = drape_default_cloth_def();
    bench.nx = bench.ny = 64;
    ENSURE_OK(drape_world_add_cloth(w, &bench, NULL));
    ENSURE(tu_step(w, 1));
    const drape_distance_kernel k64 = drape_world_distance_kernel(w);
    ENSURE_MSG(cpu_device ? k64 == DRAPE_DISTANCE_KERNEL_LANES16
                          : k64 == DRAPE_DISTANCE_KERNEL_FUSED_LOCAL ||
                                k64 == DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT,
               "a 64 x 64 cloth runs %s on %s",
               drape_distance_kernel_name(drape_world_distance_kernel(w)), drape_world_device(w));
    drape_world_destroy(w);

    const char *names[] = {"per-constraint", "lanes16"};
    const drape_distance_kernel kernels[] = {DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT,
                                             DRAPE_DISTANCE_KERNEL_LANES16};
    for (int i = 0; i < 2; ++i) {
        setenv("DRAPE_DISTANCE_KERNEL", names[i], 1);
        ENSURE_OK(drape_world_create(&def, &w));
        ENSURE(drape_world_distance_kernel(w) == kernels[i]);
        drape_world_destroy(w);
        def.distance_kernel = kernels[1 - i]; /* the def wins */
        ENSURE_OK(drape_world_create(&def, &w));
        ENSURE(drape_world_distance_kernel(w) == kernels[1 - i]);
        drape_world_destroy(w);
        def.distance_kernel = DRAPE_DISTANCE_KERNEL_AUTO;
    }
    setenv("DRAPE_DISTANCE_KERNEL", "sixteen", 1);
    ENSURE_RESULT(drape_world_create(&def, &w), DRAPE_ERROR_ENVIRONMENT);
    ENSURE(w == NULL);
    ENSURE(tu_log_has(&log, "DRAPE_DISTANCE_KERNEL=\"sixteen\""));
    def.backend.type = DRAPE_BACKEND_CPU; /* the CPU has one kernel: the variable is not read */
    ENSURE_OK(drape_world_create(&def, &w));
    drape_world_destroy(w);
    unsetenv("DRAPE_DISTANCE_KERNEL");
}

/* The particle contacts' layout switches (docs/particle-contacts.md) and the switch that hides
 * doubles (docs/opencl-variants.md) refuse a value that is neither of their two words, with a
 * message that names the variable and the value, and take either word (DRAPE_OPENCL_FP64=maybe
 * was taken as "on" without a word). */
static void particle_switches_refuse_bad_values(void)
{
    const char *names[] = {"DRAPE_PARTICLE_ORDER", "DRAPE_PARTICLE_PASSES", "DRAPE_PARTICLE_SCAN",
                           "DRAPE_PARTICLE_SEARCH", "DRAPE_OPENCL_FP64"};
    const char *words[] = {"index", "all", "groups", "full", "on"};
    for (int i = 0; i < 5; ++i) {
        tu_log log;
        drape_world_def def = tu_def(&log);
        def.backend.type = DRAPE_BACKEND_OPENCL;
        drape_world *w = NULL;
        setenv(names[i], "bogus", 1);
        ENSURE_RESULT(drape_world_create(&def, &w), DRAPE_ERROR_ENVIRONMENT);
        ENSURE(w == NULL);
        char expected[64];
        snprintf(expected, sizeof expected, "%s=bogus", names[i]);
        ENSURE_MSG(tu_log_first_error_has(&log, expected), "no error names %s", expected);
        setenv(names[i], words[i], 1);
        ENSURE_OK(drape_world_create(&def, &w));
        drape_world_destroy(w);
        unsetenv(names[i]);
    }
}

int suite_variants(void)
{
    int argc = test_argc();
    char **argv = test_argv();
    listed_count = argc - 1;
    listed = argv + 1;
    RUN_TEST(every_variant_is_run_by_ctest);
    uint32_t devices = 0;
    if (drape_list_devices(NULL, 0, &devices, tu_log_capture, &(tu_log){0}) != DRAPE_OK ||
        devices == 0) {
        printf("no OpenCL device: the variants themselves are skipped\n");
        return test_finish() ? 1 : 77;
    }
    RUN_TEST(variants_match_the_reference);
    RUN_TEST(choice_and_override);
    RUN_TEST(many_cloths_fuse);
    RUN_TEST(particle_switches_refuse_bad_values);
    return test_finish();
}

/* The OpenCL backend's choices and faults, through the public API.
 *
 *   drape_core_tests backend            device choice, a device too small for the cloth,
 *                                       profile, diagnostics
 *   drape_core_tests backend no-device  run by ctest with OCL_ICD_VENDORS pointing at an empty
 *                                       folder, so that the ICD loader finds no platform: AUTO
 *                                       falls back to the CPU with a warning, OPENCL is an error,
 *                                       listing devices says why.
 * Without an OpenCL device the first form skips (77).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static drape_world *cloth_world(drape_world_def *def, uint32_t n)
{
    drape_world *w = NULL;
    if (drape_world_create(def, &w) != DRAPE_OK)
        return NULL;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = n;
    drape_collider_def g = drape_default_collider_def(), s = drape_default_collider_def();
    s.type = DRAPE_COLLIDER_SPHERE;
    s.position = tu_v3(0.0f, 0.5f, 0.0f);
    s.radius = 0.3f;
    if (drape_world_add_cloth(w, &c, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &g, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &s, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static void device_named_nothing(void)
{
    tu_log log = {0};
    drape_world_def def = tu_def(&log);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    def.backend.device = "no-such-device-anywhere";
    drape_world *w = NULL;
    ENSURE_RESULT(drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(w == NULL);
    ENSURE(log.errors > 0);

    /* The same selector from the environment, with AUTO: a warning and the CPU. */
    setenv("DRAPE_DEVICE", "no-such-device-anywhere", 1);
    tu_log_reset(&log);
    def.backend.device = NULL;
    def.backend.type = DRAPE_BACKEND_AUTO;
    ENSURE_OK(drape_world_create(&def, &w));
    unsetenv("DRAPE_DEVICE");
    ENSURE(drape_world_backend(w) == DRAPE_BACKEND_CPU);
    ENSURE(tu_log_has(&log, "falling back to the CPU"));
    /* One warning that names the selector that matched nothing, and no error: the world works. */
    ENSURE(tu_log_has(&log, "no OpenCL device matches \"no-such-device-anywhere\""));
    ENSURE(log.errors == 0 && log.count == 1);
    drape_world_destroy(w);

    /* Asked for OpenCL, the variable's selector fails as the variable's fault, not the def's. */
    setenv("DRAPE_DEVICE", "no-such-device-anywhere", 1);
    tu_log_reset(&log);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    w = NULL;
    ENSURE_RESULT(drape_world_create(&def, &w), DRAPE_ERROR_ENVIRONMENT);
    unsetenv("DRAPE_DEVICE");
    ENSURE(w == NULL);
    ENSURE(tu_log_first_error_has(&log, "(from DRAPE_DEVICE)"));
}

static void device_chosen_by_index_and_name(void)
{
    drape_device_info info[8];
    uint32_t count = 0;
    ENSURE_OK(drape_list_devices(info, 8, &count, NULL, NULL));
    ENSURE(count > 0);
    drape_world_def def = tu_def(NULL);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    def.backend.device = "0";
    drape_world *w = NULL;
    ENSURE_OK(drape_world_create(&def, &w));
    ENSURE(drape_world_backend(w) == DRAPE_BACKEND_OPENCL);
    ENSURE(strstr(drape_world_device(w), info[0].name) != NULL);
    drape_world_destroy(w);
    def.backend.device = info[0].name;
    ENSURE_OK(drape_world_create(&def, &w));
    ENSURE(strstr(drape_world_device(w), info[0].name) != NULL);
    drape_world_destroy(w);
}

/* A device with too little memory for the cloth: the step fails with the size in the message, and
 * the world's state stays readable and intact. */
/* Also through AUTO, whose creation routes the backend's messages through a log of its own: after
 * it, the backend's messages (the allocation's, then the step's) reach the world's log again. */
static void device_too_small(void)
{
    const drape_backend backends[] = {DRAPE_BACKEND_OPENCL, DRAPE_BACKEND_AUTO};
    for (int b = 0; b < 2; ++b) {
        tu_log log = {0};
        drape_world_def def = tu_def(&log);
        def.backend.type = backends[b];
        def.backend.device_memory_limit = 256 * 1024;
        drape_world *w = cloth_world(&def, 64);
        ENSURE(w != NULL);
        ENSURE(drape_world_backend(w) == DRAPE_BACKEND_OPENCL);
        tu_state before, after;
        ENSURE(tu_read(w, &before));
        ENSURE_RESULT(drape_world_step(w), DRAPE_ERROR_OUT_OF_MEMORY);
        ENSURE(strstr(log.last, "OpenCL step failed") != NULL);
        ENSURE(log.errors >= 2);
        ENSURE_RESULT(drape_world_step(w), DRAPE_ERROR_OUT_OF_MEMORY);
        ENSURE(tu_read(w, &after));
        ENSURE(after.n == before.n && tu_same_bits(after.x, before.x, before.n * sizeof *before.x));
        tu_state_free(&before);
        tu_state_free(&after);
        drape_world_destroy(w);
    }
}

/* The size asked for is named in the allocation's message, which comes before the step's summary.
 */
static void note_sizes(drape_log_level level, const char *message, void *user)
{
    if (level == DRAPE_LOG_ERROR && strstr(message, "bytes") && strstr(message, "OpenCL buffer"))
        *(int *)user += 1;
}

static void allocation_message_names_bytes(void)
{
    int sized = 0;
    drape_world_def def = tu_def(NULL);
    def.log = note_sizes;
    def.log_user = &sized;
    def.backend.type = DRAPE_BACKEND_OPENCL;
    def.backend.device_memory_limit = 64 * 1024;
    drape_world *w = cloth_world(&def, 128);
    ENSURE(w != NULL);
    ENSURE_RESULT(drape_world_step(w), DRAPE_ERROR_OUT_OF_MEMORY);
    ENSURE(sized == 1);
    drape_world_destroy(w);
}

/* Launches per step: those of the step's plan, the same with profiling on or off, and no
 * per-phase times unless profiling was asked for. */
static void launches_per_step(void)
{
    drape_world_def def = tu_def(NULL);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    def.substeps = 2;
    def.iterations = 3;
    def.distance_kernel = DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT; /* one launch per colour */
    drape_world *quiet = cloth_world(&def, 20);
    def.profiling = true;
    drape_world *timed = cloth_world(&def, 20);
    ENSURE(quiet && timed);
    ENSURE(tu_step(quiet, 1) && tu_step(timed, 1)); /* the first step uploads */
    drape_world_reset_profile(quiet);
    drape_world_reset_profile(timed);
    ENSURE(tu_step(quiet, 5) && tu_step(timed, 5));
    drape_profile a, b;
    ENSURE_OK(drape_world_get_profile(quiet, &a));
    ENSURE_OK(drape_world_get_profile(timed, &b));
    drape_coloring_stats colors;
    ENSURE_OK(drape_world_get_coloring(quiet, DRAPE_CONSTRAINT_DISTANCE, &colors));
    /* per substep: the prediction with the contacts' generation (1), per iteration one launch per
     * colour of the distance constraints (the cloth's only kind) and the contact pass (1) but the
     * last iteration's, which the update's launch runs (1); per step the read of the non-finite
     * check (1) */
    const uint64_t per_step = 2u * (1u + 3u * (colors.colors + 1u) - 1u + 1u) + 1u;
    ENSURE_MSG(a.launches == 5u * per_step, "%llu launches in 5 steps, the plan has %llu",
               (unsigned long long)a.launches, (unsigned long long)(5u * per_step));
    ENSURE(b.launches == a.launches);
    ENSURE(a.steps == 5 && a.project_ms == 0.0 && a.predict_ms == 0.0);
    ENSURE(b.project_ms > 0.0 && b.predict_ms > 0.0);
    /* fused: the whole projection of a substep is one launch */
    drape_world_def d = drape_world_get_def(quiet);
    d.distance_kernel = DRAPE_DISTANCE_KERNEL_FUSED;
    ENSURE_OK(drape_world_set_def(quiet, &d));
    drape_world_reset_profile(quiet);
    ENSURE(tu_step(quiet, 5));
    ENSURE_OK(drape_world_get_profile(quiet, &a));
    ENSURE(a.launches == 5u * (2u * (1u + 1u + 1u) + 1u));
    /* profiling asked for after creation: the world's queue is remade with it, and times read */
    d.profiling = true;
    ENSURE_OK(drape_world_set_def(quiet, &d));
    drape_world_reset_profile(quiet);
    ENSURE(tu_step(quiet, 2));
    ENSURE_OK(drape_world_get_profile(quiet, &a));
    ENSURE(a.project_ms > 0.0 && a.predict_ms > 0.0);
    drape_world_destroy(quiet);
    drape_world_destroy(timed);
}

/* A world of a large cloth never builds the fused projection (most of a minute to compile on
 * PoCL); asking for it builds that one file more, and the step then runs it. */
static void fused_built_on_demand(void)
{
    drape_world_def def = tu_def(NULL);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    drape_world *w = cloth_world(&def, 128); /* 97 k constraints: past AUTO's fused bounds */
    ENSURE(w != NULL);
    if (!w)
        return;
    ENSURE(tu_step(w, 1));
    drape_profile a, b;
    ENSURE_OK(drape_world_get_profile(w, &a));
    ENSURE(a.programs_built > 0 && a.work_groups == 0);
    drape_world_def d = drape_world_get_def(w);
    d.distance_kernel = DRAPE_DISTANCE_KERNEL_FUSED;
    ENSURE_OK(drape_world_set_def(w, &d));
    ENSURE(drape_world_distance_kernel(w) == DRAPE_DISTANCE_KERNEL_FUSED);
    ENSURE(tu_step(w, 1));
    ENSURE_OK(drape_world_get_profile(w, &b));
    ENSURE_MSG(b.programs_built == a.programs_built + 1, "%u kernel files built, then %u",
               (unsigned)a.programs_built, (unsigned)b.programs_built);
    ENSURE(b.work_groups > 0);
    drape_world_destroy(w);
}

static void profile_and_diagnostics(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *cpu = cloth_world(&def, 24);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    def.profiling = true;
    drape_world *gpu = cloth_world(&def, 24);
    ENSURE(cpu && gpu);
    ENSURE(tu_step(cpu, 45) && tu_step(gpu, 45));
    drape_profile p;
    ENSURE_OK(drape_world_get_profile(gpu, &p));
    ENSURE(p.steps == 45);
    /* the prediction's launch also generates the contacts: collision generation is in predict_ms */
    ENSURE(p.predict_ms > 0.0 && p.collide_ms == 0.0 && p.project_ms > 0.0 && p.update_ms > 0.0);
    ENSURE(p.project_ms > p.update_ms);
    ENSURE(p.device_bytes > 24u * 24u * 3u * 16u);
    drape_diagnostics a, b;
    ENSURE_OK(drape_world_get_diagnostics(cpu, &a));
    ENSURE_OK(drape_world_get_diagnostics(gpu, &b));
    ENSURE(a.kinetic_energy > 0.0 && a.distance_residual > 0.0);
    /* Both backends sum the terms in double: from the same state (a CPU device, bitwise parity)
     * they differ only in the order of double additions, far below a float's rounding (a float
     * sum of these 576 terms is off by about 1e-7). A GPU's state may differ by 1e-5. */
    tu_state sa, sb;
    ENSURE(tu_read(cpu, &sa) && tu_read(gpu, &sb));
    const bool same_state = sa.n == sb.n && tu_same_bits(sa.x, sb.x, sa.n * sizeof *sa.x) &&
                            tu_same_bits(sa.v, sb.v, sa.n * sizeof *sa.v);
    tu_state_free(&sa), tu_state_free(&sb);
    const double tol = same_state ? 1e-12 : 1e-5;
    ENSURE_NEAR(b.kinetic_energy, a.kinetic_energy, tol * a.kinetic_energy);
    ENSURE_NEAR(b.distance_residual, a.distance_residual, tol * a.distance_residual);
    drape_world_reset_profile(gpu);
    ENSURE_OK(drape_world_get_profile(gpu, &p));
    ENSURE(p.steps == 0 && p.project_ms == 0.0);
    drape_world_destroy(cpu);
    drape_world_destroy(gpu);
}

static void no_platform(void)
{
    tu_log log = {0};
    uint32_t count = 99;
    ENSURE_RESULT(drape_list_devices(NULL, 0, &count, tu_log_capture, &log),
                  DRAPE_ERROR_UNSUPPORTED);
    ENSURE(count == 0);
    ENSURE(tu_log_has(&log, "no OpenCL platform"));

    drape_world_def def = tu_def(&log);
    def.backend.type = DRAPE_BACKEND_OPENCL;
    drape_world *w = NULL;
    ENSURE_RESULT(drape_world_create(&def, &w), DRAPE_ERROR_UNSUPPORTED);
    ENSURE(w == NULL);

    tu_log_reset(&log);
    def.backend.type = DRAPE_BACKEND_AUTO;
    ENSURE_OK(drape_world_create(&def, &w));
    ENSURE(drape_world_backend(w) == DRAPE_BACKEND_CPU);
    ENSURE(tu_log_has(&log, "falling back to the CPU"));
    ENSURE(tu_log_has(&log, "no OpenCL platform"));
    ENSURE(log.errors == 0 && log.count == 1);
    ENSURE(tu_step(w, 2));
    drape_world_destroy(w);
}

int suite_backend(void)
{
    int argc = test_argc();
    char **argv = test_argv();
    if (argc > 1 && !strcmp(argv[1], "no-device")) {
        RUN_TEST(no_platform);
        return test_finish();
    }
    uint32_t devices = 0;
    tu_log quiet = {0};
    if (drape_list_devices(NULL, 0, &devices, tu_log_capture, &quiet) != DRAPE_OK || !devices) {
        printf("no OpenCL device: skipped\n");
        return 77;
    }
    RUN_TEST(device_named_nothing);
    RUN_TEST(device_chosen_by_index_and_name);
    RUN_TEST(device_too_small);
    RUN_TEST(allocation_message_names_bytes);
    RUN_TEST(profile_and_diagnostics);
    RUN_TEST(fused_built_on_demand);
    RUN_TEST(launches_per_step);
    return test_finish();
}

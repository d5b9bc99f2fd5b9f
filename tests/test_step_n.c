/* Steps queued back to back (drape_world_step_n): the same bits as one drape_world_step at a time,
 * one wait for the device instead of one per step (OpenCL: each further step adds its kernels but
 * no read of the non-finite check), and a non-finite state still reported. Runs on the backend
 * tu_def() picks (core.step_n on the CPU, opencl.core.step_n.VARIANT).
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdlib.h>

/* A damped cloth pinned at two corners, falling onto a sphere: every phase of the step runs. */
static drape_world *draped(tu_log *log)
{
    drape_world_def def = tu_def(log);
    def.damping = 0.05f;
    def.substeps = 2;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 12;
    c.origin = tu_v3(-0.5f, 0.4f, -0.5f);
    c.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    drape_collider_def sphere = drape_default_collider_def();
    sphere.type = DRAPE_COLLIDER_SPHERE;
    sphere.radius = 0.3f;
    if (drape_world_add_cloth(w, &c, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &sphere, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static void test_same_bits_as_single_steps(void)
{
    drape_world *a = draped(NULL), *b = draped(NULL);
    ENSURE(a && b);
    ENSURE(tu_step(a, 12));
    ENSURE_OK(drape_world_step_n(b, 5));
    ENSURE_OK(drape_world_step_n(b, 0)); /* nothing */
    ENSURE_OK(drape_world_step_n(b, 7));
    ENSURE(drape_world_time(a) == drape_world_time(b));
    drape_profile pa, pb;
    ENSURE_OK(drape_world_get_profile(a, &pa));
    ENSURE_OK(drape_world_get_profile(b, &pb));
    ENSURE(pa.steps == 12 && pb.steps == 12);
    tu_state sa, sb;
    ENSURE(tu_read(a, &sa) && tu_read(b, &sb));
    ENSURE(sa.n == sb.n);
    ENSURE(tu_same_bits(sa.x, sb.x, sa.n * sizeof *sa.x));
    ENSURE(tu_same_bits(sa.v, sb.v, sa.n * sizeof *sa.v));
    tu_state_free(&sa);
    tu_state_free(&sb);
    drape_world_destroy(a);
    drape_world_destroy(b);
}

/* OpenCL: n steps back to back enqueue n steps' kernels and a single read of the check. */
static void test_one_wait_for_many_steps(void)
{
    drape_world *w = draped(NULL);
    ENSURE(w);
    if (drape_world_backend(w) != DRAPE_BACKEND_OPENCL) {
        printf("  the CPU reference has no launches: nothing to count\n");
        drape_world_destroy(w);
        return;
    }
    ENSURE(tu_step(w, 1)); /* uploads and first-call work out of the way */
    drape_profile one, four;
    drape_world_reset_profile(w);
    ENSURE(tu_step(w, 1));
    ENSURE_OK(drape_world_get_profile(w, &one));
    drape_world_reset_profile(w);
    ENSURE_OK(drape_world_step_n(w, 4));
    ENSURE_OK(drape_world_get_profile(w, &four));
    printf("  commands: %llu for one step, %llu for four back to back\n",
           (unsigned long long)one.launches, (unsigned long long)four.launches);
    ENSURE(one.launches > 1);
    ENSURE(four.launches == 4 * one.launches - 3);
    drape_world_destroy(w);
}

static void test_non_finite_reported(void)
{
    tu_log log;
    drape_world *w = tu_unstable_cloth(&log);
    ENSURE(w);
    drape_result r = drape_world_step_n(w, 600);
    printf("  \"%s\": %s\n", drape_result_string(r), log.last);
    ENSURE_RESULT(r, DRAPE_ERROR_NON_FINITE);
    ENSURE(tu_log_has(&log, "drape_world_step_n: the state became non-finite"));
    if (drape_world_backend(w) == DRAPE_BACKEND_OPENCL)
        ENSURE(tu_log_has(&log, "one of the 600 steps run back to back"));
    else /* the CPU stops at the step that made it */
        ENSURE(tu_log_has(&log, "in the step that ended at") && drape_world_time(w) < 9.9);
    drape_world_destroy(w);
}

int suite_step_n(void)
{
    RUN_TEST(test_same_bits_as_single_steps);
    RUN_TEST(test_one_wait_for_many_steps);
    RUN_TEST(test_non_finite_reported);
    return test_finish();
}

/* Every built-in scene on the CPU reference and on OpenCL: after 300 steps every position agrees to
 * 1e-5 relative (of max(1 m, |x|)). Both backends run the same constraint maths in the same colour
 * order (on PoCL they agree bitwise); the tolerance is what a GPU that orders or contracts
 * differently is held to. The iteration count is cut to 2 for both runs: the test is about
 * agreement, and each iteration costs a kernel launch per colour. Skips (77) without OpenCL.
 */
#include "scene_test.h"

#include <math.h>
#include <stdlib.h>

enum { STEPS = 300, ITERATIONS = 2 };

/* Loads a built-in on a backend and runs it; NULL (with a message) on failure. */
static drape_vec3 *run(const char *name, drape_backend backend, uint32_t *n)
{
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = backend;
    drape_scene *s;
    drape_scene_error e;
    if (drape_scene_load_builtin(name, &o, &s, &e) != DRAPE_SCENE_OK) {
        fprintf(stderr, "%s\n", e.message);
        return NULL;
    }
    drape_world *w = drape_scene_world(s);
    drape_world_def def = drape_world_get_def(w);
    def.iterations = ITERATIONS;
    drape_result r = drape_world_set_def(w, &def);
    /* scenes with contacts between particles take fewer steps, so that the test stays fast */
    drape_contact_stats cs = {0};
    if (r == DRAPE_OK)
        r = drape_world_get_contact_stats(w, &cs);
    const int steps = cs.enabled ? STEPS / 10 : STEPS;
    for (int i = 0; i < steps && r == DRAPE_OK; ++i)
        r = drape_scene_step(s);
    *n = drape_world_particle_count(w);
    drape_vec3 *x = malloc(*n * sizeof *x);
    if (r == DRAPE_OK)
        r = drape_world_get_positions(w, 0, *n, x);
    drape_scene_destroy(s);
    if (r != DRAPE_OK) {
        fprintf(stderr, "%s: %s\n", name, drape_result_string(r));
        free(x);
        return NULL;
    }
    return x;
}

static void builtins_agree(st_run *t)
{
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i) {
        const char *name = drape_scene_builtin_name(i);
        uint32_t n_cpu = 0, n_cl = 0;
        double t0 = st_now();
        drape_vec3 *cpu = run(name, DRAPE_BACKEND_CPU, &n_cpu);
        double t1 = st_now();
        drape_vec3 *cl = run(name, DRAPE_BACKEND_OPENCL, &n_cl);
        double t2 = st_now();
        CHECK(t, cpu && cl && n_cpu == n_cl);
        double worst = 0.0;
        for (uint32_t k = 0; k < n_cpu; ++k) {
            const drape_vec3 a = cpu[k], b = cl[k];
            double scale =
                fmax(1.0, sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z));
            double d = sqrt(((double)a.x - b.x) * (a.x - b.x) + ((double)a.y - b.y) * (a.y - b.y) +
                            ((double)a.z - b.z) * (a.z - b.z));
            worst = isfinite(d) ? fmax(worst, d / scale) : INFINITY;
        }
        free(cpu);
        free(cl);
        printf(
            "  %-16s %5u particles, worst relative difference %.3g (cpu %.2f s, opencl %.2f s)\n",
            name, n_cpu, worst, t1 - t0, t2 - t1);
        CHECK_MSG(t, worst <= 1e-5, "%s: CPU and OpenCL differ by %.3g", name, worst);
    }
}

int suite_parity(void)
{
    if (!st_have_opencl()) {
        printf("no OpenCL device: skipped\n");
        return 77;
    }
    st_run t = {0};
    RUN(&t, builtins_agree);
    return st_finish(&t);
}

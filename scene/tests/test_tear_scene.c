/* scenes/tear.json: a cloth hanging from attachments along its top row, whose halves are pulled
 * apart at 0.5 m/s each. It must tear in two and both halves must stay on their attachments, at the
 * scene's 4 substeps and at 1. At 1 substep a cloth hung by attachments stretches a tenth and more
 * (Gauss-Seidel carries the attachments' pull down one row per iteration), so without tethers to
 * the attached particles its top row tore off and the whole cloth fell; and a tether that a tear
 * runs across held the pieces together until the particles between them were torn out, which then
 * fell. Runs on the CPU reference; opencl.parity holds the device to it.
 */
#include "scene_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct torn {
    bool ok;
    uint32_t fallen;     /* particles that fell below the cloth's rest height (y < 0.5 m) */
    uint32_t in_between; /* particles still up within 1.5 m of the middle (|x| < 1.5 m) */
    uint32_t splits, tethers;
} torn;

static torn tear_at(int substeps)
{
    torn o = {0};
    char path[4096];
    drape_scene_options opt = drape_scene_default_options();
    opt.override_backend = true;
    opt.backend = DRAPE_BACKEND_CPU;
    drape_scene *s = NULL;
    drape_scene_error e;
    if (drape_scene_load_file(st_scene_path(path, sizeof path, "tear.json"), &opt, &s, &e) !=
        DRAPE_SCENE_OK) {
        printf("  %s\n", e.message);
        return o;
    }
    drape_world *w = drape_scene_world(s);
    drape_world_def def = drape_world_get_def(w);
    def.substeps = substeps;
    o.ok = drape_world_set_def(w, &def) == DRAPE_OK;
    for (int k = 0; o.ok && k < 240; ++k) /* 4 s: the attachments end 5.2 m apart */
        o.ok = drape_scene_step(s) == DRAPE_OK;
    const uint32_t n = drape_world_particle_count(w);
    drape_vec3 *x = malloc(n * sizeof *x);
    float *mass = malloc(n * sizeof *mass);
    o.ok = o.ok && x && mass && drape_world_get_positions(w, 0, n, x) == DRAPE_OK &&
           drape_world_get_masses(w, 0, n, mass) == DRAPE_OK;
    for (uint32_t i = 0; o.ok && i < n; ++i) {
        if (!(mass[i] > 0.0f)) /* a spare the tears did not use: pinned where it waits */
            continue;
        if (!(x[i].y >= 0.5f))
            o.fallen++;
        else if (fabsf(x[i].x) < 1.5f)
            o.in_between++;
    }
    o.splits = drape_world_get_tear_stats(w).splits;
    o.tethers = drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER);
    free(x);
    free(mass);
    drape_scene_destroy(s);
    return o;
}

static void torn_in_two_and_hanging(st_run *t)
{
    const int substeps[2] = {4, 1};
    for (int k = 0; k < 2; ++k) {
        const torn o = tear_at(substeps[k]);
        printf("  %d substeps: %u splits, %u particles fell, %u still between the halves, %u "
               "tethers left\n",
               substeps[k], o.splits, o.fallen, o.in_between, o.tethers);
        CHECK(t, o.ok);
        CHECK(t, o.splits > 0);
        CHECK(t, o.in_between == 0); /* torn in two: every particle up is with one of the halves */
        CHECK(t, o.fallen <= 2);     /* at most a fragment torn out along the tear */
    }
}

int suite_tear_scene(void)
{
    st_run t = {0};
    RUN(&t, torn_in_two_and_hanging);
    return st_finish(&t);
}

/* The shipped scenes that nothing drives (no wind, no moving target or collider; a balloon only
 * while it inflates) start at rest or in free flight: their first steps add no energy. A scene
 * whose bodies start within each other's contact distance pushes them apart in the first step and
 * turns the overlap into velocity: scenes/soft-among-balls.json placed its jelly and balloon 1 cm
 * apart with contact radii of 4.5 and 4 cm, and its first step gave the scene 0.11 J/kg (a kick of
 * 0.2 m/s sideways). Energy here is kinetic plus gravitational per kg of particles (g along -y).
 * CPU reference.
 */
#include "scene_test.h"

#include <math.h>
#include <stdlib.h>

/* st_energy of the scene's state now; NaN when it cannot be read. */
static double energy(drape_world *w, uint32_t n, drape_vec3 *x, drape_vec3 *v)
{
    if (drape_world_get_positions(w, 0, n, x) != DRAPE_OK ||
        drape_world_get_velocities(w, 0, n, v) != DRAPE_OK)
        return NAN;
    return st_energy(x, v, n);
}

/* The steps compared: a balloon inflates to its pressure over time (soft-among-balls' to 1.2 V0
 * in 0.026 s), its skin moving out meanwhile (4.6e-3 J/kg after the first step); by the third step
 * it holds its volume, which has taken that speed out again. */
#define STEPS 3

static void passive_scenes_gain_nothing(st_run *t)
{
    static const char *const names[] = {
        "balls.json",        "brazil-nut.json",       "cloth-fold.json",
        "cloth-layers.json", "cloth-sphere.json",     "jelly.json",
        "rigid-pile.json",   "soft-among-balls.json", "triangle-plane.json"};
    drape_scene_options o = st_cpu_options();
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        char path[1024];
        drape_scene *s = NULL;
        drape_scene_error e;
        CHECK_MSG(t,
                  drape_scene_load_file(st_scene_path(path, sizeof path, names[k]), &o, &s, &e) ==
                      DRAPE_SCENE_OK,
                  "%s: %s", names[k], e.message);
        drape_world *w = drape_scene_world(s);
        const uint32_t n = drape_world_particle_count(w);
        drape_vec3 *x = malloc(n * sizeof *x), *v = malloc(n * sizeof *v);
        CHECK(t, x && v);
        const double before = energy(w, n, x, v);
        for (int step = 0; step < STEPS; ++step)
            CHECK(t, drape_scene_step(s) == DRAPE_OK);
        const double gain = energy(w, n, x, v) - before;
        printf("  %-22s first %d steps: energy %+.2e J/kg\n", names[k], STEPS, gain);
        CHECK_MSG(t, gain < 1e-3, "%s gains %g J/kg in its first %d steps", names[k], gain, STEPS);
        free(x), free(v);
        drape_scene_destroy(s);
    }
}

int suite_scene_start(void)
{
    st_run t = {0};
    RUN(&t, passive_scenes_gain_nothing);
    return st_finish(&t);
}

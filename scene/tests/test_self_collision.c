/* Self-collision and collisions between cloths, shown on the built-in scenes cloth-fold (one cloth
 * that folds onto itself) and cloth-layers (four cloths stacked on a sphere): after they have
 * settled, no two particles of different cloths, or of one cloth but not neighbours in the rest
 * pose, are closer than 90% of their collision distance (the sum of their radii). Neighbours are
 * the pairs the solver filters: closer than 1.5 collision distances in the rest pose, which is
 * where the builder put the particles. Runs on the CPU reference.
 */
#include "scene_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Steps scene `name` for `steps` and gives the smallest distance / collision distance over the
 * pairs that must not touch; cloths: how many equal cloths the scene holds, in order. */
static void closest_ratio(st_run *t, const char *name, int cloths, int steps, double *out)
{
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = DRAPE_BACKEND_CPU;
    drape_scene *s = NULL;
    drape_scene_error e;
    CHECK_MSG(t, drape_scene_load_builtin(name, &o, &s, &e) == DRAPE_SCENE_OK, "%s", e.message);
    *out = 0.0;
    if (!s)
        return;
    drape_world *w = drape_scene_world(s);
    const uint32_t n = drape_world_particle_count(w), per = n / (uint32_t)cloths;
    drape_vec3 *rest = malloc(n * sizeof *rest), *x = malloc(n * sizeof *x);
    float *r = malloc(n * sizeof *r);
    double worst = INFINITY;
    bool stepped = true;
    if (rest && x && r && drape_world_get_positions(w, 0, n, rest) == DRAPE_OK &&
        drape_world_get_radii(w, 0, n, r) == DRAPE_OK) {
        for (int k = 0; k < steps && stepped; ++k)
            stepped = drape_scene_step(s) == DRAPE_OK;
        stepped = stepped && drape_world_get_positions(w, 0, n, x) == DRAPE_OK;
        for (uint32_t i = 0; stepped && i < n; ++i)
            for (uint32_t j = i + 1; j < n; ++j) {
                const double D = (double)r[i] + r[j];
                double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
                if (fabs(dx) >= D || fabs(dy) >= D || fabs(dz) >= D)
                    continue;
                if (i / per == j / per) {
                    double rx = rest[i].x - rest[j].x, ry = rest[i].y - rest[j].y,
                           rz = rest[i].z - rest[j].z;
                    if (sqrt(rx * rx + ry * ry + rz * rz) < 1.5 * D)
                        continue; /* neighbours in the mesh */
                }
                worst = fmin(worst, sqrt(dx * dx + dy * dy + dz * dz) / D);
            }
    }
    free(rest), free(x), free(r);
    drape_scene_destroy(s);
    *out = stepped ? worst : 0.0;
}

static void cloth_fold(st_run *t)
{
    double ratio;
    closest_ratio(t, "cloth-fold", 1, 150, &ratio);
    printf("  cloth-fold: closest non-neighbour pair at %.3f of its collision distance\n", ratio);
    CHECK(t, ratio >= 0.9);
}

static void cloth_layers(st_run *t)
{
    double ratio;
    closest_ratio(t, "cloth-layers", 4, 150, &ratio);
    printf("  cloth-layers: closest pair of different cloths or non-neighbours at %.3f of its "
           "collision distance\n",
           ratio);
    CHECK(t, ratio >= 0.9);
}

int suite_self_collision(void)
{
    st_run t = {0};
    RUN(&t, cloth_fold);
    RUN(&t, cloth_layers);
    return st_finish(&t);
}

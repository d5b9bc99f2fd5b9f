/* pilestat SCENE STEPS...: after each STEPS (ascending) the fastest ball, the median speed, the
 * mean height, the worst overlap and the pairs over 1% of a diameter (r = 1.5 cm). */
#include <drape/drape.h>
#include <drape/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
int main(int argc, char **argv)
{
    drape_scene *sc;
    drape_scene_error err;
    if (drape_scene_load(argv[1], NULL, &sc, &err) != DRAPE_SCENE_OK)
        return 1;
    drape_world *w = drape_scene_world(sc);
    uint32_t n = drape_world_particle_count(w);
    drape_vec3 *x = malloc(n * sizeof *x), *v = malloc(n * sizeof *v);
    double *sp = malloc(n * sizeof *sp);
    int done = 0;
    for (int a = 2; a < argc; ++a) {
        int target = atoi(argv[a]);
        for (; done < target; ++done)
            if (drape_scene_step(sc) != DRAPE_OK)
                return 1;
        drape_world_get_positions(w, 0, n, x);
        drape_world_get_velocities(w, 0, n, v);
        double vmax = 0, h = 0, worst = 0;
        int over = 0;
        for (uint32_t i = 0; i < n; ++i) {
            sp[i] = sqrt(v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
            vmax = fmax(vmax, sp[i]);
            h += x[i].y;
            for (uint32_t j = i + 1; j < n; ++j) {
                double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
                if (fabs(dx) < 0.03 && fabs(dy) < 0.03 && fabs(dz) < 0.03) {
                    double o = (0.03 - sqrt(dx * dx + dy * dy + dz * dz)) / 0.03;
                    worst = fmax(worst, o);
                    over += o > 0.01;
                }
            }
        }
        qsort(sp, n, sizeof *sp, cmp);
        printf("%s %5d steps: fastest %.3g m/s, median %.2g m/s, mean height %.4f m, worst overlap "
               "%.2f%%, pairs over 1%%: %d\n",
               argv[1], target, vmax, sp[n / 2], h / n, 100 * worst, over);
    }
    return 0;
}

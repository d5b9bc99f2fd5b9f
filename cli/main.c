/* drape: the command line. For now it runs the default scene, a square cloth dropped on a sphere
 * (seed 002), headless on the CPU reference solver, and prints a one-line summary per simulated
 * second. Scene files, backends and the viewer come with their own issues. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <drape/drape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *to)
{
    fprintf(to,
            "usage: drape [--seconds S] [--resolution N] [--help]\n"
            "Runs the default scene (a N x N cloth, 1 m square, 0.1 kg, dropped on a sphere of\n"
            "radius 0.3 m above a ground plane) headless on the CPU reference solver and prints one\n"
            "line per simulated second.\n"
            "  --seconds S      simulated time in seconds (default 5)\n"
            "  --resolution N   particles along each cloth edge, >= 2 (default 48)\n");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_positive(const char *flag, const char *text, double min, double *out)
{
    char *end = NULL;
    double v = text ? strtod(text, &end) : NAN;
    if (!text || end == text || *end != '\0' || !(v >= min) || !isfinite(v)) {
        fprintf(stderr, "drape: %s needs a number >= %g, got '%s'\n", flag, min,
                text ? text : "(nothing)");
        return 0;
    }
    *out = v;
    return 1;
}

int main(int argc, char **argv)
{
    double seconds = 5.0, resolution = 48.0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--seconds")) {
            const char *value = ++i < argc ? argv[i] : NULL;
            if (!parse_positive("--seconds", value, 0.0, &seconds))
                return 2;
        } else if (!strcmp(argv[i], "--resolution")) {
            const char *value = ++i < argc ? argv[i] : NULL;
            if (!parse_positive("--resolution", value, 2.0, &resolution))
                return 2;
        } else {
            fprintf(stderr, "drape: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }

    drape_world_def wdef = drape_default_world_def();
    wdef.damping = 0.01f;
    drape_world *world = NULL;
    if (drape_world_create(&wdef, &world) != DRAPE_OK)
        return 1;
    drape_cloth_def cloth = drape_default_cloth_def();
    cloth.nx = cloth.ny = (uint32_t)resolution;
    cloth.origin = (drape_vec3){-0.5f, 0.6f, -0.5f};
    drape_collider_def sphere = drape_default_collider_def();
    sphere.type = DRAPE_COLLIDER_SPHERE;
    sphere.position = (drape_vec3){0.0f, 0.0f, 0.0f};
    sphere.radius = 0.3f;
    drape_collider_def ground = drape_default_collider_def();
    ground.position = (drape_vec3){0.0f, -0.3f, 0.0f};
    drape_build_info info;
    if (drape_world_add_cloth(world, &cloth, &info) != DRAPE_OK ||
        drape_world_add_collider(world, &sphere, NULL) != DRAPE_OK ||
        drape_world_add_collider(world, &ground, NULL) != DRAPE_OK) {
        drape_world_destroy(world);
        return 1;
    }
    drape_coloring_stats colors;
    drape_world_get_coloring(world, DRAPE_CONSTRAINT_DISTANCE, &colors);
    printf("cloth-sphere: %u particles, %u distance constraints in %u colours (lower bound %u), "
           "dt %.4f s, %d substeps, %d iterations\n",
           info.particle_count, colors.constraints, colors.colors, colors.lower_bound,
           (double)wdef.dt, wdef.substeps, wdef.iterations);

    drape_vec3 *pos = malloc(info.particle_count * sizeof *pos);
    drape_vec3 *vel = malloc(info.particle_count * sizeof *vel);
    const int steps_per_second = (int)lround(1.0 / wdef.dt);
    const int total = (int)lround(seconds * steps_per_second);
    double wall = 0.0;
    int status = 0;
    for (int step = 1; step <= total && pos && vel; ++step) {
        double t0 = now_s();
        if (drape_world_step(world) != DRAPE_OK) {
            status = 1;
            break;
        }
        wall += now_s() - t0;
        if (step % steps_per_second != 0 && step != total)
            continue;
        drape_world_get_positions(world, info.first_particle, info.particle_count, pos);
        drape_world_get_velocities(world, info.first_particle, info.particle_count, vel);
        double ke = 0.0, ymin = INFINITY, ymean = 0.0;
        float m = cloth.mass / (float)info.particle_count;
        for (uint32_t i = 0; i < info.particle_count; ++i) {
            ke += 0.5 * m * (vel[i].x * vel[i].x + vel[i].y * vel[i].y + vel[i].z * vel[i].z);
            ymin = fmin(ymin, pos[i].y);
            ymean += pos[i].y / info.particle_count;
        }
        printf("t = %5.2f s  mean height %7.4f m  lowest %7.4f m  kinetic energy %.3e J  "
               "%.3f ms/step\n",
               drape_world_time(world), ymean, ymin, ke, 1e3 * wall / step);
        fflush(stdout);
    }
    free(pos);
    free(vel);
    drape_world_destroy(world);
    return status;
}

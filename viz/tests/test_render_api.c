/* viz.render_api: the Rendering API of drape.h (host/render.c, kernels/render.cl) without a window.
 *
 * - A flat cloth's render data: positions are the particles' (w = 0) and every normal is exactly +y
 *   (the triangles below run counter-clockwise seen from above).
 * - After a fall onto a sphere the OpenCL backend's render data (normals from the device's kernel)
 *   match the CPU backend's (the same maths in kernels/drape_shared.h) and every normal is unit.
 * - Without an OpenGL context there is no sharing: bind and update fail with
 * DRAPE_ERROR_UNSUPPORTED.
 * - Bad triangles are refused and leave the world as it was; particles added after the triangles
 *   get zero normals.
 * Without an OpenCL device the comparison is skipped (the CPU checks still run). */
#include "drape_test.h"
#include "test_list.h"
#include <drape/drape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int logged_errors;
static void quiet_log(drape_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == DRAPE_LOG_ERROR)
        ++logged_errors;
    if (level != DRAPE_LOG_INFO)
        printf("  (log) %s\n", message);
}

typedef struct scene {
    drape_world *world;
    drape_cloth_def cloth;
    uint32_t *triangles, triangle_count;
    uint32_t n;
    float *positions, *normals;
} scene;

static bool make_scene(scene *s, drape_backend backend)
{
    memset(s, 0, sizeof *s);
    drape_world_def def = drape_default_world_def();
    def.backend.type = backend;
    def.log = quiet_log;
    if (drape_world_create(&def, &s->world) != DRAPE_OK)
        return false;
    s->cloth = drape_default_cloth_def();
    s->cloth.nx = 24;
    s->cloth.ny = 20;
    s->cloth.origin = (drape_vec3){-0.5f, 0.5f, -0.5f};
    drape_build_info info;
    drape_collider_def sphere = drape_default_collider_def();
    sphere.type = DRAPE_COLLIDER_SPHERE;
    sphere.radius = 0.3f;
    if (drape_world_add_cloth(s->world, &s->cloth, &info) != DRAPE_OK ||
        drape_world_add_collider(s->world, &sphere, NULL) != DRAPE_OK)
        return false;
    s->n = drape_world_particle_count(s->world);
    /* quad (i, j) as (00, 11, 10) and (00, 01, 11): counter-clockwise seen from +y */
    const uint32_t nx = s->cloth.nx, ny = s->cloth.ny;
    s->triangle_count = 2 * (nx - 1) * (ny - 1);
    s->triangles = malloc(3 * (size_t)s->triangle_count * sizeof *s->triangles);
    s->positions = malloc((size_t)s->n * 4 * sizeof(float));
    s->normals = malloc((size_t)s->n * 4 * sizeof(float));
    if (!s->triangles || !s->positions || !s->normals)
        return false;
    uint32_t *t = s->triangles;
    for (uint32_t j = 0; j + 1 < ny; ++j)
        for (uint32_t i = 0; i + 1 < nx; ++i) {
            const uint32_t p00 = info.first_particle + j * nx + i, p10 = p00 + 1;
            const uint32_t p01 = p00 + nx, p11 = p01 + 1;
            const uint32_t q[6] = {p00, p11, p10, p00, p01, p11};
            memcpy(t, q, sizeof q);
            t += 6;
        }
    return drape_world_set_triangles(s->world, s->triangles, s->triangle_count) == DRAPE_OK;
}

static void free_scene(scene *s)
{
    drape_world_destroy(s->world);
    free(s->triangles);
    free(s->positions);
    free(s->normals);
}

static void check_flat(scene *s)
{
    EXPECT(drape_world_get_render_data(s->world, 0, s->n, s->positions, s->normals) == DRAPE_OK);
    drape_vec3 *x = malloc((size_t)s->n * sizeof *x);
    EXPECT(drape_world_get_positions(s->world, 0, s->n, x) == DRAPE_OK);
    int exact = 1;
    for (uint32_t i = 0; i < s->n; ++i) {
        const float *p = s->positions + 4 * i, *nrm = s->normals + 4 * i;
        exact &= p[0] == x[i].x && p[1] == x[i].y && p[2] == x[i].z && p[3] == 0.0f;
        exact &= nrm[0] == 0.0f && nrm[1] == 1.0f && nrm[2] == 0.0f && nrm[3] == 0.0f;
    }
    EXPECT(exact);
    free(x);
}

static void check_unit(const scene *s)
{
    float worst = 0.0f;
    for (uint32_t i = 0; i < s->n; ++i) {
        const float *v = s->normals + 4 * i;
        worst = fmaxf(worst, fabsf(sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) - 1.0f));
    }
    EXPECT(worst < 1e-5f);
}

static void check_no_sharing(scene *s)
{
    EXPECT(!drape_world_has_gl_sharing(s->world));
    int before = logged_errors;
    EXPECT(drape_world_bind_gl_buffers(s->world, 1, 2) == DRAPE_ERROR_UNSUPPORTED);
    EXPECT(drape_world_update_gl_buffers(s->world) == DRAPE_ERROR_UNSUPPORTED);
    EXPECT(logged_errors == before + 2); /* each failure says why */
}

int suite_render_api(void)
{
    scene cpu, cl;
    EXPECT(make_scene(&cpu, DRAPE_BACKEND_CPU));
    check_flat(&cpu);
    check_no_sharing(&cpu);

    /* Bad input leaves the triangles as they were. */
    const uint32_t bad[3] = {0, 1, cpu.n};
    EXPECT(drape_world_set_triangles(cpu.world, bad, 1) == DRAPE_ERROR_OUT_OF_RANGE);
    EXPECT(drape_world_set_triangles(cpu.world, NULL, 1) == DRAPE_ERROR_INVALID_ARGUMENT);
    EXPECT(drape_world_get_render_data(cpu.world, 0, cpu.n, NULL, cpu.normals) ==
           DRAPE_ERROR_INVALID_ARGUMENT);
    check_flat(&cpu);

    const bool have_cl = make_scene(&cl, DRAPE_BACKEND_AUTO) &&
                         drape_world_backend(cl.world) == DRAPE_BACKEND_OPENCL;
    if (have_cl) {
        printf("OpenCL: %s\n", drape_world_device(cl.world));
        check_flat(&cl);
        check_no_sharing(&cl);
    } else {
        printf("no OpenCL device: the CPU/OpenCL comparison is skipped\n");
    }

    for (int step = 0; step < 60; ++step) {
        EXPECT(drape_world_step(cpu.world) == DRAPE_OK);
        if (have_cl)
            EXPECT(drape_world_step(cl.world) == DRAPE_OK);
    }
    EXPECT(drape_world_get_render_data(cpu.world, 0, cpu.n, cpu.positions, cpu.normals) ==
           DRAPE_OK);
    check_unit(&cpu);
    if (have_cl) {
        EXPECT(drape_world_get_render_data(cl.world, 0, cl.n, cl.positions, cl.normals) ==
               DRAPE_OK);
        check_unit(&cl);
        float dp = 0.0f, dn = 0.0f;
        for (size_t i = 0; i < 4 * (size_t)cpu.n; ++i) {
            dp = fmaxf(dp, fabsf(cpu.positions[i] - cl.positions[i]));
            dn = fmaxf(dn, fabsf(cpu.normals[i] - cl.normals[i]));
        }
        printf("after 60 steps: CPU vs OpenCL, largest difference %g m in positions, %g in "
               "normals%s\n",
               (double)dp, (double)dn,
               !memcmp(cpu.normals, cl.normals, 16 * (size_t)cpu.n) ? " (bitwise equal)" : "");
        EXPECT(dp < 1e-4f && dn < 1e-3f);
    }

    /* A range reads that slice of the whole, bitwise, on each backend; a range past the end, or
     * one whose end overflows, is refused. */
    for (int k = 0; k < (have_cl ? 2 : 1); ++k) {
        scene *s = k ? &cl : &cpu;
        const uint32_t first = s->n / 3, count = s->n / 4;
        float *pp = malloc(16 * (size_t)count), *nn = malloc(16 * (size_t)count);
        EXPECT(pp && nn);
        EXPECT(drape_world_get_render_data(s->world, 0, s->n, s->positions, s->normals) ==
               DRAPE_OK);
        EXPECT(drape_world_get_render_data(s->world, first, count, pp, nn) == DRAPE_OK);
        EXPECT(!memcmp(pp, s->positions + 4 * (size_t)first, 16 * (size_t)count));
        EXPECT(!memcmp(nn, s->normals + 4 * (size_t)first, 16 * (size_t)count));
        EXPECT(drape_world_get_render_data(s->world, s->n, 0, NULL, NULL) == DRAPE_OK);
        EXPECT(drape_world_get_render_data(s->world, first, s->n, pp, nn) ==
               DRAPE_ERROR_OUT_OF_RANGE);
        EXPECT(drape_world_get_render_data(s->world, 1, UINT32_MAX, pp, nn) ==
               DRAPE_ERROR_OUT_OF_RANGE);
        free(pp);
        free(nn);
    }

    /* Particles added after the triangles: the adjacency grows, their normals are zero. */
    drape_particle_def extra = drape_default_particle_def();
    EXPECT(drape_world_add_particles(cpu.world, &extra, 1, NULL) == DRAPE_OK);
    float *p = malloc(((size_t)cpu.n + 1) * 16), *nrm = malloc(((size_t)cpu.n + 1) * 16);
    EXPECT(drape_world_get_render_data(cpu.world, 0, cpu.n + 1, p, nrm) == DRAPE_OK);
    EXPECT(nrm[4 * cpu.n] == 0.0f && nrm[4 * cpu.n + 1] == 0.0f && nrm[4 * cpu.n + 2] == 0.0f);
    free(p);
    free(nrm);

    free_scene(&cpu);
    free_scene(&cl);
    return test_finish();
}

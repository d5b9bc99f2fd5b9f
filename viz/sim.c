/* The simulation the viewer shows (sim.h).
 *
 * Solver modes. PBD uses the builder's stiffness (k = 1 stretch and shear, 0.2 bending). XPBD sets a
 * compliance on each family instead, so that the cloth's stiffness no longer depends on the
 * iteration count (Macklin et al. 2016). Mass-spring switches the world to Hooke springs integrated
 * explicitly (seed 002). Explicit integration is stable only for small h^2 k / m and h kd / m (m the
 * lightest particle's mass; each particle has up to 12 springs): measured on this scene with the
 * CPU backend, 32 x 32 at h = 1/240 s diverges from k = 2 N/m (h^2 k / m = 0.36) and 128 x 128 with
 * the world's default damping (kd = 0.001 N s/m, h kd / m = 0.17). So the viewer takes 16 substeps
 * and keeps h^2 k / m <= 0.15 and h kd / m <= 0.05, lowering k and kd below the world's defaults
 * (5 N/m, 0.001 N s/m) where the cloth is fine: 48 x 48 keeps k = 5, 128 x 128 gets 0.84 N/m and
 * 512 x 512 0.05 N/m, a very soft cloth. That is the method's limit, which the comparison shows.
 */
#include "sim.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XPBD compliance per family (m/N; rad/(N m) would be for dihedrals): stiff in stretch, softer in
 * shear, soft in bending, for the default 0.1 kg cloth. */
static const float xpbd_stretch = 1e-4f, xpbd_shear = 1e-3f, xpbd_bend = 0.5f;

const char *viz_mode_name(viz_mode mode)
{
    switch (mode) {
    case VIZ_MODE_PBD: return "PBD";
    case VIZ_MODE_XPBD: return "XPBD";
    case VIZ_MODE_MASS_SPRING: return "mass-spring";
    default: return "?";
    }
}

static void log_message(drape_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == DRAPE_LOG_INFO)
        printf("drape-view: %s\n", message);
    else
        fprintf(stderr, "drape-view: %s: %s\n", level == DRAPE_LOG_ERROR ? "error" : "warning",
                message);
}

void viz_sim_destroy(viz_sim *s)
{
    drape_world_destroy(s->world);
    s->world = NULL;
    viz_topology_free(&s->topology);
    free(s->scratch);
    s->scratch = NULL;
    s->grabbing = false;
}

static drape_world_def world_def(const viz_sim *s)
{
    drape_world_def def = drape_default_world_def();
    def.damping = s->scene.damping;
    def.backend = s->backend;
    def.device = s->device;
    def.gl_context = s->gl_context;
    def.gl_display = s->gl_display;
    def.log = log_message;
    if (s->mode == VIZ_MODE_MASS_SPRING) {
        const float n = (float)s->scene.cloth.nx * (float)s->scene.cloth.ny;
        const float m = s->scene.cloth.mass / n;
        def.mode = DRAPE_MODE_MASS_SPRING;
        def.substeps = 16;
        const float h = def.dt / (float)def.substeps;
        def.spring_stiffness = fminf(def.spring_stiffness, 0.15f * m / (h * h));
        def.spring_damping = fminf(def.spring_damping, 0.05f * m / h);
    }
    return def;
}

bool viz_sim_build(viz_sim *s)
{
    viz_sim_destroy(s);
    if (!viz_scene_describe(s->scene_name, s->resolution, &s->scene)) {
        fprintf(stderr, "drape-view: no scene '%s' (there are: %s)\n", s->scene_name,
                viz_scene_names());
        return false;
    }
    if (s->mode == VIZ_MODE_XPBD) {
        s->scene.cloth.stretch.compliance = xpbd_stretch;
        s->scene.cloth.shear_stiffness.compliance = xpbd_shear;
        s->scene.cloth.bend_stiffness.compliance = xpbd_bend;
    }
    s->strain_scale = s->mode == VIZ_MODE_MASS_SPRING ? 0.2f : 0.02f;
    s->steps = 0;
    drape_world_def def = world_def(s);
    if (drape_world_create(&def, &s->world) != DRAPE_OK) {
        fprintf(stderr, "drape-view: cannot create the world (see above)\n");
        return false;
    }
    bool ok = drape_world_add_cloth(s->world, &s->scene.cloth, &s->info) == DRAPE_OK;
    for (uint32_t i = 0; ok && i < s->scene.collider_count; ++i)
        ok = drape_world_add_collider(s->world, &s->scene.colliders[i], NULL) == DRAPE_OK;
    const uint32_t n = drape_world_particle_count(s->world);
    ok = ok && viz_topology_grid(&s->topology, &s->scene.cloth, s->info.first_particle, n);
    ok = ok && drape_world_set_triangles(s->world, s->topology.triangles,
                                         s->topology.triangle_count) == DRAPE_OK;
    s->scratch = ok ? malloc((size_t)n * sizeof *s->scratch) : NULL;
    if (!ok || !s->scratch) {
        fprintf(stderr, "drape-view: cannot build scene %s at %u x %u (see above)\n", s->scene.name,
                s->resolution, s->resolution);
        viz_sim_destroy(s);
        return false;
    }
    return true;
}

bool viz_sim_step(viz_sim *s)
{
    if (drape_world_step(s->world) != DRAPE_OK)
        return false;
    s->steps++;
    return true;
}

/* Möller-Trumbore: the ray parameter where it crosses triangle (a, b, c), either side; -1: none. */
static float ray_triangle(viz_vec3 o, viz_vec3 d, viz_vec3 a, viz_vec3 b, viz_vec3 c)
{
    viz_vec3 e1 = viz_sub(b, a), e2 = viz_sub(c, a);
    viz_vec3 p = viz_cross(d, e2);
    float det = viz_dot(e1, p);
    if (fabsf(det) < 1e-12f)
        return -1.0f;
    float inv = 1.0f / det;
    viz_vec3 tv = viz_sub(o, a);
    float u = viz_dot(tv, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return -1.0f;
    viz_vec3 q = viz_cross(tv, e1);
    float v = viz_dot(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return -1.0f;
    return viz_dot(e2, q) * inv;
}

static viz_vec3 at(const drape_vec3 *x, uint32_t i) { return viz_v3(x[i].x, x[i].y, x[i].z); }

bool viz_sim_grab(viz_sim *s, viz_vec3 eye, viz_vec3 dir, viz_vec3 forward)
{
    viz_sim_release(s);
    const uint32_t n = s->topology.particle_count;
    if (!s->world || drape_world_get_positions(s->world, 0, n, s->scratch) != DRAPE_OK)
        return false;
    /* The nearest triangle the ray crosses, then its corner nearest to the crossing. */
    const uint32_t *tri = s->topology.triangles;
    float best = FLT_MAX;
    uint32_t hit = UINT32_MAX;
    for (uint32_t t = 0; t < s->topology.triangle_count; ++t) {
        float d = ray_triangle(eye, dir, at(s->scratch, tri[3 * t]), at(s->scratch, tri[3 * t + 1]),
                               at(s->scratch, tri[3 * t + 2]));
        if (d > 0.0f && d < best)
            best = d, hit = t;
    }
    if (hit == UINT32_MAX)
        return false;
    viz_vec3 point = viz_add(eye, viz_scale(dir, best));
    uint32_t particle = tri[3 * hit];
    for (int k = 1; k < 3; ++k) {
        uint32_t p = tri[3 * hit + k];
        if (viz_length(viz_sub(at(s->scratch, p), point)) <
            viz_length(viz_sub(at(s->scratch, particle), point)))
            particle = p;
    }
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = particle;
    a.target = s->scratch[particle];
    if (drape_world_add_attachment(s->world, &a, &s->grab_attachment) != DRAPE_OK)
        return false;
    s->grabbing = true;
    s->grab_particle = particle;
    s->grab_depth = viz_dot(viz_sub(at(s->scratch, particle), eye), forward);
    return true;
}

void viz_sim_drag(viz_sim *s, viz_vec3 eye, viz_vec3 dir, viz_vec3 forward)
{
    if (!s->grabbing)
        return;
    float along = viz_dot(dir, forward);
    if (along < 1e-3f)
        return;
    viz_vec3 p = viz_add(eye, viz_scale(dir, s->grab_depth / along));
    drape_world_set_attachment_target(s->world, s->grab_attachment, (drape_vec3){p.x, p.y, p.z});
}

void viz_sim_release(viz_sim *s)
{
    if (s->grabbing && s->world)
        drape_world_remove_attachment(s->world, s->grab_attachment);
    s->grabbing = false;
}

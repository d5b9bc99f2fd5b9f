/* The simulation the viewer shows (sim.h).
 *
 * Solver modes. PBD keeps the scene's constraints. XPBD sets a compliance on each family instead,
 * so that the stiffness no longer depends on the iteration count (Macklin et al. 2016), through
 * drape_world_set_stiffness. Mass-spring switches the world to Hooke springs integrated explicitly.
 * Explicit integration is stable only for small h^2 k / m and h kd / m (m the lightest movable
 * particle's mass; a cloth particle has up to 12 springs): measured on the default scene with the
 * CPU backend, 32 x 32 at h = 1/240 s diverges from k = 2 N/m (h^2 k / m = 0.36) and 128 x 128 with
 * kd = 0.001 N s/m (h kd / m = 0.17). So the viewer takes 16 substeps and keeps h^2 k / m <= 0.15
 * and h kd / m <= 0.05, lowering k and kd below the world's defaults where the particles are light:
 * 48 x 48 keeps the default k, 512 x 512 gets 0.05 N/m, a very soft cloth. That is the method's
 * limit, which the comparison shows.
 */
#include "sim.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XPBD compliance per family (m/N for distances, rad/(N m) for dihedrals): stiff in stretch, softer
 * in shear, soft in bending, for the default 0.1 kg cloth. */
static const float xpbd_stretch = 1e-4f, xpbd_shear = 1e-3f, xpbd_bend = 0.5f;

const char *viz_mode_name(viz_mode mode)
{
    switch (mode) {
    case VIZ_MODE_PBD:
        return "PBD";
    case VIZ_MODE_XPBD:
        return "XPBD";
    case VIZ_MODE_MASS_SPRING:
        return "mass-spring";
    default:
        return "?";
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

const char *viz_sim_scene_names(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < drape_scene_builtin_count() && used < size; ++i)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                                 drape_scene_builtin_name(i));
    return buf;
}

void viz_sim_destroy(viz_sim *s)
{
    drape_scene_destroy(s->scene);
    s->scene = NULL;
    s->world = NULL;
    viz_topology_free(&s->topology);
    free(s->scratch);
    s->scratch = NULL;
    s->grabbing = false;
}

/* The lightest movable particle's mass, kg (1 when there is none). */
static float lightest_mass(const drape_world *w)
{
    const uint32_t n = drape_world_particle_count(w);
    float *m = malloc((size_t)n * sizeof *m + 1), lightest = FLT_MAX;
    if (m && drape_world_get_masses(w, 0, n, m) == DRAPE_OK)
        for (uint32_t i = 0; i < n; ++i)
            if (m[i] > 0.0f)
                lightest = fminf(lightest, m[i]);
    free(m);
    return lightest < FLT_MAX ? lightest : 1.0f;
}

/* Puts the world into the sim's solver mode. */
static bool apply_mode(viz_sim *s)
{
    drape_world *w = s->world;
    if (s->mode == VIZ_MODE_XPBD) {
        const drape_constraint_type d = DRAPE_CONSTRAINT_DISTANCE;
        return drape_world_set_stiffness(w, d, 1u << DRAPE_DISTANCE_STRETCH,
                                         drape_stiffness_xpbd(xpbd_stretch)) == DRAPE_OK &&
               drape_world_set_stiffness(w, d, 1u << DRAPE_DISTANCE_SHEAR,
                                         drape_stiffness_xpbd(xpbd_shear)) == DRAPE_OK &&
               drape_world_set_stiffness(w, d, 1u << DRAPE_DISTANCE_BEND,
                                         drape_stiffness_xpbd(xpbd_bend)) == DRAPE_OK &&
               drape_world_set_stiffness(w, DRAPE_CONSTRAINT_DIHEDRAL, 0,
                                         drape_stiffness_xpbd(xpbd_bend)) == DRAPE_OK;
    }
    if (s->mode == VIZ_MODE_MASS_SPRING) {
        drape_world_def def = drape_world_get_def(w);
        const float m = lightest_mass(w);
        def.mode = DRAPE_MODE_MASS_SPRING;
        def.substeps = 16;
        const float h = def.dt / (float)def.substeps;
        def.spring_stiffness = fminf(def.spring_stiffness, 0.15f * m / (h * h));
        def.spring_damping = fminf(def.spring_damping, 0.05f * m / h);
        return drape_world_set_def(w, &def) == DRAPE_OK;
    }
    return true;
}

bool viz_sim_build(viz_sim *s)
{
    viz_sim_destroy(s);
    const char *name = s->scene_name ? s->scene_name : VIZ_DEFAULT_SCENE;
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = s->backend;
    o.device = s->device;
    o.log = log_message;
    o.cloth_resolution = s->resolution;
    o.gl_context = s->gl_context;
    o.gl_display = s->gl_display;
    drape_scene_error err;
    if (drape_scene_load(name, &o, &s->scene, &err) != DRAPE_SCENE_OK) {
        fprintf(stderr, "drape-view: %s\n", err.message);
        return false;
    }
    s->world = drape_scene_world(s->scene);
    s->strain_scale = s->mode == VIZ_MODE_MASS_SPRING ? 0.2f : 0.02f;
    s->steps = 0;
    s->splits = 0;
    s->triangles_changed = false;
    const uint32_t n = drape_world_particle_count(s->world);
    drape_world_def def = drape_world_get_def(s->world);
    def.profiling = true; /* the HUD shows the device time per step */
    bool ok = drape_world_set_def(s->world, &def) == DRAPE_OK && apply_mode(s) &&
              viz_topology_build(&s->topology, s->scene);
    ok = ok && drape_world_set_triangles(s->world, s->topology.triangles,
                                         s->topology.triangle_count) == DRAPE_OK;
    s->scratch = ok ? malloc((size_t)n * sizeof *s->scratch + 1) : NULL;
    if (!ok || !s->scratch) {
        fprintf(stderr, "drape-view: cannot build scene %s (see above)\n", name);
        viz_sim_destroy(s);
        return false;
    }
    return true;
}

bool viz_sim_step(viz_sim *s)
{
    if (drape_scene_step(s->scene) != DRAPE_OK)
        return false;
    s->steps++;
    /* a tear splits vertices: the world moved its triangles (the topology's) to the copies */
    const uint32_t splits = drape_world_get_tear_stats(s->world).splits;
    if (splits != s->splits &&
        drape_world_get_triangles(s->world, NULL) == s->topology.triangle_count) {
        drape_world_get_triangles(s->world, s->topology.triangles);
        viz_topology_spheres(&s->topology); /* a copy on a triangle is no longer a sphere */
        s->triangles_changed = true;
    }
    s->splits = splits;
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
    /* A sphere (twice its radius, to be easy to catch) nearer than the triangle wins. */
    uint32_t sphere = UINT32_MAX;
    for (uint32_t k = 0; k < s->topology.sphere_count; ++k) {
        const uint32_t p = s->topology.spheres[k];
        const float r = 2.0f * s->topology.colors[4 * (size_t)p + 3];
        const viz_vec3 c = viz_sub(at(s->scratch, p), eye);
        const float along = viz_dot(c, dir), miss = viz_dot(c, c) - along * along;
        if (along > 0.0f && miss <= r * r && along < best)
            best = along, sphere = p;
    }
    if (hit == UINT32_MAX && sphere == UINT32_MAX)
        return false;
    viz_vec3 point = viz_add(eye, viz_scale(dir, best));
    uint32_t particle = sphere;
    for (int k = 0; sphere == UINT32_MAX && k < 3; ++k) {
        uint32_t p = tri[3 * hit + k];
        if (k == 0 || viz_length(viz_sub(at(s->scratch, p), point)) <
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

/* Each built-in scene and its file in scenes/ make the same world: the same particles, constraints
 * of each type, colliders, triangles and run length, and after 60 steps (scripted targets moving)
 * positions and velocities equal bit for bit. Also the statistics `drape info` shows add up.
 */
#include "scene_test.h"

#include <stdlib.h>
#include <string.h>

enum { STEPS = 60 };

static void read_all(const drape_scene *s, drape_vec3 **x, drape_vec3 **v, uint32_t *n)
{
    const drape_world *w = drape_scene_world(s);
    *n = drape_world_particle_count(w);
    *x = malloc(*n * sizeof **x);
    *v = malloc(*n * sizeof **v);
    drape_world_get_positions(w, 0, *n, *x);
    drape_world_get_velocities(w, 0, *n, *v);
}

static void file_matches_builtin(st_run *t)
{
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i) {
        const char *name = drape_scene_builtin_name(i);
        char file[128], path[512];
        drape_scene *a, *b;
        drape_scene_error e;
        drape_scene_options o = st_cpu_options();
        snprintf(file, sizeof file, "%s.json", name);
        CHECK_MSG(t, drape_scene_load_builtin(name, &o, &a, &e) == DRAPE_SCENE_OK, "%s", e.message);
        CHECK_MSG(t,
                  drape_scene_load_file(st_scene_path(path, sizeof path, file), &o, &b, &e) ==
                      DRAPE_SCENE_OK,
                  "%s", e.message);
        drape_world *wa = drape_scene_world(a), *wb = drape_scene_world(b);
        CHECK_MSG(t, drape_world_particle_count(wa) == drape_world_particle_count(wb), "%s", name);
        for (int k = 0; k < DRAPE_CONSTRAINT_TYPE_COUNT; ++k)
            CHECK_MSG(t,
                      drape_world_constraint_count(wa, (drape_constraint_type)k) ==
                          drape_world_constraint_count(wb, (drape_constraint_type)k),
                      "%s: constraint type %d", name, k);
        CHECK(t, drape_world_collider_count(wa) == drape_world_collider_count(wb));
        uint32_t ta, tb;
        drape_scene_triangles(a, &ta);
        drape_scene_triangles(b, &tb);
        CHECK(t, ta == tb);
        CHECK(t, drape_scene_default_steps(a) == drape_scene_default_steps(b));
        drape_world_def da = drape_world_get_def(wa), db = drape_world_get_def(wb);
        CHECK_MSG(t,
                  da.dt == db.dt && da.substeps == db.substeps && da.iterations == db.iterations &&
                      da.damping == db.damping && da.air_drag == db.air_drag &&
                      !memcmp(&da.wind, &db.wind, sizeof da.wind) &&
                      !memcmp(&da.gravity, &db.gravity, sizeof da.gravity),
                  "%s: solver settings differ", name);
        /* scenes with contacts between particles take fewer steps, so that the test stays fast */
        drape_contact_stats cs = {0};
        CHECK(t, drape_world_get_contact_stats(wa, &cs) == DRAPE_OK);
        const int steps = cs.enabled ? STEPS / 6 : STEPS;
        for (int s = 0; s < steps; ++s)
            CHECK(t, drape_scene_step(a) == DRAPE_OK && drape_scene_step(b) == DRAPE_OK);
        drape_vec3 *xa, *va, *xb, *vb;
        uint32_t n;
        read_all(a, &xa, &va, &n);
        read_all(b, &xb, &vb, &n);
        int same = !memcmp(xa, xb, n * sizeof *xa) && !memcmp(va, vb, n * sizeof *va);
        free(xa), free(va), free(xb), free(vb);
        CHECK_MSG(t, same, "%s: the file's world moves differently from the built-in's", name);
        printf("  %-16s %5u particles, same bits after %d steps\n", name, n, steps);
        drape_scene_destroy(a);
        drape_scene_destroy(b);
    }
}

/* The distances by kind that the scene counts add up to the world's distance constraints. */
static void info_adds_up(st_run *t)
{
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i) {
        drape_scene *s;
        drape_scene_error e;
        drape_scene_options o = st_cpu_options();
        CHECK(t,
              drape_scene_load_builtin(drape_scene_builtin_name(i), &o, &s, &e) == DRAPE_SCENE_OK);
        drape_scene_info info;
        CHECK(t, drape_scene_get_info(s, &info) == DRAPE_OK);
        CHECK(t,
              info.distances_by_kind[0] + info.distances_by_kind[1] + info.distances_by_kind[2] ==
                  info.constraints[DRAPE_CONSTRAINT_DISTANCE]);
        CHECK(t,
              info.colliders_by_type[0] + info.colliders_by_type[1] + info.colliders_by_type[2] ==
                  drape_world_collider_count(drape_scene_world(s)));
        for (int k = 0; k < DRAPE_CONSTRAINT_TYPE_COUNT; ++k)
            CHECK(t, info.coloring[k].colors >= info.coloring[k].lower_bound);
        CHECK(t, info.host_bytes >= 112ull * info.particles && info.device_bytes == 0);
        drape_scene_destroy(s);
    }
    drape_scene *s;
    drape_scene_options o = st_cpu_options();
    CHECK(t, drape_scene_load_builtin("cloth-sphere", &o, &s, NULL) == DRAPE_SCENE_OK);
    drape_scene_info info;
    CHECK(t, drape_scene_get_info(s, &info) == DRAPE_OK);
    /* 48 x 48 with shear and skip-one springs: 12 colours reach the lower bound (design notes). */
    CHECK(t, info.particles == 48 * 48 && info.pinned == 0);
    CHECK(t, info.coloring[DRAPE_CONSTRAINT_DISTANCE].lower_bound == 12);
    CHECK(t, info.triangles == 2 * 47 * 47);
    drape_scene_destroy(s);
    CHECK(t, drape_scene_load_builtin("no-such", &o, &s, NULL) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, drape_scene_builtin_name(drape_scene_builtin_count()) == NULL);
}

/* What a viewer reads: the objects and colliders as added, and the cloths resized on request. */
static void objects_and_colliders(st_run *t)
{
    drape_scene *s;
    drape_scene_options o = st_cpu_options();
    CHECK(t, drape_scene_load_builtin("cloth-sphere", &o, &s, NULL) == DRAPE_SCENE_OK);
    drape_scene_object obj;
    CHECK(t, drape_scene_object_count(s) == 1);
    CHECK(t, drape_scene_get_object(s, 0, &obj) && !strcmp(obj.name, "cloth") &&
                 obj.kind == DRAPE_SCENE_CLOTH && obj.first_particle == 0 &&
                 obj.particle_count == 48 * 48 && obj.nx == 48 && obj.ny == 48);
    CHECK(t, !drape_scene_get_object(s, 1, &obj));
    drape_collider_def c;
    CHECK(t, drape_scene_collider_count(s) == 2);
    CHECK(t, drape_scene_get_collider(s, 0, &c) && c.type == DRAPE_COLLIDER_SPHERE &&
                 c.radius == 0.3f);
    CHECK(t, drape_scene_get_collider(s, 1, &c) && c.type == DRAPE_COLLIDER_PLANE &&
                 c.position.y == -0.3f);
    CHECK(t, !drape_scene_get_collider(s, 2, &c));
    drape_scene_destroy(s);

    o.cloth_resolution = 16;
    CHECK(t, drape_scene_load_builtin("flag", &o, &s, NULL) == DRAPE_SCENE_OK);
    CHECK(t, drape_scene_get_object(s, 0, &obj) && obj.nx == 16 && obj.ny == 16 &&
                 obj.particle_count == 256);
    CHECK(t, drape_world_particle_count(drape_scene_world(s)) == 256);
    uint32_t triangles;
    drape_scene_triangles(s, &triangles);
    CHECK(t, triangles == 2 * 15 * 15);
    drape_scene_destroy(s);
    CHECK(t, drape_scene_load_builtin("ik-chain", &o, &s, NULL) == DRAPE_SCENE_OK);
    CHECK(t, drape_scene_get_object(s, 0, &obj) && obj.kind == DRAPE_SCENE_ROPE &&
                 obj.particle_count == 16 && obj.nx == 0);
    CHECK(t, drape_scene_collider_count(s) == 0);
    drape_scene_destroy(s);
    /* 1 is no resolution: an error that names it (the scene's own was kept, silently) */
    o.cloth_resolution = 1;
    drape_scene_error e;
    CHECK(t, drape_scene_load_builtin("flag", &o, &s, &e) != DRAPE_SCENE_OK && s == NULL);
    CHECK(t, st_has_all(e.message, "options.cloth_resolution = 1", NULL));
}

int suite_builtin(void)
{
    st_run t = {0};
    RUN(&t, file_matches_builtin);
    RUN(&t, info_adds_up);
    RUN(&t, objects_and_colliders);
    return st_finish(&t);
}

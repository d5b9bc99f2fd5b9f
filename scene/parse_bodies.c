/* The sections of a scene file that add particles: "particles" one by one, "cloths", "ropes",
 * "soft_boxes" and "balloons" through the library's builders (every field of their defs, pins by
 * name), "particle_blocks" of loose balls (drape_particle_block_def) and "meshes" read from OBJ
 * files. Cloths, ropes and meshes have names ("cloth0", "rope0", "mesh0",
 * ... by default) that particle references use.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* A member holding {"stiffness": k} or {"compliance": c}. */
bool sc_get_stiffness_object(sc_parser *p, const cJSON *o, const char *key, drape_stiffness *out)
{
    static const char *const keys[] = {"stiffness", "compliance", NULL};
    const cJSON *v = sc_json_member(o, key);
    if (!v)
        return true;
    size_t mark = sc_json_enter_key(&p->json, key);
    bool ok = sc_json_object(&p->json, v, keys) &&
              sc_json_get_stiffness(&p->json, v, &out->stiffness, &out->compliance, &out->model);
    sc_json_leave(&p->json, mark);
    return ok;
}

/* The object's "name", or "<kind><n>" for the n-th object of its section. */
bool sc_get_name(sc_parser *p, const cJSON *o, const char *kind, size_t index, char *out,
                 size_t size)
{
    const char *name = NULL;
    if (!sc_json_get_string(&p->json, o, "name", &name))
        return false;
    if (name)
        snprintf(out, size, "%s", name);
    else
        snprintf(out, size, "%s%zu", kind, index);
    return true;
}

static bool parse_particle(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"position", "velocity", "mass",         "pinned",
                                       "radius",   "group",    "self_collide", NULL};
    (void)index;
    drape_particle_def d = drape_default_particle_def();
    bool pinned = false;
    if (!sc_json_object(&p->json, o, keys) || !sc_json_require(&p->json, o, "position") ||
        !sc_json_get_vec3(&p->json, o, "position", sc_coord, &d.position) ||
        !sc_json_get_vec3(&p->json, o, "velocity", sc_coord, &d.velocity) ||
        !sc_json_get_float(&p->json, o, "mass", sc_positive, &d.mass) ||
        !sc_json_get_bool(&p->json, o, "pinned", &pinned) ||
        !sc_json_get_float(&p->json, o, "radius", sc_nonneg, &d.radius) ||
        !sc_json_get_u32(&p->json, o, "group", 0, DRAPE_GROUP_MAX, &d.group) ||
        !sc_json_get_bool(&p->json, o, "self_collide", &d.self_collide))
        return false;
    if (pinned)
        d.mass = 0.0f;
    return sc_parse_check(p, sc_scene_add_particles(p->scene, &d, 1));
}

bool sc_parse_particles(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_particle);
}

/* A cloth's or rope's "radius" (m; absent: half the rest spacing), "group" (absent: a group of its
 * own) and "self_collision". */
static bool get_contact(sc_parser *p, const cJSON *o, float *radius, uint32_t *group, bool *self)
{
    return sc_json_get_float(&p->json, o, "radius", sc_nonneg, radius) &&
           sc_json_get_u32(&p->json, o, "group", 0, DRAPE_GROUP_MAX, group) &&
           sc_json_get_bool(&p->json, o, "self_collision", self);
}

bool sc_get_body_contact(sc_parser *p, const cJSON *o, float *radius, uint32_t *group)
{
    if (!sc_json_get_float(&p->json, o, "contact_radius", sc_nonneg, radius) ||
        !sc_json_get_u32(&p->json, o, "group", 0, DRAPE_GROUP_MAX, group))
        return false;
    if (!(*radius > 0.0f) && sc_json_member(o, "group"))
        return sc_json_fail_at(&p->json, "group",
                               "applies only with \"contact_radius\" > 0: without a radius the "
                               "particles touch no other particle, in any group");
    return true;
}

bool sc_check_material(sc_parser *p, const cJSON *o, float youngs_modulus)
{
    if (!(youngs_modulus > 0.0f) && sc_json_member(o, "poisson_ratio"))
        return sc_json_fail_at(&p->json, "poisson_ratio",
                               "applies only with \"youngs_modulus\" > 0 (a Neo-Hookean solid); "
                               "without it the body is made of \"edges\" and \"volume\"");
    static const char *const pbd_keys[] = {"edges", "volume"};
    for (int k = 0; k < 2; ++k)
        if (youngs_modulus > 0.0f && sc_json_member(o, pbd_keys[k]))
            return sc_json_fail_at(&p->json, pbd_keys[k],
                                   "applies only with \"youngs_modulus\" 0; with %g Pa the body "
                                   "is a Neo-Hookean solid, which ignores it",
                                   (double)youngs_modulus);
    return true;
}

static const char *const pin_names[] = {"corner-00",    "corner-10",   "corner-01",
                                        "corner-11",    "row-first",   "row-last",
                                        "column-first", "column-last", NULL};

static bool get_pins(sc_parser *p, const cJSON *o, uint32_t *pins)
{
    const cJSON *list = sc_json_member(o, "pins");
    size_t count, mark = sc_json_enter_key(&p->json, "pins");
    bool ok = !list || sc_json_array(&p->json, list, &count);
    size_t i = 0;
    for (const cJSON *e = list ? list->child : NULL; ok && e; e = e->next, ++i) {
        size_t m = sc_json_enter_index(&p->json, i);
        int bit;
        ok = sc_json_enum(&p->json, e, pin_names, &bit);
        if (ok)
            *pins |= 1u << bit;
        sc_json_leave(&p->json, m);
    }
    sc_json_leave(&p->json, mark);
    return ok;
}

static bool parse_cloth(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"name",
                                       "nx",
                                       "ny",
                                       "origin",
                                       "u_axis",
                                       "v_axis",
                                       "velocity",
                                       "mass",
                                       "pins",
                                       "shear",
                                       "bending",
                                       "stretch",
                                       "shear_stiffness",
                                       "bend_stiffness",
                                       "tethers",
                                       "tether_stiffness",
                                       "radius",
                                       "group",
                                       "self_collision",
                                       "aerodynamic",
                                       "tear_strain",
                                       "tear_spares",
                                       NULL};
    static const char *const bendings[] = {"none", "skip-one", "dihedral", NULL};
    sc_json *j = &p->json;
    drape_cloth_def d = drape_default_cloth_def();
    int bending = (int)d.bending;
    char name[80];
    bool ok = sc_json_object(j, o, keys) && sc_get_name(p, o, "cloth", index, name, sizeof name) &&
              sc_json_get_u32(j, o, "nx", 2, 1u << 14, &d.nx) &&
              sc_json_get_u32(j, o, "ny", 2, 1u << 14, &d.ny) &&
              sc_json_get_vec3(j, o, "origin", sc_coord, &d.origin) &&
              sc_json_get_vec3(j, o, "u_axis", sc_coord, &d.u_axis) &&
              sc_json_get_vec3(j, o, "v_axis", sc_coord, &d.v_axis) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_float(j, o, "mass", sc_positive, &d.mass) && get_pins(p, o, &d.pins) &&
              sc_json_get_bool(j, o, "shear", &d.shear) &&
              sc_json_get_enum(j, o, "bending", bendings, &bending) &&
              sc_get_stiffness_object(p, o, "stretch", &d.stretch) &&
              sc_get_stiffness_object(p, o, "shear_stiffness", &d.shear_stiffness) &&
              sc_get_stiffness_object(p, o, "bend_stiffness", &d.bend_stiffness) &&
              sc_json_get_bool(j, o, "tethers", &d.tethers) &&
              sc_get_stiffness_object(p, o, "tether_stiffness", &d.tether_stiffness) &&
              get_contact(p, o, &d.radius, &d.group, &d.self_collision) &&
              sc_json_get_bool(j, o, "aerodynamic", &d.aerodynamic) &&
              sc_json_get_float(j, o, "tear_strain", sc_nonneg, &d.tear_strain) &&
              sc_json_get_u32(j, o, "tear_spares", 0, 1u << 28, &d.tear_spares);
    d.bending = (drape_bending)bending;
    return ok && sc_parse_check(p, sc_scene_add_cloth(p->scene, name, &d));
}

bool sc_parse_cloths(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_cloth);
}

static bool parse_rope(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {
        "name",    "count",          "start",          "end",
        "mass",    "pin_start",      "pin_end",        "stretch",
        "bending", "bend_stiffness", "tethers",        "tether_stiffness",
        "radius",  "group",          "self_collision", NULL};
    sc_json *j = &p->json;
    drape_rope_def d = drape_default_rope_def();
    char name[80];
    bool ok = sc_json_object(j, o, keys) && sc_get_name(p, o, "rope", index, name, sizeof name) &&
              sc_json_get_u32(j, o, "count", 2, 1u << 24, &d.count) &&
              sc_json_get_vec3(j, o, "start", sc_coord, &d.start) &&
              sc_json_get_vec3(j, o, "end", sc_coord, &d.end) &&
              sc_json_get_float(j, o, "mass", sc_positive, &d.mass) &&
              sc_json_get_bool(j, o, "pin_start", &d.pin_start) &&
              sc_json_get_bool(j, o, "pin_end", &d.pin_end) &&
              sc_get_stiffness_object(p, o, "stretch", &d.stretch) &&
              sc_json_get_bool(j, o, "bending", &d.bending) &&
              sc_get_stiffness_object(p, o, "bend_stiffness", &d.bend_stiffness) &&
              sc_json_get_bool(j, o, "tethers", &d.tethers) &&
              sc_get_stiffness_object(p, o, "tether_stiffness", &d.tether_stiffness) &&
              get_contact(p, o, &d.radius, &d.group, &d.self_collision);
    return ok && sc_parse_check(p, sc_scene_add_rope(p->scene, name, &d));
}

bool sc_parse_ropes(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_rope);
}

static bool parse_soft_box(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {
        "name",           "nx",    "ny",    "nz",     "origin",         "size",
        "velocity",       "mass",  "edges", "volume", "youngs_modulus", "poisson_ratio",
        "contact_radius", "group", NULL};
    sc_json *j = &p->json;
    drape_soft_box_def d = drape_default_soft_box_def();
    char name[80];
    bool ok = sc_json_object(j, o, keys) && sc_get_name(p, o, "box", index, name, sizeof name) &&
              sc_json_get_u32(j, o, "nx", 2, 256, &d.nx) &&
              sc_json_get_u32(j, o, "ny", 2, 256, &d.ny) &&
              sc_json_get_u32(j, o, "nz", 2, 256, &d.nz) &&
              sc_json_get_vec3(j, o, "origin", sc_coord, &d.origin) &&
              sc_json_get_vec3(j, o, "size", sc_coord, &d.size) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_float(j, o, "mass", sc_positive, &d.mass) &&
              sc_get_stiffness_object(p, o, "edges", &d.edges) &&
              sc_get_stiffness_object(p, o, "volume", &d.volume) &&
              sc_json_get_float(j, o, "youngs_modulus", sc_nonneg, &d.youngs_modulus) &&
              sc_json_get_float(j, o, "poisson_ratio", sc_poisson, &d.poisson_ratio) &&
              sc_get_body_contact(p, o, &d.contact_radius, &d.group) &&
              sc_check_material(p, o, d.youngs_modulus);
    return ok && sc_parse_check(p, sc_scene_add_soft_box(p->scene, name, &d));
}

bool sc_parse_soft_boxes(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_soft_box);
}

static bool parse_block(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"shape",   "centre",       "size", "packing", "radius",
                                       "spacing", "max_count",    "seed", "mass",    "velocity",
                                       "group",   "self_collide", NULL};
    static const char *const shapes[] = {"box", "sphere", NULL};
    static const char *const packings[] = {"lattice", "random", NULL};
    (void)index;
    sc_json *j = &p->json;
    drape_particle_block_def d = drape_default_particle_block_def();
    int shape = (int)d.shape, packing = (int)d.packing;
    uint32_t seed = (uint32_t)d.seed;
    bool ok = sc_json_object(j, o, keys) && sc_json_get_enum(j, o, "shape", shapes, &shape) &&
              sc_json_get_vec3(j, o, "centre", sc_coord, &d.centre) &&
              sc_json_get_vec3(j, o, "size", sc_positive, &d.size) &&
              sc_json_get_enum(j, o, "packing", packings, &packing) &&
              sc_json_get_float(j, o, "radius", sc_positive, &d.radius) &&
              sc_json_get_float(j, o, "spacing", sc_nonneg, &d.spacing) &&
              sc_json_get_u32(j, o, "max_count", 0, 1u << 28, &d.max_count) &&
              sc_json_get_u32(j, o, "seed", 0, UINT32_MAX, &seed) &&
              sc_json_get_float(j, o, "mass", sc_positive, &d.mass) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_u32(j, o, "group", 0, DRAPE_GROUP_MAX, &d.group) &&
              sc_json_get_bool(j, o, "self_collide", &d.self_collide);
    d.shape = (drape_block_shape)shape;
    d.packing = (drape_block_packing)packing;
    d.seed = seed;
    return ok && sc_parse_check(p, sc_scene_add_particle_block(p->scene, &d));
}

bool sc_parse_particle_blocks(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_block);
}

/* "pinned": vertex indices into a malloc'ed array (NULL when empty). */
static bool get_vertex_list(sc_parser *p, const cJSON *o, uint32_t **out, uint32_t *count)
{
    const cJSON *list = sc_json_member(o, "pinned");
    size_t n = 0, mark = sc_json_enter_key(&p->json, "pinned");
    bool ok = !list || sc_json_array(&p->json, list, &n);
    *out = ok && n ? malloc(n * sizeof **out) : NULL;
    if (ok && n && !*out)
        ok = sc_json_fail_status(&p->json, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                                 "no memory for %zu vertex indices", n);
    size_t i = 0;
    for (const cJSON *e = list && ok ? list->child : NULL; ok && e; e = e->next, ++i) {
        size_t m = sc_json_enter_index(&p->json, i);
        ok = sc_json_u32(&p->json, e, 0, UINT32_MAX, &(*out)[i]);
        sc_json_leave(&p->json, m);
    }
    sc_json_leave(&p->json, mark);
    *count = ok ? (uint32_t)n : 0;
    return ok;
}

char *sc_parse_path(sc_parser *p, const char *key, const char *rel)
{
    if (p->scene->options.no_files) {
        sc_json_fail_at(&p->json, key, "reading mesh files is turned off");
        return NULL;
    }
    char why[96];
    if (!rel[0]) {
        sc_json_fail_at(&p->json, key, "is empty: give the path of a file");
        return NULL;
    }
    if (!p->scene->options.allow_outside_paths &&
        !sc_path_inside(p->base_dir, rel, why, sizeof why)) {
        sc_json_fail_at(&p->json, key,
                        "the mesh path %s: a scene reads mesh files from its own directory "
                        "and below (drape --allow-outside-paths lifts this)",
                        why);
        return NULL;
    }
    char *path = sc_join(p->base_dir, rel);
    if (!path)
        sc_json_fail_status(&p->json, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                            "no memory");
    sc_scene_note_input(p->scene, path);
    return path;
}

/* Reads the mesh file that "obj" names, relative to the scene file and, unless the options allow
 * otherwise, inside its directory: a scene from elsewhere must not read /etc/shadow. */
bool sc_parse_obj(sc_parser *p, const cJSON *o, const char *key, drape_mesh *mesh)
{
    const char *rel = NULL;
    if (!sc_json_require(&p->json, o, key) || !sc_json_get_string(&p->json, o, key, &rel))
        return false;
    char *path = sc_parse_path(p, key, rel);
    if (!path)
        return false;
    drape_scene_error e;
    drape_scene_status s = drape_mesh_read_obj(path, mesh, &e);
    free(path);
    if (s == DRAPE_SCENE_OK)
        return true;
    size_t mark = sc_json_enter_key(&p->json, key);
    sc_json_fail_status(&p->json, s, e.result, "%s", e.message);
    sc_json_leave(&p->json, mark);
    return false;
}

static bool parse_mesh(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"name", "obj",    "translate", "scale",   "velocity",
                                       "mass", "pinned", "stretch",   "bending", "bend_stiffness",
                                       NULL};
    static const char *const bendings[] = {"none", "dihedral", NULL};
    sc_json *j = &p->json;
    sc_mesh_def d = sc_default_mesh_def();
    int bending = d.dihedral ? 1 : 0;
    char name[80];
    uint32_t *pinned = NULL;
    bool ok = sc_json_object(j, o, keys) && sc_get_name(p, o, "mesh", index, name, sizeof name) &&
              sc_json_get_vec3(j, o, "translate", sc_coord, &d.translate) &&
              sc_json_get_float(j, o, "scale", sc_positive, &d.scale) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_float(j, o, "mass", sc_positive, &d.mass) &&
              sc_get_stiffness_object(p, o, "stretch", &d.stretch) &&
              sc_json_get_enum(j, o, "bending", bendings, &bending) &&
              sc_get_stiffness_object(p, o, "bend_stiffness", &d.bend) &&
              get_vertex_list(p, o, &pinned, &d.pinned_count);
    d.pinned = pinned;
    d.dihedral = bending == 1;
    drape_mesh mesh = {0};
    ok = ok && sc_parse_obj(p, o, "obj", &mesh) &&
         sc_parse_check(p, sc_scene_add_mesh(p->scene, name, &mesh, &d));
    drape_mesh_free(&mesh);
    free(pinned);
    return ok;
}

bool sc_parse_meshes(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_mesh);
}

/* "balloons": icospheres under pressure (drape_icosphere_def by name; the pressure must be > 0). */
static bool parse_balloon(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"name",
                                       "centre",
                                       "radius",
                                       "subdivisions",
                                       "velocity",
                                       "mass",
                                       "stretch",
                                       "bending",
                                       "bend_stiffness",
                                       "pressure",
                                       "pressure_stiffness",
                                       "contact_radius",
                                       "group",
                                       NULL};
    sc_json *j = &p->json;
    drape_icosphere_def d = drape_default_icosphere_def();
    char name[80];
    bool ok = sc_json_object(j, o, keys) &&
              sc_get_name(p, o, "balloon", index, name, sizeof name) &&
              sc_json_get_vec3(j, o, "centre", sc_coord, &d.centre) &&
              sc_json_get_float(j, o, "radius", sc_positive, &d.radius) &&
              sc_json_get_u32(j, o, "subdivisions", 0, 7, &d.subdivisions) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_float(j, o, "mass", sc_positive, &d.mass) &&
              sc_get_stiffness_object(p, o, "stretch", &d.stretch) &&
              sc_json_get_bool(j, o, "bending", &d.bending) &&
              sc_get_stiffness_object(p, o, "bend_stiffness", &d.bend_stiffness) &&
              sc_json_get_float(j, o, "pressure", sc_positive, &d.pressure) &&
              sc_get_stiffness_object(p, o, "pressure_stiffness", &d.pressure_stiffness) &&
              sc_get_body_contact(p, o, &d.contact_radius, &d.group);
    return ok && sc_parse_check(p, sc_scene_add_icosphere(p->scene, name, &d));
}

bool sc_parse_balloons(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_balloon);
}

/* The constraint sections of a scene file: "distances", "dihedrals" and "tethers" one by one, and
 * "attachments", whose target is fixed or follows a scripted "path" (a circle or a line) that the
 * scene applies before every step. Particles are named by references (parse_common.c); the world's
 * own checks (indices past the particles, repeated particles) come back with the path.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <math.h>

/* Reads the required particle reference `key` of an object. */
static bool get_ref(sc_parser *p, const cJSON *o, const char *key, uint32_t *out)
{
    if (!sc_json_require(&p->json, o, key))
        return false;
    size_t mark = sc_json_enter_key(&p->json, key);
    bool ok = sc_parse_particle_ref(p, sc_json_member(o, key), out);
    sc_json_leave(&p->json, mark);
    return ok;
}

static bool parse_distance(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"a",          "b",    "rest_length", "stiffness",
                                       "compliance", "kind", NULL};
    static const char *const kinds[] = {"stretch", "shear", "bend", NULL};
    (void)index;
    drape_distance_def d = drape_default_distance_def();
    int kind = (int)d.kind;
    bool ok = sc_json_object(&p->json, o, keys) && get_ref(p, o, "a", &d.a) &&
              get_ref(p, o, "b", &d.b) &&
              sc_json_get_float(&p->json, o, "rest_length", sc_length, &d.rest_length) &&
              sc_json_get_stiffness(&p->json, o, &d.stiffness, &d.compliance, &d.model) &&
              sc_json_get_enum(&p->json, o, "kind", kinds, &kind);
    d.kind = (drape_distance_kind)kind;
    return ok && sc_parse_check(p, sc_scene_add_distance(p->scene, &d));
}

bool sc_parse_distances(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_distance);
}

static bool parse_dihedral(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"edge0",      "edge1",     "wing0",      "wing1",
                                       "rest_angle", "stiffness", "compliance", NULL};
    const sc_range angle = {0.0, 3.14159265358979, false, false};
    (void)index;
    drape_dihedral_def d = drape_default_dihedral_def();
    bool ok = sc_json_object(&p->json, o, keys) && get_ref(p, o, "edge0", &d.edge0) &&
              get_ref(p, o, "edge1", &d.edge1) && get_ref(p, o, "wing0", &d.wing0) &&
              get_ref(p, o, "wing1", &d.wing1) &&
              sc_json_get_float(&p->json, o, "rest_angle", angle, &d.rest_angle) &&
              sc_json_get_stiffness(&p->json, o, &d.stiffness, &d.compliance, &d.model);
    return ok && sc_parse_check(p, sc_scene_add_dihedral(p->scene, &d));
}

bool sc_parse_dihedrals(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_dihedral);
}

static bool parse_tether(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"particle",  "anchor",     "max_length",
                                       "stiffness", "compliance", NULL};
    (void)index;
    drape_tether_def d = drape_default_tether_def();
    bool ok = sc_json_object(&p->json, o, keys) && get_ref(p, o, "particle", &d.particle) &&
              get_ref(p, o, "anchor", &d.anchor) &&
              sc_json_get_float(&p->json, o, "max_length", sc_nonneg, &d.max_length) &&
              sc_json_get_stiffness(&p->json, o, &d.stiffness, &d.compliance, &d.model);
    return ok && sc_parse_check(p, sc_scene_add_tether(p->scene, &d));
}

bool sc_parse_tethers(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_tether);
}

/* A scripted target path: {"type": "circle", "centre", "radius", "period", "normal", "phase"} or
 * {"type": "linear", "start", "velocity"}. */
static bool parse_path(sc_parser *p, const cJSON *o, sc_target_path *path)
{
    static const char *const types[] = {"circle", "linear", NULL};
    static const char *const circle_keys[] = {"type",   "centre", "radius", "period",
                                              "normal", "phase",  NULL};
    static const char *const linear_keys[] = {"type", "start", "velocity", NULL};
    sc_json *j = &p->json;
    int type = 0;
    if (!cJSON_IsObject(o))
        return sc_json_fail(j, "must be an object with a \"type\": \"circle\" or \"linear\"");
    if (!sc_json_require(j, o, "type") || !sc_json_get_enum(j, o, "type", types, &type))
        return false;
    *path = sc_default_target_path();
    path->type = (sc_path_type)type;
    if (path->type == SC_PATH_LINEAR)
        return sc_json_object(j, o, linear_keys) && sc_json_require(j, o, "start") &&
               sc_json_require(j, o, "velocity") &&
               sc_json_get_vec3(j, o, "start", sc_coord, &path->start) &&
               sc_json_get_vec3(j, o, "velocity", sc_coord, &path->velocity);
    bool ok = sc_json_object(j, o, circle_keys) && sc_json_require(j, o, "centre") &&
              sc_json_require(j, o, "radius") && sc_json_require(j, o, "period") &&
              sc_json_get_vec3(j, o, "centre", sc_coord, &path->centre) &&
              sc_json_get_float(j, o, "radius", sc_positive, &path->radius) &&
              sc_json_get_float(j, o, "period", sc_positive, &path->period) &&
              sc_json_get_vec3(j, o, "normal", sc_any, &path->normal) &&
              sc_json_get_float(j, o, "phase", sc_any, &path->phase);
    drape_vec3 n = path->normal;
    double len = sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
    if (ok && !(len > 1e-12 && isfinite(len)))
        return sc_json_fail_at(j, "normal", "must not be zero");
    return ok;
}

static bool parse_attachment(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"particle",  "target",     "path",
                                       "stiffness", "compliance", NULL};
    (void)index;
    sc_json *j = &p->json;
    drape_attachment_def d = drape_default_attachment_def();
    if (!sc_json_object(j, o, keys) || !get_ref(p, o, "particle", &d.particle) ||
        !sc_json_get_stiffness(j, o, &d.stiffness, &d.compliance, &d.model))
        return false;
    const cJSON *path_value = sc_json_member(o, "path");
    if (path_value && sc_json_member(o, "target"))
        return sc_json_fail(j, "give a fixed \"target\" or a \"path\", not both");
    sc_target_path path;
    if (path_value) {
        size_t mark = sc_json_enter_key(j, "path");
        bool ok = parse_path(p, path_value, &path);
        sc_json_leave(j, mark);
        if (!ok)
            return false;
    } else if (sc_json_member(o, "target")) {
        if (!sc_json_get_vec3(j, o, "target", sc_coord, &d.target))
            return false;
    } else if (d.particle < drape_world_particle_count(p->scene->world)) {
        /* No target: the particle stays where it is. */
        drape_world_get_positions(p->scene->world, d.particle, 1, &d.target);
    }
    return sc_parse_check(p, sc_scene_add_attachment(p->scene, &d, path_value ? &path : NULL));
}

bool sc_parse_attachments(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_attachment);
}

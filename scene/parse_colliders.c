/* The "colliders" section of a scene file: planes, spheres and capsules, static or moving with a
 * constant velocity. Each type accepts only the keys that mean something for it, so that a radius
 * on a plane is an error rather than a silent no-op.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>

static const char *const types[] = {"plane", "sphere", "capsule", NULL};

static const char *const keys_by_type[3][10] = {
    {"type", "position", "velocity", "static_friction", "kinetic_friction", "restitution", "normal",
     NULL},
    {"type", "position", "velocity", "static_friction", "kinetic_friction", "restitution", "radius",
     NULL},
    {"type", "position", "velocity", "static_friction", "kinetic_friction", "restitution", "radius",
     "end", NULL},
};

static bool parse_collider(sc_parser *p, const cJSON *o, size_t index)
{
    sc_json *j = &p->json;
    (void)index;
    if (!cJSON_IsObject(o))
        return sc_json_fail(j, "must be an object with a \"type\": \"plane\", \"sphere\" or "
                               "\"capsule\"");
    int type = 0;
    if (!sc_json_require(j, o, "type") || !sc_json_get_enum(j, o, "type", types, &type) ||
        !sc_json_object(j, o, keys_by_type[type]))
        return false;
    drape_collider_def d = drape_default_collider_def();
    d.type = (drape_collider_type)type;
    bool ok = (type == DRAPE_COLLIDER_PLANE || sc_json_require(j, o, "radius")) &&
              (type != DRAPE_COLLIDER_CAPSULE || sc_json_require(j, o, "end")) &&
              sc_json_get_vec3(j, o, "position", sc_coord, &d.position) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_float(j, o, "static_friction", sc_nonneg, &d.static_friction) &&
              sc_json_get_float(j, o, "kinetic_friction", sc_nonneg, &d.kinetic_friction) &&
              sc_json_get_float(j, o, "restitution", sc_unit, &d.restitution) &&
              sc_json_get_vec3(j, o, "normal", sc_any, &d.normal) &&
              sc_json_get_float(j, o, "radius", sc_positive, &d.radius) &&
              sc_json_get_vec3(j, o, "end", sc_coord, &d.end);
    if (ok && type == DRAPE_COLLIDER_PLANE && d.normal.x == 0.0f && d.normal.y == 0.0f &&
        d.normal.z == 0.0f)
        return sc_json_fail_at(j, "normal", "must not be zero");
    return ok && sc_parse_check(p, sc_scene_add_collider(p->scene, &d));
}

bool sc_parse_colliders(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_collider);
}

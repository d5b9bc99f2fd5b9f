/* The "aerodynamics" section of a scene file: every field of drape_aero_def by the same name (lift
 * and drag per triangle, the air's density, seeded gusts; the wind itself is the solver's). Absent
 * fields keep drape_default_aero_def()'s values; the library checks the ranges and the message
 * names the section.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>

bool sc_parse_aero(sc_parser *p, const cJSON *o)
{
    static const char *const keys[] = {"drag",        "lift", "air_density", "turbulence",
                                       "gust_length", "seed", NULL};
    if (!o)
        return true;
    sc_json *j = &p->json;
    drape_aero_def d = drape_default_aero_def();
    bool ok = sc_json_object(j, o, keys) && sc_json_get_float(j, o, "drag", sc_nonneg, &d.drag) &&
              sc_json_get_float(j, o, "lift", sc_nonneg, &d.lift) &&
              sc_json_get_float(j, o, "air_density", sc_positive, &d.air_density) &&
              sc_json_get_float(j, o, "turbulence", sc_nonneg, &d.turbulence) &&
              sc_json_get_float(j, o, "gust_length", sc_positive, &d.gust_length) &&
              sc_json_get_u32(j, o, "seed", 0, UINT32_MAX, &d.seed);
    return ok && sc_parse_check(p, drape_world_set_aero(drape_scene_world(p->scene), &d));
}

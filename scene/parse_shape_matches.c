/* The "shape_matches" section of a scene file: shape-matched clusters (drape_shape_match_def), each
 * either every particle of a named object ("object": "box0", a rigid body made of a soft box, say)
 * or a list of particle references ("particles"), with a "stiffness" in (0, 1] (1, the default, is
 * rigid). The world's own checks (a pinned particle, one listed twice) come back with the path.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static bool parse_shape_match(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"object",         "particles", "stiffness",
                                       "contact_radius", "group",     NULL};
    (void)index;
    sc_json *j = &p->json;
    drape_shape_match_def d = drape_default_shape_match_def();
    const char *name = NULL;
    if (!sc_json_object(j, o, keys) || !sc_json_get_string(j, o, "object", &name) ||
        !sc_json_get_float(j, o, "stiffness", (sc_range){0.0, 1.0, true, false}, &d.stiffness) ||
        !sc_get_body_contact(p, o, &d.contact_radius, &d.group))
        return false;
    const cJSON *list = sc_json_member(o, "particles");
    if (!name == !list)
        return sc_json_fail_at(j, name ? "particles" : "object",
                               "give either \"object\" (all its particles) or \"particles\"");
    uint32_t *idx = NULL;
    bool ok = true;
    if (name) {
        const sc_object *obj = sc_scene_find_object(p->scene, name, strlen(name));
        if (!obj)
            return sc_json_fail_at(j, "object", "no object is named '%s'", name);
        idx = malloc(((size_t)obj->count + 1) * sizeof *idx);
        if (!idx)
            return sc_json_fail_status(j, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                                       "no memory");
        for (uint32_t i = 0; i < obj->count; ++i)
            idx[i] = obj->first + i;
        d.count = obj->count;
    } else {
        size_t n = 0, mark = sc_json_enter_key(j, "particles");
        ok = sc_json_array(j, list, &n);
        idx = ok ? malloc((n + 1) * sizeof *idx) : NULL;
        if (ok && !idx)
            ok = sc_json_fail_status(j, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                                     "no memory");
        size_t i = 0;
        for (const cJSON *e = ok ? list->child : NULL; ok && e; e = e->next, ++i) {
            size_t m = sc_json_enter_index(j, i);
            ok = sc_parse_particle_ref(p, e, &idx[i]);
            sc_json_leave(j, m);
        }
        sc_json_leave(j, mark);
        d.count = (uint32_t)n;
    }
    d.particles = idx;
    ok =
        ok && sc_parse_check(p, drape_world_add_shape_match(drape_scene_world(p->scene), &d, NULL));
    free(idx);
    return ok;
}

bool sc_parse_shape_matches(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_shape_match);
}

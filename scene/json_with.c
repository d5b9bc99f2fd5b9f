/* A scene's text with some of its values replaced by JSON path (json_path.c), the way a sweep case
 * changes its base scene (docs/sweep-format.md): what a program that runs a built-in scene with
 * other values (the benchmark's cloth sizes and start height) uses, so that it builds the scene
 * through the scene library instead of keeping a copy of it.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

drape_scene_status drape_scene_json_set(const char *data, size_t size, const char *set, char **out,
                                        drape_scene_error *err)
{
    drape_scene_error local;
    err = sc_error_reset(err, &local);
    if (!out)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "drape_scene_json_set: out is NULL");
    *out = NULL;
    if (!data || !set)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                       "drape_scene_json_set: data or set is NULL");
    cJSON *scene = cJSON_ParseWithLength(data, size), *values = cJSON_Parse(set);
    drape_scene_status st = DRAPE_SCENE_OK;
    if (!scene)
        st = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "the scene is not JSON");
    else if (!cJSON_IsObject(values))
        st = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                     "the values to set are not a JSON object {\"$.path\": value, ...}");
    for (const cJSON *m = st == DRAPE_SCENE_OK ? values->child : NULL; m && st == DRAPE_SCENE_OK;
         m = m->next) {
        char why[256];
        if (!sc_json_path_set(scene, m->string, m, why, sizeof why))
            st = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s", why);
    }
    if (st == DRAPE_SCENE_OK && !(*out = cJSON_PrintUnformatted(scene)))
        st = sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    cJSON_Delete(scene);
    cJSON_Delete(values);
    return st;
}

/* Where a scene comes from: a built-in name or a file path. A name that is a built-in scene wins;
 * anything else is read as a file, so "cloth-sphere" builds the built-in and
 * "scenes/cloth-sphere.json" reads the file that describes the same world.
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

drape_scene_status drape_scene_load_file(const char *path, const drape_scene_options *options,
                                         drape_scene **out, drape_scene_error *err)
{
    if (out)
        *out = NULL;
    if (!path)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "no scene file given");
    char *data;
    size_t size;
    drape_scene_status s = sc_read_file(path, &data, &size, err);
    if (s != DRAPE_SCENE_OK)
        return s;
    s = drape_scene_load_buffer(data, size, path, options, out, err);
    free(data);
    if (s == DRAPE_SCENE_OK && out && *out)
        sc_scene_note_input(*out, path);
    return s;
}

drape_scene_status drape_scene_load(const char *name_or_path, const drape_scene_options *options,
                                    drape_scene **out, drape_scene_error *err)
{
    if (name_or_path && drape_scene_builtin_summary(name_or_path))
        return drape_scene_load_builtin(name_or_path, options, out, err);
    drape_scene_error local;
    if (!err)
        err = &local;
    drape_scene_status s = drape_scene_load_file(name_or_path, options, out, err);
    /* A bare word that is no file was probably meant as a built-in name. */
    if (s == DRAPE_SCENE_BAD_INPUT && name_or_path && !strchr(name_or_path, '/') &&
        !strchr(name_or_path, '.') && strstr(err->message, "cannot read")) {
        size_t used = strlen(err->message);
        for (size_t i = 0; i < drape_scene_builtin_count() && used < sizeof err->message; ++i)
            used += (size_t)snprintf(err->message + used, sizeof err->message - used, "%s%s",
                                     i ? ", " : " (built-in scenes: ", drape_scene_builtin_name(i));
        if (used < sizeof err->message)
            snprintf(err->message + used, sizeof err->message - used, ")");
    }
    return s;
}

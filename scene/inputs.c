/* The files a scene read (its scene file, its OBJ and TetGen meshes), so that an output never
 * replaces one of them: `drape run scene.json --dump scene.json` would otherwise write the CSV over
 * the scene itself, and a user loses what they had. Files are told apart by device and inode, so
 * that another spelling of the same path (./a.json, a symbolic link to it, a hard link) is caught
 * too. An output that does not exist yet is no input. */
#define _XOPEN_SOURCE 700 /* stat's st_dev and st_ino */
#include <drape/scene.h>
#include "scene_internal.h"

#include <stdlib.h>
#include <sys/stat.h>

void sc_scene_note_input(drape_scene *s, const char *path)
{
    struct stat st;
    if (!s || !path || stat(path, &st) != 0)
        return;
    if (s->input_count == s->input_capacity) {
        const uint32_t capacity = s->input_capacity ? 2 * s->input_capacity : 4;
        sc_file_id *grown = realloc(s->inputs, capacity * sizeof *grown);
        if (!grown) /* no memory to remember it: the output check is then a best effort */
            return;
        s->inputs = grown;
        s->input_capacity = capacity;
    }
    s->inputs[s->input_count++] = (sc_file_id){(uint64_t)st.st_dev, (uint64_t)st.st_ino};
}

drape_scene_status drape_scene_check_output(const drape_scene *s, const char *path,
                                            drape_scene_error *err)
{
    struct stat st;
    if (!s || !path || stat(path, &st) != 0)
        return DRAPE_SCENE_OK;
    for (uint32_t k = 0; k < s->input_count; ++k)
        if (s->inputs[k].dev == (uint64_t)st.st_dev && s->inputs[k].ino == (uint64_t)st.st_ino)
            return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK,
                           "%s: is a file that scene %s was read from; refusing to write over it",
                           path, s->name);
    return DRAPE_SCENE_OK;
}

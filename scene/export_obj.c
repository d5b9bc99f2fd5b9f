/* OBJ export of a scene, one file per frame: DIR/NAME_0001.obj, DIR/NAME_0002.obj, ... (as many
 * digits as the last frame needs, so that the names sort in frame order) which Blender
 * (and other tools that read OBJ sequences) import as an animation. Every particle is a vertex,
 * with its area-weighted normal as the world computes it for the viewer; the scene's triangles
 * (cloth triangulations, meshes, the file's own "triangles") are faces and its ropes are polylines,
 * so vertex k is always particle k - 1. Each frame is written atomically (drape_output_open): a
 * full disk or an interrupted run leaves either the complete previous file or the complete new one,
 * never a truncated frame; a frame with a non-finite coordinate or normal is refused rather than
 * written as "nan".
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

/* The world's area-weighted vertex normals of the scene's triangles (drape_world_get_render_data:
 * the maths the viewer lights with, on the backend that holds the state). */
static drape_result world_normals(const drape_scene *s, uint32_t n, drape_vec3 **out)
{
    *out = NULL;
    float *pos = malloc(((size_t)n * 4 + 1) * sizeof *pos);
    float *nrm = malloc(((size_t)n * 4 + 1) * sizeof *nrm);
    drape_vec3 *normals = malloc(((size_t)n + 1) * sizeof *normals);
    drape_result r = pos && nrm && normals ? DRAPE_OK : DRAPE_ERROR_OUT_OF_MEMORY;
    if (r == DRAPE_OK)
        r = drape_world_set_triangles(s->world, s->triangles, s->triangle_count);
    if (r == DRAPE_OK)
        r = drape_world_get_render_data(s->world, 0, n, pos, nrm);
    for (uint32_t i = 0; r == DRAPE_OK && i < n; ++i)
        normals[i] = (drape_vec3){nrm[4 * i], nrm[4 * i + 1], nrm[4 * i + 2]};
    free(pos);
    free(nrm);
    if (r != DRAPE_OK) {
        free(normals);
        return r;
    }
    *out = normals;
    return DRAPE_OK;
}

void drape_scene_set_last_frame(drape_scene *s, uint32_t last_frame)
{
    uint32_t digits = 1;
    for (uint32_t f = last_frame; f >= 10; f /= 10)
        ++digits;
    s->frame_digits = digits;
}

drape_scene_status drape_scene_export_obj(const drape_scene *s, const char *dir, uint32_t frame,
                                          drape_scene_error *err)
{
    if (!s || !s->world || !dir)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "export: no scene or directory");
    drape_scene_status status = sc_make_dir(dir, err);
    if (status != DRAPE_SCENE_OK)
        return status;
    size_t size = strlen(dir) + strlen(s->name) + 32;
    char *path = malloc(size);
    if (!path)
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    snprintf(path, size, "%s%s%s_%0*u.obj", dir, dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "",
             s->name, s->frame_digits > 4 ? (int)s->frame_digits : 4, frame);

    uint32_t n;
    drape_vec3 *x = NULL, *normals = NULL;
    drape_result r = sc_read_state(s->world, &n, &x, NULL, NULL);
    if (r == DRAPE_OK && s->triangle_count)
        r = world_normals(s, n, &normals);
    if (r != DRAPE_OK) {
        status = sc_fail(err, DRAPE_SCENE_WORLD_FAILED, r, "%s: cannot read the particles back: %s",
                         path, drape_result_string(r));
    } else {
        char comment[160];
        snprintf(comment, sizeof comment, "drape scene %s, frame %u, t = %.6f s", s->name, frame,
                 drape_world_time(s->world));
        sc_obj_frame fr = {
            .object = s->name,
            .comment = comment,
            .vertices = x,
            .normals = normals,
            .vertex_count = n,
            .triangles = s->triangles,
            .triangle_count = s->triangle_count,
            .lines = s->lines,
            .line_count = s->line_count,
        };
        drape_output out;
        status = drape_scene_check_output(s, path, err);
        if (status == DRAPE_SCENE_OK)
            status = sc_check_finite(x, n, "position", path, err);
        if (status == DRAPE_SCENE_OK && normals)
            status = sc_check_finite(normals, n, "normal", path, err);
        if (status == DRAPE_SCENE_OK)
            status = drape_output_open(&out, path, err);
        if (status == DRAPE_SCENE_OK) {
            sc_obj_write(out.file, &fr);
            status = drape_output_commit(&out, err);
        }
    }
    free(x);
    free(normals);
    free(path);
    return status;
}

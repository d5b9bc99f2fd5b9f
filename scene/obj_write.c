/* Wavefront OBJ writer for one frame: vertices, per-vertex normals, triangles as `f a//a b//b c//c`
 * (vertex and normal share the index) and polylines as `l`. Coordinates are printed with 9
 * significant digits, which is enough for a float to read back to the same bits, so that an
 * imported mesh exported again has exactly its vertices.
 */
#include "scene_internal.h"

bool sc_obj_write(FILE *f, const sc_obj_frame *fr)
{
    if (fr->comment)
        fprintf(f, "# %s\n", fr->comment);
    fprintf(f, "o %s\n", fr->object ? fr->object : "drape");
    for (uint32_t i = 0; i < fr->vertex_count; ++i)
        fprintf(f, "v %.9g %.9g %.9g\n", (double)fr->vertices[i].x, (double)fr->vertices[i].y,
                (double)fr->vertices[i].z);
    if (fr->normals)
        for (uint32_t i = 0; i < fr->vertex_count; ++i)
            fprintf(f, "vn %.6f %.6f %.6f\n", (double)fr->normals[i].x, (double)fr->normals[i].y,
                    (double)fr->normals[i].z);
    for (uint32_t t = 0; t < fr->triangle_count; ++t) {
        const uint32_t *v = &fr->triangles[3 * (size_t)t];
        if (fr->normals)
            fprintf(f, "f %u//%u %u//%u %u//%u\n", v[0] + 1, v[0] + 1, v[1] + 1, v[1] + 1, v[2] + 1,
                    v[2] + 1);
        else
            fprintf(f, "f %u %u %u\n", v[0] + 1, v[1] + 1, v[2] + 1);
    }
    for (uint32_t l = 0; l < fr->line_count; ++l) {
        fputc('l', f);
        for (uint32_t k = 0; k < fr->lines[l].count; ++k)
            fprintf(f, " %u", fr->lines[l].first + k + 1);
        fputc('\n', f);
    }
    return ferror(f) == 0;
}

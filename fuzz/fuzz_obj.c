/* libFuzzer target: the OBJ reader from a memory buffer, and what a scene makes of a mesh it
 * accepts: edges, hinges (mesh_topology.c) and the world's distance and dihedral constraints, then
 * the normals an export writes. Inputs must load or fail with a "fuzz.obj:LINE:" message.
 */
#include "scene_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    drape_mesh m;
    drape_scene_error e;
    if (drape_mesh_read_obj_buffer((const char *)data, size, "fuzz.obj", &m, &e) !=
        DRAPE_SCENE_OK) {
        if (strncmp(e.message, "fuzz.obj:", 9) != 0 || m.vertices || m.triangles)
            abort();
        return 0;
    }
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = DRAPE_BACKEND_CPU;
    o.log = NULL;
    o.max_particles = 4096;
    drape_scene *s = NULL;
    if (drape_scene_load_buffer("{}", 2, "fuzz.json", &o, &s, &e) != DRAPE_SCENE_OK)
        abort();
    sc_mesh_def def = sc_default_mesh_def();
    if (sc_scene_add_mesh(s, "mesh", &m, &def) == DRAPE_OK) {
        uint32_t count;
        const uint32_t *tri = drape_scene_triangles(s, &count);
        drape_world *w = drape_scene_world(s);
        uint32_t n = drape_world_particle_count(w);
        float *pos = malloc(((size_t)n * 4 + 1) * sizeof *pos);
        float *nrm = malloc(((size_t)n * 4 + 1) * sizeof *nrm);
        if (pos && nrm && drape_world_set_triangles(w, tri, count) == DRAPE_OK &&
            drape_world_get_render_data(w, 0, n, pos, nrm) != DRAPE_OK)
            abort();
        free(pos);
        free(nrm);
    }
    drape_scene_destroy(s);
    drape_mesh_free(&m);
    return 0;
}

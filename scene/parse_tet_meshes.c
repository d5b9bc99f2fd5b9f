/* The "tet_meshes" section of a scene file: tetrahedral bodies, from TetGen's .node and .ele files
 * ("node", "ele") or from a closed OBJ surface that TetGen's program tetrahedralises while the
 * scene loads ("surface", with "quality" and "max_volume"), placed by "translate" and "scale", with
 * the material of drape_tet_mesh_def: a Neo-Hookean solid with "youngs_modulus" > 0 (Pa) and
 * "poisson_ratio", or edges and volumes ("edges", "volume") with "youngs_modulus": 0. File errors
 * come back as "FILE:LINE: what" under the member that named the file.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Reads the mesh the object names into *m (unscaled; a surface is meshed for the body scaled by
 * `scale`). */
static bool read_tets(sc_parser *p, const cJSON *o, float scale, drape_tetgen_mesh *m)
{
    sc_json *j = &p->json;
    const bool from_surface = sc_json_member(o, "surface") != NULL;
    if (from_surface && (sc_json_member(o, "node") || sc_json_member(o, "ele")))
        return sc_json_fail_at(j, "surface",
                               "give either \"surface\" (an OBJ for tetgen) or \"node\" and "
                               "\"ele\" (TetGen's files), not both");
    static const char *const surface_keys[] = {"quality", "max_volume"};
    for (int k = 0; k < 2 && !from_surface; ++k)
        if (sc_json_member(o, surface_keys[k]))
            return sc_json_fail_at(j, surface_keys[k],
                                   "applies only with \"surface\" (how tetgen meshes it); "
                                   "\"node\" and \"ele\" are meshed already");
    drape_scene_error e;
    drape_scene_status s;
    const char *key;
    if (from_surface) {
        float quality = 1.5f, max_volume = 0.0f;
        if (!sc_json_get_float(j, o, "quality", (sc_range){1.1, 10.0, false, false}, &quality) ||
            !sc_json_get_float(j, o, "max_volume", sc_nonneg, &max_volume))
            return false;
        drape_mesh surface = {0};
        if (!sc_parse_obj(p, o, "surface", &surface))
            return false;
        key = "surface";
        const char *rel = NULL;
        sc_json_get_string(j, o, "surface", &rel);
        s = sc_tetgen_tetrahedralise(&surface, rel, quality, max_volume, scale, m, &e);
        drape_mesh_free(&surface);
    } else {
        const char *node = NULL, *ele = NULL;
        if (!sc_json_require(j, o, "node") || !sc_json_get_string(j, o, "node", &node) ||
            !sc_json_require(j, o, "ele") || !sc_json_get_string(j, o, "ele", &ele))
            return false;
        char *node_path = sc_parse_path(p, "node", node);
        char *ele_path = node_path ? sc_parse_path(p, "ele", ele) : NULL;
        if (!node_path || !ele_path) {
            free(node_path);
            return false;
        }
        s = drape_tetgen_read(node_path, ele_path, m, &e);
        /* the message starts with the file it is about */
        key = strncmp(e.message, ele_path, strlen(ele_path)) == 0 ? "ele" : "node";
        free(node_path);
        free(ele_path);
    }
    if (s == DRAPE_SCENE_OK)
        return true;
    size_t mark = sc_json_enter_key(j, key);
    sc_json_fail_status(j, s, e.result, "%s", e.message);
    sc_json_leave(j, mark);
    return false;
}

static bool parse_tet_mesh(sc_parser *p, const cJSON *o, size_t index)
{
    static const char *const keys[] = {"name",
                                       "node",
                                       "ele",
                                       "surface",
                                       "quality",
                                       "max_volume",
                                       "translate",
                                       "scale",
                                       "velocity",
                                       "density",
                                       "youngs_modulus",
                                       "poisson_ratio",
                                       "edges",
                                       "volume",
                                       "contact_radius",
                                       "group",
                                       NULL};
    sc_json *j = &p->json;
    drape_tet_mesh_def d = drape_default_tet_mesh_def();
    drape_vec3 translate = {0.0f, 0.0f, 0.0f};
    float scale = 1.0f;
    char name[80];
    bool ok = sc_json_object(j, o, keys) && sc_get_name(p, o, "tets", index, name, sizeof name) &&
              sc_json_get_vec3(j, o, "translate", sc_coord, &translate) &&
              sc_json_get_float(j, o, "scale", sc_positive, &scale) &&
              sc_json_get_vec3(j, o, "velocity", sc_coord, &d.velocity) &&
              sc_json_get_float(j, o, "density", sc_positive, &d.density) &&
              sc_json_get_float(j, o, "youngs_modulus", sc_nonneg, &d.youngs_modulus) &&
              sc_json_get_float(j, o, "poisson_ratio", sc_poisson, &d.poisson_ratio) &&
              sc_get_stiffness_object(p, o, "edges", &d.edges) &&
              sc_get_stiffness_object(p, o, "volume", &d.volume) &&
              sc_get_body_contact(p, o, &d.contact_radius, &d.group) &&
              sc_check_material(p, o, d.youngs_modulus);
    drape_tetgen_mesh m = {0};
    ok = ok && read_tets(p, o, scale, &m) &&
         sc_parse_check(p, sc_scene_add_tet_mesh(p->scene, name, &m, translate, scale, &d));
    drape_tetgen_mesh_free(&m);
    return ok;
}

bool sc_parse_tet_meshes(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_tet_mesh);
}

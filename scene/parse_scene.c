/* A scene file from memory: JSON syntax through cJSON (with the line and column of a syntax error
 * from the offset where cJSON stopped), then the top-level keys, then the sections in a fixed order
 * whatever their order in the file: "solver" (the world is created from it), "particles", "cloths",
 * "ropes", "particle_blocks", "meshes", "soft_boxes", "balloons" (which number the particles in
 * that order), "distances", "dihedrals", "attachments", "tethers", "colliders", "triangles" and
 * "aerodynamics". The format is
 * docs/scene-format.md.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = {
    "version",      "name",     "description",     "steps",      "solver",     "particles",
    "cloths",       "ropes",    "meshes",          "soft_boxes", "distances",  "dihedrals",
    "attachments",  "tethers",  "colliders",       "triangles",  "tet_meshes", "shape_matches",
    "aerodynamics", "balloons", "particle_blocks", NULL};

/* "FILE:LINE:COLUMN: what" for a syntax error at `offset`. */
static drape_scene_status syntax_error(const char *file, const char *data, size_t size,
                                       size_t offset, const char *what, drape_scene_error *err)
{
    uint32_t line, column;
    sc_line_column(data, size, offset, &line, &column);
    /* The text around the offset on its line, for the eye: cJSON's offset may sit just past the
     * character it choked on. */
    size_t begin = offset > 6 ? offset - 6 : 0, n = 0;
    for (size_t i = begin; i < offset && i < size; ++i)
        if (data[i] == '\n')
            begin = i + 1;
    while (begin < offset && begin < size && (data[begin] == ' ' || data[begin] == '\t'))
        ++begin;
    while (begin + n < size && data[begin + n] != '\n' && data[begin + n] != '\r')
        ++n;
    char near[4 * SC_EXCERPT_MAX + 4];
    sc_excerpt(data + begin, n, near, sizeof near);
    if (n == 0)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s:%u:%u: %s%s", file, line, column,
                       what, offset >= size ? " at the end of the input" : "");
    return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s:%u:%u: %s near '%s'", file, line,
                   column, what, near);
}

/* The scene's name from a file name: letters, digits, '_', '-', '.' kept, others made '_'. */
static char *name_from_file(const char *file)
{
    char *stem = sc_stem(file);
    if (!stem)
        return NULL;
    size_t n = strlen(stem);
    if (n > 64)
        stem[n = 64] = '\0';
    for (size_t i = 0; i < n; ++i)
        if (!isalnum((unsigned char)stem[i]) && stem[i] != '-' && stem[i] != '.')
            stem[i] = '_';
    if (n == 0) {
        free(stem);
        return sc_strdup("scene");
    }
    return stem;
}

drape_scene_status sc_parse_json_text(const char *data, size_t size, const char *file, cJSON **out,
                                      drape_scene_error *err)
{
    *out = NULL;
    if (!data)
        data = "";
    /* A UTF-8 byte order mark is not JSON, but editors write it. */
    size_t bom = size >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;

    sc_json_scan_result scan;
    sc_json_scan(data + bom, size - bom, &scan);
    if (scan.error_offset != SIZE_MAX)
        return syntax_error(file, data, size, bom + scan.error_offset, scan.error, err);
    const uint64_t available = drape_host_memory_available();
    if (scan.bytes > available)
        return sc_fail(
            err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
            "%s: reading its %llu JSON values needs about %llu bytes, more than the %llu "
            "bytes this process can still allocate",
            file, (unsigned long long)scan.values, (unsigned long long)scan.bytes,
            (unsigned long long)available);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(data + bom, size - bom, &end, 0);
    if (!root)
        return syntax_error(file, data, size, end && end >= data ? (size_t)(end - data) : 0,
                            "malformed JSON", err);
    size_t offset = end && end >= data ? (size_t)(end - data) : size;
    while (offset < size && isspace((unsigned char)data[offset]))
        ++offset;
    if (offset < size) {
        cJSON_Delete(root);
        return syntax_error(file, data, size, offset, "unexpected text after the JSON value", err);
    }
    *out = root;
    return DRAPE_SCENE_OK;
}

static bool parse_triangle(sc_parser *p, const cJSON *item, size_t index)
{
    (void)index;
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return sc_json_fail(&p->json, "must be an array of 3 particle references");
    uint32_t v[3];
    size_t k = 0;
    for (const cJSON *e = item->child; e; e = e->next, ++k) {
        size_t mark = sc_json_enter_index(&p->json, k);
        bool ok = sc_parse_particle_ref(p, e, &v[k]);
        sc_json_leave(&p->json, mark);
        if (!ok)
            return false;
    }
    return sc_parse_check(p, sc_scene_add_triangle(p->scene, v));
}

bool sc_parse_triangles(sc_parser *p, const cJSON *array)
{
    return sc_parse_each(p, array, parse_triangle);
}

/* Runs a section parser with the section's key on the path. */
static bool section(sc_parser *p, const cJSON *root, const char *key,
                    bool (*parse)(sc_parser *p, const cJSON *value))
{
    size_t mark = sc_json_enter_key(&p->json, key);
    bool ok = parse(p, sc_json_member(root, key));
    sc_json_leave(&p->json, mark);
    return ok;
}

/* The top level, the world and the sections; *out gets the scene (also on failure, to free). */
static bool parse_root(sc_parser *p, const cJSON *root, const char *file,
                       const drape_scene_options *options, drape_scene **out)
{
    sc_json *j = &p->json;
    uint32_t version = 1, steps = 300;
    const char *name = NULL, *description = NULL;
    if (!sc_json_object(j, root, top_keys) ||
        !sc_json_get_u32(j, root, "version", 1, 1, &version) ||
        !sc_json_get_string(j, root, "name", &name) ||
        !sc_json_get_string(j, root, "description", &description) ||
        !sc_json_get_u32(j, root, "steps", 1, 1000000000, &steps))
        return false;
    if (name && !sc_valid_name(name))
        return sc_json_fail_at(j, "name", "must be 1 to 64 letters, digits, '_', '-' or '.'");
    drape_world_def def = drape_default_world_def();
    size_t mark = sc_json_enter_key(j, "solver");
    bool ok = sc_parse_solver(p, sc_json_member(root, "solver"), &def);
    sc_json_leave(j, mark);
    if (!ok)
        return false;

    char *own_name = name ? NULL : name_from_file(file);
    *out = p->scene = sc_scene_new(name ? name : own_name ? own_name : "scene", options);
    free(own_name);
    if (!p->scene)
        return sc_json_fail_status(j, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                                   "no memory for a scene");
    p->scene->default_steps = steps;
    /* The solver's values are checked above one by one; what fails now is a combination the
     * library refuses (bad input: a substep too short, drag too strong for it), the backend or
     * memory. */
    drape_result r = sc_scene_create_world(p->scene, def);
    if (r == DRAPE_ERROR_ENVIRONMENT) {
        /* no fault of the scene's (not a bad "solver", exit 3): the backend refused a variable,
         * and the message names it (exit 1) */
        sc_fail(j->err, DRAPE_SCENE_WORLD_FAILED, r, "%s", sc_scene_last_error(p->scene));
        return false;
    }
    if (r != DRAPE_OK) {
        mark = sc_json_enter_key(j, "solver");
        sc_json_fail_status(j, sc_status_of(r), r, "%s", sc_scene_last_error(p->scene));
        sc_json_leave(j, mark);
        return false;
    }
    return section(p, root, "particles", sc_parse_particles) &&
           section(p, root, "cloths", sc_parse_cloths) &&
           section(p, root, "ropes", sc_parse_ropes) &&
           section(p, root, "particle_blocks", sc_parse_particle_blocks) &&
           section(p, root, "meshes", sc_parse_meshes) &&
           section(p, root, "soft_boxes", sc_parse_soft_boxes) &&
           section(p, root, "tet_meshes", sc_parse_tet_meshes) &&
           section(p, root, "balloons", sc_parse_balloons) &&
           section(p, root, "distances", sc_parse_distances) &&
           section(p, root, "dihedrals", sc_parse_dihedrals) &&
           section(p, root, "attachments", sc_parse_attachments) &&
           sc_parse_check(p, sc_scene_tether_attached(p->scene)) &&
           section(p, root, "tethers", sc_parse_tethers) &&
           section(p, root, "shape_matches", sc_parse_shape_matches) &&
           section(p, root, "colliders", sc_parse_colliders) &&
           section(p, root, "triangles", sc_parse_triangles) &&
           section(p, root, "aerodynamics", sc_parse_aero);
}

drape_scene_status drape_scene_load_buffer(const char *data, size_t size, const char *name,
                                           const drape_scene_options *options, drape_scene **out,
                                           drape_scene_error *err)
{
    drape_scene_error local;
    err = sc_error_reset(err, &local);
    const char *file = name ? name : "(scene)";
    if (!out || (!data && size))
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                       "%s: no data or no place for the scene", file);
    *out = NULL;
    cJSON *root;
    drape_scene_status status = sc_parse_json_text(data, size, file, &root, err);
    if (status != DRAPE_SCENE_OK)
        return status;

    char *base_dir = sc_dirname(file);
    sc_parser p = {.scene = NULL, .base_dir = base_dir ? base_dir : ""};
    sc_json_init(&p.json, file, err);
    drape_scene *scene = NULL;
    bool ok = base_dir ? parse_root(&p, root, file, options, &scene)
                       : sc_json_fail_status(&p.json, DRAPE_SCENE_WORLD_FAILED,
                                             DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    cJSON_Delete(root);
    free(base_dir);
    if (!ok) {
        drape_scene_destroy(scene);
        return err->status;
    }
    sc_scene_finish(scene);
    *out = scene;
    return DRAPE_SCENE_OK;
}

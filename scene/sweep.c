/* Sweep files (docs/sweep-format.md): reading one strictly, and resolving its case k into a whole
 * scene file. The base scene is read once as a JSON tree with the sweep's "set" values put in; a
 * case is a copy of that tree with the case's values put in at their JSON paths (json_path.c).
 *
 * The cases are numbered 0 .. count-1: a grid is the cartesian product of its value lists in the
 * file's key order, the last key varying fastest; a list is its entries in order; random samples
 * draw each value uniformly from its range with a generator seeded from (seed, case, parameter)
 * alone (SplitMix64, Steele et al., "Fast splittable pseudorandom number generators", OOPSLA 2014),
 * so that case k is the same whichever process resolves it and whatever it resolved before.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "drape_sweep.h"
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef enum sweep_kind { SWEEP_GRID, SWEEP_LIST, SWEEP_RANDOM } sweep_kind;

struct drape_sweep {
    cJSON *root;     /* the sweep file */
    cJSON *base;     /* the base scene with "set" applied */
    char *base_path; /* the base scene file, as the sweep names it (for messages) */
    char *base_dir;  /* absolute, with a trailing '/': where relative mesh paths start */
    sweep_kind kind;
    const cJSON *vary; /* grid: the object of value lists; list: the array; random: "ranges" */
    uint32_t count;
    uint32_t seed;
    drape_sweep_outputs outputs;
    bool allow_outside_paths; /* mesh paths may lead out of the base scene's folder */
};

static const char *const sweep_keys[] = {"version", "description", "base",    "set", "grid",
                                         "list",    "random",      "outputs", NULL};

/* SplitMix64's output function of a state. */
static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform number in [0, 1) for (seed, case, parameter). */
static double uniform(uint32_t seed, uint32_t index, uint32_t param)
{
    uint64_t h = mix(mix(mix(seed) ^ index) ^ param);
    return (double)(h >> 11) * 0x1p-53;
}

/* An object whose keys are JSON paths: each key once. */
static bool paths_once(sc_json *j, const cJSON *object)
{
    for (const cJSON *m = object->child; m; m = m->next)
        for (const cJSON *o = object->child; o != m; o = o->next)
            if (!strcmp(o->string, m->string))
                return sc_json_fail(j, "the path '%s' appears twice", m->string);
    return true;
}

/* Checks that `path` is a path that fits the base scene, by setting `value` on a copy. */
static bool check_path(sc_json *j, const cJSON *base, const char *path, const cJSON *value)
{
    size_t mark = sc_json_enter_quoted(j, path);
    char why[256];
    cJSON *copy = cJSON_Duplicate(base, true);
    bool ok = copy && sc_json_path_set(copy, path, value, why, sizeof why);
    cJSON_Delete(copy);
    if (!copy)
        sc_json_fail_status(j, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    else if (!ok)
        sc_json_fail(j, "%s", why);
    sc_json_leave(j, mark);
    return ok;
}

/* "set": values put into the base scene for every case. */
static bool parse_set(sc_json *j, const cJSON *set, cJSON *base)
{
    if (!set)
        return true;
    if (!cJSON_IsObject(set))
        return sc_json_fail(j, "must be an object of JSON paths and values");
    if (!paths_once(j, set))
        return false;
    for (const cJSON *m = set->child; m; m = m->next) {
        size_t mark = sc_json_enter_quoted(j, m->string);
        char why[256];
        bool ok =
            sc_json_path_set(base, m->string, m, why, sizeof why) || sc_json_fail(j, "%s", why);
        sc_json_leave(j, mark);
        if (!ok)
            return false;
    }
    return true;
}

static bool parse_grid(sc_json *j, drape_sweep *s, const cJSON *grid)
{
    if (!cJSON_IsObject(grid) || !grid->child)
        return sc_json_fail(j, "must be an object of JSON paths, each with a list of values");
    if (!paths_once(j, grid))
        return false;
    uint64_t count = 1;
    for (const cJSON *m = grid->child; m; m = m->next) {
        size_t mark = sc_json_enter_quoted(j, m->string);
        size_t n = 0;
        bool ok =
            sc_json_array(j, m, &n) && (n > 0 || sc_json_fail(j, "must list at least one value"));
        sc_json_leave(j, mark);
        if (!ok || !check_path(j, s->base, m->string, m->child))
            return false;
        count *= n;
        if (count > DRAPE_SWEEP_MAX_CASES)
            return sc_json_fail(j, "makes more than %u cases", DRAPE_SWEEP_MAX_CASES);
    }
    s->count = (uint32_t)count;
    return true;
}

static bool parse_list(sc_json *j, drape_sweep *s, const cJSON *list)
{
    size_t n = 0;
    if (!sc_json_array(j, list, &n))
        return false;
    if (n == 0 || n > DRAPE_SWEEP_MAX_CASES)
        return sc_json_fail(j, "must hold 1 to %u cases, has %zu", DRAPE_SWEEP_MAX_CASES, n);
    size_t i = 0;
    for (const cJSON *c = list->child; c; c = c->next, ++i) {
        size_t mark = sc_json_enter_index(j, i);
        bool ok = cJSON_IsObject(c) || sc_json_fail(j, "must be an object of JSON paths and "
                                                       "values");
        ok = ok && paths_once(j, c);
        for (const cJSON *m = ok ? c->child : NULL; m && ok; m = m->next)
            ok = check_path(j, s->base, m->string, m);
        sc_json_leave(j, mark);
        if (!ok)
            return false;
    }
    s->count = (uint32_t)n;
    return true;
}

static bool parse_random(sc_json *j, drape_sweep *s, const cJSON *random)
{
    static const char *const keys[] = {"count", "seed", "ranges", NULL};
    s->seed = 1;
    if (!sc_json_object(j, random, keys) || !sc_json_require(j, random, "count") ||
        !sc_json_require(j, random, "ranges") ||
        !sc_json_get_u32(j, random, "count", 1, DRAPE_SWEEP_MAX_CASES, &s->count) ||
        !sc_json_get_u32(j, random, "seed", 0, UINT32_MAX, &s->seed))
        return false;
    const cJSON *ranges = sc_json_member(random, "ranges");
    size_t mark = sc_json_enter_key(j, "ranges");
    bool ok = (cJSON_IsObject(ranges) && ranges->child) ||
              sc_json_fail(j, "must be an object of JSON paths, each with [min, max]");
    ok = ok && paths_once(j, ranges);
    for (const cJSON *m = ok ? ranges->child : NULL; m && ok; m = m->next) {
        size_t inner = sc_json_enter_quoted(j, m->string);
        double lo = 0.0, hi = 0.0;
        ok = (cJSON_IsArray(m) && cJSON_GetArraySize(m) == 2) ||
             sc_json_fail(j, "must be [min, max]");
        if (ok) {
            size_t at = sc_json_enter_index(j, 0);
            ok = sc_json_double(j, m->child, sc_any, &lo);
            sc_json_leave(j, at);
        }
        if (ok) {
            size_t at = sc_json_enter_index(j, 1);
            ok = sc_json_double(j, m->child->next, sc_any, &hi) &&
                 (hi >= lo || sc_json_fail(j, "max %g is below min %g", hi, lo));
            sc_json_leave(j, at);
        }
        sc_json_leave(j, inner);
        ok = ok && check_path(j, s->base, m->string, m->child);
    }
    sc_json_leave(j, mark);
    s->vary = ranges;
    return ok;
}

static bool parse_outputs(sc_json *j, const cJSON *o, drape_sweep_outputs *out)
{
    static const char *const keys[] = {"csv", "obj_every", NULL};
    return !o || (sc_json_object(j, o, keys) && sc_json_get_bool(j, o, "csv", &out->csv) &&
                  sc_json_get_u32(j, o, "obj_every", 0, 1000000000, &out->obj_every));
}

/* Exactly one of "grid", "list" and "random". */
static bool parse_variation(sc_json *j, drape_sweep *s)
{
    static const char *const kinds[] = {"grid", "list", "random"};
    const cJSON *found = NULL;
    int which = -1;
    for (int k = 0; k < 3; ++k) {
        const cJSON *v = sc_json_member(s->root, kinds[k]);
        if (v && found)
            return sc_json_fail(j, "has both \"%s\" and \"%s\"; a sweep varies its cases one way",
                                kinds[which], kinds[k]);
        if (v)
            found = v, which = k;
    }
    if (!found)
        return sc_json_fail(j, "needs one of \"grid\", \"list\" or \"random\"");
    size_t mark = sc_json_enter_key(j, kinds[which]);
    s->kind = (sweep_kind)which;
    s->vary = found;
    bool ok = which == 0   ? parse_grid(j, s, found)
              : which == 1 ? parse_list(j, s, found)
                           : parse_random(j, s, found);
    sc_json_leave(j, mark);
    return ok;
}

/* Reads the base scene named by "base": a built-in scene's name, else a file relative to the sweep
 * file's directory. */
static drape_scene_status read_base(sc_json *j, drape_sweep *s, const char *sweep_path,
                                    drape_scene_error *err)
{
    const char *rel = NULL;
    if (!sc_json_require(j, s->root, "base") || !sc_json_get_string(j, s->root, "base", &rel))
        return err->status;
    /* A built-in scene's name: its embedded file; it has no meshes to find. */
    size_t size = 0;
    const char *builtin = drape_scene_builtin_json(rel, &size);
    char *dir = builtin ? NULL : sc_dirname(sweep_path);
    char *path = builtin ? sc_strdup(rel) : dir ? sc_join(dir, rel) : NULL;
    free(dir);
    if (!path)
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    char *data = NULL;
    drape_scene_status st = builtin ? DRAPE_SCENE_OK : sc_read_file(path, &data, &size, err);
    if (builtin && !(data = sc_strdup(builtin)))
        st = sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    if (st != DRAPE_SCENE_OK) {
        size_t mark = sc_json_enter_key(j, "base");
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        sc_json_fail(j, "%s", why);
        sc_json_leave(j, mark);
    }
    if (st == DRAPE_SCENE_OK)
        st = sc_parse_json_text(data, size, path, &s->base, err);
    free(data);
    if (st == DRAPE_SCENE_OK && !cJSON_IsObject(s->base))
        st = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: $: must be an object", path);
    /* A built-in scene has no folder (and no meshes): "/" keeps the sweep the same sweep from
     * whichever folder it is run. */
    char resolved[PATH_MAX] = "/";
    char *base_dir = st == DRAPE_SCENE_OK ? sc_dirname(builtin ? "" : path) : NULL;
    if (st == DRAPE_SCENE_OK && !builtin &&
        (!base_dir || !realpath(base_dir[0] ? base_dir : ".", resolved)))
        st = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot resolve its folder", path);
    if (st == DRAPE_SCENE_OK) {
        size_t n = strlen(resolved);
        s->base_dir = malloc(n + 2);
        if (!s->base_dir)
            st = sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
        else
            snprintf(s->base_dir, n + 2, "%s%s", resolved, resolved[n - 1] == '/' ? "" : "/");
    }
    free(base_dir);
    if (st == DRAPE_SCENE_OK)
        s->base_path = path;
    else
        free(path);
    return st;
}

/* The base scene with "set" applied must be a valid scene: built once on the CPU (never an OpenCL
 * runtime in the process that forks the workers), so that a bad "set" value is one error now
 * rather than the same failure in every case. */
static bool check_base(sc_json *j, const drape_sweep *s)
{
    char *text = cJSON_PrintUnformatted(s->base);
    if (!text)
        return sc_json_fail_status(j, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                                   "no memory");
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = DRAPE_BACKEND_CPU;
    o.log = NULL;
    o.allow_outside_paths = s->allow_outside_paths;
    drape_scene *scene = NULL;
    drape_scene_error e;
    drape_scene_status st =
        drape_scene_load_buffer(text, strlen(text), s->base_path, &o, &scene, &e);
    free(text);
    drape_scene_destroy(scene);
    if (st == DRAPE_SCENE_OK)
        return true;
    return sc_json_fail_status(j, st, e.result, "the base scene%s is not valid: %s",
                               sc_json_member(s->root, "set") ? " with \"set\"" : "", e.message);
}

drape_scene_status drape_sweep_load_file(const char *path, bool allow_outside_paths,
                                         drape_sweep **out, drape_scene_error *err)
{
    drape_scene_error local;
    err = sc_error_reset(err, &local);
    if (!out)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "no place for the sweep");
    *out = NULL;
    if (!path)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "no sweep file given");
    drape_sweep *s = calloc(1, sizeof *s);
    if (!s)
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
    s->allow_outside_paths = allow_outside_paths;
    char *data = NULL;
    size_t size = 0;
    drape_scene_status st = sc_read_file(path, &data, &size, err);
    if (st == DRAPE_SCENE_OK)
        st = sc_parse_json_text(data, size, path, &s->root, err);
    free(data);
    sc_json j;
    sc_json_init(&j, path, err);
    uint32_t version = 1;
    const char *description = NULL;
    if (st == DRAPE_SCENE_OK && (!sc_json_object(&j, s->root, sweep_keys) ||
                                 !sc_json_get_u32(&j, s->root, "version", 1, 1, &version) ||
                                 !sc_json_get_string(&j, s->root, "description", &description)))
        st = err->status;
    if (st == DRAPE_SCENE_OK)
        st = read_base(&j, s, path, err);
    if (st == DRAPE_SCENE_OK) {
        size_t mark = sc_json_enter_key(&j, "set");
        if (!parse_set(&j, sc_json_member(s->root, "set"), s->base))
            st = err->status;
        sc_json_leave(&j, mark);
    }
    if (st == DRAPE_SCENE_OK && !check_base(&j, s))
        st = err->status;
    if (st == DRAPE_SCENE_OK && !parse_variation(&j, s))
        st = err->status;
    if (st == DRAPE_SCENE_OK) {
        size_t mark = sc_json_enter_key(&j, "outputs");
        if (!parse_outputs(&j, sc_json_member(s->root, "outputs"), &s->outputs))
            st = err->status;
        sc_json_leave(&j, mark);
    }
    if (st != DRAPE_SCENE_OK) {
        drape_sweep_destroy(s);
        return st;
    }
    *out = s;
    return DRAPE_SCENE_OK;
}

void drape_sweep_destroy(drape_sweep *sweep)
{
    if (!sweep)
        return;
    cJSON_Delete(sweep->root);
    cJSON_Delete(sweep->base);
    free(sweep->base_path);
    free(sweep->base_dir);
    free(sweep);
}

uint32_t drape_sweep_case_count(const drape_sweep *sweep) { return sweep->count; }

drape_sweep_outputs drape_sweep_get_outputs(const drape_sweep *sweep) { return sweep->outputs; }

char *drape_sweep_identity(const drape_sweep *sweep)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *file = cJSON_Duplicate(sweep->root, true);
    cJSON *base = cJSON_Duplicate(sweep->base, true);
    char *text = NULL;
    if (o && file && base && cJSON_AddItemToObject(o, "sweep", file)) {
        file = NULL;
        if (cJSON_AddItemToObject(o, "base_scene", base)) {
            base = NULL;
            if (cJSON_AddStringToObject(o, "base_folder", sweep->base_dir))
                text = cJSON_PrintUnformatted(o);
        }
    }
    cJSON_Delete(file);
    cJSON_Delete(base);
    cJSON_Delete(o);
    return text;
}

/* The values of case `index` as an object {path: value}; NULL when out of memory. */
static cJSON *case_values(const drape_sweep *s, uint32_t index)
{
    cJSON *values = NULL;
    if (s->kind == SWEEP_LIST)
        return cJSON_Duplicate(cJSON_GetArrayItem(s->vary, (int)index), true);
    values = cJSON_CreateObject();
    if (!values)
        return NULL;
    if (s->kind == SWEEP_GRID) {
        /* Mixed radix, the last key fastest: the digits come out from the end. */
        int n = cJSON_GetArraySize(s->vary);
        uint32_t rest = index;
        cJSON **picked = calloc((size_t)n, sizeof *picked);
        if (!picked) {
            cJSON_Delete(values);
            return NULL;
        }
        for (int k = n - 1; k >= 0; --k) {
            const cJSON *list = cJSON_GetArrayItem(s->vary, k);
            uint32_t size = (uint32_t)cJSON_GetArraySize(list);
            picked[k] = cJSON_GetArrayItem(list, (int)(rest % size));
            rest /= size;
        }
        bool ok = true;
        for (int k = 0; k < n && ok; ++k) {
            cJSON *copy = cJSON_Duplicate(picked[k], true);
            const char *key = cJSON_GetArrayItem(s->vary, k)->string;
            ok = copy && cJSON_AddItemToObject(values, key, copy);
            if (!ok)
                cJSON_Delete(copy);
        }
        free(picked);
        if (!ok) {
            cJSON_Delete(values);
            return NULL;
        }
        return values;
    }
    uint32_t param = 0;
    for (const cJSON *m = s->vary->child; m; m = m->next, ++param) {
        double lo = m->child->valuedouble, hi = m->child->next->valuedouble;
        double v = lo + (hi - lo) * uniform(s->seed, index, param);
        if (!cJSON_AddNumberToObject(values, m->string, v)) {
            cJSON_Delete(values);
            return NULL;
        }
    }
    return values;
}

/* Makes the scene's relative mesh paths ($.meshes[i].obj) absolute, so that the resolved scene runs
 * from any folder; unless the sweep allows it, a path must stay inside the base scene's folder, as
 * a scene file's must (sc_path_inside). */
static drape_scene_status absolute_mesh_paths(const drape_sweep *s, uint32_t index, cJSON *scene,
                                              drape_scene_error *err)
{
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(scene, "meshes");
    int k = 0;
    for (cJSON *m = cJSON_IsArray(meshes) ? meshes->child : NULL; m; m = m->next, ++k) {
        cJSON *obj = cJSON_GetObjectItemCaseSensitive(m, "obj");
        if (!cJSON_IsString(obj) || !obj->valuestring)
            continue;
        char why[512];
        if (!s->allow_outside_paths &&
            !sc_path_inside(s->base_dir, obj->valuestring, why, sizeof why))
            return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "case %u: $.meshes[%d].obj: %s",
                           index, k, why);
        if (obj->valuestring[0] == '/')
            continue;
        char *path = sc_join(s->base_dir, obj->valuestring);
        cJSON *abs = path ? cJSON_CreateString(path) : NULL;
        free(path);
        if (!abs || !cJSON_ReplaceItemInObjectCaseSensitive(m, "obj", abs)) {
            cJSON_Delete(abs);
            return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
        }
    }
    return DRAPE_SCENE_OK;
}

drape_scene_status drape_sweep_case(const drape_sweep *s, uint32_t index, char **scene_json,
                                    char **params_json, drape_scene_error *err)
{
    drape_scene_error local;
    if (!err)
        err = &local;
    *scene_json = *params_json = NULL;
    if (index >= s->count)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "case %u: the sweep has %u cases",
                       index, s->count);
    cJSON *values = case_values(s, index);
    cJSON *scene = values ? cJSON_Duplicate(s->base, true) : NULL;
    drape_scene_status st = scene
                                ? DRAPE_SCENE_OK
                                : sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                                          "no memory for case %u", index);
    for (const cJSON *m = scene ? values->child : NULL; m && st == DRAPE_SCENE_OK; m = m->next) {
        char why[256];
        if (!sc_json_path_set(scene, m->string, m, why, sizeof why))
            st = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "case %u: %s", index, why);
    }
    if (st == DRAPE_SCENE_OK)
        st = absolute_mesh_paths(s, index, scene, err);
    if (st == DRAPE_SCENE_OK) {
        *scene_json = cJSON_Print(scene);
        *params_json = cJSON_PrintUnformatted(values);
        if (!*scene_json || !*params_json) {
            free(*scene_json);
            free(*params_json);
            *scene_json = *params_json = NULL;
            st = sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY, "no memory");
        }
    }
    cJSON_Delete(scene);
    cJSON_Delete(values);
    return st;
}

/* Sweep files (docs/sweep-format.md): how cases are numbered (a grid's last key fastest, a list in
 * order), that random samples depend only on the seed and the case (not on how many cases there
 * are), that JSON paths replace, add and index as documented, that a resolved case is a scene that
 * loads with the case's values in it, with mesh paths made absolute (and kept inside the base
 * scene's folder), that a sweep on a built-in scene is the same sweep from any working folder, and
 * that path errors name the sweep file and the JSON path.
 */
#define _POSIX_C_SOURCE 200809L /* chdir, getcwd */
#include "drape_sweep.h"
#include "scene_test.h"

#include <stdlib.h>
#include <unistd.h>

/* Writes text to DIR/name; the path into buf. */
static const char *write_file(char *buf, size_t size, const char *dir, const char *name,
                              const char *text)
{
    snprintf(buf, size, "%s/%s", dir, name);
    FILE *f = fopen(buf, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    return fclose(f) == 0 ? buf : NULL;
}

/* Loads a sweep written to the scratch folder `dir` as sweep.json. */
static drape_sweep *load(const char *dir, const char *text, drape_scene_error *e)
{
    char path[700];
    drape_sweep *s = NULL;
    if (!write_file(path, sizeof path, dir, "sweep.json", text))
        return NULL;
    if (drape_sweep_load_file(path, false, &s, e) != DRAPE_SCENE_OK)
        return NULL;
    return s;
}

/* Case `index`'s parameters; "" on failure. */
static void params_of(const drape_sweep *s, uint32_t index, char *buf, size_t size)
{
    char *scene = NULL, *params = NULL;
    buf[0] = '\0';
    if (drape_sweep_case(s, index, &scene, &params, NULL) == DRAPE_SCENE_OK)
        snprintf(buf, size, "%s", params);
    free(scene);
    free(params);
}

static void grid_order(st_run *t)
{
    char dir[512], p[256];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "sweep-grid"));
    drape_sweep *s = load(dir,
                          "{\"base\": \"triangle-plane\", \"grid\": {"
                          "\"$.colliders[0].restitution\": [0, 0.5], \"$.steps\": [10, 20, 30]}}",
                          &e);
    CHECK_MSG(t, s, "%s", e.message);
    CHECK(t, drape_sweep_case_count(s) == 6);
    params_of(s, 1, p, sizeof p);
    CHECK_MSG(t, !strcmp(p, "{\"$.colliders[0].restitution\":0,\"$.steps\":20}"), "%s", p);
    params_of(s, 3, p, sizeof p);
    CHECK_MSG(t, !strcmp(p, "{\"$.colliders[0].restitution\":0.5,\"$.steps\":10}"), "%s", p);

    /* Case 5 is a scene with both values in it. */
    char *scene = NULL, *params = NULL;
    CHECK(t, drape_sweep_case(s, 5, &scene, &params, &e) == DRAPE_SCENE_OK);
    drape_scene_options o = st_cpu_options();
    drape_scene *sc = NULL;
    drape_scene_status st = drape_scene_load_buffer(scene, strlen(scene), "case-5", &o, &sc, &e);
    free(scene);
    free(params);
    CHECK_MSG(t, st == DRAPE_SCENE_OK, "%s", e.message);
    CHECK(t, drape_scene_default_steps(sc) == 30);
    drape_scene_destroy(sc);
    CHECK(t, drape_sweep_case(s, 6, &scene, &params, &e) == DRAPE_SCENE_BAD_INPUT);
    drape_sweep_destroy(s);
}

static void random_depends_on_seed_and_case_only(st_run *t)
{
    char dir[512], a[128], b[128];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "sweep-random"));
    const char *fmt = "{\"base\": \"triangle-plane\", \"random\": {\"count\": %d, \"seed\": %d, "
                      "\"ranges\": {\"$.colliders[0].restitution\": [0.25, 0.75]}}}";
    char text[256];
    snprintf(text, sizeof text, fmt, 5, 7);
    drape_sweep *few = load(dir, text, &e);
    CHECK_MSG(t, few, "%s", e.message);
    snprintf(text, sizeof text, fmt, 50, 7);
    drape_sweep *many = load(dir, text, &e);
    snprintf(text, sizeof text, fmt, 5, 8);
    drape_sweep *other = load(dir, text, &e);
    CHECK(t, many && other && drape_sweep_case_count(many) == 50);
    int differ = 0;
    for (uint32_t k = 0; k < 5; ++k) {
        params_of(few, k, a, sizeof a);
        params_of(many, k, b, sizeof b);
        CHECK_MSG(t, a[0] && !strcmp(a, b), "case %u: %s vs %s", k, a, b);
        double v = atof(strchr(a, ':') + 1);
        CHECK_MSG(t, v >= 0.25 && v <= 0.75, "case %u: %s out of range", k, a);
        params_of(other, k, b, sizeof b);
        differ += strcmp(a, b) != 0;
    }
    CHECK(t, differ == 5);
    drape_sweep_destroy(few);
    drape_sweep_destroy(many);
    drape_sweep_destroy(other);
}

static void paths_replace_add_and_index(st_run *t)
{
    char dir[512];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "sweep-paths"));
    /* "solver" is added (triangle-plane has none), an array element and a vector component are
     * replaced, a whole collider is replaced. */
    drape_sweep *s = load(dir,
                          "{\"base\": \"triangle-plane\","
                          " \"set\": {\"$.solver\": {\"damping\": 0.5}},"
                          " \"list\": [{\"$.particles[1].position[2]\": 0.25},"
                          " {\"$.colliders[0]\": {\"type\": \"sphere\", \"position\": [0, 0, 0], "
                          "\"radius\": 0.125}}]}",
                          &e);
    CHECK_MSG(t, s, "%s", e.message);
    drape_scene_options o = st_cpu_options();
    for (uint32_t k = 0; k < 2; ++k) {
        char *scene = NULL, *params = NULL;
        CHECK(t, drape_sweep_case(s, k, &scene, &params, &e) == DRAPE_SCENE_OK);
        drape_scene *sc = NULL;
        drape_scene_status st = drape_scene_load_buffer(scene, strlen(scene), "case", &o, &sc, &e);
        free(scene);
        free(params);
        CHECK_MSG(t, st == DRAPE_SCENE_OK, "%s", e.message);
        drape_world *w = drape_scene_world(sc);
        drape_vec3 x;
        drape_world_get_positions(w, 1, 1, &x);
        float d = 0.0f;
        drape_world_collider_distance(w, 0, (drape_vec3){0.0f, 1.0f, 0.0f}, &d);
        int ok = drape_world_get_def(w).damping == 0.5f &&
                 (k == 0 ? x.z == 0.25f && d == 1.0f : x.z == -0.1f && d == 0.875f);
        drape_scene_destroy(sc);
        CHECK_MSG(t, ok, "case %u: z %g, distance %g", k, (double)x.z, (double)d);
    }
    drape_sweep_destroy(s);
}

static void mesh_paths_become_absolute(st_run *t)
{
    char dir[512], mesh[600], path[700], data[512];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "sweep-mesh"));
    /* The mesh next to the base scene, named relative to it. */
    char *obj = NULL;
    {
        FILE *f = fopen(st_data_path(data, sizeof data, "mesh.obj"), "rb");
        CHECK(t, f);
        obj = calloc(1, 1 << 16);
        size_t n = obj ? fread(obj, 1, (1 << 16) - 1, f) : 0;
        fclose(f);
        CHECK(t, obj && n > 0);
    }
    int ok = write_file(mesh, sizeof mesh, dir, "mesh.obj", obj) != NULL;
    free(obj);
    CHECK(t, ok);
    CHECK(t, write_file(path, sizeof path, dir, "base.json",
                        "{\"meshes\": [{\"obj\": \"mesh.obj\"}], \"steps\": 3}"));
    drape_sweep *s = load(dir, "{\"base\": \"base.json\", \"grid\": {\"$.steps\": [4]}}", &e);
    CHECK_MSG(t, s, "%s", e.message);
    char *scene = NULL, *params = NULL;
    CHECK(t, drape_sweep_case(s, 0, &scene, &params, &e) == DRAPE_SCENE_OK);
    drape_sweep_destroy(s);
    /* Loaded under a name in another folder, the case still finds its mesh. */
    drape_scene_options o = st_cpu_options();
    o.allow_outside_paths = true;
    drape_scene *sc = NULL;
    drape_scene_status st =
        drape_scene_load_buffer(scene, strlen(scene), "/elsewhere/case.json", &o, &sc, &e);
    ok = strstr(scene, "\"/") != NULL;
    free(scene);
    free(params);
    CHECK_MSG(t, st == DRAPE_SCENE_OK, "%s", e.message);
    drape_scene_destroy(sc);
    CHECK(t, ok);

    /* A case whose mesh path climbs out of the base scene's folder fails, as a scene file would. */
    s = load(dir, "{\"base\": \"base.json\", \"list\": [{\"$.meshes[0].obj\": \"../mesh.obj\"}]}",
             &e);
    CHECK_MSG(t, s, "%s", e.message);
    scene = params = NULL;
    st = drape_sweep_case(s, 0, &scene, &params, &e);
    free(scene);
    free(params);
    drape_sweep_destroy(s);
    CHECK(t, st == DRAPE_SCENE_BAD_INPUT && st_has_all(e.message, "case 0: $.meshes[0].obj", NULL));
}

/* The identity that a re-run compares: for a built-in base it names no folder, so the same sweep
 * run from another working folder is the same sweep. */
static void builtin_identity_is_the_same_from_any_folder(st_run *t)
{
    char dir[512], here[1024];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "sweep-identity") && getcwd(here, sizeof here));
    const char *text = "{\"base\": \"triangle-plane\", \"grid\": {\"$.steps\": [4]}}";
    drape_sweep *a = load(dir, text, &e);
    CHECK(t, a && chdir("/") == 0);
    drape_sweep *b = load(dir, text, &e);
    int back = chdir(here);
    char *ia = drape_sweep_identity(a), *ib = b ? drape_sweep_identity(b) : NULL;
    int same = ia && ib && !strcmp(ia, ib);
    free(ia);
    free(ib);
    drape_sweep_destroy(a);
    drape_sweep_destroy(b);
    CHECK(t, back == 0 && same);
}

static void path_errors(st_run *t)
{
    static const struct {
        const char *vary, *piece;
    } cases[] = {
        {"\"grid\": {\"$.colliders[0].radus.x\": [1]}", "$.colliders[0] has no key 'radus'"},
        {"\"grid\": {\"$.colliders[1].radius\": [1]}", "$.colliders has 1 element, no [1]"},
        {"\"grid\": {\"$.steps.x\": [1]}", "$.steps is a number, not an object"},
        {"\"grid\": {\"$.particles.x\": [1]}", "$.particles is an array, not an object"},
        {"\"grid\": {\"$.particles[x]\": [1]}", "expected an index"},
        {"\"grid\": {\"$\": [1]}", "'$' names the whole scene"},
        {"\"grid\": {\"$.steps\": [1], \"$.steps\": [2]}", "the path '$.steps' appears twice"},
        {"\"list\": [{\"$.a..b\": 1}]", "expected a key after '.'"},
        {"\"list\": []", "must hold 1 to 100000 cases"},
        {"\"random\": {\"count\": 0, \"ranges\": {\"$.steps\": [1, 2]}}", "must be an integer"},
        {"\"random\": {\"count\": 3, \"ranges\": {\"$.steps\": [1]}}", "must be [min, max]"},
    };
    char dir[512], text[512];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "sweep-errors"));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        snprintf(text, sizeof text, "{\"base\": \"triangle-plane\", %s}", cases[k].vary);
        drape_sweep *s = load(dir, text, &e);
        drape_sweep_destroy(s);
        CHECK_MSG(t, !s && e.status == DRAPE_SCENE_BAD_INPUT, "accepted: %s", cases[k].vary);
        CHECK(t, st_has_all(e.message, "sweep.json: $", cases[k].piece, NULL));
    }
}

int suite_sweep(void)
{
    st_run t = {0};
    RUN(&t, grid_order);
    RUN(&t, random_depends_on_seed_and_case_only);
    RUN(&t, paths_replace_add_and_index);
    RUN(&t, mesh_paths_become_absolute);
    RUN(&t, builtin_identity_is_the_same_from_any_folder);
    RUN(&t, path_errors);
    return st_finish(&t);
}

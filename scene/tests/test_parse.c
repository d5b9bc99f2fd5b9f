/* Scene files: every shipped scene and the documentation's complete example load; each kind of bad
 * input (the files in data/bad) fails with a message that names the file and the line or JSON path
 * and says what is wrong; the options that limit a load (no files, a particle budget) hold, and
 * arrays nested deeper than the JSON reader goes are named as such.
 */
#include "scene_test.h"

#include <math.h>
#include <stdlib.h>

static drape_scene_status load_data(const char *name, drape_scene **s, drape_scene_error *e)
{
    char path[512];
    drape_scene_options o = st_cpu_options();
    return drape_scene_load_file(st_data_path(path, sizeof path, name), &o, s, e);
}

static void bad_inputs(st_run *t)
{
    static const struct {
        const char *file, *piece;
    } cases[] = {
        {"malformed.json", "malformed.json:4:4: malformed JSON near '}'"},
        {"trailing.json", "trailing.json:4:1: unexpected text after the JSON value"},
        {"empty.json", "empty.json:1:1: malformed JSON at the end of the input"},
        {"not_object.json", "not_object.json: $: must be an object, got an array of 3"},
        {"unknown_key.json", "unknown_key.json: $.solver: unknown key 'substep' (known keys: dt,"},
        {"unknown_collider_key.json", "$.colliders[0]: unknown key 'radius'"},
        {"duplicate_key.json", "duplicate_key.json: $: key 'steps' appears twice"},
        {"wrong_type.json", "$.solver.iterations: must be an integer, got a string"},
        {"wrong_type_vector.json",
         "$.solver.gravity: must be an array of 3 numbers [x, y, z], got an array of 2"},
        {"out_of_range.json", "out_of_range.json: $.colliders[2].radius: must be > 0, got -1"},
        {"out_of_range_int.json", "$.cloths[0].nx: must be an integer in [2, 16384], got 1"},
        {"infinite.json",
         "$.solver.dt: must be a finite number in (0, 1], got inf (too large for a double)"},
        {"bad_enum.json",
         "$.solver.backend: must be one of \"cpu\", \"opencl\", \"auto\", got \"cuda\""},
        {"bad_version.json", "$.version: must be an integer in [1, 1], got 2"},
        {"missing_key.json", "$.colliders[0]: missing key 'end'"},
        {"both_stiffness.json", "$.distances[0]: give \"stiffness\" (PBD) or \"compliance\""},
        {"both_stiffness_family.json",
         "$.cloths[0].bend_stiffness: give \"stiffness\" (PBD) or \"compliance\" (XPBD), not both"},
        {"index_past_particles.json",
         "$.distances[0]: drape_world_add_distance: def->b = 5 is out of range (the world has 2"},
        {"dihedral_past_particles.json",
         "$.dihedrals[0]: drape_world_add_dihedral: def->wing1 = 9"},
        {"attachment_past_particles.json", "$.attachments[0]: drape_world_add_attachment:"},
        {"triangle_past_particles.json", "$.triangles[0]: particle 7 is out of range"},
        {"same_particle.json", "$.distances[0]: drape_world_add_distance: def->a and def->b"},
        {"ref_out_of_range.json",
         "$.attachments[0].particle: particle 40 is out of range for 'chain' (20 particles)"},
        {"ref_unknown.json", "$.attachments[0].particle: no cloth, rope, mesh, soft box, tet mesh "
                             "or balloon is named 'rope'"},
        {"ref_syntax.json", "$.attachments[0].particle: a particle reference is an index or"},
        {"missing_mesh.json", "$.meshes[0].obj: "},
        {"mesh_bad_index.json", "$.meshes[0].obj: "},
        {"mesh_pentagon.json", "$.meshes[0].obj: "},
        {"mesh_nan.json", "$.meshes[0].obj: "},
        {"mesh_pinned_range.json", "$.meshes[0]: pinned vertex 99 is out of range"},
        {"tether_stiffness.json",
         "$.cloths[0].tether_stiffness.stiffness: must be in [0, 1], got 1.5"},
        {"tethers_not_bool.json", "$.cloths[0].tethers: must be true or false, got a string"},
        {"tether_past_particles.json",
         "$.tethers[0]: drape_world_add_tether: def->anchor = 9 is out of range (the world has 2"},
        {"tether_negative.json", "$.tethers[0].max_length: must be >= 0, got -2"},
        {"soft_box_flat.json",
         "$.soft_boxes[0]: drape_world_add_soft_box: def->size = (0.5, 0, 0.5) m must be > 0 in "
         "every component"},
        {"soft_box_key.json", "$.soft_boxes[0]: unknown key 'stiffness'"},
        {"soft_box_poisson.json",
         "$.soft_boxes[0].poisson_ratio: applies only with \"youngs_modulus\" > 0"},
        {"soft_box_edges_neo_hookean.json",
         "$.soft_boxes[0].edges: applies only with \"youngs_modulus\" 0; with 20000 Pa"},
        {"soft_box_group.json",
         "$.soft_boxes[0].group: applies only with \"contact_radius\" > 0: without a radius"},
        {"tet_mesh_quality.json",
         "$.tet_meshes[0].max_volume: applies only with \"surface\" (how tetgen meshes it)"},
        {"balloon_pressure.json", "$.balloons[0].pressure: must be > 0, got 0"},
        {"aero_negative.json", "$.aerodynamics.lift: must be >= 0, got -0.5"},
        {"tear_strain.json",
         "$.cloths[0]: drape_world_add_cloth: def->tear_strain = 0.5 must be 0 (no tearing) or "
         "from 1 to 1e6"},
    };
    static const struct {
        const char *file, *piece;
    } more[] = {
        {"missing_mesh.json", "bad/no_such.obj: cannot read: No such file"},
        {"mesh_bad_index.json", "bad_index.obj:5: vertex index 5 names no vertex"},
        {"mesh_pentagon.json", "pentagon.obj:6: a face with more than 4 vertices"},
        {"mesh_nan.json", "nan.obj:2: coordinate 'nan' is not a finite number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char name[128];
        drape_scene *s = (drape_scene *)&name; /* must come back NULL */
        drape_scene_error e;
        snprintf(name, sizeof name, "bad/%s", cases[i].file);
        CHECK_MSG(t, load_data(name, &s, &e) == DRAPE_SCENE_BAD_INPUT, "%s was accepted",
                  cases[i].file);
        CHECK(t, s == NULL && e.status == DRAPE_SCENE_BAD_INPUT);
        CHECK_MSG(t, st_has_all(e.message, name, cases[i].piece, NULL), "%s", cases[i].file);
        for (size_t k = 0; k < sizeof more / sizeof more[0]; ++k)
            if (!strcmp(more[k].file, cases[i].file))
                CHECK(t, st_has_all(e.message, more[k].piece, NULL));
    }
}

static void missing_file(st_run *t)
{
    drape_scene *s;
    drape_scene_error e;
    drape_scene_options o = st_cpu_options();
    CHECK(t, drape_scene_load("no/such/scene.json", &o, &s, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "no/such/scene.json: cannot read: No such file", NULL));
    CHECK(t, drape_scene_load("cloth-spere", &o, &s, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t,
          st_has_all(e.message, "cloth-spere: cannot read", "built-in scenes: cloth-sphere", NULL));
    char dir[512];
    CHECK(t, drape_scene_load(st_data_path(dir, sizeof dir, "bad"), &o, &s, &e) ==
                 DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "not a regular file", NULL));
}

static void limits(st_run *t)
{
    static const char big[] = "{\"cloths\": [{\"nx\": 100, \"ny\": 100}]}";
    static const char mesh[] = "{\"meshes\": [{\"obj\": \"mesh.obj\"}]}";
    drape_scene *s;
    drape_scene_error e;
    drape_scene_options o = st_cpu_options();
    o.max_particles = 5000;
    CHECK(t, drape_scene_load_buffer(big, strlen(big), "big.json", &o, &s, &e) ==
                 DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message,
                        "big.json: $.cloths[0]: 10000 particles in all would exceed "
                        "the limit of 5000",
                        NULL));
    o.no_files = true;
    CHECK(t, drape_scene_load_buffer(mesh, strlen(mesh), "m.json", &o, &s, &e) ==
                 DRAPE_SCENE_BAD_INPUT);
    CHECK(t,
          st_has_all(e.message, "m.json: $.meshes[0].obj: reading mesh files is turned off", NULL));
    CHECK(t, drape_scene_load_buffer(NULL, 0, NULL, &o, &s, &e) == DRAPE_SCENE_BAD_INPUT);
    /* nesting: 1000 levels are read (and the top is not an object), 1001 are named as too deep */
    enum { DEEP = 1001 };
    char *deep = malloc(2 * DEEP);
    CHECK(t, deep != NULL);
    for (int levels = DEEP - 1; deep && levels <= DEEP; ++levels) {
        memset(deep, '[', (size_t)levels);
        memset(deep + levels, ']', (size_t)levels);
        CHECK(t, drape_scene_load_buffer(deep, 2 * (size_t)levels, "deep.json", &o, &s, &e) ==
                     DRAPE_SCENE_BAD_INPUT);
        CHECK_MSG(t,
                  st_has_all(e.message,
                             levels < DEEP ? "deep.json: $: must be an object, got an array"
                                           : "deep.json:1:1001: arrays and objects nested more "
                                             "than 1000 deep",
                             NULL),
                  "%s", e.message);
    }
    free(deep);
}

/* Whether scene text (size bytes) is refused as bad input with a message that holds `piece`. */
static bool refused(const char *text, size_t size, const char *piece)
{
    drape_scene *s = (drape_scene *)&size; /* must come back NULL */
    drape_scene_error e;
    drape_scene_options o = st_cpu_options();
    const drape_scene_status st = drape_scene_load_buffer(text, size, "h.json", &o, &s, &e);
    if (st != DRAPE_SCENE_BAD_INPUT || s != NULL || e.status != DRAPE_SCENE_BAD_INPUT) {
        fprintf(stderr, "refused: '%.60s' was not refused as bad input (status %d)\n", text,
                (int)st);
        if (st == DRAPE_SCENE_OK)
            drape_scene_destroy(s);
        return false;
    }
    return st_has_all(e.message, piece, NULL);
}

/* Strings that are not JSON are named at their line and column, never cut short at a NUL: a \u
 * without four hex digits (cJSON would read U+0000 and end the string there), in a value or a key,
 * a raw NUL or control character, an escape JSON does not know, a lone surrogate. Every escape that
 * JSON has still reads. */
static void strings_strict(st_run *t)
{
    static const struct {
        const char *text, *piece;
    } cases[] = {
        {"{\"name\":\"ab\\uZZZZcd\"}", "h.json:1:12: a string holds a \\u without four hex digits"},
        {"{\"name\":\"ab\\u00zzcd\"}", "h.json:1:12: a string holds a \\u without four hex"},
        {"{\"a\\u004G\": 1}", "h.json:1:4: a string holds a \\u without four hex digits"},
        {"{\"name\":\"ab\\u00", "h.json:1:12: a string holds a \\u without four hex digits"},
        {"{\"name\":\"ab\\u0000cd\"}", "h.json:1:12: a string holds \\u0000, which would cut it"},
        {"{\"name\":\n \"a\tb\"}", "h.json:2:4: a string holds the raw control character 0x09"},
        {"{\"name\":\"a\nb\"}", "h.json:1:11: a string holds the raw control character 0x0A"},
        {"{\"name\":\"a\\qb\"}", "h.json:1:11: a string holds the escape '\\q', which JSON does"},
        {"{\"name\":\"\\uD800x\"}", "h.json:1:10: a string holds \\uD800, the high half of a"},
        {"{\"name\":\"\\ud800\\u0041\"}", "h.json:1:10: a string holds \\uD800, the high half"},
        {"{\"name\":\"\\uDC00\"}", "h.json:1:10: a string holds \\uDC00, the low half of a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        CHECK_MSG(t, refused(cases[i].text, strlen(cases[i].text), cases[i].piece), "%s",
                  cases[i].text);
    static const char nul[] = "{\"name\":\"ab\0cd\"}";
    CHECK(t, refused(nul, sizeof nul - 1, "h.json:1:12: a string holds a NUL byte, which would"));
    static const char good[] =
        "{\"description\": \"\\uD83D\\uDE00 \\u00e9 \\\" \\\\ \\/ \\b \\f \\n \\r \\t\"}";
    drape_scene *s = st_load_cpu(good, sizeof good - 1, "good.json");
    drape_scene_destroy(s);
}

/* Numbers that are not JSON ("1.", "01") are named at their line and column, as are those that
 * are not 0 but so small that they would read as 0 (the same error as one too small for a float);
 * written zeros, in every form, are still 0. */
static void numbers_strict(st_run *t)
{
    static const struct {
        const char *value, *piece;
    } cases[] = {
        {"1.", "h.json:1:25: invalid number '1.': a digit must follow the '.'"},
        {"01", "h.json:1:25: invalid number '01': JSON numbers have no leading zeros"},
        {"-01", "h.json:1:25: invalid number '-01': JSON numbers have no leading zeros"},
        {"1e", "h.json:1:25: invalid number '1e': a digit must follow the 'e'"},
        {"1e+", "h.json:1:25: invalid number '1e+': a digit must follow the 'e'"},
        {"-", "h.json:1:25: invalid number '-': a digit must follow the '-'"},
        {"1.2.3", "h.json:1:25: invalid number '1.2.3'"},
        {".5", "h.json:1:25: malformed JSON"},
        {"+1", "h.json:1:25: malformed JSON"},
        {"1e-400", "h.json:1:25: '1e-400' is too small for a float (the smallest is 1.17549e-38): "
                   "use 0 or a larger value"},
        {"-1e-99999", "h.json:1:25: '-1e-99999' is too small for a float"},
        {"2e-324", "h.json:1:25: '2e-324' is too small for a float"},
        {"1e-39", "h.json: $.solver.gravity[1]: 1e-39 is too small for a float (the smallest is "
                  "1.17549e-38): use 0 or a larger value"},
        {"4e-324", "h.json: $.solver.gravity[1]: 4.94065646e-324 is too small for a float"},
    };
    char text[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const int n =
            snprintf(text, sizeof text, "{\"solver\":{\"gravity\":[0,%s,0]}}", cases[i].value);
        CHECK_MSG(t, refused(text, (size_t)n, cases[i].piece), "%s", cases[i].value);
    }
    /* 0.000...1 with 100000 zeros */
    enum { ZEROS = 100000 };
    char *tiny = malloc(ZEROS + 64);
    CHECK(t, tiny != NULL);
    int n = snprintf(tiny, 64, "{\"solver\":{\"gravity\":[0,0.");
    memset(tiny + n, '0', ZEROS);
    n += ZEROS + snprintf(tiny + n + ZEROS, 64, "1,0]}}");
    CHECK(t, refused(tiny, (size_t)n, "h.json:1:25: '0.0000000000...' is too small for a float"));
    free(tiny);
    static const char *const zeros[] = {"0", "0.0", "-0", "0e5", "0.000e-400", "-0.0E+0"};
    for (size_t i = 0; i < sizeof zeros / sizeof *zeros; ++i) {
        n = snprintf(text, sizeof text, "{\"solver\":{\"gravity\":[%s,-9,0]}}", zeros[i]);
        drape_scene *s = st_load_cpu(text, (size_t)n, "zero.json");
        CHECK_MSG(t, drape_world_get_def(drape_scene_world(s)).gravity.x == 0.0f, "%s", zeros[i]);
        drape_scene_destroy(s);
    }
}

/* A value just past a bound is shown with the digits that tell it from the bound; others keep the
 * short form. */
static void out_of_range_shown(st_run *t)
{
    static const struct {
        const char *value, *piece;
    } cases[] = {
        {"1000000000.0000001", "must be in [-1e+09, 1e+09], got 1000000000.0000001"},
        {"-1000000000.0000001", "must be in [-1e+09, 1e+09], got -1000000000.0000001"},
        {"1e30", "must be in [-1e+09, 1e+09], got 1e+30"},
        {"1000000001", "must be in [-1e+09, 1e+09], got 1000000001"},
    };
    char text[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const int n = snprintf(text, sizeof text, "{\"particles\":[{\"position\":[0,%s,0]}]}",
                               cases[i].value);
        CHECK_MSG(t, refused(text, (size_t)n, "h.json: $.particles[0].position[1]: "), "%s",
                  cases[i].value);
        CHECK_MSG(t, refused(text, (size_t)n, cases[i].piece), "%s", cases[i].value);
    }
    /* lengths past any position's reach (the first step was non-finite) */
    static const char margin[] = "{\"solver\":{\"collision_margin\":1e10}}";
    CHECK(t, refused(margin, sizeof margin - 1,
                     "$.solver.collision_margin: must be in [0, 1e+09], got 1e+10"));
    static const char dt[] = "{\"solver\":{\"dt\":1.0000000000000002}}";
    CHECK(t, refused(dt, sizeof dt - 1, "$.solver.dt: must be in (0, 1], got 1.0000000000000002"));
}

static void drop(drape_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

/* Whether a world takes `def` (quietly). */
static bool world_takes(drape_world_def def)
{
    def.log = drop;
    drape_world *w = NULL;
    const bool ok = drape_world_create(&def, &w) == DRAPE_OK;
    drape_world_destroy(w);
    return ok;
}

/* Whether a scene file whose "solver" section is `solver` loads; why not in *e. */
static bool file_takes_why(const char *solver, drape_scene_error *e)
{
    char text[256];
    snprintf(text, sizeof text, "{\"solver\": {%s}}", solver);
    drape_scene *s = NULL;
    drape_scene_options o = st_cpu_options();
    o.log = NULL;
    const bool ok =
        drape_scene_load_buffer(text, strlen(text), "ranges.json", &o, &s, e) == DRAPE_SCENE_OK;
    drape_scene_destroy(s);
    return ok;
}

static bool file_takes(const char *solver)
{
    drape_scene_error e;
    return file_takes_why(solver, &e);
}

/* The solver ranges of a scene file are the library's: at each end of each range the world and the
 * parser agree, value for value (the largest dt, gravity, substeps, iterations and
 * particle_max_substeps, and one past them). */
static void solver_ranges_agree(st_run *t)
{
    char json[96];
    const float dts[] = {DRAPE_MAX_DT, nextafterf(DRAPE_MAX_DT, 2.0f * DRAPE_MAX_DT)};
    for (int k = 0; k < 2; ++k) {
        drape_world_def def = drape_default_world_def();
        def.dt = dts[k];
        snprintf(json, sizeof json, "\"dt\": %.9g", (double)dts[k]);
        CHECK_MSG(t, world_takes(def) == (k == 0) && file_takes(json) == (k == 0),
                  "dt = %.9g: the world %s it, the file %s it", (double)dts[k],
                  world_takes(def) ? "takes" : "refuses", file_takes(json) ? "takes" : "refuses");
    }
    const float g[] = {-DRAPE_MAX_MAGNITUDE,
                       nextafterf(-DRAPE_MAX_MAGNITUDE, -2.0f * DRAPE_MAX_MAGNITUDE)};
    for (int k = 0; k < 2; ++k) {
        drape_world_def def = drape_default_world_def();
        def.gravity = (drape_vec3){0.0f, g[k], 0.0f};
        snprintf(json, sizeof json, "\"gravity\": [0, %.9g, 0]", (double)g[k]);
        drape_scene_error e;
        const bool file = file_takes_why(json, &e);
        CHECK_MSG(t, world_takes(def) == (k == 0) && file == (k == 0),
                  "gravity %.9g m/s^2: the world %s it, the file %s it", (double)g[k],
                  world_takes(def) ? "takes" : "refuses", file ? "takes" : "refuses");
        /* refused by the parser at the key, not by the world under the def's field */
        CHECK_MSG(t, file || st_has_all(e.message, "$.solver.gravity[1]: must be in", NULL), "%s",
                  e.message);
    }
    static const struct {
        const char *key;
        int value;
        bool good;
    } counts[] = {
        {"substeps", DRAPE_MAX_SUBSTEPS, true},
        {"substeps", DRAPE_MAX_SUBSTEPS + 1, false},
        {"iterations", DRAPE_MAX_ITERATIONS, true},
        {"iterations", DRAPE_MAX_ITERATIONS + 1, false},
        {"particle_max_substeps", 0, true},
        {"particle_max_substeps", DRAPE_MAX_SUBSTEPS, true},
        {"particle_max_substeps", DRAPE_MAX_SUBSTEPS + 1, false},
        {"particle_max_substeps", -1, false},
    };
    for (size_t k = 0; k < sizeof counts / sizeof *counts; ++k) {
        drape_world_def def = drape_default_world_def();
        int *field = counts[k].key[0] == 's'   ? &def.substeps
                     : counts[k].key[0] == 'i' ? &def.iterations
                                               : &def.particle_max_substeps;
        *field = counts[k].value;
        snprintf(json, sizeof json, "\"%s\": %d", counts[k].key, counts[k].value);
        const bool good = counts[k].good;
        CHECK_MSG(t, world_takes(def) == good && file_takes(json) == good,
                  "%s: the world %s it, the file %s it", json,
                  world_takes(def) ? "takes" : "refuses", file_takes(json) ? "takes" : "refuses");
    }
}

/* drape_scene_json_set: a built-in scene's file with other values builds that scene with them;
 * a path that does not fit the scene is refused with the path. */
static void json_set(st_run *t)
{
    size_t size = 0;
    const char *base = drape_scene_builtin_json("cloth-sphere", &size);
    CHECK(t, base != NULL);
    char *json = NULL;
    drape_scene_error e;
    static const char set[] = "{\"$.cloths[0].nx\": 5, \"$.solver.iterations\": 3}";
    CHECK_MSG(t, drape_scene_json_set(base, size, set, &json, &e) == DRAPE_SCENE_OK, "%s",
              e.message);
    drape_scene *s = NULL;
    drape_scene_options o = st_cpu_options();
    CHECK_MSG(t,
              drape_scene_load_buffer(json, strlen(json), "set.json", &o, &s, &e) == DRAPE_SCENE_OK,
              "%s", e.message);
    free(json);
    drape_world *w = drape_scene_world(s);
    CHECK(t, drape_world_particle_count(w) == 5 * 48);
    CHECK(t, drape_world_get_def(w).iterations == 3);
    drape_scene_destroy(s);
    CHECK(t, drape_scene_json_set(base, size, "{\"$.cloths[1].nx\": 5}", &json, &e) ==
                 DRAPE_SCENE_BAD_INPUT);
    CHECK(t, json == NULL && st_has_all(e.message, "$.cloths has 1 element, no [1]", NULL));
    CHECK(t, drape_scene_json_set(base, size, "[1]", &json, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, drape_scene_json_set("{", 1, "{}", &json, &e) == DRAPE_SCENE_BAD_INPUT);
}

/* Names are looked up in a hash table: with thousands of ropes (the table grows and rehashes many
 * times) every reference still finds its own rope, and a name given twice is still refused. */
static void many_names(st_run *t)
{
    enum { ROPES = 3000 };
    size_t cap = 200 * (size_t)ROPES + 64, n = 0;
    char *text = malloc(cap);
    CHECK(t, text != NULL);
    n += (size_t)snprintf(text + n, cap - n, "{\"ropes\": [");
    for (int i = 0; i < ROPES; ++i)
        n += (size_t)snprintf(text + n, cap - n, "%s{\"name\": \"r%d\", \"count\": 2}",
                              i ? ", " : "", i);
    n += (size_t)snprintf(text + n, cap - n, "], \"distances\": [");
    for (int i = 0; i < ROPES; ++i)
        n += (size_t)snprintf(text + n, cap - n, "%s{\"a\": \"r%d[1]\", \"b\": \"r%d[0]\"}",
                              i ? ", " : "", i, (i * 7 + 1) % ROPES);
    snprintf(text + n, cap - n, "]}");
    drape_scene *s;
    drape_scene_error e;
    drape_scene_options o = st_cpu_options();
    CHECK_MSG(
        t, drape_scene_load_buffer(text, strlen(text), "ropes.json", &o, &s, &e) == DRAPE_SCENE_OK,
        "%s", e.message);
    drape_world *w = drape_scene_world(s);
    CHECK(t, drape_world_particle_count(w) == 2 * ROPES);
    CHECK(t, drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE) == 2 * ROPES);
    drape_scene_destroy(s);
    /* The same rope name twice, far apart. */
    char *second = strstr(text, "\"r2999\"");
    CHECK(t, second != NULL);
    memcpy(second, "\"r1234\"", 7);
    CHECK(t, drape_scene_load_buffer(text, strlen(text), "ropes.json", &o, &s, &e) ==
                 DRAPE_SCENE_BAD_INPUT);
    CHECK_MSG(t, st_has_all(e.message, "$.ropes[2999]", "name 'r1234' is taken", NULL), "%s",
              e.message);
    free(text);
}

/* Every file in scenes/ loads, with the counts its description promises. */
static void shipped_scenes_load(st_run *t)
{
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i) {
        char file[128], path[512];
        drape_scene *s;
        drape_scene_error e;
        drape_scene_options o = st_cpu_options();
        snprintf(file, sizeof file, "%s.json", drape_scene_builtin_name(i));
        CHECK_MSG(t,
                  drape_scene_load_file(st_scene_path(path, sizeof path, file), &o, &s, &e) ==
                      DRAPE_SCENE_OK,
                  "%s", e.message);
        CHECK(t, !strcmp(drape_scene_name(s), drape_scene_builtin_name(i)));
        drape_scene_destroy(s);
    }
}

/* The complete example of docs/scene-format.md: the first ```json block, read as if it were a file
 * in scenes/ (its mesh path is relative to that). */
static void docs_example(st_run *t)
{
    char *doc, path[512];
    drape_scene_error e;
    FILE *f = fopen(DRAPE_DOCS_DIR "/scene-format.md", "rb");
    CHECK(t, f != NULL);
    doc = calloc(1, 1 << 20);
    size_t n = fread(doc, 1, (1 << 20) - 1, f);
    fclose(f);
    const char *start = strstr(doc, "```json\n");
    CHECK(t, n > 0 && start != NULL);
    start += 8;
    const char *end = strstr(start, "```");
    CHECK(t, end != NULL);
    drape_scene *s;
    drape_scene_options o = st_cpu_options();
    drape_scene_status st =
        drape_scene_load_buffer(start, (size_t)(end - start),
                                st_scene_path(path, sizeof path, "docs-example.json"), &o, &s, &e);
    free(doc);
    CHECK_MSG(t, st == DRAPE_SCENE_OK, "%s", e.message);
    drape_world *w = drape_scene_world(s);
    /* 2 particles, a 16 x 16 cloth, a 12-particle rope and the 5 x 4 banner. */
    CHECK(t, drape_world_particle_count(w) == 2 + 256 + 12 + 20);
    CHECK(t, drape_world_constraint_count(w, DRAPE_CONSTRAINT_ATTACHMENT) == 3);
    /* The sheet's 254 movable particles, each tethered to a pinned corner with its compliance,
     * the rope's 11 movable particles to its pinned start, and (the "tethers" section) the rope's
     * end to particle 0. */
    CHECK(t, drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) == 254 + 11 + 1);
    drape_tether_def tether;
    CHECK(t, drape_world_get_tether(w, 0, &tether) == DRAPE_OK && tether.compliance == 1e-7f);
    CHECK(t, drape_world_get_tether(w, 254, &tether) == DRAPE_OK && tether.anchor == 2 + 256 &&
                 tether.particle == 2 + 256 + 1);
    CHECK(t, drape_world_get_tether(w, 265, &tether) == DRAPE_OK && tether.anchor == 0 &&
                 tether.particle == 2 + 256 + 11 && tether.max_length == 2.5f);
    CHECK(t, drape_world_collider_count(w) == 3);
    CHECK(t, !strcmp(drape_scene_name(s), "showcase") && drape_scene_default_steps(s) == 240);
    drape_scene_info info;
    CHECK(t, drape_scene_get_info(s, &info) == DRAPE_OK);
    CHECK(t, info.pinned == 1 + 2 + 1 + 5);
    CHECK(t, info.scripted_targets == 2 && info.moving_colliders == 1);
    CHECK(t, info.triangles == 2 * 15 * 15 + 2 * 4 * 3 + 1);
    for (int i = 0; i < 60; ++i)
        CHECK(t, drape_scene_step(s) == DRAPE_OK);
    drape_scene_destroy(s);
}

/* scenes/jelly.json: a soft box and a Neo-Hookean block of TetGen tetrahedra, each drawn as the
 * mesh of its surface, whose triangles all face out. */
static void jelly_scene(st_run *t)
{
    char path[512];
    drape_scene *s;
    drape_scene_error e;
    drape_scene_options o = st_cpu_options();
    st_scene_path(path, sizeof path, "jelly.json");
    CHECK_MSG(t, drape_scene_load_file(path, &o, &s, &e) == DRAPE_SCENE_OK, "%s", e.message);
    drape_world *w = drape_scene_world(s);
    enum { N = 216 + 143 };
    CHECK(t, drape_world_particle_count(w) == N);
    CHECK(t, drape_world_constraint_count(w, DRAPE_CONSTRAINT_VOLUME) == 6 * 125);
    CHECK(t, drape_world_constraint_count(w, DRAPE_CONSTRAINT_NEO_HOOKEAN) == 331);
    drape_volume_def vol;
    CHECK(t, drape_world_get_volume(w, 0, &vol) == DRAPE_OK && vol.compliance == 0.0f);
    drape_scene_object obj;
    CHECK(t, drape_scene_object_count(s) == 2 && drape_scene_get_object(s, 0, &obj));
    CHECK(t, !strcmp(obj.name, "jelly") && obj.kind == DRAPE_SCENE_MESH);
    CHECK(t, obj.particle_count == 216);
    CHECK(t, drape_scene_get_object(s, 1, &obj) && !strcmp(obj.name, "block") &&
                 obj.kind == DRAPE_SCENE_MESH && obj.first_particle == 216 &&
                 obj.particle_count == 143);
    uint32_t count;
    const uint32_t *tri = drape_scene_triangles(s, &count);
    CHECK_MSG(t, count > 6 * 2 * 25 + 12, "%u triangles", count);
    drape_vec3 x[N];
    CHECK(t, drape_world_get_positions(w, 0, N, x) == DRAPE_OK);
    const double centres[2][3] = {{0.0, 1.05, 0.0}, {-0.9, 0.6, 0.0}};
    uint32_t outward = 0;
    for (uint32_t k = 0; k < count; ++k) {
        const double *centre = centres[k < 6 * 2 * 25 ? 0 : 1];
        const drape_vec3 a = x[tri[3 * k]], b = x[tri[3 * k + 1]], c = x[tri[3 * k + 2]];
        const double u[3] = {b.x - a.x, b.y - a.y, b.z - a.z};
        const double v[3] = {c.x - a.x, c.y - a.y, c.z - a.z};
        const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                             u[0] * v[1] - u[1] * v[0]};
        const double r[3] = {a.x - centre[0], a.y - centre[1], a.z - centre[2]};
        outward += n[0] * r[0] + n[1] * r[1] + n[2] * r[2] > 0.0;
    }
    CHECK_MSG(t, outward == count, "%u of %u face out", outward, count);
    drape_scene_destroy(s);
}

/* scenes/balloon.json: an icosphere balloon at pressure 1.5, drawn as its outward triangles; the
 * flag feels the air; the tearing cloth has its spares after its grid. */
static void balloon_and_flag_scenes(st_run *t)
{
    char path[512];
    drape_scene *s;
    drape_scene_error e;
    drape_scene_options o = st_cpu_options();
    CHECK_MSG(t,
              drape_scene_load_file(st_scene_path(path, sizeof path, "balloon.json"), &o, &s, &e) ==
                  DRAPE_SCENE_OK,
              "%s", e.message);
    drape_world *w = drape_scene_world(s);
    CHECK(t, drape_world_particle_count(w) == 642 && drape_world_balloon_count(w) == 1);
    drape_balloon_info b;
    CHECK(t, drape_world_get_balloon(w, 0, &b) == DRAPE_OK && b.pressure == 1.5f &&
                 b.triangle_count == 1280);
    uint32_t count;
    const uint32_t *tri = drape_scene_triangles(s, &count);
    CHECK(t, tri && count == 1280);
    drape_scene_object obj;
    CHECK(t, drape_scene_get_object(s, 0, &obj) && !strcmp(obj.name, "balloon") &&
                 obj.kind == DRAPE_SCENE_MESH);
    drape_scene_destroy(s);
    CHECK_MSG(t,
              drape_scene_load_file(st_scene_path(path, sizeof path, "flag.json"), &o, &s, &e) ==
                  DRAPE_SCENE_OK,
              "%s", e.message);
    w = drape_scene_world(s);
    CHECK(t, drape_world_aero_triangle_count(w) == 2 * 31 * 19);
    CHECK(t, drape_world_get_aero(w).drag == 1.2f && drape_world_get_aero(w).lift == 0.5f);
    drape_scene_destroy(s);
    CHECK_MSG(t,
              drape_scene_load_file(st_scene_path(path, sizeof path, "tear.json"), &o, &s, &e) ==
                  DRAPE_SCENE_OK,
              "%s", e.message);
    w = drape_scene_world(s);
    CHECK(t, drape_world_particle_count(w) == 24 * 16 + 200);
    CHECK(t, drape_world_get_tear_stats(w).spares_left == 200);
    CHECK(t, drape_scene_get_object(s, 0, &obj) && obj.particle_count == 24 * 16);
    /* as it tears, the scene's triangles take the split vertices' copies (the spares) */
    uint32_t on_spares = 0;
    for (int i = 0; i < 150 && drape_world_get_tear_stats(w).splits == 0; ++i)
        CHECK(t, drape_scene_step(s) == DRAPE_OK);
    tri = drape_scene_triangles(s, &count);
    for (uint32_t k = 0; k < 3 * count; ++k)
        on_spares += tri[k] >= 24 * 16;
    CHECK_MSG(t, drape_world_get_tear_stats(w).splits > 0 && on_spares > 0,
              "%u splits, %u triangle corners on the spares", drape_world_get_tear_stats(w).splits,
              on_spares);
    drape_scene_destroy(s);
}

int suite_parse(void)
{
    st_run t = {0};
    RUN(&t, bad_inputs);
    RUN(&t, missing_file);
    RUN(&t, limits);
    RUN(&t, strings_strict);
    RUN(&t, numbers_strict);
    RUN(&t, out_of_range_shown);
    RUN(&t, solver_ranges_agree);
    RUN(&t, json_set);
    RUN(&t, many_names);
    RUN(&t, shipped_scenes_load);
    RUN(&t, docs_example);
    RUN(&t, jelly_scene);
    RUN(&t, balloon_and_flag_scenes);
    return st_finish(&t);
}

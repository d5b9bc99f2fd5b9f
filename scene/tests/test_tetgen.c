/* TetGen's .node/.ele files and the "tet_meshes" section: the shipped block reads with its volume
 * intact, 1-based and 10-node files and comments read, and each kind of bad input (an index out of
 * range, an inverted or flat tetrahedron, a truncated file, a bad header, an index out of order,
 * an open surface given to tetgen) is an error naming the file and line (and the JSON path in a
 * scene). With "tetgen" as an argument it tetrahedralises a closed OBJ surface through the tetgen
 * program instead, and skips (77) where that program is not installed.
 */
#include "scene_test.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static double mesh_volume(const drape_tetgen_mesh *m)
{
    double sum = 0.0;
    for (uint32_t t = 0; t < m->tet_count; ++t) {
        const uint32_t *q = &m->tets[4 * (size_t)t];
        double e[3][3];
        for (int k = 0; k < 3; ++k) {
            const drape_vec3 a = m->vertices[q[k + 1]], o = m->vertices[q[0]];
            e[k][0] = (double)a.x - o.x, e[k][1] = (double)a.y - o.y, e[k][2] = (double)a.z - o.z;
        }
        sum += (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) /
               6.0;
    }
    return sum;
}

static void reads_the_block(st_run *t)
{
    char node[512], ele[512];
    drape_tetgen_mesh m;
    drape_scene_error e;
    CHECK_MSG(t,
              drape_tetgen_read(st_scene_path(node, sizeof node, "meshes/block.node"),
                                st_scene_path(ele, sizeof ele, "meshes/block.ele"), &m,
                                &e) == DRAPE_SCENE_OK,
              "%s", e.message);
    CHECK(t, m.vertex_count == 143 && m.tet_count == 331);
    CHECK_MSG(t, fabs(mesh_volume(&m) - 0.018) < 1e-7, "volume %.9f", mesh_volume(&m));
    drape_tetgen_mesh_free(&m);
}

/* Reads text buffers (copied without their NUL, so that the sizes are respected). */
static int read_text(const char *node, const char *ele, drape_tetgen_mesh *m, drape_scene_error *e)
{
    size_t nn = strlen(node), ne = strlen(ele);
    char *a = malloc(nn + 1), *b = malloc(ne + 1);
    memcpy(a, node, nn);
    memcpy(b, ele, ne);
    int s = drape_tetgen_read_buffers(a, nn, "t.node", b, ne, "t.ele", m, e);
    free(a);
    free(b);
    return s;
}

static const char *const unit_nodes = "# five points, from 1\n5 3 0 1\n"
                                      "1 0 0 0 1\n2 1 0 0 1\n3 0 1 0 1\n\n4 0 0 1 1 # apex\n"
                                      "5 1 1 1 0\n";

static void reads_variants(st_run *t)
{
    drape_tetgen_mesh m;
    drape_scene_error e;
    CHECK_MSG(t,
              read_text(unit_nodes, "2 4 1\n1 1 2 3 4 7\n2 2 3 4 5 7\n", &m, &e) == DRAPE_SCENE_OK,
              "%s", e.message);
    CHECK(t, m.vertex_count == 5 && m.tet_count == 2 && m.tets[0] == 0 && m.tets[7] == 4);
    CHECK(t, fabs(mesh_volume(&m) - 0.5) < 1e-6);
    drape_tetgen_mesh_free(&m);
    /* 10-node tetrahedra keep their four corners */
    CHECK_MSG(t, read_text(unit_nodes, "1 10 0\n1 1 2 3 4 5 5 5 5 5 5\n", &m, &e) == DRAPE_SCENE_OK,
              "%s", e.message);
    CHECK(t, m.tet_count == 1 && m.tets[3] == 3);
    drape_tetgen_mesh_free(&m);
}

static void rejects_bad_input(st_run *t)
{
    static const struct {
        const char *node, *ele, *where, *what;
    } bad[] = {
        {NULL, "1 4 0\n1 1 2 3 9\n", "t.ele:2:", "node 4 of tetrahedron 1, '9', is out of range"},
        {NULL, "1 4 0\n1 1 2 3 0\n", "t.ele:2:", "'0', is out of range: the points are 1 to 5"},
        {NULL, "1 4 0\n1 1 2 3 6\n", "t.ele:2:", "'6', is out of range: the points are 1 to 5"},
        {NULL, "1 4 0\n1 1 3 2 4\n", "t.ele:2:", "tetrahedron 1 is inverted"},
        {"4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n", "1 4 0\n1 1 2 3 4\n",
         "t.ele:2:", "tetrahedron 1 is degenerate"},
        {NULL, "1 4 0\n1 1 2 2 4\n", "t.ele:2:", "names point 2 twice"},
        {NULL, "3 4 0\n1 1 2 3 4\n2 2 3 4 5\n", "t.ele:3:", "ends after 2 of the 3 tetrahedra"},
        {NULL, "1 4 0\n2 1 2 3 4\n", "t.ele:2:", "tetrahedron index '2' is out of order"},
        {NULL, "1 4 0\n1 1 2 3\n", "t.ele:2:", "has 4 fields, expected 5"},
        {NULL, "1 7 0\n", "t.ele:1:", "7 nodes per tetrahedron"},
        {NULL, "", "t.ele:0:", "the file is empty"},
        {"5 3 0 0\n1 0 0 0\n2 1 0 0\n", "", "t.node:3:", "ends after 2 of the 5 points"},
        {"4 3 0 0\n1 0 0 0\n2 1 nan 0\n3 0 1 0\n4 0 0 1\n", "",
         "t.node:3:", "coordinate y of point 2, 'nan', is not a finite number"},
        {"4 2 0 0\n", "", "t.node:1:", "dimension 2"},
        {"4 3 0 0\n1 0 0 0\n3 1 0 0\n", "", "t.node:3:", "point index 3 is out of order"},
        {"four 3 0 0\n", "", "t.node:1:", "'four', is not a count"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        drape_tetgen_mesh m;
        drape_scene_error e;
        CHECK_MSG(t,
                  read_text(bad[i].node ? bad[i].node : unit_nodes, bad[i].ele, &m, &e) ==
                      DRAPE_SCENE_BAD_INPUT,
                  "case %zu was accepted", i);
        CHECK_MSG(t, st_has_all(e.message, bad[i].where, bad[i].what, NULL), "case %zu", i);
        CHECK(t, m.vertices == NULL && m.tets == NULL);
    }
}

static drape_scene_status load(const char *json, drape_scene **s, drape_scene_error *e)
{
    char name[512];
    drape_scene_options o = st_cpu_options();
    return drape_scene_load_buffer(json, strlen(json), st_data_path(name, sizeof name, "x.json"),
                                   &o, s, e);
}

/* A scene with a TetGen body: particles, Neo-Hookean tetrahedra, a drawn surface; bad files come
 * back under the member that named them. */
static void scene_section(st_run *t)
{
    drape_scene *s;
    drape_scene_error e;
    CHECK_MSG(t,
              load("{\"version\": 1, \"tet_meshes\": [{\"name\": \"block\", "
                   "\"node\": \"../../../scenes/meshes/block.node\", \"ele\": "
                   "\"../../../scenes/meshes/block.ele\", \"youngs_modulus\": 2000}]}",
                   &s, &e) == DRAPE_SCENE_BAD_INPUT,
              "a path outside the scene was read");
    CHECK(t, st_has_all(e.message, "$.tet_meshes[0].node", "own directory", NULL));
    CHECK_MSG(t,
              load("{\"version\": 1, \"tet_meshes\": [{\"node\": \"tetgen/bad.node\", "
                   "\"ele\": \"tetgen/bad.ele\"}]}",
                   &s, &e) == DRAPE_SCENE_BAD_INPUT,
              "bad");
    CHECK(t, st_has_all(e.message, "$.tet_meshes[0].ele", "bad.ele:3:", "is out of range", NULL));
    CHECK_MSG(t,
              load("{\"version\": 1, \"tet_meshes\": [{\"surface\": \"tetgen/open.obj\"}]}", &s,
                   &e) == DRAPE_SCENE_BAD_INPUT,
              "open surface accepted");
    CHECK(t, st_has_all(e.message, "$.tet_meshes[0].surface", "open.obj", "is not closed",
                        "belongs to 1 faces", NULL));
    /* refused before tetgen runs, which a max_volume this small kept busy without end */
    CHECK_MSG(t,
              load("{\"version\": 1, \"tet_meshes\": [{\"surface\": \"tetgen/box.obj\", "
                   "\"max_volume\": 1e-12}]}",
                   &s, &e) == DRAPE_SCENE_BAD_INPUT,
              "a max_volume of 1e-12 m^3 was accepted");
    CHECK(t, st_has_all(e.message, "$.tet_meshes[0].surface", "max_volume = 1e-12 m^3", "0.008 m^3",
                        "8e+09 tetrahedra", "raise max_volume", NULL));
    CHECK_MSG(t,
              load("{\"version\": 1, \"tet_meshes\": [{\"surface\": \"tetgen/box.obj\", "
                   "\"scale\": 0.5, \"max_volume\": 1e-9}]}",
                   &s, &e) == DRAPE_SCENE_BAD_INPUT,
              "a max_volume of 1e-9 m^3 in 0.001 m^3 was accepted");
    CHECK(t, st_has_all(e.message, "0.001 m^3 the body holds (scaled by 0.5)", "1e+06 tetrahedra",
                        NULL));
    CHECK_MSG(t,
              load("{\"version\": 1, \"tet_meshes\": [{\"node\": \"tetgen/good.node\", \"ele\": "
                   "\"tetgen/good.ele\", \"youngs_modulus\": 5000, \"translate\": [0, 1, 0]}]}",
                   &s, &e) == DRAPE_SCENE_OK,
              "%s", e.message);
    drape_world *w = drape_scene_world(s);
    CHECK(t, drape_world_particle_count(w) == 5 &&
                 drape_world_constraint_count(w, DRAPE_CONSTRAINT_NEO_HOOKEAN) == 2);
    drape_scene_destroy(s);
}

/* tetgen on PATH? */
static bool have_tetgen(void)
{
    const char *path = getenv("PATH");
    char buf[1024];
    for (const char *p = path; p && *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/tetgen", (int)n, p);
        if (access(buf, X_OK) == 0)
            return true;
        p = colon ? colon + 1 : NULL;
    }
    return false;
}

/* The tetrahedra and their summed rest volume (m^3) of the closed OBJ cube tetgen/box.obj (0.2 m)
 * scaled by `scale` and meshed with `max_volume` (m^3). */
static void mesh_box(st_run *t, double scale, double max_volume, uint32_t *tets, double *volume)
{
    char json[256];
    snprintf(json, sizeof json,
             "{\"version\": 1, \"tet_meshes\": [{\"surface\": \"tetgen/box.obj\", \"scale\": %g, "
             "\"max_volume\": %g, \"youngs_modulus\": 0}]}",
             scale, max_volume);
    drape_scene *s;
    drape_scene_error e;
    CHECK_MSG(t, load(json, &s, &e) == DRAPE_SCENE_OK, "%s", e.message);
    drape_world *w = drape_scene_world(s);
    *tets = drape_world_constraint_count(w, DRAPE_CONSTRAINT_VOLUME);
    *volume = 0.0;
    for (uint32_t id = 0; id < *tets; ++id) {
        drape_volume_def v;
        CHECK(t, drape_world_get_volume(w, id, &v) == DRAPE_OK);
        *volume += v.rest_volume;
    }
    printf("  tetgen filled the 0.2 m cube scaled by %g with %u tetrahedra and %u points, volume "
           "%.7f m^3\n",
           scale, *tets, drape_world_particle_count(w), *volume);
    drape_scene_destroy(s);
}

/* A closed OBJ cube through the tetgen program: a body whose tetrahedra fill the cube. max_volume
 * is a tetrahedron of the body as scaled: the cube scaled by 2 with 8 times the max_volume is the
 * same mesh (tetgen meshed the unscaled surface with it, a mesh 8 times finer, before). */
static void tetrahedralises_a_surface(st_run *t)
{
    uint32_t tets, scaled_tets;
    double volume, scaled_volume;
    mesh_box(t, 1.0, 0.0002, &tets, &volume);
    mesh_box(t, 2.0, 0.0016, &scaled_tets, &scaled_volume);
    CHECK(t, tets >= 40 && fabs(volume - 0.008) < 1e-6);
    CHECK(t, scaled_tets == tets && fabs(scaled_volume - 0.064) < 8e-6);
}

int suite_tetgen(void)
{
    int argc = test_argc();
    char **argv = test_argv();
    st_run t = {0};
    if (argc > 1 && strcmp(argv[1], "tetgen") == 0) {
        if (!have_tetgen()) {
            printf("tetgen is not installed (Debian's tetgen package): skipped\n");
            return 77;
        }
        RUN(&t, tetrahedralises_a_surface);
        return st_finish(&t);
    }
    RUN(&t, reads_the_block);
    RUN(&t, reads_variants);
    RUN(&t, rejects_bad_input);
    RUN(&t, scene_section);
    return st_finish(&t);
}

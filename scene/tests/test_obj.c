/* The OBJ reader and writer: every face form, quads split, skipped statements, CRLF, a buffer with
 * no NUL after it; each kind of bad input with its file:line message; and the round trip through a
 * scene: import a mesh, export it, read the export back, and get the same vertices and faces.
 */
#include "scene_test.h"

#include <stdlib.h>

static int read_text(const char *text, const char *name, drape_mesh *m, drape_scene_error *e)
{
    /* Copy without the NUL so that the reader must respect the size. */
    size_t n = strlen(text);
    char *copy = malloc(n ? n : 1);
    memcpy(copy, text, n);
    int s = drape_mesh_read_obj_buffer(copy, n, name, m, e);
    free(copy);
    return s;
}

static void reads_every_form(st_run *t)
{
    char path[512];
    drape_mesh m;
    drape_scene_error e;
    CHECK_MSG(t,
              drape_mesh_read_obj(st_data_path(path, sizeof path, "forms.obj"), &m, &e) ==
                  DRAPE_SCENE_OK,
              "%s", e.message);
    const uint32_t want[] = {0, 1, 2, 0, 2, 3, 0, 1, 3, 0, 1, 2, 0, 2, 3, 0, 1, 2};
    CHECK(t, m.vertex_count == 7 && m.triangle_count == 6);
    CHECK(t, memcmp(m.triangles, want, sizeof want) == 0);
    CHECK(t, m.vertices[2].x == 1.0f && m.vertices[2].y == 1.0f && m.vertices[2].z == 0.0f);
    CHECK(t, m.face_lines[3] == 17 && m.face_lines[4] == 17); /* the quad's two halves */
    drape_mesh_free(&m);
}

static void reads_buffer_without_nul(st_run *t)
{
    drape_mesh m;
    drape_scene_error e;
    CHECK(t, read_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3", "mem.obj", &m, &e) == DRAPE_SCENE_OK);
    CHECK(t, m.vertex_count == 3 && m.triangle_count == 1);
    drape_mesh_free(&m);
    CHECK(t,
          read_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1", "mem.obj", &m, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "mem.obj:4:", "3 coordinates", NULL));
    CHECK(t, read_text("", "empty.obj", &m, &e) == DRAPE_SCENE_OK && m.vertex_count == 0);
    drape_mesh_free(&m);
    /* a UTF-8 byte order mark is skipped, as in scene files; one past the start is an error */
    CHECK_MSG(t,
              read_text("\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3", "bom.obj", &m, &e) ==
                  DRAPE_SCENE_OK,
              "%s", e.message);
    CHECK(t, m.vertex_count == 3 && m.triangle_count == 1);
    drape_mesh_free(&m);
    CHECK(t, read_text("v 0 0 0\n\xEF\xBB\xBFv 1 0 0", "bom.obj", &m, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "bom.obj:2:", NULL));
}

/* Each bad input: the message names the file and line and says what is wrong. */
static void rejects_bad_input(st_run *t)
{
    static const struct {
        const char *text, *piece;
    } cases[] = {
        {"v 0 0 0\nv 1 0 0\nf 1 2 3\n", "x.obj:3: vertex index 3 names no vertex"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "x.obj:4: vertex index 0 names no vertex"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", "x.obj:4: vertex index -4 names no vertex"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n", "x.obj:4: face corner"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n", "x.obj:4: the face uses vertex 2 twice"},
        {"v 0 0 0\nv 1 0 0\nf 1 2\n", "x.obj:3: a face needs 3 or 4 vertices, got 2"},
        {"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 2 0\nf 1 2 3 4 5\n",
         "x.obj:6: a face with more than 4 vertices"},
        {"v 0 nan 0\n", "x.obj:1: coordinate 'nan' is not a finite number"},
        {"v 0 0 inf\n", "x.obj:1: coordinate 'inf' is not a finite number"},
        {"v 0 0 1e39\n", "x.obj:1: coordinate '1e39' is not a finite number"},
        {"v 0 0 zero\n", "x.obj:1: coordinate 'zero' is not a number"},
        {"v 0 0\n", "x.obj:1: a vertex has 3 coordinates"},
        {"v 0 0 0\nv 1 0 0\nl 1 2\n", "x.obj:3: unsupported statement 'l'"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/2/3/4 2 3\n", "x.obj:4: face corner '1/2/3/4'"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf a b c\n", "x.obj:4: face corner 'a'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        drape_mesh m;
        drape_scene_error e;
        CHECK_MSG(t, read_text(cases[i].text, "x.obj", &m, &e) == DRAPE_SCENE_BAD_INPUT,
                  "case %zu was accepted", i);
        CHECK_MSG(t, st_has_all(e.message, cases[i].piece, NULL), "case %zu", i);
        CHECK(t, m.vertices == NULL && m.triangles == NULL);
    }
}

static void rejects_bad_files(st_run *t)
{
    static const struct {
        const char *file, *piece;
    } cases[] = {
        {"bad/meshes/bad_index.obj", "bad_index.obj:5: vertex index 5 names no vertex"},
        {"bad/meshes/pentagon.obj", "pentagon.obj:6: a face with more than 4 vertices"},
        {"bad/meshes/nan.obj", "nan.obj:2: coordinate 'nan' is not a finite number"},
        {"bad/meshes/no_such.obj", "no_such.obj: cannot read"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char path[512];
        drape_mesh m;
        drape_scene_error e;
        CHECK(t, drape_mesh_read_obj(st_data_path(path, sizeof path, cases[i].file), &m, &e) ==
                     DRAPE_SCENE_BAD_INPUT);
        CHECK(t, st_has_all(e.message, cases[i].piece, NULL));
    }
    /* NULL where a path or data belongs: said so (a NULL path read as "(null): cannot read", NULL
     * data with a size as an empty mesh, without an error) */
    drape_mesh m;
    drape_scene_error e;
    CHECK(t, drape_mesh_read_obj(NULL, &m, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "no file path given (NULL)", NULL));
    CHECK(t, drape_mesh_read_obj_buffer(NULL, 5, "n.obj", &m, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "n.obj: the data is NULL with a size of 5 bytes", NULL));
    drape_tetgen_mesh tm;
    CHECK(t, drape_tetgen_read(NULL, NULL, &tm, &e) == DRAPE_SCENE_BAD_INPUT);
    CHECK(t, st_has_all(e.message, "no file path given (NULL)", NULL));
}

/* Import data/mesh.obj into a scene, export frame 0, read it back: same vertices, same faces. */
static void round_trip(st_run *t)
{
    char path[512], scene_name[512], dir[512], out[600];
    drape_mesh in, back;
    drape_scene_error e;
    CHECK(t, drape_mesh_read_obj(st_data_path(path, sizeof path, "mesh.obj"), &in, &e) ==
                 DRAPE_SCENE_OK);
    static const char scene[] =
        "{\"name\": \"patch\", \"meshes\": [{\"name\": \"patch\", \"obj\": \"mesh.obj\"}]}";
    drape_scene_options o = st_cpu_options();
    drape_scene *s;
    CHECK_MSG(t,
              drape_scene_load_buffer(scene, strlen(scene),
                                      st_data_path(scene_name, sizeof scene_name, "rt.json"), &o,
                                      &s, &e) == DRAPE_SCENE_OK,
              "%s", e.message);
    CHECK(t, st_scratch_dir(dir, sizeof dir, "round_trip"));
    CHECK_MSG(t, drape_scene_export_obj(s, dir, 0, &e) == DRAPE_SCENE_OK, "%s", e.message);
    drape_scene_destroy(s);
    snprintf(out, sizeof out, "%s/patch_0000.obj", dir);
    CHECK_MSG(t, drape_mesh_read_obj(out, &back, &e) == DRAPE_SCENE_OK, "%s", e.message);
    CHECK(t, back.vertex_count == in.vertex_count && back.triangle_count == in.triangle_count);
    CHECK(t, memcmp(back.vertices, in.vertices, in.vertex_count * sizeof *in.vertices) == 0);
    CHECK(t, memcmp(back.triangles, in.triangles, 3 * in.triangle_count * sizeof(uint32_t)) == 0);
    drape_mesh_free(&in);
    drape_mesh_free(&back);
}

int suite_obj(void)
{
    st_run t = {0};
    RUN(&t, reads_every_form);
    RUN(&t, reads_buffer_without_nul);
    RUN(&t, rejects_bad_input);
    RUN(&t, rejects_bad_files);
    RUN(&t, round_trip);
    return st_finish(&t);
}

/* Output: the CSV dump (header, one row per particle, values that read back to the same floats) and
 * OBJ frames (numbered names, one vertex and normal per particle, the cloth's triangulation split
 * along the (i,j)-(i+1,j+1) diagonal, ropes as polylines), and a clear failure when the output
 * cannot be written.
 */
#include "scene_test.h"

#include <stdlib.h>

static drape_scene *builtin(const char *name)
{
    drape_scene_options o = st_cpu_options();
    drape_scene *s = NULL;
    drape_scene_error e;
    if (drape_scene_load_builtin(name, &o, &s, &e) != DRAPE_SCENE_OK)
        fprintf(stderr, "%s\n", e.message);
    return s;
}

static void csv_dump(st_run *t)
{
    char dir[512], path[600], line[512];
    drape_scene *s = builtin("triangle-plane");
    CHECK(t, s && st_scratch_dir(dir, sizeof dir, "csv"));
    for (int i = 0; i < 10; ++i)
        CHECK(t, drape_scene_step(s) == DRAPE_OK);
    snprintf(path, sizeof path, "%s/final.csv", dir);
    drape_scene_error e;
    CHECK_MSG(t, drape_scene_dump_csv(s, path, &e) == DRAPE_SCENE_OK, "%s", e.message);
    drape_vec3 x[3], v[3];
    drape_world_get_positions(drape_scene_world(s), 0, 3, x);
    drape_world_get_velocities(drape_scene_world(s), 0, 3, v);
    drape_scene_destroy(s);
    FILE *f = fopen(path, "r");
    CHECK(t, f && fgets(line, sizeof line, f));
    CHECK(t, !strcmp(line, "index,x,y,z,vx,vy,vz,mass\n"));
    for (unsigned i = 0; i < 3; ++i) {
        unsigned index;
        float p[3], q[3], m;
        CHECK(t, fgets(line, sizeof line, f));
        CHECK(t, sscanf(line, "%u,%g,%g,%g,%g,%g,%g,%g", &index, &p[0], &p[1], &p[2], &q[0], &q[1],
                        &q[2], &m) == 8);
        CHECK(t, index == i && p[0] == x[i].x && p[1] == x[i].y && p[2] == x[i].z);
        CHECK(t, q[0] == v[i].x && q[1] == v[i].y && q[2] == v[i].z && m == 1.0f);
    }
    CHECK(t, !fgets(line, sizeof line, f));
    fclose(f);
}

/* Counts the lines of a file that start with a prefix. */
static int count_lines(const char *path, const char *prefix)
{
    char line[4096];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    fclose(f);
    return n;
}

static void obj_frames(st_run *t)
{
    char dir[512], path[600];
    drape_scene_error e;
    drape_scene *s = builtin("flag");
    CHECK(t, s && st_scratch_dir(dir, sizeof dir, "obj"));
    CHECK_MSG(t, drape_scene_export_obj(s, dir, 0, &e) == DRAPE_SCENE_OK, "%s", e.message);
    CHECK(t, drape_scene_step(s) == DRAPE_OK);
    CHECK(t, drape_scene_export_obj(s, dir, 1, &e) == DRAPE_SCENE_OK);
    drape_scene_destroy(s);
    snprintf(path, sizeof path, "%s/flag_0001.obj", dir);
    CHECK(t, count_lines(path, "v ") == 32 * 20 && count_lines(path, "vn ") == 32 * 20);
    CHECK(t, count_lines(path, "f ") == 2 * 31 * 19);
    /* The flag hangs in the xy plane with u = +x, v = -y: its front faces -z. */
    drape_mesh m;
    snprintf(path, sizeof path, "%s/flag_0000.obj", dir);
    CHECK_MSG(t, drape_mesh_read_obj(path, &m, &e) == DRAPE_SCENE_OK, "%s", e.message);
    CHECK(t, m.triangles[0] == 0 && m.triangles[1] == 1 && m.triangles[2] == 33);
    CHECK(t, m.triangles[3] == 0 && m.triangles[4] == 33 && m.triangles[5] == 32);
    drape_mesh_free(&m);
    FILE *f = fopen(path, "r");
    char line[256];
    float nrm[3] = {0, 0, 0};
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "vn ", 3) && sscanf(line + 3, "%g %g %g", &nrm[0], &nrm[1], &nrm[2]) == 3)
            break;
    if (f)
        fclose(f);
    CHECK_MSG(t, nrm[0] == 0.0f && nrm[1] == 0.0f && nrm[2] == -1.0f, "first normal (%g %g %g)",
              nrm[0], nrm[1], nrm[2]);

    s = builtin("ik-chain");
    CHECK(t, s && drape_scene_export_obj(s, dir, 7, &e) == DRAPE_SCENE_OK);
    drape_scene_destroy(s);
    snprintf(path, sizeof path, "%s/ik-chain_0007.obj", dir);
    CHECK(t, count_lines(path, "v ") == 16 && count_lines(path, "l 1 2 3") == 1 &&
                 count_lines(path, "f ") == 0);
}

static void output_failures(st_run *t)
{
    char dir[512], file[600];
    drape_scene_error e;
    drape_scene *s = builtin("triangle-plane");
    CHECK(t, s && st_scratch_dir(dir, sizeof dir, "fail"));
    snprintf(file, sizeof file, "%s/plain.csv", dir);
    CHECK(t, drape_scene_dump_csv(s, file, &e) == DRAPE_SCENE_OK);
    CHECK(t, drape_scene_export_obj(s, file, 0, &e) == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK(t, st_has_all(e.message, "plain.csv: exists and is not a directory", NULL));
    snprintf(file, sizeof file, "%s/no/such/dir/x.csv", dir);
    CHECK(t, drape_scene_dump_csv(s, file, &e) == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK(t, st_has_all(e.message, "x.csv: cannot write", NULL));
    drape_scene_destroy(s);
}

int main(void)
{
    st_run t = {0};
    RUN(&t, csv_dump);
    RUN(&t, obj_frames);
    RUN(&t, output_failures);
    return st_finish(&t);
}

/* Output: the CSV dump (header, one row per particle, values that read back to the same floats) and
 * OBJ frames (numbered names, one vertex and normal per particle, the cloth's triangulation split
 * along the (i,j)-(i+1,j+1) diagonal, ropes as polylines), and a clear failure when the output
 * cannot be written. Every output is atomic: a failed, refused or discarded write leaves the
 * previous file whole and no temporary file behind; a non-finite state is never written.
 */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink, setrlimit */
#include "scene_test.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes text to a file (plainly, for set-up). */
static int put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

/* Whether a file holds exactly `text`. */
static int holds(const char *path, const char *text)
{
    char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, text) == 0;
}

/* Files in dir whose name contains ".tmp-" (temporary files left behind). */
static int temporaries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".tmp-") != NULL;
    if (d)
        closedir(d);
    return n;
}

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
        if (!strncmp(line, "vn ", 3) &&
            sscanf(line + 3, "%g %g %g", &nrm[0], &nrm[1], &nrm[2]) == 3)
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

/* drape_output: commit replaces, discard keeps, a write error keeps (simulated with a file size
 * limit, the errno a full disk gives being ENOSPC), a FIFO is refused at once, a symbolic link is
 * written through. */
static void atomic_output(st_run *t)
{
    char dir[512], path[600], link[600], fifo[600];
    drape_scene_error e;
    drape_output out;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "atomic"));
    snprintf(path, sizeof path, "%s/a.txt", dir);
    CHECK(t, put(path, "old\n"));
    CHECK(t, drape_output_open(NULL, path, &e) == DRAPE_SCENE_OUTPUT_FAILED); /* it crashed */
    CHECK(t, st_has_all(e.message, "out is NULL", NULL) && holds(path, "old\n"));
    CHECK(t, drape_output_open(&out, path, &e) == DRAPE_SCENE_OK);
    fputs("new", out.file);
    CHECK(t, holds(path, "old\n") && temporaries(dir) == 1);
    drape_output_discard(&out);
    CHECK(t, holds(path, "old\n") && temporaries(dir) == 0);
    CHECK(t, drape_output_open(&out, path, &e) == DRAPE_SCENE_OK);
    fputs("new\n", out.file);
    CHECK_MSG(t, drape_output_commit(&out, &e) == DRAPE_SCENE_OK, "%s", e.message);
    CHECK(t, holds(path, "new\n") && temporaries(dir) == 0);

    /* A write that fails half way (here: past a 4 KiB file size limit) keeps the old file. */
    struct rlimit saved, small = {4096, 0};
    CHECK(t, getrlimit(RLIMIT_FSIZE, &saved) == 0);
    small.rlim_max = saved.rlim_max;
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(t, drape_output_open(&out, path, &e) == DRAPE_SCENE_OK);
    CHECK(t, setrlimit(RLIMIT_FSIZE, &small) == 0);
    for (int i = 0; i < 1000; ++i)
        fprintf(out.file, "row %d of a file larger than the limit\n", i);
    drape_scene_status st = drape_output_commit(&out, &e);
    CHECK(t, setrlimit(RLIMIT_FSIZE, &saved) == 0);
    signal(SIGXFSZ, old_handler);
    CHECK(t, st == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK_MSG(t, st_has_all(e.message, "a.txt: cannot write: File too large", NULL), "%s",
              e.message);
    CHECK(t, holds(path, "new\n") && temporaries(dir) == 0);

    /* A FIFO is no regular file: refused without waiting for a reader. */
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    unlink(fifo);
    CHECK(t, mkfifo(fifo, 0600) == 0);
    CHECK(t, drape_output_open(&out, fifo, &e) == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK(t, st_has_all(e.message, "fifo: cannot write: exists and is not a regular file", NULL));

    /* A symbolic link stays a link; the file it names is replaced. */
    snprintf(link, sizeof link, "%s/link.txt", dir);
    unlink(link);
    CHECK(t, symlink("a.txt", link) == 0);
    CHECK(t, drape_output_open(&out, link, &e) == DRAPE_SCENE_OK);
    fputs("through\n", out.file);
    CHECK(t, drape_output_commit(&out, &e) == DRAPE_SCENE_OK);
    struct stat st_link;
    CHECK(t, lstat(link, &st_link) == 0 && S_ISLNK(st_link.st_mode));
    CHECK(t, holds(path, "through\n") && temporaries(dir) == 0);
}

/* A state the step made non-finite is refused by both writers, which leave the previous files as
 * they were: a cloth of explicit springs far too stiff for its particles diverges. */
static void non_finite_refused(st_run *t)
{
    static const char scene[] =
        "{\"name\": \"diverges\", \"solver\": {\"mode\": \"mass-spring\", \"spring_stiffness\": 5},"
        " \"cloths\": [{\"pins\": [\"corner-00\", \"corner-10\"]}]}";
    drape_scene *s = st_load_cpu(scene, strlen(scene), "diverges.json");
    drape_scene_error e;
    drape_world *w = drape_scene_world(s);
    const uint32_t n = drape_world_particle_count(w);
    drape_vec3 *x = malloc(n * sizeof *x);
    CHECK(t, x != NULL);
    bool finite = true;
    for (int step = 0; step < 600 && finite; ++step) {
        drape_result r = drape_scene_step(s);
        CHECK(t, drape_world_get_positions(w, 0, n, x) == DRAPE_OK);
        for (uint32_t i = 0; i < n; ++i)
            finite = finite && isfinite(x[i].x) && isfinite(x[i].y) && isfinite(x[i].z);
        CHECK(t, r == DRAPE_OK || !finite); /* a step may report what it made */
    }
    free(x);
    CHECK_MSG(t, !finite, "the scene was meant to diverge");
    char dir[512], csv[600], obj[600];
    CHECK(t, st_scratch_dir(dir, sizeof dir, "non_finite"));
    snprintf(csv, sizeof csv, "%s/final.csv", dir);
    snprintf(obj, sizeof obj, "%s/diverges_0003.obj", dir);
    CHECK(t, put(csv, "previous csv\n") && put(obj, "previous obj\n"));
    CHECK(t, drape_scene_dump_csv(s, csv, &e) == DRAPE_SCENE_WORLD_FAILED);
    CHECK(t, e.result == DRAPE_ERROR_NON_FINITE);
    CHECK_MSG(t, st_has_all(e.message, "final.csv: not written: particle ", "is not finite", NULL),
              "%s", e.message);
    CHECK(t, drape_scene_export_obj(s, dir, 3, &e) == DRAPE_SCENE_WORLD_FAILED);
    CHECK(t, e.result == DRAPE_ERROR_NON_FINITE);
    CHECK_MSG(t, st_has_all(e.message, "diverges_0003.obj: not written: particle ", NULL), "%s",
              e.message);
    CHECK(t, holds(csv, "previous csv\n") && holds(obj, "previous obj\n"));
    CHECK(t, temporaries(dir) == 0);
    drape_scene_destroy(s);
}

/* No output replaces a file the scene was read from: the scene file (by its own name or through a
 * symbolic link) and a mesh file that an export frame would be named as. Both are refused, named,
 * and left as they were; a new file beside them is written. */
static void inputs_kept(st_run *t)
{
    static const char scene[] =
        "{\"name\": \"kept\", \"meshes\": [{\"obj\": \"kept_0000.obj\"}]}\n";
    static const char mesh[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    char dir[512], path[600], obj[600], link[600], csv[600];
    drape_scene_error e;
    CHECK(t, st_scratch_dir(dir, sizeof dir, "inputs"));
    snprintf(path, sizeof path, "%s/kept.json", dir);
    snprintf(obj, sizeof obj, "%s/kept_0000.obj", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    snprintf(csv, sizeof csv, "%s/kept.csv", dir);
    CHECK(t, put(path, scene) && put(obj, mesh));
    unlink(link);
    CHECK(t, symlink("kept.json", link) == 0);
    drape_scene_options o = st_cpu_options();
    drape_scene *s = NULL;
    CHECK_MSG(t, drape_scene_load_file(path, &o, &s, &e) == DRAPE_SCENE_OK, "%s", e.message);
    CHECK(t, drape_scene_dump_csv(s, path, &e) == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK_MSG(t, st_has_all(e.message, "kept.json: is a file that scene kept was read from", NULL),
              "%s", e.message);
    CHECK(t, drape_scene_dump_csv(s, link, &e) == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK(t, drape_scene_export_obj(s, dir, 0, &e) == DRAPE_SCENE_OUTPUT_FAILED);
    CHECK_MSG(t,
              st_has_all(e.message, "kept_0000.obj: is a file that scene kept was read from", NULL),
              "%s", e.message);
    CHECK(t, holds(path, scene) && holds(obj, mesh) && temporaries(dir) == 0);
    CHECK(t, drape_scene_check_output(s, csv, &e) == DRAPE_SCENE_OK);
    CHECK(t, drape_scene_dump_csv(s, csv, &e) == DRAPE_SCENE_OK);
    CHECK(t, drape_scene_export_obj(s, dir, 1, &e) == DRAPE_SCENE_OK);
    drape_scene_destroy(s);
}

int suite_output(void)
{
    st_run t = {0};
    RUN(&t, csv_dump);
    RUN(&t, obj_frames);
    RUN(&t, output_failures);
    RUN(&t, atomic_output);
    RUN(&t, non_finite_refused);
    RUN(&t, inputs_kept);
    return st_finish(&t);
}

/* Tetrahedralising a closed triangle surface (an OBJ mesh) with TetGen's `tetgen` program, which
 * Debian packages (scripts/setup.sh installs it): the surface is written as an OFF file into a
 * fresh temporary directory, `tetgen -pq<quality>[a<max_volume>]Q` meshes its inside (-p: the
 * surface is a piecewise linear complex, -q: a radius-edge quality bound, -a: a volume bound, -Q:
 * quiet), and its .node and .ele files are read back with tetgen_read.c. The program runs without
 * a shell (posix_spawnp), so no file name is ever interpreted; the directory and everything tetgen
 * wrote into it are removed afterwards.
 *
 * The surface must be closed: every edge shared by exactly two triangles. An open surface has no
 * inside, and tetgen would fail on it or mesh something else, so it is refused first with the edge
 * named.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, posix_spawnp */
#include "scene_internal.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether every edge of the surface is shared by exactly two triangles; the first one that is not
 * in *a, *b and how many share it in *uses. */
static bool closed(const drape_mesh *m, uint32_t *a, uint32_t *b, size_t *uses, bool *no_memory)
{
    const size_t n = 3 * (size_t)m->triangle_count;
    uint64_t *keys = malloc((n + 1) * sizeof *keys);
    *no_memory = !keys;
    if (!keys)
        return false;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t u = m->triangles[i], v = m->triangles[i - i % 3 + (i + 1) % 3];
        keys[i] = (uint64_t)(u < v ? u : v) << 32 | (u < v ? v : u);
    }
    qsort(keys, n, sizeof *keys, compare_u64);
    bool ok = n > 0;
    for (size_t i = 0; i < n && ok;) {
        size_t j = i + 1;
        while (j < n && keys[j] == keys[i])
            ++j;
        if (j - i != 2) {
            ok = false;
            *a = (uint32_t)(keys[i] >> 32), *b = (uint32_t)keys[i], *uses = j - i;
        }
        i = j;
    }
    free(keys);
    return ok;
}

static bool write_off(const char *path, const drape_mesh *m)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fprintf(f, "OFF\n%u %u 0\n", m->vertex_count, m->triangle_count) > 0;
    for (uint32_t i = 0; ok && i < m->vertex_count; ++i)
        ok = fprintf(f, "%.9g %.9g %.9g\n", (double)m->vertices[i].x, (double)m->vertices[i].y,
                     (double)m->vertices[i].z) > 0;
    for (uint32_t t = 0; ok && t < m->triangle_count; ++t)
        ok = fprintf(f, "3 %u %u %u\n", m->triangles[3 * t], m->triangles[3 * t + 1],
                     m->triangles[3 * t + 2]) > 0;
    return fclose(f) == 0 && ok;
}

/* The most tetrahedra a max_volume may ask tetgen for: the body's volume over max_volume. A 1 m^3
 * cube asked for 3.7e5 became 125 288 particles in 13 s (0.2 GB), for 3.7e6 took 95 s (1.5 GB),
 * and 1e-9 m^3 in a 1/6 m^3 tetrahedron ran without end; a body of a million particles is past
 * what the solver steps at a usable rate anyway. */
#define SC_TETGEN_MOST 1e6

/* The volume (m^3) a closed surface holds: the sum of its triangles' signed tetrahedra with the
 * origin, in double; its magnitude, whichever way the faces turn. */
static double enclosed_volume(const drape_mesh *m)
{
    double sum = 0.0;
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        const drape_vec3 a = m->vertices[m->triangles[3 * (size_t)t]],
                         b = m->vertices[m->triangles[3 * (size_t)t + 1]],
                         c = m->vertices[m->triangles[3 * (size_t)t + 2]];
        sum += (double)a.x * ((double)b.y * c.z - (double)b.z * c.y) -
               (double)a.y * ((double)b.x * c.z - (double)b.z * c.x) +
               (double)a.z * ((double)b.x * c.y - (double)b.y * c.x);
    }
    return fabs(sum) / 6.0;
}

/* Runs tetgen with these switches on `off`, its output to /dev/null; its exit status, or -1 with
 * errno when it could not start. */
static int run_tetgen(const char *switches, const char *off)
{
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"tetgen", (char *)switches, (char *)off, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "tetgen", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (e != 0) {
        errno = e;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

drape_scene_status sc_tetgen_tetrahedralise(const drape_mesh *surface, const char *name,
                                            float quality, float max_volume, float scale,
                                            drape_tetgen_mesh *out, drape_scene_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t a = 0, b = 0;
    size_t uses = 0;
    bool no_memory;
    if (!closed(surface, &a, &b, &uses, &no_memory)) {
        if (no_memory)
            return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                           "%s: no memory to check the surface", name);
        if (surface->triangle_count == 0)
            return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: the surface has no faces",
                           name);
        return sc_fail(
            err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
            "%s: the surface is not closed: the edge between vertices %u and %u (1-based) "
            "belongs to %zu faces, not 2, so it has no inside to fill with tetrahedra",
            name, a + 1, b + 1, uses);
    }
    /* max_volume is a tetrahedron of the body as scaled; tetgen meshes the surface unscaled */
    const double cube = (double)scale * scale * scale, volume = enclosed_volume(surface) * cube;
    if (max_volume > 0.0f && volume / (double)max_volume > SC_TETGEN_MOST)
        return sc_fail(
            err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
            "%s: max_volume = %g m^3 would cut the %g m^3 the body holds (scaled by %g) "
            "into at least %.3g tetrahedra, more than the %g a scene may ask tetgen for; "
            "raise max_volume",
            name, (double)max_volume, volume, (double)scale, volume / (double)max_volume,
            SC_TETGEN_MOST);
    char dir[] = "/tmp/drape-tetgen-XXXXXX";
    if (!mkdtemp(dir))
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK,
                       "%s: cannot make a temporary directory for tetgen: %s", name,
                       strerror(errno));
    static const char *const outputs[] = {
        "surface.off",    "surface.1.node",  "surface.1.ele",   "surface.1.face",
        "surface.1.edge", "surface.1.smesh", "surface.1.neigh", NULL};
    char path[8][64];
    for (int i = 0; outputs[i]; ++i)
        snprintf(path[i], sizeof path[i], "%s/%s", dir, outputs[i]);
    char switches[64];
    if (max_volume > 0.0f)
        snprintf(switches, sizeof switches, "-pq%.4ga%.6gQ", (double)quality,
                 (double)max_volume / cube);
    else
        snprintf(switches, sizeof switches, "-pq%.4gQ", (double)quality);
    drape_scene_status s = DRAPE_SCENE_OK;
    if (!write_off(path[0], surface))
        s = sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: cannot write %s for tetgen",
                    name, path[0]);
    int code = s == DRAPE_SCENE_OK ? run_tetgen(switches, path[0]) : 0;
    if (s == DRAPE_SCENE_OK && code < 0)
        s = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                    "%s: the tetgen program could not run (%s): install Debian's tetgen package "
                    "(scripts/setup.sh does)",
                    name, strerror(errno));
    else if (s == DRAPE_SCENE_OK && code > 128)
        s = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                    "%s: tetgen %s was stopped by signal %d (%s)", name, switches, code - 128,
                    code - 128 == SIGINT || code - 128 == SIGTERM ? "interrupted"
                                                                  : "it may have crashed");
    else if (s == DRAPE_SCENE_OK && code != 0)
        s = sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                    "%s: tetgen %s failed (exit status %d): the surface may intersect itself", name,
                    switches, code);
    if (s == DRAPE_SCENE_OK)
        s = drape_tetgen_read(path[1], path[2], out, err);
    for (int i = 0; outputs[i]; ++i)
        unlink(path[i]);
    rmdir(dir);
    return s;
}

/* Files and paths for scenes: reading a whole input file with a clear message when it is missing,
 * the path arithmetic that makes mesh paths relative to their scene file, keeping those paths
 * inside the scene file's directory, and creating the export directory. Only regular files are
 * read, so that a path such as /dev/zero or a FIFO cannot hang a load: the file is opened without
 * blocking (opening a FIFO with no writer would wait for one) and checked with fstat before a byte
 * is read.
 */
#define _XOPEN_SOURCE 700 /* fstat, mkdir, O_NONBLOCK, O_CLOEXEC, realpath */
#include "scene_internal.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define SC_MAX_FILE_BYTES (1ull << 30)

drape_scene_status sc_read_file(const char *path, char **data, size_t *size, drape_scene_error *err)
{
    *data = NULL;
    *size = 0;
    if (!path || !*path)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_ERROR_INVALID_ARGUMENT,
                       "no file path given (%s)", path ? "empty" : "NULL");
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: %s", path,
                       strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: not a regular file",
                       path);
    }
    /* A regular file: reads block as usual again. */
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        int error = errno;
        close(fd);
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: %s", path,
                       strerror(error));
    }
    if ((unsigned long long)st.st_size > SC_MAX_FILE_BYTES) {
        fclose(f);
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK,
                       "%s: cannot read: %lld bytes is more than the limit of 1 GiB", path,
                       (long long)st.st_size);
    }
    size_t n = (size_t)st.st_size;
    char *buf = malloc(n + 1);
    if (!buf) {
        fclose(f);
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                       "%s: no memory for %zu bytes", path, n);
    }
    size_t got = fread(buf, 1, n, f);
    int error = ferror(f) ? errno : 0;
    fclose(f);
    if (error || got != n) {
        free(buf);
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: %s", path,
                       error ? strerror(error) : "the file shrank while it was read");
    }
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return DRAPE_SCENE_OK;
}

char *sc_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

/* A malloc'ed copy of the first n bytes of s. */
static char *strndup_(const char *s, size_t n)
{
    char *copy = malloc(n + 1);
    if (copy) {
        memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

char *sc_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    return strndup_(path, slash ? (size_t)(slash - path) + 1 : 0);
}

char *sc_stem(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return strndup_(base, n);
}

char *sc_join(const char *dir, const char *rel)
{
    if (rel[0] == '/' || dir[0] == '\0')
        return sc_strdup(rel);
    size_t a = strlen(dir), b = strlen(rel);
    bool slash = dir[a - 1] != '/';
    char *out = malloc(a + slash + b + 1);
    if (!out)
        return NULL;
    memcpy(out, dir, a);
    if (slash)
        out[a] = '/';
    memcpy(out + a + slash, rel, b + 1);
    return out;
}

drape_scene_status sc_make_dir(const char *dir, drape_scene_error *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return DRAPE_SCENE_OK;
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK,
                       "%s: exists and is not a directory", dir);
    }
    if (mkdir(dir, 0777) != 0)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: cannot create: %s", dir,
                       strerror(errno));
    return DRAPE_SCENE_OK;
}

/* Whether a relative path stays inside its directory on paper: no component ".." climbs above the
 * start. */
static bool stays_below(const char *rel)
{
    long depth = 0;
    for (const char *c = rel; *c;) {
        const char *end = strchr(c, '/');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        if (n == 2 && c[0] == '.' && c[1] == '.')
            depth--;
        else if (n > 0 && !(n == 1 && c[0] == '.'))
            depth++;
        if (depth < 0)
            return false;
        c += n + (end != NULL);
    }
    return true;
}

bool sc_path_inside(const char *dir, const char *rel, char *why, size_t why_size)
{
    if (rel[0] == '/') {
        snprintf(why, why_size, "is an absolute path");
        return false;
    }
    if (!stays_below(rel)) {
        snprintf(why, why_size, "leads out of the scene file's directory");
        return false;
    }
    /* A symbolic link on the way may still lead out: compare the real paths, where they exist (a
     * missing file fails later, when it is read). */
    char *path = sc_join(dir, rel);
    char *real_dir = realpath(dir[0] ? dir : ".", NULL);
    char *real_path = path ? realpath(path, NULL) : NULL;
    bool inside = true;
    if (real_dir && real_path) {
        size_t n = strlen(real_dir);
        /* the directory itself ("."): inside, and refused by the reader as no regular file */
        inside = strncmp(real_path, real_dir, n) == 0 &&
                 (real_path[n] == '/' || real_path[n] == '\0' || (n == 1 && real_dir[0] == '/'));
        if (!inside)
            snprintf(why, why_size,
                     "leads out of the scene file's directory through a symbolic link");
    }
    free(path);
    free(real_dir);
    free(real_path);
    return inside;
}

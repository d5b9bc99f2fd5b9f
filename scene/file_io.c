/* Files and paths for scenes: reading a whole input file with a clear message when it is missing,
 * the path arithmetic that makes mesh paths relative to their scene file, and creating the export
 * directory. Only regular files are read, so that a path such as /dev/zero cannot hang a load.
 */
#define _POSIX_C_SOURCE 200809L /* fstat, mkdir */
#include "scene_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define SC_MAX_FILE_BYTES (1ull << 30)

drape_scene_status sc_read_file(const char *path, char **data, size_t *size,
                                drape_scene_error *err)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: %s", path,
                       strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: not a regular file",
                       path);
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
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad || got != n) {
        free(buf);
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: cannot read: read error", path);
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
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: exists and is not a directory",
                       dir);
    }
    if (mkdir(dir, 0777) != 0)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: cannot create: %s", dir,
                       strerror(errno));
    return DRAPE_SCENE_OK;
}

FILE *sc_open_output(const char *path, drape_scene_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: cannot write: %s", path,
                strerror(errno));
    return f;
}

drape_scene_status sc_close_output(FILE *f, const char *path, bool ok, drape_scene_error *err)
{
    ok = !ferror(f) && ok;
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: write error", path);
    return DRAPE_SCENE_OK;
}

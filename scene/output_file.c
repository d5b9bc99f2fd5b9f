/* Output files that are either the complete previous file or the complete new one: the writer
 * writes a temporary file in the same directory and renames it over the target only once every
 * byte is written and the file is closed without error; a failed write (a full disk), an
 * interrupted or killed run or a writer that refuses its data leaves the target as it was.
 * Messages give the cause (strerror). The file is not fsync'ed: that would guard against the
 * machine itself crashing, at the price of doubling the time of an OBJ export (11 ms per frame on
 * this machine's ext4), and no failure of the process can truncate a file without it.
 *
 * The temporary file is "DIR/.NAME.tmp-PID-K", created with O_EXCL and mode 0666 less the umask,
 * the mode a plain fopen would give the target. A target that is a symbolic link is written
 * through (the file it points to is replaced); a target that exists and is not a regular file (a
 * FIFO, a device, a directory) is refused, since renaming over it would replace it.
 */
#define _XOPEN_SOURCE 700 /* fdopen, lstat, realpath, readlink */
#include <drape/scene.h>
#include "scene_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static drape_scene_status output_fail(drape_scene_error *err, const char *path, int error)
{
    return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "%s: cannot write: %s", path,
                   strerror(error ? error : EIO));
}

/* The path to replace: the target itself, or where its symbolic link leads. */
static char *resolve_target(const char *path, drape_scene_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return sc_strdup(path);
    if (S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real && errno != ENOENT) {
            output_fail(err, path, errno);
            return NULL;
        }
        /* A dangling link: write the file it names. */
        if (!real) {
            char link[PATH_MAX];
            ssize_t n = readlink(path, link, sizeof link - 1);
            if (n < 0) {
                output_fail(err, path, errno);
                return NULL;
            }
            link[n] = '\0';
            char *dir = sc_dirname(path);
            real = dir ? sc_join(dir, link) : NULL;
            free(dir);
        }
        return real;
    }
    if (!S_ISREG(st.st_mode)) {
        sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK,
                "%s: cannot write: exists and is not a regular file (outputs are written to a "
                "temporary file and renamed over the target)",
                path);
        return NULL;
    }
    return sc_strdup(path);
}

drape_scene_status drape_output_open(drape_output *out, const char *path, drape_scene_error *err)
{
    if (!out)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_ERROR_INVALID_ARGUMENT,
                       "drape_output_open: out is NULL");
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "no output path given");
    char *target = resolve_target(path, err);
    if (!target)
        return err ? err->status : DRAPE_SCENE_OUTPUT_FAILED;
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t dir_len = (size_t)(base - target), size = strlen(target) + 64;
    char *temp = malloc(size);
    if (!temp) {
        free(target);
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                       "%s: no memory for the temporary file's name", path);
    }
    int fd = -1, error = 0;
    for (int k = 0; k < 100 && fd < 0; ++k) {
        snprintf(temp, size, "%.*s.%s.tmp-%ld-%d", (int)dir_len, target, base, (long)getpid(), k);
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        error = errno;
        if (fd < 0 && error != EEXIST)
            break;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) {
            error = errno;
            close(fd);
            unlink(temp);
        }
        free(temp);
        free(target);
        return output_fail(err, path, error);
    }
    out->file = f;
    out->path = target;
    out->temp = temp;
    return DRAPE_SCENE_OK;
}

void drape_output_discard(drape_output *out)
{
    if (!out || !out->file)
        return;
    fclose(out->file);
    unlink(out->temp);
    free(out->temp);
    free(out->path);
    memset(out, 0, sizeof *out);
}

drape_scene_status drape_output_commit(drape_output *out, drape_scene_error *err)
{
    if (!out || !out->file)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "no output file is open");
    /* errno still holds the cause of a write that failed inside fprintf; a later flush that
     * fails sets it again. */
    int error = 0;
    if (fflush(out->file) != 0 || ferror(out->file))
        error = errno ? errno : EIO;
    if (fclose(out->file) != 0 && !error)
        error = errno ? errno : EIO;
    out->file = NULL;
    if (!error && rename(out->temp, out->path) != 0)
        error = errno;
    if (error)
        unlink(out->temp);
    drape_scene_status s = error ? output_fail(err, out->path, error) : DRAPE_SCENE_OK;
    free(out->temp);
    free(out->path);
    memset(out, 0, sizeof *out);
    return s;
}

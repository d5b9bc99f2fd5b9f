/* Sweep outputs that are either absent, or complete: the bytes go to a temporary file next to the
 * target ("DIR/.NAME.tmp-PID"), which is synced and then renamed over it, so that a process killed
 * while writing leaves no half-written file under the target's name. rename() within one folder is
 * atomic on POSIX file systems, NFS included.
 */
#define _POSIX_C_SOURCE 200809L /* fsync, getpid */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cli_write_atomic(const char *path, const char *data, size_t size, char *why, size_t why_size)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t room = strlen(path) + 48;
    char *temp = malloc(room);
    if (!temp) {
        snprintf(why, why_size, "%s: no memory", path);
        return false;
    }
    snprintf(temp, room, "%.*s.%s.tmp-%ld", (int)(base - path), path, base, (long)getpid());
    int error = 0;
    int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        error = errno;
    for (size_t done = 0; !error && done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n < 0 && errno != EINTR)
            error = errno;
        else if (n > 0)
            done += (size_t)n;
    }
    if (fd >= 0 && !error && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        error = errno;
    if (fd >= 0 && close(fd) != 0 && !error)
        error = errno;
    if (!error && rename(temp, path) != 0)
        error = errno;
    if (error) {
        unlink(temp);
        snprintf(why, why_size, "%s: cannot write: %s", path, strerror(error));
    }
    free(temp);
    return !error;
}

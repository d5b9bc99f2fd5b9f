/* Output paths checked before a run, so that a file that cannot be written fails in a moment with
 * exit code 4 instead of after a long simulation (the OBJ export does the same by writing frame 0
 * first). The check writes nothing: the directory the file goes into must exist and be writable,
 * and the path must not be a directory or a file this user may not replace. The writer itself still
 * reports any failure that comes later (a full disk). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_output_writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cli_error("%s: cannot write: it is a directory", path);
            return false;
        }
        if (access(path, W_OK) != 0) {
            cli_error("%s: cannot write: %s", path, strerror(errno));
            return false;
        }
    }
    const char *slash = strrchr(path, '/');
    char *dir = slash == path ? strdup("/")
                : slash       ? strndup(path, (size_t)(slash - path))
                              : strdup(".");
    if (!dir) {
        cli_error("%s: cannot write: no memory", path);
        return false;
    }
    bool ok = true;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cli_error("%s: cannot write: the directory %s does not exist", path, dir);
        ok = false;
    } else if (access(dir, W_OK | X_OK) != 0) {
        cli_error("%s: cannot write: the directory %s: %s", path, dir, strerror(errno));
        ok = false;
    }
    free(dir);
    return ok;
}

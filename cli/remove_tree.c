/* Removing a folder and everything in it: the staging folders of cases that were cut short. It
 * walks depth first without following symbolic links (nftw with FTW_PHYS), so a link inside a
 * folder is removed, never what it points to.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "sweep.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

bool cli_remove_tree(const char *path)
{
    if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0)
        return true;
    return errno == ENOENT;
}

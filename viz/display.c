/* Finding a display (display.h).
 *
 * The re-run sets DRAPE_VIEW_UNDER_XVFB=1 so that a second missing DISPLAY (xvfb-run failing to set
 * it) cannot loop. The default screenshot lands beside the binary (build/bin/drape-view.png):
 * inside the build tree, which git ignores, and easy to find; where that directory cannot be
 * written (an installed /usr/local/bin/drape-view), in the current directory. */
#define _POSIX_C_SOURCE 200809L /* setenv, readlink */
#include "display.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool viz_find_in_path(const char *program, char *out, size_t size)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return false;
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len > 0 && (size_t)snprintf(out, size, "%.*s/%s", (int)len, path, program) < size &&
            access(out, X_OK) == 0)
            return true;
        path += len + (end ? 1 : 0);
    }
    return false;
}

/* This executable's path (for the re-run and the default screenshot). */
static void self_path(const char *argv0, char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n > 0) {
        out[n] = '\0';
        return;
    }
    snprintf(out, size, "%s", argv0);
}

int viz_display_ensure(int argc, char **argv, const viz_options *o)
{
    const char *display = getenv("DISPLAY");
    if (display && *display)
        return -1;
    if (getenv("DRAPE_VIEW_UNDER_XVFB")) {
        fprintf(stderr, "drape-view: running under xvfb-run, but DISPLAY is still not set; giving "
                        "up\n");
        return 1;
    }
    char xvfb_run[PATH_MAX];
    if (!viz_find_in_path("xvfb-run", xvfb_run, sizeof xvfb_run)) {
        fprintf(stderr,
                "drape-view: no display: DISPLAY is not set, and xvfb-run (Debian package xvfb,\n"
                "with xauth) is not installed to render without one. Run drape-view on a desktop,\n"
                "over ssh -X, or install xvfb and xauth (scripts/setup.sh does).\n");
        return 1;
    }
    char self[PATH_MAX], screen[64], frames[32], screenshot[PATH_MAX + 32];
    self_path(argv[0], self, sizeof self);
    snprintf(screen, sizeof screen, "-screen 0 %dx%dx24", o->width, o->height);
    snprintf(frames, sizeof frames, "%d", VIZ_HEADLESS_FRAMES);
    char *dir_end = strrchr(self, '/');
    int dir_length = dir_end ? (int)(dir_end - self + 1) : 0;
    if (dir_end) {
        *dir_end = '\0';
        if (access(self, W_OK) != 0)
            dir_length = 0;
        *dir_end = '/';
    }
    snprintf(screenshot, sizeof screenshot, "%.*sdrape-view.png", dir_length, self);

    char **args = calloc((size_t)argc + 12, sizeof *args);
    if (!args) {
        fprintf(stderr, "drape-view: out of memory\n");
        return 1;
    }
    int n = 0;
    args[n++] = xvfb_run;
    args[n++] = "-a";
    args[n++] = "-s";
    args[n++] = screen;
    args[n++] = self;
    for (int i = 1; i < argc; ++i)
        args[n++] = argv[i];
    if (!o->frames) {
        args[n++] = "--frames";
        args[n++] = frames;
        if (!o->every_frame)
            args[n++] = "--every-frame"; /* 240 frames: 4 s of simulated time on any machine */
    }
    if (!o->screenshot) {
        args[n++] = "--screenshot";
        args[n++] = screenshot;
    }
    args[n] = NULL;
    printf("drape-view: no display (DISPLAY is not set): rendering %s frames headless under "
           "xvfb-run\n",
           o->frames ? "the" : frames);
    fflush(stdout);
    setenv("DRAPE_VIEW_UNDER_XVFB", "1", 1);
    execv(xvfb_run, args);
    fprintf(stderr, "drape-view: cannot run %s: %s\n", xvfb_run, strerror(errno));
    free(args);
    return 1;
}

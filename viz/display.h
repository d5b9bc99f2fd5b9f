/* Finding a display. drape-view needs an X server for its GLX window. Without one (DISPLAY unset)
 * it runs itself again under xvfb-run (Debian's xvfb: a virtual X server with Mesa's llvmpipe),
 * adding
 * --frames (with --every-frame) and --screenshot when they were not given, so that a machine with
 * no display still gets a picture: the PNG's path is printed at the end. With neither a display nor
 * xvfb-run it says so and fails. */
#ifndef VIZ_DISPLAY_H
#define VIZ_DISPLAY_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>

/* Frames rendered headless when the command line names none: 4 s of simulated time. */
#define VIZ_HEADLESS_FRAMES 240

/* Returns -1 when there is a display to use: carry on. Otherwise re-executes drape-view under
 * xvfb-run (and does not return), or returns the exit status for "no display at all". */
int viz_display_ensure(int argc, char **argv, const viz_options *options);

/* The full path of `program` found in $PATH, into out; false when it is not there. */
bool viz_find_in_path(const char *program, char *out, size_t size);

#endif

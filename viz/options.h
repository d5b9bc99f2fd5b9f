/* drape-view's command line. */
#ifndef VIZ_OPTIONS_H
#define VIZ_OPTIONS_H

#include "sim.h"

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct viz_options {
    const char *scene;   /* a built-in name or a scene file; NULL: the default scene */
    uint32_t resolution; /* particles along each cloth edge; 0: as the scene says */
    viz_mode mode;
    drape_backend backend;
    const char *device;     /* OpenCL device selector or NULL */
    bool sharing;           /* try OpenCL-OpenGL sharing; default true */
    int width, height;      /* window size, screen coordinates */
    long frames;            /* stop after this many frames; 0: run until closed */
    const char *screenshot; /* PNG of the last frame, or NULL */
    const char *keys;       /* key presses before the first frame, or NULL */
    bool paused;
    bool every_frame;   /* one step per frame instead of real time */
    const char *record; /* a directory for PNGs or a video file, or NULL */
    bool overlay;       /* the text and legend; default true */
    bool panel;         /* the parameter panel; default true */
    bool help;
    bool list_scenes; /* print the built-in scenes' names, one a line, and stop */
} viz_options;

/* Parses argv into *out. False (with a message on stderr) for a bad command line. */
bool viz_options_parse(int argc, char **argv, viz_options *out);
void viz_options_usage(FILE *to);

#endif

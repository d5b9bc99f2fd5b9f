/* The viewer application: one window, one simulation and the views that draw it, the frame loop,
 * and what the keys and the mouse change. */
#ifndef VIZ_APP_H
#define VIZ_APP_H

#include "camera.h"
#include "cloth_view.h"
#include "collider_view.h"
#include "options.h"
#include "overlay.h"
#include "pacer.h"
#include "panel.h"
#include "record.h"
#include "settings.h"
#include "sim.h"

#include <GLFW/glfw3.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct viz_app {
    viz_options options;
    GLFWwindow *window;
    viz_sim sim;
    viz_cloth_view cloth;
    viz_collider_view colliders;
    viz_overlay overlay;
    viz_camera camera;
    viz_pacer pacer;
    viz_panel *panel; /* NULL without one */
    bool show_panel;
    viz_settings settings; /* the world's, as the panel last saw them */
    viz_recorder recorder;
    bool recording;

    bool paused, step_once, skeleton, stress, quit;
    bool rebuild;      /* the sim's settings changed: build a new world before the next frame */
    bool failed;       /* a GL, OpenCL or solver call failed: stop with a non-zero status */
    bool render_dirty; /* the world changed since the GL buffers were last written */

    /* mouse */
    bool orbiting, panning;
    double mouse_x, mouse_y;

    /* statistics, refreshed about twice a second */
    uint64_t frame;
    double stat_start; /* s, glfwGetTime of the current window */
    uint32_t stat_frames, stat_steps;
    int frame_steps;       /* steps taken in the last frame */
    double stat_step_wall; /* s spent in drape_world_step */
    double fps, step_ms, device_ms;
    double substeps_taken; /* substeps per step over the last statistics window (fast particles
                              split steps: particle_max_substeps); 0 before the first */
    double total_step_wall, total_device_ms; /* s and ms over the whole run, for the summary */
    uint64_t total_steps, total_device_steps;
} viz_app;

/* Runs the viewer with these options; the process's exit status. */
int viz_app_run(const viz_options *options);

/* ---- input.c ---- */
/* Installs the GLFW callbacks of the window (the app is its user pointer). */
void viz_input_install(viz_app *app);
/* What a key press does (GLFW key codes); also how --keys presses are injected. */
void viz_input_key(viz_app *app, int key);
/* The GLFW key of a --keys character ('C', 'z', ' '), or GLFW_KEY_UNKNOWN. */
int viz_input_key_of_char(char c);

#endif

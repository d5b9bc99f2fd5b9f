/* The parameter panel (Dear ImGui, in panel_imgui.cpp behind this C interface, as the Box2D samples
 * keep theirs): sliders for the solver settings (settings.h), pause, step and reset. The panel only
 * edits a viz_panel_state; the app applies what changed with viz_settings_apply, the call the
 * tests make without a window. */
#ifndef VIZ_PANEL_H
#define VIZ_PANEL_H

#include "settings.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

struct GLFWwindow;
typedef struct viz_panel viz_panel;

typedef struct viz_panel_state {
    viz_settings settings; /* edited in place */
    bool paused;           /* edited in place */
    bool step;             /* set when Step was pressed */
    bool reset;            /* set when Reset was pressed */
} viz_panel_state;

/* Starts Dear ImGui on the window (after the app's own GLFW callbacks, which ImGui's then chain
 * to). NULL with a message on failure. */
viz_panel *viz_panel_create(struct GLFWwindow *window, float scale);
void viz_panel_destroy(viz_panel *panel);
/* Builds and draws this frame's panel over the picture. */
void viz_panel_draw(viz_panel *panel, viz_panel_state *state);
/* Whether the panel has the mouse or the keyboard (then the viewer ignores them). */
bool viz_panel_wants_mouse(const viz_panel *panel);
bool viz_panel_wants_keyboard(const viz_panel *panel);

#ifdef __cplusplus
}
#endif
#endif

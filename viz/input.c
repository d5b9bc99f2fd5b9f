/* Keys and mouse (app.h). The keys follow the Taichi mass-spring cloth demo (Q, C, Z, V, Y/U/I/O)
 * and common PBD demos (space, S, R); P shows or hides the panel. Keys and the mouse go to the
 * panel instead while it wants them (a slider being dragged, a field being typed in). Keys that
 * change the simulation's settings (V, the resolutions, R) only set them and ask for a rebuild,
 * which the frame loop does between frames.
 *
 * Mouse: the left button on the cloth grabs the particle under the cursor with an attachment
 * constraint that follows the cursor at the particle's depth; elsewhere it orbits, as does the
 * right button; the middle button pans and the wheel zooms. */
#include "app.h"

#include <stdio.h>

static const uint32_t resolutions[4] = {64, 128, 256, 512}; /* Y, U, I, O */

int viz_input_key_of_char(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    if (c >= 'A' && c <= 'Z')
        return GLFW_KEY_A + (c - 'A');
    if (c == ' ')
        return GLFW_KEY_SPACE;
    return GLFW_KEY_UNKNOWN;
}

void viz_input_key(viz_app *app, int key)
{
    viz_sim *sim = &app->sim;
    switch (key) {
    case GLFW_KEY_Q:
    case GLFW_KEY_ESCAPE:
        app->quit = true;
        break;
    case GLFW_KEY_SPACE:
        app->paused = !app->paused;
        break;
    case GLFW_KEY_S:
        app->paused = true;
        app->step_once = true;
        break;
    case GLFW_KEY_R:
        app->rebuild = true;
        break;
    case GLFW_KEY_C:
        app->skeleton = !app->skeleton;
        break;
    case GLFW_KEY_Z:
        app->stress = !app->stress;
        break;
    case GLFW_KEY_V:
        sim->mode = (viz_mode)((sim->mode + 1) % VIZ_MODE_COUNT);
        app->rebuild = true;
        printf("drape-view: solver mode %s\n", viz_mode_name(sim->mode));
        break;
    case GLFW_KEY_Y:
    case GLFW_KEY_U:
    case GLFW_KEY_I:
    case GLFW_KEY_O: {
        int k = key == GLFW_KEY_Y ? 0 : key == GLFW_KEY_U ? 1 : key == GLFW_KEY_I ? 2 : 3;
        sim->resolution = resolutions[k];
        app->rebuild = true;
        printf("drape-view: cloths %u x %u\n", sim->resolution, sim->resolution);
        break;
    }
    case GLFW_KEY_P:
        app->show_panel = !app->show_panel;
        break;
    default:
        break;
    }
}

static viz_app *app_of(GLFWwindow *window) { return glfwGetWindowUserPointer(window); }

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    viz_app *app = app_of(window);
    if (app->panel && app->show_panel && viz_panel_wants_keyboard(app->panel))
        return;
    if (action == GLFW_PRESS)
        viz_input_key(app, key);
}

/* The ray under the cursor, and the camera's forward direction. */
static void cursor_ray(viz_app *app, viz_vec3 *eye, viz_vec3 *dir, viz_vec3 *forward)
{
    int w = 0, h = 0;
    glfwGetWindowSize(app->window, &w, &h);
    viz_camera_ray(&app->camera, (float)app->mouse_x, (float)app->mouse_y, (float)w, (float)h, eye,
                   dir);
    *forward = viz_camera_forward(&app->camera);
}

static void on_button(GLFWwindow *window, int button, int action, int mods)
{
    (void)mods;
    viz_app *app = app_of(window);
    glfwGetCursorPos(window, &app->mouse_x, &app->mouse_y);
    if (action == GLFW_PRESS && app->panel && app->show_panel && viz_panel_wants_mouse(app->panel))
        return;
    if (action == GLFW_RELEASE) {
        if (button == GLFW_MOUSE_BUTTON_LEFT && app->sim.grabbing)
            viz_sim_release(&app->sim);
        app->orbiting = app->panning = false;
        return;
    }
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        viz_vec3 eye, dir, forward;
        cursor_ray(app, &eye, &dir, &forward);
        if (!viz_sim_grab(&app->sim, eye, dir, forward))
            app->orbiting = true;
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT) {
        app->orbiting = true;
    } else if (button == GLFW_MOUSE_BUTTON_MIDDLE) {
        app->panning = true;
    }
}

static void on_cursor(GLFWwindow *window, double x, double y)
{
    viz_app *app = app_of(window);
    const float dx = (float)(x - app->mouse_x), dy = (float)(y - app->mouse_y);
    app->mouse_x = x;
    app->mouse_y = y;
    if (app->sim.grabbing) {
        viz_vec3 eye, dir, forward;
        cursor_ray(app, &eye, &dir, &forward);
        viz_sim_drag(&app->sim, eye, dir, forward);
    } else if (app->orbiting) {
        viz_camera_orbit(&app->camera, dx, dy);
    } else if (app->panning) {
        int w = 0, h = 0;
        glfwGetWindowSize(window, &w, &h);
        viz_camera_pan(&app->camera, dx, dy, (float)h);
    }
}

static void on_scroll(GLFWwindow *window, double dx, double dy)
{
    (void)dx;
    viz_app *app = app_of(window);
    if (app->panel && app->show_panel && viz_panel_wants_mouse(app->panel))
        return;
    viz_camera_zoom(&app->camera, (float)dy);
}

void viz_input_install(viz_app *app)
{
    glfwSetWindowUserPointer(app->window, app);
    glfwSetKeyCallback(app->window, on_key);
    glfwSetMouseButtonCallback(app->window, on_button);
    glfwSetCursorPosCallback(app->window, on_cursor);
    glfwSetScrollCallback(app->window, on_scroll);
}

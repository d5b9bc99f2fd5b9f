/* The viewer application (app.h): the window and GL context, the world built on it, and the frame
 * loop.
 *
 * One simulation step per frame: the simulated time follows the frame count, not the wall clock,
 * so that a run of N frames is the same picture on any machine (the tests rely on it). The OpenCL
 * context is created after the window, from its GLX context, so that the solver can write into the
 * GL buffers (cloth_view.h says how, and what happens where it cannot). Teardown runs in the
 * reverse order: the world (which holds OpenCL references to GL buffers) goes before the buffers,
 * and the buffers before the context.
 */
#include "app.h"

#include "gl_check.h"
#include "native_glx.h"
#include "screenshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_glfw_error(int code, const char *description)
{
    fprintf(stderr, "drape-view: GLFW error 0x%x: %s\n", (unsigned)code, description);
}

static uint32_t constraint_total(const drape_world *w)
{
    uint32_t n = 0;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        n += drape_world_constraint_count(w, (drape_constraint_type)t);
    return n;
}

static uint32_t color_total(const drape_world *w)
{
    uint32_t n = 0;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        drape_coloring_stats stats;
        if (drape_world_get_coloring(w, (drape_constraint_type)t, &stats) == DRAPE_OK)
            n += stats.colors;
    }
    return n;
}

/* Builds a world from the sim's settings and the views over it. */
static bool rebuild(viz_app *app)
{
    if (!viz_sim_build(&app->sim) || !viz_cloth_view_attach(&app->cloth, &app->sim) ||
        !viz_collider_view_set_scene(&app->colliders, &app->sim.scene))
        return false;
    const viz_sim *s = &app->sim;
    printf("drape-view: %s, %u x %u cloth, %s, on %s\n", s->scene.name, s->resolution,
           s->resolution, viz_mode_name(s->mode), drape_world_device(s->world));
    printf("drape-view: interop: %s%s%s%s\n", viz_interop_name(app->cloth.interop),
           app->cloth.interop_reason[0] ? " (" : "", app->cloth.interop_reason,
           app->cloth.interop_reason[0] ? ")" : "");
    fflush(stdout);
    app->render_dirty = true;
    app->stat_steps = 0;
    app->stat_step_wall = 0.0;
    return true;
}

/* Refreshes fps and step times about twice a second; updates the window title. */
static void update_statistics(viz_app *app)
{
    const double now = glfwGetTime(), elapsed = now - app->stat_start;
    app->stat_frames++;
    if (elapsed < 0.5)
        return;
    app->fps = app->stat_frames / elapsed;
    if (app->stat_steps) {
        app->step_ms = 1e3 * app->stat_step_wall / app->stat_steps;
        drape_profile profile;
        if (drape_world_get_profile(app->sim.world, &profile) == DRAPE_OK && profile.steps) {
            const double ms = profile.predict_ms + profile.collide_ms + profile.project_ms +
                              profile.update_ms;
            app->device_ms = ms / (double)profile.steps;
            app->total_device_ms += ms;
            app->total_device_steps += profile.steps;
        }
    }
    drape_world_reset_profile(app->sim.world);
    app->stat_start = now;
    app->stat_frames = app->stat_steps = 0;
    app->stat_step_wall = 0.0;
    char title[256];
    snprintf(title, sizeof title, "drape-view - %s %ux%u %s - %.0f fps - %s", app->sim.scene.name,
             app->sim.resolution, app->sim.resolution, viz_mode_name(app->sim.mode), app->fps,
             viz_interop_name(app->cloth.interop));
    glfwSetWindowTitle(app->window, title);
}

static void draw_overlay(viz_app *app, int width, int height)
{
    const viz_sim *s = &app->sim;
    char lines[6][160];
    snprintf(lines[0], sizeof lines[0], "%s  %u x %u  %s%s", s->scene.name, s->resolution,
             s->resolution, viz_mode_name(s->mode), app->paused ? "  [paused]" : "");
    snprintf(lines[1], sizeof lines[1], "%.0f fps   step %.2f ms (device %.2f ms)", app->fps,
             app->step_ms, app->device_ms);
    snprintf(lines[2], sizeof lines[2], "particles %u   constraints %u   colours %u",
             drape_world_particle_count(s->world), constraint_total(s->world),
             color_total(s->world));
    snprintf(lines[3], sizeof lines[3], "interop: %s", viz_interop_name(app->cloth.interop));
    /* "#0 NAME (PLATFORM; CPU; ...)": the name and platform are enough here */
    const char *device = drape_world_device(s->world), *semicolon = strchr(device, ';');
    snprintf(lines[4], sizeof lines[4], "%.*s%s", semicolon ? (int)(semicolon - device) : 100,
             device, semicolon ? ")" : "");
    snprintf(lines[5], sizeof lines[5], "t = %.2f s", drape_world_time(s->world));
    const char *text[6] = {lines[0], lines[1], lines[2], lines[3], lines[4], lines[5]};
    const int scale = height >= 1200 ? 2 : 1;
    viz_overlay_begin(&app->overlay, width, height, scale);
    viz_overlay_panel(&app->overlay, 8.0f * scale, 8.0f * scale, text, 6);
    static const char *const help[1] = {
        "Q quit  space pause  S step  R reset  C skeleton  Z stress  V mode  Y/U/I/O 64..512  "
        "drag: pull cloth / orbit  wheel: zoom"};
    const float lh = viz_overlay_line_height(&app->overlay);
    viz_overlay_panel(&app->overlay, 8.0f * scale, (float)height - lh - 16.0f * scale, help, 1);
    if (app->stress)
        viz_overlay_legend(&app->overlay, s->strain_scale);
    viz_overlay_end(&app->overlay);
}

static void draw(viz_app *app, int width, int height)
{
    GL_CHECK(glViewport(0, 0, width, height));
    GL_CHECK(glClearColor(0.12f, 0.14f, 0.18f, 1.0f));
    GL_CHECK(glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT));
    GL_CHECK(glEnable(GL_DEPTH_TEST));
    viz_view_params p;
    const float aspect = height > 0 ? (float)width / (float)height : 1.0f;
    p.view_projection = viz_mat4_mul(viz_camera_projection(&app->camera, aspect),
                                     viz_camera_view(&app->camera));
    p.eye = viz_camera_eye(&app->camera);
    p.skeleton = app->skeleton;
    p.stress = app->stress;
    p.strain_scale = app->sim.strain_scale;
    p.grabbed = app->sim.grabbing ? (int)app->sim.grab_particle : -1;
    float point = 3.0f * 48.0f / (float)app->sim.resolution * (float)height / 720.0f;
    p.point_size = point < 1.0f ? 1.0f : point > 4.0f ? 4.0f : point;
    viz_collider_view_draw(&app->colliders, &app->sim.scene, drape_world_time(app->sim.world), &p);
    viz_cloth_view_draw(&app->cloth, &p);
    if (app->options.overlay)
        draw_overlay(app, width, height);
}

/* One frame: input, a step, the GL buffers, the picture. False to stop. */
static bool frame(viz_app *app)
{
    glfwPollEvents();
    if (app->quit || glfwWindowShouldClose(app->window))
        return false;
    if (app->rebuild) {
        app->rebuild = false;
        if (!rebuild(app)) {
            app->failed = true;
            return false;
        }
    }
    if (!app->paused || app->step_once) {
        const double t0 = glfwGetTime();
        if (!viz_sim_step(&app->sim)) {
            fprintf(stderr, "drape-view: the step failed (see above)\n");
            app->failed = true;
            return false;
        }
        const double wall = glfwGetTime() - t0;
        app->stat_step_wall += wall;
        app->stat_steps++;
        app->total_step_wall += wall;
        app->total_steps++;
        app->step_once = false;
        app->render_dirty = true;
    }
    if (app->render_dirty) {
        if (!viz_cloth_view_update(&app->cloth, &app->sim)) {
            app->failed = true;
            return false;
        }
        app->render_dirty = false;
    }
    int width = 0, height = 0;
    glfwGetFramebufferSize(app->window, &width, &height);
    if (width > 0 && height > 0)
        draw(app, width, height);
    app->frame++;
    update_statistics(app);
    const bool last = app->options.frames && (long)app->frame >= app->options.frames;
    if (last && app->options.screenshot) {
        if (!viz_screenshot(app->options.screenshot, width, height)) {
            app->failed = true;
            return false;
        }
        printf("drape-view: screenshot of frame %llu: %s\n", (unsigned long long)app->frame,
               app->options.screenshot);
    }
    glfwSwapBuffers(app->window);
    if (viz_gl_errors()) {
        app->failed = true;
        return false;
    }
    return !last;
}

/* The window with an OpenGL 3.3 core context, current, and GL loaded. */
static bool open_window(viz_app *app)
{
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        const char *display = getenv("DISPLAY");
        fprintf(stderr, "drape-view: cannot start GLFW: no usable X display (DISPLAY=%s)\n",
                display ? display : "(unset)");
        return false;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, app->options.frames ? 0 : 4); /* headless: exact, fast pixels */
    app->window = glfwCreateWindow(app->options.width, app->options.height, "drape-view", NULL, NULL);
    if (!app->window) {
        fprintf(stderr, "drape-view: cannot open a window with an OpenGL 3.3 core context\n");
        return false;
    }
    glfwMakeContextCurrent(app->window);
    viz_native_pin_libraries();
    int version = gladLoadGL(glfwGetProcAddress);
    if (!version) {
        fprintf(stderr, "drape-view: cannot load the OpenGL functions (gladLoadGL)\n");
        return false;
    }
    const GLubyte *renderer = glGetString(GL_RENDERER);
    GL_CHECK_AFTER("glGetString(GL_RENDERER)");
    const GLubyte *gl_version = glGetString(GL_VERSION);
    GL_CHECK_AFTER("glGetString(GL_VERSION)");
    printf("drape-view: OpenGL %s on %s\n", gl_version ? (const char *)gl_version : "?",
           renderer ? (const char *)renderer : "?");
    glfwSwapInterval(app->options.frames ? 0 : 1);
    GL_CHECK(glEnable(GL_PROGRAM_POINT_SIZE));
    return viz_gl_errors() == 0;
}

int viz_app_run(const viz_options *options)
{
    viz_app *app = calloc(1, sizeof *app);
    if (!app) {
        fprintf(stderr, "drape-view: out of memory\n");
        return 1;
    }
    app->options = *options;
    app->camera = viz_camera_default();
    app->paused = options->paused;
    app->sim.scene_name = options->scene;
    app->sim.resolution = options->resolution;
    app->sim.mode = options->mode;
    app->sim.backend = options->backend;
    app->sim.device = options->device;

    bool ok = open_window(app) && viz_cloth_view_init(&app->cloth) &&
              viz_collider_view_init(&app->colliders) && viz_overlay_init(&app->overlay);
    if (ok) {
        if (options->sharing)
            viz_native_glx(app->window, &app->sim.gl_context, &app->sim.gl_display);
        viz_input_install(app);
        ok = rebuild(app);
    }
    for (const char *k = options->keys; ok && k && *k; ++k)
        viz_input_key(app, viz_input_key_of_char(*k));
    if (ok) {
        app->stat_start = glfwGetTime();
        const double start = app->stat_start;
        while (frame(app))
            ;
        const double seconds = glfwGetTime() - start;
        if (!app->failed && app->frame > 0)
            printf("drape-view: %llu frames in %.2f s (%.1f fps); a step took %.2f ms (%.2f ms of "
                   "device time)\n",
                   (unsigned long long)app->frame, seconds, (double)app->frame / seconds,
                   app->total_steps ? 1e3 * app->total_step_wall / (double)app->total_steps : 0.0,
                   app->total_device_steps ? app->total_device_ms / (double)app->total_device_steps
                                           : 0.0);
        ok = !app->failed;
    }
    viz_sim_destroy(&app->sim);
    if (app->window) {
        viz_overlay_destroy(&app->overlay);
        viz_collider_view_destroy(&app->colliders);
        viz_cloth_view_destroy(&app->cloth);
        glfwDestroyWindow(app->window);
    }
    glfwTerminate();
    free(app);
    return ok ? 0 : 1;
}

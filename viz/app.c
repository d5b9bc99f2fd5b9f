/* The viewer application (app.h): the window and GL context, the world built on it, and the frame
 * loop.
 *
 * Real time: each frame takes as many steps as the wall clock asks for (pacer.h), so that the
 * simulation moves at its real speed at any frame rate, and the HUD shows the real-time factor when
 * the solver cannot keep up. --every-frame takes one step per frame instead, so that frame N is the
 * same picture on any machine (tests, recordings). The OpenCL context is created after the window,
 * from its GLX context, so that the solver can write into the GL buffers (cloth_view.h says how,
 * and what happens where it cannot). Teardown runs in the reverse order: the world (which holds
 * OpenCL references to GL buffers) goes before the buffers, and the buffers before the context.
 */
#include "app.h"

#include "gl_check.h"
#include "gl_vendor.h"
#include "native_glx.h"
#include "screenshot.h"

#include <GLFW/glfw3.h>

#include <math.h>
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
    viz_sim_release(&app->sim);
    if (!viz_sim_build(&app->sim) || !viz_cloth_view_attach(&app->cloth, &app->sim) ||
        !viz_collider_view_set_scene(&app->colliders, app->sim.scene) ||
        !viz_settings_read(app->sim.world, &app->settings))
        return false;
    const viz_sim *s = &app->sim;
    drape_scene_info info;
    if (drape_scene_get_info(s->scene, &info) != DRAPE_OK)
        return false;
    printf("drape-view: %s, %u particles, %u objects, %u colliders, %s, on %s\n",
           drape_scene_name(s->scene), info.particles, drape_scene_object_count(s->scene),
           drape_scene_collider_count(s->scene), viz_mode_name(s->mode),
           drape_world_device(s->world));
    printf("drape-view: interop: %s%s%s%s\n", viz_interop_name(app->cloth.interop),
           app->cloth.interop_reason[0] ? " (" : "", app->cloth.interop_reason,
           app->cloth.interop_reason[0] ? ")" : "");
    fflush(stdout);
    app->pacer.dt = drape_world_get_def(s->world).dt;
    app->render_dirty = true;
    app->stat_steps = 0;
    app->stat_step_wall = 0.0;
    return true;
}

/* Frames the camera on the particles and the colliders as they start (a plane by its point). */
static void frame_camera(viz_app *app)
{
    const viz_sim *s = &app->sim;
    const uint32_t n = s->topology.particle_count;
    viz_vec3 lo = viz_v3(1e30f, 1e30f, 1e30f), hi = viz_scale(lo, -1.0f);
    if (n == 0 || drape_world_get_positions(s->world, 0, n, s->scratch) != DRAPE_OK)
        return;
    for (uint32_t i = 0; i < n; ++i) {
        const viz_vec3 p = viz_v3(s->scratch[i].x, s->scratch[i].y, s->scratch[i].z);
        lo = viz_v3(fminf(lo.x, p.x), fminf(lo.y, p.y), fminf(lo.z, p.z));
        hi = viz_v3(fmaxf(hi.x, p.x), fmaxf(hi.y, p.y), fmaxf(hi.z, p.z));
    }
    for (uint32_t i = 0; i < app->colliders.count; ++i) {
        const drape_collider_def *c = &app->colliders.defs[i];
        const drape_vec3 ends[2] = {c->position,
                                    c->type == DRAPE_COLLIDER_CAPSULE ? c->end : c->position};
        const float r = c->type == DRAPE_COLLIDER_PLANE ? 0.0f : c->radius;
        for (int k = 0; k < 2; ++k) {
            const viz_vec3 p = viz_v3(ends[k].x, ends[k].y, ends[k].z);
            lo = viz_v3(fminf(lo.x, p.x - r), fminf(lo.y, p.y - r), fminf(lo.z, p.z - r));
            hi = viz_v3(fmaxf(hi.x, p.x + r), fmaxf(hi.y, p.y + r), fmaxf(hi.z, p.z + r));
        }
    }
    viz_camera_frame(&app->camera, lo, hi);
}

/* The device time of the steps since the last call (the world's profile), into the HUD's figures
 * and the run's totals; the profile starts again. */
static void take_profile(viz_app *app)
{
    drape_profile profile;
    if (drape_world_get_profile(app->sim.world, &profile) == DRAPE_OK && profile.steps) {
        const double ms =
            profile.predict_ms + profile.collide_ms + profile.project_ms + profile.update_ms;
        app->device_ms = ms / (double)profile.steps;
        app->substeps_taken = (double)profile.substeps / (double)profile.steps;
        app->total_device_ms += ms;
        app->total_device_steps += profile.steps;
    }
    drape_world_reset_profile(app->sim.world);
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
        take_profile(app);
    } else {
        drape_world_reset_profile(app->sim.world);
    }
    app->stat_start = now;
    app->stat_frames = app->stat_steps = 0;
    app->stat_step_wall = 0.0;
    char title[256];
    snprintf(title, sizeof title, "drape-view - %s %s - %.0f fps - %s",
             drape_scene_name(app->sim.scene), viz_mode_name(app->sim.mode), app->fps,
             viz_interop_name(app->cloth.interop));
    glfwSetWindowTitle(app->window, title);
}

static void draw_overlay(viz_app *app, int width, int height)
{
    const viz_sim *s = &app->sim;
    const drape_world_def def = drape_world_get_def(s->world);
    enum { LINES = 7 };
    char lines[LINES][192];
    snprintf(lines[0], sizeof lines[0], "%s  %s%s", drape_scene_name(s->scene),
             viz_mode_name(s->mode), app->paused ? "  [paused]" : "");
    /* the substeps taken, where fast particles split steps */
    char taken[48] = "";
    if (app->substeps_taken > (double)def.substeps)
        snprintf(taken, sizeof taken, " (%.1f taken)", app->substeps_taken);
    snprintf(lines[1], sizeof lines[1], "dt %.2f ms   substeps %d%s   iterations %d",
             1e3 * (double)def.dt, def.substeps, taken, def.iterations);
    char pace[64];
    viz_pacer_describe(&app->pacer, app->paused, pace, sizeof pace);
    snprintf(lines[2], sizeof lines[2], "%.0f fps   step %.2f ms (device %.2f ms)   %s", app->fps,
             app->step_ms, app->device_ms, pace);
    snprintf(lines[3], sizeof lines[3], "particles %u   constraints %u   colours %u",
             drape_world_particle_count(s->world), constraint_total(s->world),
             color_total(s->world));
    /* "#0 NAME (PLATFORM; CPU; ...)": the name and platform are enough here */
    const char *device = drape_world_device(s->world), *semicolon = strchr(device, ';');
    snprintf(lines[4], sizeof lines[4], "%s: %.*s%s",
             drape_world_backend(s->world) == DRAPE_BACKEND_OPENCL ? "OpenCL" : "CPU",
             semicolon ? (int)(semicolon - device) : 100, device, semicolon ? ")" : "");
    snprintf(lines[5], sizeof lines[5], "interop: %s", viz_interop_name(app->cloth.interop));
    snprintf(lines[6], sizeof lines[6], "t = %.2f s", drape_world_time(s->world));
    const char *text[LINES];
    for (int i = 0; i < LINES; ++i)
        text[i] = lines[i];
    const int scale = height >= 1200 ? 2 : 1;
    viz_overlay_begin(&app->overlay, width, height, scale);
    viz_overlay_panel(&app->overlay, 8.0f * scale, 8.0f * scale, text, LINES);
    static const char *const help[1] = {
        "Q quit  space pause  S step  R reset  C skeleton  Z stress  V mode  Y/U/I/O 64..512  "
        "P panel  drag: pull / orbit  wheel: zoom"};
    const float lh = viz_overlay_line_height(&app->overlay);
    viz_overlay_panel(&app->overlay, 8.0f * scale, (float)height - lh - 16.0f * scale, help, 1);
    if (app->stress)
        viz_overlay_legend(&app->overlay, s->strain_scale);
    viz_overlay_end(&app->overlay);
}

/* The panel: draws it and applies what the user changed, to the next step. */
static bool draw_panel(viz_app *app)
{
    viz_panel_state state = {app->settings, app->paused, false, false};
    viz_panel_draw(app->panel, &state);
    app->paused = state.paused;
    if (state.step) {
        app->paused = true;
        app->step_once = true;
    }
    if (state.reset)
        app->rebuild = true;
    if (!viz_settings_equal(&state.settings, &app->settings)) {
        if (!viz_settings_apply(app->sim.world, &app->settings, &state.settings))
            fprintf(stderr, "drape-view: the panel's change was refused (see above)\n");
        if (!viz_settings_read(app->sim.world, &app->settings))
            return false;
        app->pacer.dt = drape_world_get_def(app->sim.world).dt;
    }
    return true;
}

static void draw(viz_app *app, int width, int height)
{
    GL_CHECK(glViewport(0, 0, width, height));
    GL_CHECK(glClearColor(0.12f, 0.14f, 0.18f, 1.0f));
    GL_CHECK(glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT));
    GL_CHECK(glEnable(GL_DEPTH_TEST));
    viz_view_params p;
    const float aspect = height > 0 ? (float)width / (float)height : 1.0f;
    p.view_projection =
        viz_mat4_mul(viz_camera_projection(&app->camera, aspect), viz_camera_view(&app->camera));
    p.eye = viz_camera_eye(&app->camera);
    p.skeleton = app->skeleton;
    p.stress = app->stress;
    p.strain_scale = app->sim.strain_scale;
    p.grabbed = app->sim.grabbing ? (int)app->sim.grab_particle : -1;
    const float side = sqrtf((float)(app->sim.topology.particle_count + 1));
    float point = 3.0f * 48.0f / side * (float)height / 720.0f;
    p.point_size = point < 1.0f ? 1.0f : point > 4.0f ? 4.0f : point;
    const viz_mat4 projection = viz_camera_projection(&app->camera, aspect);
    p.pixel_scale = projection.m[5] * (float)height;
    viz_collider_view_draw(&app->colliders, drape_world_time(app->sim.world), &p);
    viz_cloth_view_draw(&app->cloth, &p);
    if (app->options.overlay)
        draw_overlay(app, width, height);
}

/* The frame's steps: as many as real time asks for (one with --every-frame, one for S). */
static bool step(viz_app *app)
{
    const double now = glfwGetTime();
    int steps = 0;
    if (app->step_once) {
        steps = 1;
        viz_pacer_hold(&app->pacer, now);
    } else if (app->paused) {
        viz_pacer_hold(&app->pacer, now);
    } else {
        steps = viz_pacer_begin(&app->pacer, now);
    }
    const double t0 = glfwGetTime();
    for (int k = 0; k < steps; ++k)
        if (!viz_sim_step(&app->sim)) {
            fprintf(stderr, "drape-view: the step failed (see above)\n");
            return false;
        }
    const double wall = glfwGetTime() - t0;
    viz_pacer_end(&app->pacer, steps, wall, glfwGetTime());
    app->frame_steps = steps;
    app->step_once = false;
    if (steps) {
        app->stat_step_wall += wall;
        app->stat_steps += (uint32_t)steps;
        app->total_step_wall += wall;
        app->total_steps += (uint64_t)steps;
        app->render_dirty = true;
    }
    return true;
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
    if (!step(app)) {
        app->failed = true;
        return false;
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
    if (width > 0 && height > 0) {
        draw(app, width, height);
        if (app->panel && app->show_panel && !draw_panel(app)) {
            app->failed = true;
            return false;
        }
    }
    if (app->recording && !viz_record_frame(&app->recorder, width, height)) {
        app->failed = true;
        return false;
    }
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

static void drop_log(drape_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

/* Hands the window's GLX context to the world only when the OpenCL device that the world will use
 * comes from the same driver as OpenGL (gl_vendor.h); else says why not. */
static void offer_sharing(viz_app *app)
{
    viz_sim *s = &app->sim;
    if (!app->options.sharing) {
        snprintf(s->no_sharing, sizeof s->no_sharing, "sharing is off (--no-sharing)");
        return;
    }
    if (app->options.backend == DRAPE_BACKEND_CPU) {
        snprintf(s->no_sharing, sizeof s->no_sharing, "the CPU backend");
        return;
    }
    drape_device_info device;
    if (drape_choose_device(app->options.device, &device, drop_log, NULL) != DRAPE_OK) {
        snprintf(s->no_sharing, sizeof s->no_sharing, "no OpenCL device to share with");
        return;
    }
    const char *vendor = (const char *)glGetString(GL_VENDOR);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    char why[200];
    if (viz_gl_vendor_matches(vendor, renderer, &device, why, sizeof why)) {
        viz_native_glx(app->window, &s->gl_context, &s->gl_display);
        return;
    }
    snprintf(s->no_sharing, sizeof s->no_sharing, "not offered to OpenCL: %s", why);
    printf("drape-view: OpenCL-OpenGL sharing %s\n", s->no_sharing);
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
    app->window =
        glfwCreateWindow(app->options.width, app->options.height, "drape-view", NULL, NULL);
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
    viz_pacer_init(&app->pacer, 1.0 / 60.0, options->every_frame);
    app->show_panel = options->panel;
    app->sim.scene_name = options->scene;
    app->sim.resolution = options->resolution;
    app->sim.mode = options->mode;
    app->sim.backend = options->backend;
    app->sim.device = options->device;

    bool ok = open_window(app) && viz_cloth_view_init(&app->cloth) &&
              viz_collider_view_init(&app->colliders) && viz_overlay_init(&app->overlay);
    if (ok) {
        offer_sharing(app);
        viz_input_install(app);
        if (options->panel) {
            app->panel = viz_panel_create(app->window, options->height >= 1200 ? 2.0f : 1.0f);
            ok = app->panel != NULL;
        }
        ok = ok && rebuild(app);
        if (ok)
            frame_camera(app);
    }
    if (ok && options->record) {
        int width = 0, height = 0;
        glfwGetFramebufferSize(app->window, &width, &height);
        app->recording = ok = viz_record_open(&app->recorder, options->record, width, height, 60);
    }
    for (const char *k = options->keys; ok && k && *k; ++k)
        viz_input_key(app, viz_input_key_of_char(*k));
    if (ok) {
        app->stat_start = glfwGetTime();
        const double start = app->stat_start;
        while (frame(app))
            ;
        const double seconds = glfwGetTime() - start;
        if (!app->failed && app->frame > 0 && app->sim.world) {
            const double simulated = drape_world_time(app->sim.world);
            take_profile(app); /* the steps since the last half-second's statistics */
            char device[48] = "no device time measured";
            if (app->total_device_steps)
                snprintf(device, sizeof device, "%.2f ms of device time",
                         app->total_device_ms / (double)app->total_device_steps);
            printf("drape-view: %llu frames in %.2f s (%.1f fps); a step took %.2f ms (%s)\n",
                   (unsigned long long)app->frame, seconds, (double)app->frame / seconds,
                   app->total_steps ? 1e3 * app->total_step_wall / (double)app->total_steps : 0.0,
                   device);
            printf("drape-view: simulated %.4f s in %llu steps over %.3f s of wall time (%s); "
                   "real-time factor %.3f\n",
                   simulated, (unsigned long long)app->total_steps, seconds,
                   app->pacer.every_frame ? "one step per frame" : "real time",
                   seconds > 0.0 ? simulated / seconds : 0.0);
        }
        ok = !app->failed;
    }
    if (app->recording && !viz_record_close(&app->recorder))
        ok = false;
    viz_sim_destroy(&app->sim);
    viz_panel_destroy(app->panel);
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

/* drape-view: any scene in a window, in real time, drawn straight from the solver.
 *
 * main reads the command line, reads a scene file once on the CPU to check it, makes sure there is
 * a display (display.c: without one it re-runs itself under xvfb-run, or explains why it cannot)
 * and runs the viewer (app.c). */
#include "app.h"
#include "display.h"
#include "options.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--version")) {
        printf("drape-view %s\n", DRAPE_VERSION_STRING);
        return 0;
    }
    viz_options options;
    if (!viz_options_parse(argc, argv, &options)) {
        viz_options_usage(stderr);
        return 2;
    }
    if (options.help) {
        viz_options_usage(stdout);
        return 0;
    }
    if (options.list_scenes) {
        for (size_t i = 0; i < drape_scene_builtin_count(); ++i)
            printf("%s\n", drape_scene_builtin_name(i));
        return 0;
    }
    for (const char *k = options.keys; k && *k; ++k)
        if (viz_input_key_of_char(*k) == GLFW_KEY_UNKNOWN) {
            fprintf(stderr, "drape-view: --keys: no key for '%c' (letters and space)\n", *k);
            return 2;
        }
    /* A scene file that cannot be read fails here, with drape's exit code for bad input (3), before
     * a display, OpenGL or OpenCL is started for it. */
    if (options.scene && !drape_scene_builtin_summary(options.scene)) {
        drape_scene_options o = drape_scene_default_options();
        o.override_backend = true;
        o.backend = DRAPE_BACKEND_CPU;
        o.log = NULL;
        drape_scene *checked = NULL;
        drape_scene_error err;
        if (drape_scene_load(options.scene, &o, &checked, &err) != DRAPE_SCENE_OK) {
            fprintf(stderr, "drape-view: %s\n", err.message);
            return err.status == DRAPE_SCENE_BAD_INPUT ? 3 : 1;
        }
        drape_scene_destroy(checked);
    }
    int status = viz_display_ensure(argc, argv, &options);
    if (status >= 0)
        return status;
    return viz_app_run(&options);
}

/* drape-view's command line (options.h), on the shared parser (cmdline/cmdline.h). */
#include "options.h"

#include "cmdline.h"
#include "record.h"

#include <string.h>

/* The options' table over the strings and flags that parse fills in. */
typedef struct given {
    const char *scene, *resolution, *mode, *backend, *size, *frames;
    bool no_sharing, no_overlay, no_panel;
} given;

enum { OPTION_COUNT = 17 };

static void table(given *g, viz_options *o, cmdline_option t[OPTION_COUNT])
{
    const cmdline_option options[OPTION_COUNT] = {
        CMDLINE_VALUE("--scene", "NAME",
                      "a built-in scene, as SCENE; a scene file is given without --scene",
                      &g->scene),
        CMDLINE_VALUE("--resolution", "N",
                      "give every cloth N x N particles, 2 .. 2048 (default: the scene's)",
                      &g->resolution),
        CMDLINE_VALUE("--mode", "MODE", "pbd, xpbd or mass-spring (default pbd)", &g->mode),
        CMDLINE_VALUE("--backend", "B", "auto, opencl or cpu (default auto)", &g->backend),
        CMDLINE_VALUE("--device", "SELECTOR",
                      "OpenCL device: an index or part of its name (default: first GPU)",
                      &o->device),
        CMDLINE_FLAG("--no-sharing", "never share buffers with OpenCL: always read back and upload",
                     &g->no_sharing),
        CMDLINE_VALUE("--size", "WxH", "window size (default 1280x720)", &g->size),
        CMDLINE_VALUE("--frames", "N", "stop after N frames", &g->frames),
        CMDLINE_FLAG("--every-frame",
                     "one step per frame (default: as many steps as real time needs)",
                     &o->every_frame),
        CMDLINE_VALUE("--screenshot", "FILE", "write a PNG of the last frame", &o->screenshot),
        CMDLINE_VALUE("--record", "DIR|FILE",
                      "write every frame: DIR/frame_000001.png, ... or a video (FILE.mp4,\n"
                      ".mkv, .mov, .webm; needs ffmpeg); with --every-frame for 60 fps",
                      &o->record),
        CMDLINE_VALUE("--keys", "KEYS", "press these keys before the first frame, e.g. \"CZ\"",
                      &o->keys),
        CMDLINE_FLAG("--paused", "start paused", &o->paused),
        CMDLINE_FLAG("--no-panel", "no parameter panel", &g->no_panel),
        CMDLINE_FLAG("--no-overlay", "no text, legend or panel over the picture", &g->no_overlay),
        CMDLINE_FLAG("--list-scenes", "print the built-in scenes' names, one a line",
                     &o->list_scenes),
        CMDLINE_FLAG("--version", "the version of drape", NULL),
    };
    memcpy(t, options, sizeof options);
}

void viz_options_usage(FILE *to)
{
    char names[256];
    given g = {0};
    viz_options o = {0};
    cmdline_option t[OPTION_COUNT];
    table(&g, &o, t);
    fprintf(to,
            "usage: drape-view [options] [SCENE]\n"
            "Shows a scene (a built-in name or a scene file, as `drape run` takes) in real time "
            "in an\n"
            "OpenGL window, drawn straight from the solver (OpenCL-OpenGL sharing where the device "
            "has\n"
            "it, else read back and uploaded), with a parameter panel. Without a display it "
            "re-runs\n"
            "itself under xvfb-run and writes a PNG of the last frame.\n"
            "  SCENE              built-in: %s (default %s); or a scene file\n",
            viz_sim_scene_names(names, sizeof names), VIZ_DEFAULT_SCENE);
    cmdline_print_options(to, t, OPTION_COUNT);
    fprintf(to, "Keys: Q/Esc quit, space pause, S step, R reset, C skeleton, Z stress colours,\n"
                "V PBD/XPBD/mass-spring, Y/U/I/O 64/128/256/512 cloths, P panel. Mouse: drag a "
                "body to\n"
                "pull it, drag elsewhere or with the right button to orbit, middle button to pan, "
                "wheel to\n"
                "zoom.\n");
}

static const char program[] = "drape-view";

/* The scene: at most one of --scene NAME (a built-in) and a positional SCENE (a name or a file). */
static bool take_scene(const given *g, const char *const *positional, int count, viz_options *o)
{
    if (count + (g->scene != NULL) > 1) {
        fprintf(stderr, "drape-view: two scenes given, '%s' and '%s'\n",
                g->scene ? g->scene : positional[0], positional[count - 1]);
        return false;
    }
    if (g->scene) {
        char names[256];
        if (!drape_scene_builtin_summary(g->scene)) {
            fprintf(stderr,
                    "drape-view: --scene: no built-in scene '%s' (there are: %s; a scene "
                    "file is given without --scene)\n",
                    g->scene, viz_sim_scene_names(names, sizeof names));
            return false;
        }
        o->scene = g->scene;
    } else if (count == 1) {
        o->scene = positional[0]; /* read before the display starts (main.c): exit 3 if bad */
    }
    return true;
}

bool viz_options_parse(int argc, char **argv, viz_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = VIZ_MODE_PBD;
    o->backend = DRAPE_BACKEND_AUTO;
    o->width = 1280;
    o->height = 720;
    given g = {0};
    cmdline_option t[OPTION_COUNT];
    table(&g, o, t);
    const char *positional[2] = {NULL, NULL};
    cmdline c = {.program = program,
                 .options = t,
                 .count = OPTION_COUNT - 1, /* --version: main's, alone on the line */
                 .positional = positional,
                 .max_positional = 2};
    if (cmdline_parse(&c, argc, argv) != CMDLINE_OK)
        return false;
    o->help = c.help;
    o->sharing = !g.no_sharing;
    o->overlay = !g.no_overlay;
    o->panel = !g.no_overlay && !g.no_panel;
    if (o->help)
        return true;
    if (!take_scene(&g, positional, c.positional_count, o))
        return false;
    if (o->record && !viz_record_check(o->record))
        return false;
    unsigned long n = 0;
    if (g.resolution) {
        if (!cmdline_ulong(program, "--resolution", g.resolution, 2, 2048, &n))
            return false;
        o->resolution = (uint32_t)n;
    }
    if (g.frames) {
        if (!cmdline_ulong(program, "--frames", g.frames, 1, 100000000, &n))
            return false;
        o->frames = (long)n;
    }
    static const char *const modes[] = {"pbd", "xpbd", "mass-spring"};
    static const viz_mode mode_of[] = {VIZ_MODE_PBD, VIZ_MODE_XPBD, VIZ_MODE_MASS_SPRING};
    static const char *const backends[] = {"auto", "opencl", "cpu"};
    static const drape_backend backend_of[] = {DRAPE_BACKEND_AUTO, DRAPE_BACKEND_OPENCL,
                                               DRAPE_BACKEND_CPU};
    size_t k = 0;
    if (g.mode) {
        if (!cmdline_choice(program, "--mode", g.mode, modes, 3, &k))
            return false;
        o->mode = mode_of[k];
    }
    if (g.backend) {
        if (!cmdline_choice(program, "--backend", g.backend, backends, 3, &k))
            return false;
        o->backend = backend_of[k];
    }
    if (g.size) {
        int w = 0, h = 0;
        char tail = 0;
        if (sscanf(g.size, "%dx%d%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 16384 ||
            h > 16384) {
            fprintf(stderr, "drape-view: --size is WIDTHxHEIGHT, 16 .. 16384 each, not '%s'\n",
                    g.size);
            return false;
        }
        o->width = w;
        o->height = h;
    }
    return true;
}

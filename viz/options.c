/* drape-view's command line (options.h). */
#include "options.h"

#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void viz_options_usage(FILE *to)
{
    char names[256];
    fprintf(
        to,
        "usage: drape-view [options] [SCENE]\n"
        "Shows a scene (a built-in name or a scene file, as `drape run` takes) in real time in an\n"
        "OpenGL window, drawn straight from the solver (OpenCL-OpenGL sharing where the device "
        "has\n"
        "it, else read back and uploaded), with a parameter panel. Without a display it re-runs\n"
        "itself under xvfb-run and writes a PNG of the last frame.\n"
        "  SCENE, --scene NAME built-in: %s (default %s); or a scene file\n"
        "  --resolution N      give every cloth N x N particles, 2 .. 2048 (default: the scene's)\n"
        "  --mode MODE         pbd, xpbd or mass-spring (default pbd)\n"
        "  --backend B         auto, opencl or cpu (default auto)\n"
        "  --device SELECTOR   OpenCL device: an index or part of its name (default: first GPU)\n"
        "  --no-sharing        never share buffers with OpenCL: always read back and upload\n"
        "  --size WxH          window size (default 1280x720)\n"
        "  --frames N          stop after N frames\n"
        "  --every-frame       one step per frame (default: as many steps as real time needs)\n"
        "  --screenshot FILE   write a PNG of the last frame\n"
        "  --record DIR|FILE   write every frame: DIR/frame_000001.png, ... or a video (FILE.mp4,\n"
        "                      .mkv, .mov, .webm; needs ffmpeg); with --every-frame for 60 fps\n"
        "  --keys KEYS         press these keys before the first frame, e.g. \"CZ\"\n"
        "  --paused            start paused\n"
        "  --no-panel          no parameter panel\n"
        "  --no-overlay        no text, legend or panel over the picture\n"
        "  --list-scenes       print the built-in scenes' names, one a line\n"
        "Keys: Q/Esc quit, space pause, S step, R reset, C skeleton, Z stress colours,\n"
        "V PBD/XPBD/mass-spring, Y/U/I/O 64/128/256/512 cloths, P panel. Mouse: drag a body to\n"
        "pull it, drag elsewhere or with the right button to orbit, middle button to pan, wheel "
        "to\n"
        "zoom.\n",
        viz_sim_scene_names(names, sizeof names), VIZ_DEFAULT_SCENE);
}

static bool parse_long(const char *flag, const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end || errno || v < min || v > max) {
        fprintf(stderr, "drape-view: %s needs a whole number in %ld .. %ld, got '%s'\n", flag, min,
                max, text ? text : "(nothing)");
        return false;
    }
    *out = v;
    return true;
}

bool viz_options_parse(int argc, char **argv, viz_options *o)
{
    memset(o, 0, sizeof *o);
    o->resolution = 0;
    o->panel = true;
    o->mode = VIZ_MODE_PBD;
    o->backend = DRAPE_BACKEND_AUTO;
    o->sharing = true;
    o->overlay = true;
    o->width = 1280;
    o->height = 720;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        long n = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = true;
            continue;
        } else if (!strcmp(a, "--list-scenes")) {
            o->list_scenes = true;
            continue;
        } else if (!strcmp(a, "--no-sharing")) {
            o->sharing = false;
            continue;
        } else if (!strcmp(a, "--paused")) {
            o->paused = true;
            continue;
        } else if (!strcmp(a, "--no-overlay")) {
            o->overlay = false;
            o->panel = false;
            continue;
        } else if (!strcmp(a, "--no-panel")) {
            o->panel = false;
            continue;
        } else if (!strcmp(a, "--every-frame")) {
            o->every_frame = true;
            continue;
        } else if (a[0] != '-') { /* the scene: a built-in name or a file */
            if (o->scene) {
                fprintf(stderr, "drape-view: two scenes given, '%s' and '%s'\n", o->scene, a);
                return false;
            }
            if (!viz_sim_check_scene(a))
                return false;
            o->scene = a;
            continue;
        }
        /* the rest take a value */
        static const char *const with_value[] = {
            "--scene", "--resolution", "--mode",       "--backend", "--device",
            "--size",  "--frames",     "--screenshot", "--keys",    "--record"};
        bool known = false;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; ++k)
            known = known || !strcmp(a, with_value[k]);
        if (!known) {
            fprintf(stderr, "drape-view: unknown argument '%s' (try --help)\n", a);
            return false;
        }
        if (!value) {
            fprintf(stderr, "drape-view: %s needs a value (try --help)\n", a);
            return false;
        }
        ++i;
        if (!strcmp(a, "--scene")) {
            char names[256];
            if (!drape_scene_builtin_summary(value)) {
                fprintf(stderr,
                        "drape-view: --scene: no built-in scene '%s' (there are: %s; a scene "
                        "file is given without --scene)\n",
                        value, viz_sim_scene_names(names, sizeof names));
                return false;
            }
            if (o->scene) {
                fprintf(stderr, "drape-view: two scenes given, '%s' and '%s'\n", o->scene, value);
                return false;
            }
            o->scene = value;
        } else if (!strcmp(a, "--record")) {
            if (!viz_record_check(value))
                return false;
            o->record = value;
        } else if (!strcmp(a, "--resolution")) {
            if (!parse_long(a, value, 2, 2048, &n))
                return false;
            o->resolution = (uint32_t)n;
        } else if (!strcmp(a, "--mode")) {
            if (!strcmp(value, "pbd"))
                o->mode = VIZ_MODE_PBD;
            else if (!strcmp(value, "xpbd"))
                o->mode = VIZ_MODE_XPBD;
            else if (!strcmp(value, "mass-spring"))
                o->mode = VIZ_MODE_MASS_SPRING;
            else {
                fprintf(stderr, "drape-view: --mode is pbd, xpbd or mass-spring, not '%s'\n",
                        value);
                return false;
            }
        } else if (!strcmp(a, "--backend")) {
            if (!strcmp(value, "auto"))
                o->backend = DRAPE_BACKEND_AUTO;
            else if (!strcmp(value, "opencl"))
                o->backend = DRAPE_BACKEND_OPENCL;
            else if (!strcmp(value, "cpu"))
                o->backend = DRAPE_BACKEND_CPU;
            else {
                fprintf(stderr, "drape-view: --backend is auto, opencl or cpu, not '%s'\n", value);
                return false;
            }
        } else if (!strcmp(a, "--device")) {
            o->device = value;
        } else if (!strcmp(a, "--size")) {
            int w = 0, h = 0;
            char tail = 0;
            if (sscanf(value, "%dx%d%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 16384 ||
                h > 16384) {
                fprintf(stderr, "drape-view: --size is WIDTHxHEIGHT, 16 .. 16384 each, not '%s'\n",
                        value);
                return false;
            }
            o->width = w;
            o->height = h;
        } else if (!strcmp(a, "--frames")) {
            if (!parse_long(a, value, 1, 100000000, &n))
                return false;
            o->frames = n;
        } else if (!strcmp(a, "--screenshot")) {
            o->screenshot = value;
        } else { /* --keys */
            o->keys = value;
        }
    }
    return true;
}

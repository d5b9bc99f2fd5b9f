/* drape-view's command line (options.h). */
#include "options.h"

#include "scenes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void viz_options_usage(FILE *to)
{
    fprintf(to,
            "usage: drape-view [options]\n"
            "Shows a cloth falling onto colliders in an OpenGL window, drawn straight from the solver\n"
            "(OpenCL-OpenGL sharing where the device has it, else read back and uploaded). Without a\n"
            "display it re-runs itself under xvfb-run and writes a PNG of the last frame.\n"
            "  --scene NAME        %s (default cloth-sphere)\n"
            "  --resolution N      particles along each cloth edge, 2 .. 2048 (default %d)\n"
            "  --mode MODE         pbd, xpbd or mass-spring (default pbd)\n"
            "  --backend B         auto, opencl or cpu (default auto)\n"
            "  --device SELECTOR   OpenCL device: an index or part of its name (default: first GPU)\n"
            "  --no-sharing        never share buffers with OpenCL: always read back and upload\n"
            "  --size WxH          window size (default 1280x720)\n"
            "  --frames N          stop after N frames (one step per frame)\n"
            "  --screenshot FILE   write a PNG of the last frame\n"
            "  --keys KEYS         press these keys before the first frame, e.g. \"CZ\"\n"
            "  --paused            start paused\n"
            "  --no-overlay        no text or legend over the picture\n"
            "Keys: Q/Esc quit, space pause, S step, R reset, C skeleton, Z stress colours,\n"
            "V PBD/XPBD/mass-spring, Y/U/I/O 64/128/256/512 cloth. Mouse: drag the cloth to pull it,\n"
            "drag elsewhere or with the right button to orbit, middle button to pan, wheel to zoom.\n",
            viz_scene_names(), VIZ_DEFAULT_RESOLUTION);
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
    o->resolution = VIZ_DEFAULT_RESOLUTION;
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
        } else if (!strcmp(a, "--no-sharing")) {
            o->sharing = false;
            continue;
        } else if (!strcmp(a, "--paused")) {
            o->paused = true;
            continue;
        } else if (!strcmp(a, "--no-overlay")) {
            o->overlay = false;
            continue;
        }
        /* the rest take a value */
        static const char *const with_value[] = {"--scene", "--resolution", "--mode", "--backend",
                                                 "--device", "--size", "--frames", "--screenshot",
                                                 "--keys"};
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
            viz_scene probe;
            if (!viz_scene_describe(value, 2, &probe)) {
                fprintf(stderr, "drape-view: no scene '%s' (there are: %s)\n", value,
                        viz_scene_names());
                return false;
            }
            o->scene = value;
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
                fprintf(stderr, "drape-view: --mode is pbd, xpbd or mass-spring, not '%s'\n", value);
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

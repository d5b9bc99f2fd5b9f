/* Helpers the scene tests share: paths of the shipped scenes and the test data (from the build's
 * compile definitions), message checks, CPU options, OpenCL detection and scratch directories.
 */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "scene_test.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>

const char *st_scene_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", DRAPE_SCENES_DIR, name);
    return buf;
}

const char *st_data_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", DRAPE_TEST_DATA_DIR, name);
    return buf;
}

int st_has_all(const char *msg, ...)
{
    va_list ap;
    va_start(ap, msg);
    int ok = 1;
    for (const char *piece = va_arg(ap, const char *); piece; piece = va_arg(ap, const char *))
        if (!strstr(msg, piece)) {
            fprintf(stderr, "  message \"%s\"\n  lacks \"%s\"\n", msg, piece);
            ok = 0;
        }
    va_end(ap);
    return ok;
}

static void quiet(drape_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

drape_scene_options st_cpu_options(void)
{
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = DRAPE_BACKEND_CPU;
    return o;
}

drape_scene *st_load_cpu(const char *json, size_t size, const char *name)
{
    drape_scene_options o = st_cpu_options();
    drape_scene *s = NULL;
    drape_scene_error e;
    ENSURE_MSG(drape_scene_load_buffer(json, size, name, &o, &s, &e) == DRAPE_SCENE_OK, "%s: %s",
               name, e.message);
    return s;
}

double st_energy(const drape_vec3 *x, const drape_vec3 *v, uint32_t n)
{
    double e = 0.0;
    for (uint32_t i = 0; i < n; ++i)
        e += 0.5 * (v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z) + 9.81 * x[i].y;
    return e / n;
}

int st_have_opencl(void)
{
    uint32_t n = 0;
    return drape_list_devices(NULL, 0, &n, quiet, NULL) == DRAPE_OK && n > 0;
}

const char *st_scratch_dir(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", DRAPE_TEST_SCRATCH_DIR, name);
    mkdir(DRAPE_TEST_SCRATCH_DIR, 0777);
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return NULL;
    return buf;
}

/* libFuzzer target: the scene parser from a memory buffer (drape_scene_load_buffer), on the CPU
 * backend, with mesh files turned off and a particle budget so that one input stays cheap. Every
 * input must either load (then its statistics are taken, which colours the constraints) or fail
 * with a message that names the input; anything else, a crash or a sanitizer report is a bug.
 */
#include <drape/scene.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = DRAPE_BACKEND_CPU;
    o.log = NULL;
    o.max_particles = 4096;
    o.no_files = true;
    drape_scene *s = NULL;
    drape_scene_error e;
    if (drape_scene_load_buffer((const char *)data, size, "fuzz.json", &o, &s, &e) ==
        DRAPE_SCENE_OK) {
        drape_scene_info info;
        if (!s || drape_scene_get_info(s, &info) != DRAPE_OK)
            abort();
        drape_scene_destroy(s);
    } else if (s != NULL || strncmp(e.message, "fuzz.json", 9) != 0) {
        abort();
    }
    return 0;
}

/* Reading a world's particles back for output and statistics: positions, velocities and masses of
 * every particle at once, into arrays the caller frees; and the check every writer makes before it
 * writes, so that no output ever holds a non-finite number ("nan" in a CSV or an OBJ).
 */
#include "scene_internal.h"

#include <math.h>
#include <stdlib.h>

drape_result sc_read_state(const drape_world *w, uint32_t *count, drape_vec3 **x, drape_vec3 **v,
                           float **m)
{
    const uint32_t n = drape_world_particle_count(w);
    const size_t slots = n ? n : 1;
    *count = n;
    if (x)
        *x = malloc(slots * sizeof **x);
    if (v)
        *v = malloc(slots * sizeof **v);
    if (m)
        *m = malloc(slots * sizeof **m);
    drape_result r = DRAPE_OK;
    if ((x && !*x) || (v && !*v) || (m && !*m))
        r = DRAPE_ERROR_OUT_OF_MEMORY;
    if (r == DRAPE_OK && n && x)
        r = drape_world_get_positions(w, 0, n, *x);
    if (r == DRAPE_OK && n && v)
        r = drape_world_get_velocities(w, 0, n, *v);
    if (r == DRAPE_OK && n && m)
        r = drape_world_get_masses(w, 0, n, *m);
    if (r != DRAPE_OK) {
        if (x)
            free(*x), *x = NULL;
        if (v)
            free(*v), *v = NULL;
        if (m)
            free(*m), *m = NULL;
    }
    return r;
}

drape_scene_status sc_check_finite(const drape_vec3 *values, uint32_t count, const char *what,
                                   const char *path, drape_scene_error *err)
{
    for (uint32_t i = 0; i < count; ++i) {
        const drape_vec3 c = values[i];
        if (!isfinite(c.x) || !isfinite(c.y) || !isfinite(c.z))
            return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_NON_FINITE,
                           "%s: not written: particle %u's %s is not finite (%g, %g, %g)", path, i,
                           what, (double)c.x, (double)c.y, (double)c.z);
    }
    return DRAPE_SCENE_OK;
}

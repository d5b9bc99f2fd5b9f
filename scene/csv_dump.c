/* The CSV dump of a scene's state: a header line, then one row per particle with its index,
 * position (m), velocity (m/s) and mass (kg, 0 = pinned), printed with 9 significant digits so that
 * every float reads back to the same bits. The file is replaced atomically (drape_output_open), and
 * a state with a non-finite number is refused rather than written as "nan".
 */
#include "scene_internal.h"

#include <stdlib.h>

drape_scene_status drape_scene_dump_csv(const drape_scene *s, const char *path,
                                        drape_scene_error *err)
{
    if (!s || !s->world || !path)
        return sc_fail(err, DRAPE_SCENE_OUTPUT_FAILED, DRAPE_OK, "dump: no scene or file");
    uint32_t n;
    drape_vec3 *x, *v;
    float *m;
    drape_result r = sc_read_state(s->world, &n, &x, &v, &m);
    if (r != DRAPE_OK)
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, r, "%s: cannot read the particles back: %s",
                       path, drape_result_string(r));
    drape_scene_status status = drape_scene_check_output(s, path, err);
    if (status == DRAPE_SCENE_OK)
        status = sc_check_finite(x, n, "position", path, err);
    if (status == DRAPE_SCENE_OK)
        status = sc_check_finite(v, n, "velocity", path, err);
    drape_output out;
    if (status == DRAPE_SCENE_OK)
        status = drape_output_open(&out, path, err);
    if (status == DRAPE_SCENE_OK) {
        FILE *f = out.file;
        fprintf(f, "index,x,y,z,vx,vy,vz,mass\n");
        for (uint32_t i = 0; i < n; ++i)
            fprintf(f, "%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, (double)x[i].x, (double)x[i].y,
                    (double)x[i].z, (double)v[i].x, (double)v[i].y, (double)v[i].z, (double)m[i]);
        status = drape_output_commit(&out, err);
    }
    free(x);
    free(v);
    free(m);
    return status;
}

/* What `drape run` reports about the state as it goes: the mean and lowest height of the particles
 * (read back), and the kinetic energy and the distance residual, which the world computes where the
 * state lives (CLBlast reductions on the OpenCL backend). A state that is not finite is an error,
 * never a line with "nan" in it.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>

drape_result cli_summarise(drape_world *w, cli_state_summary *out)
{
    const uint32_t n = drape_world_particle_count(w);
    drape_diagnostics d;
    drape_result r = drape_world_get_diagnostics(w, &d);
    if (r != DRAPE_OK)
        return r;
    if (!isfinite(d.kinetic_energy) || !isfinite(d.distance_residual))
        return DRAPE_ERROR_NON_FINITE;
    out->kinetic_energy = d.kinetic_energy;
    out->distance_residual = d.distance_residual;
    out->mean_height = 0.0;
    out->lowest = n ? INFINITY : 0.0;
    if (n == 0)
        return DRAPE_OK;
    drape_vec3 *x = malloc(n * sizeof *x);
    if (!x)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    r = drape_world_get_positions(w, 0, n, x);
    for (uint32_t i = 0; i < n && r == DRAPE_OK; ++i) {
        /* fmin would skip a NaN and print a lowest height beside a mean of nan. */
        if (!isfinite(x[i].x) || !isfinite(x[i].y) || !isfinite(x[i].z))
            r = DRAPE_ERROR_NON_FINITE;
        out->mean_height += x[i].y / (double)n;
        out->lowest = fmin(out->lowest, x[i].y);
    }
    free(x);
    return r;
}

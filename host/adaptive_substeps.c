/* How many substeps a step takes. def.substeps, unless particles with contacts move fast: the
 * velocity limit (particle_travel_limit, docs/particle-contacts.md) keeps each such particle within
 * a few radii per substep so that no two pass through each other between two grid builds, and a
 * limit alone would cap a falling ball at travel x radius / h (0.6 m/s for a 1 cm ball at one
 * substep of 1/60 s). Rather than slow it, the step is split into as many substeps as its fastest
 * particle needs, up to particle_max_substeps: the fix that small steps are for fast motion
 * (Macklin et al. 2019, "Small steps in physics simulation"), taken only in the steps that need it.
 * Past that the limit slows the particle, and the world's log says so once.
 *
 * The measure comes from the velocities at the step's start: on the CPU from the host's, on the
 * OpenCL backend from the device's particle_speed after the step before (or the host's when they
 * were just uploaded), the same float on both, so that the two keep stepping bitwise alike.
 */
#include "world_internal.h"

#include <math.h>
#include <string.h>

bool dr_substeps_vary(const drape_world *w)
{
    return w->plan.enabled && w->def.mode == DRAPE_MODE_PBD &&
           w->def.particle_travel_limit > 0.0f && w->def.particle_max_substeps > w->def.substeps;
}

float dr_gravity_over_step(const drape_world *w)
{
    return dr_len3(dr_vec4_from(w->def.gravity, 0.0f)) * w->def.dt;
}

float dr_split_travel(const drape_world *w)
{
    const float r = w->plan.mass_ratio, e = w->def.particle_restitution;
    const float boost = (r - 1.0f + 2.0f * e * r) / (r + 1.0f);
    return boost > 1.0f ? w->def.particle_travel_limit / boost : w->def.particle_travel_limit;
}

uint32_t dr_particle_speed_bits(const drape_world *w)
{
    const float dt = w->def.dt, travel = dr_split_travel(w), g_dt = dr_gravity_over_step(w);
    uint32_t most = 0;
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        const float q = dr_substeps_needed(w->v[i], w->shape[i].w, g_dt, dt, travel);
        uint32_t bits;
        memcpy(&bits, &q, sizeof bits);
        if (q > 0.0f && bits > most) /* as the device's atomic_max; NaN is left out on both */
            most = bits;
    }
    return most;
}

int dr_step_substeps(drape_world *w, uint32_t speed_bits)
{
    const int base = w->def.substeps;
    /* no substep shorter than the solver takes: a dt near it splits no further */
    const double fit = floor((double)w->def.dt / (double)DR_MIN_SUBSTEP);
    int most = w->def.particle_max_substeps;
    most = fit < (double)most ? (int)fit : most;
    most = most > base ? most : base;
    int substeps = base;
    if (dr_substeps_vary(w)) {
        float q;
        memcpy(&q, &speed_bits, sizeof q);
        if (!(q <= (float)most)) {
            substeps = most;
            if (q > (float)most && !w->travel_warned) { /* not for NaN */
                w->travel_warned = true;
                dr_log(
                    &w->def, DRAPE_LOG_WARNING,
                    "drape_world_step: a particle with a radius needs %.0f substeps to keep to "
                    "particle_travel_limit = %g (radii per substep), more than the %d a step may "
                    "take (particle_max_substeps); the limit slows it, whether or not another "
                    "particle is near. Raise particle_max_substeps or particle_travel_limit, or "
                    "set particle_travel_limit to 0 (no limit). Said once per world",
                    ceil((double)q), (double)w->def.particle_travel_limit, most);
            }
        } else if (ceilf(q) > (float)base)
            substeps = (int)ceilf(q);
    }
    w->substep = w->def.dt / (float)substeps;
    return substeps;
}

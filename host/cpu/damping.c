/* Momentum-preserving damping on the CPU (Müller et al., "Position Based Dynamics", 2007, section
 * 3.5, dampVelocities).
 *
 * The movable particles are treated as one body: its centre of mass, velocity and angular velocity
 * give the rigid motion v_cm + omega x r, and each particle's deviation from it is reduced by the
 * fraction k. The changes sum to zero linear and angular momentum, so only the deformation loses
 * energy. The per-particle moments and the rigid motion are the shared header's (the OpenCL backend
 * sums the same rows with CLBlast); the sums and the rigid motion run in double.
 */
#include "world_internal.h"

void dr_damp_velocities(drape_world *w, float k)
{
    double sums[DR_DAMP_ROW] = {0};
    const unsigned first = dr_damp_origin(w->x, w->particle_count);
    if (first == DR_NO_ORIGIN)
        return;
    const dr_vec4 origin = w->x[first];
    for (uint32_t i = first; i < w->particle_count; ++i) {
        if (w->x[i].w <= 0.0f)
            continue;
        float row[DR_DAMP_ROW];
        dr_damp_moments(w->x[i], w->v[i], origin, row);
        for (int c = 0; c < DR_DAMP_ROW; ++c)
            sums[c] += row[c];
    }
    dr_vec4 rigid[3];
    dr_rigid_motion(sums, origin, rigid);
    for (uint32_t i = 0; i < w->particle_count; ++i)
        w->v[i] = dr_damp_velocity(w->v[i], w->x[i], rigid[0], rigid[1], rigid[2], k);
}

/* Momentum-preserving damping on the CPU (Müller et al., "Position Based Dynamics", 2007, section
 * 3.5, dampVelocities).
 *
 * Each body (host/bodies.c: the movable particles that constraints join) is damped on its own: its
 * centre of mass, velocity and angular velocity give the rigid motion v_cm + omega x r, and each of
 * its particles' deviation from it is reduced by the fraction k. The changes sum to zero linear and
 * angular momentum per body, so only deformation loses energy, and separate objects do not pull on
 * each other. The per-particle moments and the rigid motion are the shared header's (the OpenCL
 * backend sums the same rows on the device); the sums and the rigid motion run in double.
 */
#include "world_internal.h"

void dr_damp_velocities(drape_world *w, float k)
{
    const dr_bodies *b = &w->bodies;
    for (uint32_t body = 0; body < b->count; ++body) {
        const uint32_t *member = &b->order[b->first[body]];
        const uint32_t count = b->first[body + 1] - b->first[body];
        const dr_vec4 origin = w->x[member[0]]; /* the body's first particle */
        double sums[DR_DAMP_ROW] = {0};
        for (uint32_t m = 0; m < count; ++m) {
            float row[DR_DAMP_ROW];
            dr_damp_moments(w->x[member[m]], w->v[member[m]], origin, row);
            for (int c = 0; c < DR_DAMP_ROW; ++c)
                sums[c] += row[c];
        }
        dr_vec4 rigid[3];
        dr_rigid_motion(sums, origin, rigid);
        for (uint32_t m = 0; m < count; ++m) {
            const uint32_t i = member[m];
            w->v[i] = dr_damp_velocity(w->v[i], w->x[i], rigid[0], rigid[1], rigid[2], k);
        }
    }
}

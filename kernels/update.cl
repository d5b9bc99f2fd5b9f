/* The state update: v = d / h, x = x + d, then restitution for particles in contact
 * (dr_update_particle in kernels/drape_shared.h), and the non-finite check: the lowest index of a
 * particle whose state turned non-finite, per phase (dr_nonfinite_phase), by atomic minimum into
 * `nonfinite`. One work-item per particle. With `contact_pass`, the particle's last contact pass
 * first (project.cl's project_contacts, dr_project_contacts), when nothing runs between that pass
 * and the update (host/opencl/opencl_step.c): one launch instead of two, the same maths. */
#include "drape_shared.h"

__kernel void update_state(__global float4 *x, __global float4 *v, __global float4 *d,
                           __global const dr_contact *contacts,
                           __global const dr_collider *colliders, float h, float threshold,
                           int keep_free_velocity, __global uint *nonfinite, uint n,
                           int contact_pass, uint collider_count, float t, float margin,
                           __global const float *inflate)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 di = d[i], vi = v[i];
    if (contact_pass) {
        float4 dn = dr_project_contacts(di, x[i], contacts[i], colliders, collider_count, t, h,
                                        margin + inflate[i]);
        if (any(dn != di)) { /* as project_contacts: d is written only where the pass moved it */
            d[i] = dn;
            di = dn;
        }
    }
    float4 v1 =
        dr_update_particle(di, vi, contacts[i], colliders, h, threshold, keep_free_velocity);
    float4 x1 = dr_add3(x[i], di);
    v[i] = v1;
    x[i] = x1;
    int phase = dr_nonfinite_phase(vi, di, v1, x1);
    if (phase >= 0)
        atomic_min(&nonfinite[phase], i);
}

/* The state update: v = d / h, x = x + d, then restitution for particles in contact
 * (dr_update_particle in kernels/drape_shared.h), and the non-finite check: the lowest index of a
 * particle whose state turned non-finite, per phase (dr_nonfinite_phase), by atomic minimum into
 * `nonfinite`. With `contact_pass`, the particle's last contact pass first (project.cl's
 * project_contacts, dr_project_contacts), when nothing runs between that pass and the update
 * (host/opencl/opencl_step.c): one launch instead of two, the same maths.
 *
 * update_state takes one particle per work-item, for GPUs; update_state_x16 sixteen consecutive
 * ones in float16 lanes, for CPU devices, whose compilers do not vectorise update_state across
 * work-items (its float4 loads and stores and its branches stop LLVM's loop vectoriser): the host
 * launches it with the lanes variant. Bitwise the same results. */
#include "drape_shared.h"

#define DR_UPDATE_ARGS                                                                             \
    __global float4 *x, __global float4 *v, __global float4 *d,                                    \
        __global const dr_contact *contacts, __global const dr_collider *colliders, float h,       \
        float threshold, float4 g, int keep_free_velocity, __global uint *nonfinite, uint n,       \
        int contact_pass, uint collider_count, float t, float margin,                              \
        __global const float *inflate, __global const float4 *held

/* Particle i's update; its non-finite check from its state before (v, d) and after (v1, x1). */
inline void dr_update_one(DR_UPDATE_ARGS, uint i)
{
    float4 di = d[i], vi = v[i];
    if (contact_pass) {
        float4 hold = held[i]; /* the last pass: not stored after */
        float4 dn = dr_project_contacts(di, x[i], contacts[i], colliders, collider_count, t, h,
                                        margin + inflate[i], &hold);
        if (any(dn != di)) { /* as project_contacts: d is written only where the pass moved it */
            d[i] = dn;
            di = dn;
        }
    }
    float4 xi = x[i];
    float4 v1 = dr_update_particle(&di, vi, xi, contacts[i], colliders, collider_count, h,
                                   threshold, g, keep_free_velocity);
    float4 x1 = dr_add3(xi, di);
    v[i] = v1;
    x[i] = x1;
    int phase = dr_nonfinite_phase(vi, di, v1, x1);
    if (phase >= 0)
        atomic_min(&nonfinite[phase], i);
}

__kernel void update_state(DR_UPDATE_ARGS)
{
    uint i = get_global_id(0);
    if (i < n)
        dr_update_one(x, v, d, contacts, colliders, h, threshold, g, keep_free_velocity, nonfinite,
                      n, contact_pass, collider_count, t, margin, inflate, held, i);
}

/* Sixteen consecutive particles i .. i + 15 per work-item (DR_P16_LOAD, DR_P16_STORE of
 * kernels/drape_shared.h), launched over ceil(n / 16) work-items; the last, partial one goes one by
 * one. The non-finite check: where the sum of all sixteen states is not finite (a sum of finite
 * floats can overflow, never the other way round), the particles are checked one by one. */
__kernel void update_state_x16(DR_UPDATE_ARGS)
{
    DR_X16_BLOCK(i, n,
                 dr_update_one(x, v, d, contacts, colliders, h, threshold, g, keep_free_velocity,
                               nonfinite, n, contact_pass, collider_count, t, margin, inflate, held,
                               i));
    float16 dx, dy, dz, dw, vx, vy, vz, vw, xx, xy, xz, xw, qx, qy, qz, qw, nx, ny, nz, nw;
    DR_P16_LOAD((__global const float *)(d + i), dx, dy, dz, dw);
    DR_P16_LOAD((__global const float *)(v + i), vx, vy, vz, vw);
    DR_P16_LOAD((__global const float *)(x + i), xx, xy, xz, xw);
    DR_P16_CONTACTS(contacts, i, qx, qy, qz, qw, nx, ny, nz, nw);
    if (contact_pass) {
        float16 ex = dx, ey = dy, ez = dz, push, sx, sy, sz;
        DR_P16_LOAD((__global const float *)(held + i), push, sx, sy, sz);
        dr_project_contacts_l16(&ex, &ey, &ez, dw, xx, xy, xz, qx, qy, qz, qw, nx, ny, nz, nw,
                                colliders, collider_count, t, h, margin + vload16(0, inflate + i),
                                &push, &sx, &sy, &sz);
        if (any((ex != dx) | (ey != dy) | (ez != dz))) {
            DR_P16_STORE((__global float *)(d + i), ex, ey, ez, dw);
            dx = ex, dy = ey, dz = ez;
        }
    }
    float16 ux = vx, uy = vy, uz = vz;
    dr_update_particle_l16(&dx, &dy, &dz, &ux, &uy, &uz, xx, xy, xz, qx, qy, qz, qw, nx, ny, nz, nw,
                           colliders, collider_count, h, threshold, g, keep_free_velocity);
    float16 px = xx + dx, py = xy + dy, pz = xz + dz;
    DR_P16_STORE((__global float *)(v + i), ux, uy, uz, vw);
    DR_P16_STORE((__global float *)(x + i), px, py, pz, xw);
    float16 sum = vx + vy + vz + dx + dy + dz + ux + uy + uz + px + py + pz;
    if (all(sum - sum == 0.0f))
        return;
    float v0[64], d0[64], v1[64], x1[64];
    DR_P16_STORE(v0, vx, vy, vz, vw);
    DR_P16_STORE(d0, dx, dy, dz, dw);
    DR_P16_STORE(v1, ux, uy, uz, vw);
    DR_P16_STORE(x1, px, py, pz, xw);
    for (uint k = 0; k < 16; ++k) {
        int phase = dr_nonfinite_phase(vload4(k, v0), vload4(k, d0), vload4(k, v1), vload4(k, x1));
        if (phase >= 0)
            atomic_min(&nonfinite[phase], i + k);
    }
}

/* Prediction: external forces, then (after the damping pass) the predicted displacements d = h v.
 * One work-item per particle. The maths is kernels/drape_shared.h's, the same the CPU runs.
 * predict_displacement also takes the work of the launches around it where nothing runs between
 * them (host/opencl/opencl_step.c): the external forces first when there is no aerodynamics or
 * damping pass, and collision generation after (collide.cl's generate_contacts) when there is no
 * grid of particle contacts; each particle's maths and order are unchanged, one launch does the
 * work of three. predict_displacement_x16 is the same for CPU devices, sixteen particles per
 * work-item in float16 lanes (the lanes variant of docs/opencl-variants.md), and
 * generate_contacts_x16 collide.cl's kernel in the same lanes, for when the grid runs between. */
#include "drape_shared.h"

__kernel void predict_velocity(__global float4 *v, __global const float4 *x, float4 gravity,
                               float4 wind, float drag, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_apply_external(v[i], x[i].w, gravity, wind, drag, h);
}

#define DR_PREDICT_ARGS                                                                            \
    __global float4 *d, __global const float4 *x, __global float4 *v, float h, uint n,             \
        int external, float4 gravity, float4 wind, float drag, int collide,                        \
        __global dr_contact *contacts, __global const dr_collider *colliders, uint collider_count, \
        float t, float margin, __global const float *inflate, __global float4 *held

inline void dr_predict_one(DR_PREDICT_ARGS, uint i)
{
    float4 xi = x[i], vi = v[i];
    if (external) {
        vi = dr_apply_external(vi, xi.w, gravity, wind, drag, h);
        v[i] = vi;
    }
    float4 di = dr_predict_displacement(xi, vi, h);
    d[i] = di;
    if (collide) {
        contacts[i] =
            dr_generate_contact(xi, di, vi, colliders, collider_count, t, h, margin + inflate[i]);
        held[i] = (float4)(0.0f); /* nothing pushed yet this substep (dr_project_contacts) */
    }
}

__kernel void predict_displacement(DR_PREDICT_ARGS)
{
    uint i = get_global_id(0);
    if (i < n)
        dr_predict_one(d, x, v, h, n, external, gravity, wind, drag, collide, contacts, colliders,
                       collider_count, t, margin, inflate, held, i);
}

/* Where the segments a -> b of sixteen particles (collider frame) that start outside collider c
 * inflated by the lanes' margins first enter it, as dr_collider_entry: a plane from the signed
 * distances da, db of a and b (dr_collider_entry's d0, d1), a sphere by dr_sphere_entry_l16, a
 * capsule lane by lane. */
inline float16 dr_collider_entry16(__global const dr_collider *c, float16 ax, float16 ay,
                                   float16 az, float16 bx, float16 by, float16 bz, float16 margin,
                                   float16 da, float16 db)
{
    int kind = (int)c->a.w;
    if (kind == DR_COLLIDER_PLANE)
        return (db < 0.0f) & (da >= 0.0f) ? da / (da - db) : (float16)(2.0f);
    float16 R = c->b.w + margin;
    if (kind != DR_COLLIDER_CAPSULE)
        return dr_sphere_entry_l16(ax - c->a.x, ay - c->a.y, az - c->a.z, bx - ax, by - ay, bz - az,
                                   R);
    float a[48], b[48], r[16], s[16];
    vstore16(ax, 0, a), vstore16(ay, 1, a), vstore16(az, 2, a), vstore16(R, 0, r);
    vstore16(bx, 0, b), vstore16(by, 1, b), vstore16(bz, 2, b);
    for (int k = 0; k < 16; ++k) {
        float4 q0 = (float4)(a[k], a[16 + k], a[32 + k], 0.0f);
        float4 q1 = (float4)(b[k], b[16 + k], b[32 + k], 0.0f);
        s[k] = dr_capsule_entry(q0, dr_sub3(q1, q0), c->a, c->b, r[k]);
    }
    return vload16(0, s);
}

/* dr_generate_contact of sixteen particles x (xx, xy, xz, xw) with predicted displacement d and
 * velocity v, in lanes: the same operations per collider, the branches as masks (each lane's first
 * hit so far in `first`), so each lane is bitwise the scalar contact q, n. */
inline void dr_generate_contact16(float16 xx, float16 xy, float16 xz, float16 xw, float16 dx,
                                  float16 dy, float16 dz, float16 vx, float16 vy, float16 vz,
                                  __global const dr_collider *colliders, uint count, float t,
                                  float h, float16 margin, float16 *q, float16 *nv)
{
    const float16 zero = (float16)(0.0f);
    float16 px = xx + dx, py = xy + dy, pz = xz + dz;
    int16 movable = !(xw <= 0.0f);
    float16 first = (float16)(2.0f), clearance = (float16)(1e30f);
    q[0] = q[1] = q[2] = zero, q[3] = (float16)(-1.0f);
    nv[0] = nv[1] = nv[2] = nv[3] = zero;
    for (uint i = 0; i < count; ++i) {
        __global const dr_collider *c = &colliders[i];
        float4 off0 = dr_collider_offset(c, t), off1 = dr_collider_offset(c, t + h);
        float16 ax = xx - off0.x, ay = xy - off0.y, az = xz - off0.z;
        float16 bx = px - off1.x, by = py - off1.y, bz = pz - off1.z;
        float16 nx, ny, nz, mx, my, mz;
        float16 da = dr_collider_sdf_l16(c, ax, ay, az, &nx, &ny, &nz) - margin;
        float16 db = dr_collider_sdf_l16(c, bx, by, bz, &mx, &my, &mz) - margin;
        clearance = fmin(clearance, db);
        int16 inside = da < 0.0f;
        float16 s = dr_collider_entry16(c, ax, ay, az, bx, by, bz, margin, da, db);
        s = (s > 1.0f) & (db < 0.0f) ? (float16)(1.0f) : s; /* ends inside by a rounding */
        s = inside ? zero : s;
        int16 hit = movable & (s < first);
        if (!any(hit))
            continue;
        /* outside at the start: the entry point, and the distance and normal there */
        float16 rx = ax + (bx - ax) * s, ry = ay + (by - ay) * s, rz = az + (bz - az) * s;
        float16 dq = dr_collider_sdf_l16(c, rx, ry, rz, &mx, &my, &mz) - margin;
        rx = inside ? ax : rx, ry = inside ? ay : ry, rz = inside ? az : rz, dq = inside ? da : dq;
        mx = inside ? nx : mx, my = inside ? ny : my, mz = inside ? nz : mz;
        first = hit ? s : first;
        q[0] = hit ? (rx + mx * -dq) + off1.x : q[0];
        q[1] = hit ? (ry + my * -dq) + off1.y : q[1];
        q[2] = hit ? (rz + mz * -dq) + off1.z : q[2];
        q[3] = hit ? (float)i + ((s == 0.0f) & (dq < 0.0f) ? (float16)(0.5f) : zero) : q[3];
        nv[0] = hit ? mx : nv[0], nv[1] = hit ? my : nv[1], nv[2] = hit ? mz : nv[2];
        nv[3] = hit ? (vx - c->vel.x) * mx + (vy - c->vel.y) * my + (vz - c->vel.z) * mz : nv[3];
    }
    /* no contact: n the prediction and its clearance (a pinned particle's stays zero) */
    int16 none = movable & (q[3] < 0.0f);
    nv[0] = none ? dx : nv[0], nv[1] = none ? dy : nv[1], nv[2] = none ? dz : nv[2];
    nv[3] = none ? clearance : nv[3];
}

/* predict_displacement for CPU devices, whose compilers do not vectorise it across work-items:
 * sixteen consecutive particles per work-item in float16 lanes (DR_P16_LOAD, DR_P16_STORE of
 * kernels/drape_shared.h), launched over ceil(n / 16) work-items; the last, partial one goes one by
 * one. Bitwise the same results. */
__kernel void predict_displacement_x16(DR_PREDICT_ARGS)
{
    DR_X16_BLOCK(i, n,
                 dr_predict_one(d, x, v, h, n, external, gravity, wind, drag, collide, contacts,
                                colliders, collider_count, t, margin, inflate, held, i));
    float16 xx, xy, xz, xw, vx, vy, vz, vw;
    DR_P16_LOAD((__global const float *)(x + i), xx, xy, xz, xw);
    DR_P16_LOAD((__global const float *)(v + i), vx, vy, vz, vw);
    if (external) {
        dr_apply_external_l16(&vx, &vy, &vz, xw, gravity, wind, drag, h);
        DR_P16_STORE((__global float *)(v + i), vx, vy, vz, vw);
    }
    float16 dx = vx * h, dy = vy * h, dz = vz * h;
    DR_P16_STORE((__global float *)(d + i), dx, dy, dz, xw);
    if (!collide)
        return;
    float16 q[4], nv[4];
    dr_generate_contact16(xx, xy, xz, xw, dx, dy, dz, vx, vy, vz, colliders, collider_count, t, h,
                          margin + vload16(0, inflate + i), q, nv);
    DR_P16_CONTACTS_STORE(contacts, i, q[0], q[1], q[2], q[3], nv[0], nv[1], nv[2], nv[3]);
    const float16 none = (float16)(0.0f);
    DR_P16_STORE((__global float *)(held + i), none, none, none, none);
}

/* generate_contacts (kernels/collide.cl) for CPU devices, where it runs on its own: after the grid
 * of particle contacts, which limits the predictions. Sixteen consecutive particles per work-item
 * in lanes, as predict_displacement_x16 does it, launched over ceil(n / 16) work-items; the last,
 * partial one goes one by one. Bitwise the same contacts. */
__kernel void generate_contacts_x16(__global dr_contact *contacts, __global const float4 *x,
                                    __global const float4 *d, __global const float4 *v,
                                    __global const dr_collider *colliders, uint collider_count,
                                    float t, float h, float margin, __global const float *inflate,
                                    __global float4 *held, uint n)
{
    DR_X16_BLOCK(i, n,
                 (contacts[i] = dr_generate_contact(x[i], d[i], v[i], colliders, collider_count, t,
                                                    h, margin + inflate[i]),
                  held[i] = (float4)(0.0f)));
    float16 xx, xy, xz, xw, dx, dy, dz, dw, vx, vy, vz, vw, q[4], nv[4];
    DR_P16_LOAD((__global const float *)(x + i), xx, xy, xz, xw);
    DR_P16_LOAD((__global const float *)(d + i), dx, dy, dz, dw);
    DR_P16_LOAD((__global const float *)(v + i), vx, vy, vz, vw);
    dr_generate_contact16(xx, xy, xz, xw, dx, dy, dz, vx, vy, vz, colliders, collider_count, t, h,
                          margin + vload16(0, inflate + i), q, nv);
    DR_P16_CONTACTS_STORE(contacts, i, q[0], q[1], q[2], q[3], nv[0], nv[1], nv[2], nv[3]);
    const float16 none = (float16)(0.0f);
    DR_P16_STORE((__global float *)(held + i), none, none, none, none);
}

/* Constraint projection, one launch per colour: the work-items of a launch take the constraints
 * [offset, offset + count) of one colour, which share no movable particle, so they write the
 * displacements d without races (Fratarcangeli & Pellacini, SIGRAD 2014); x, the positions at the
 * substep's start, are only read. Then the contacts, one per particle. The whole projection in
 * one launch (solve_fused, solve_fused_local) is in kernels/fused.cl.
 *
 * Distance constraints have two kernels with the same arguments and bitwise the same results:
 * solve_distance, one constraint per work-item, for GPUs; and solve_distance_x16, two blocks of
 * sixteen consecutive constraints per work-item, each in float16 lanes, for CPU devices, whose
 * compilers (PoCL) do not vectorise solve_distance across work-items (its float4 gathers and
 * scatters stop LLVM's loop vectoriser), so that the sqrt and the two divisions of a projection run
 * sixteen wide. The host picks one by device type (host/opencl/opencl_step.c). */
#include "drape_shared.h"

__kernel void solve_distance(DR_CONSTRAINT_ARGS(float, rest))
{
    DR_CONSTRAINT_BEGIN(c, m);
    uint2 ab = vload2(c, idx);
    dr_solve_distance(x, d, ab.x, ab.y, rest[c], m.kprime, m.compliance, inv_h2, sag, &lambda[c]);
}

/* Sixteen float4 p[i.s0] .. p[i.sf] as four float16 g0 .. g3 of four particles each
 * (x0 y0 z0 w0 x1 ...), and the inverse split of such groups into float16 of their x, y, z, w:
 * every fourth component. */
#define DR_X16_GROUPS(p, i, g0, g1, g2, g3)                                                        \
    do {                                                                                           \
        g0 = (float16)(p[i.s0], p[i.s1], p[i.s2], p[i.s3]);                                        \
        g1 = (float16)(p[i.s4], p[i.s5], p[i.s6], p[i.s7]);                                        \
        g2 = (float16)(p[i.s8], p[i.s9], p[i.sa], p[i.sb]);                                        \
        g3 = (float16)(p[i.sc], p[i.sd], p[i.se], p[i.sf]);                                        \
    } while (0)
#define DR_X16_SPLIT(g0, g1, g2, g3, x, y, z, w)                                                   \
    do {                                                                                           \
        x = (float16)(g0.s048c, g1.s048c, g2.s048c, g3.s048c);                                     \
        y = (float16)(g0.s159d, g1.s159d, g2.s159d, g3.s159d);                                     \
        z = (float16)(g0.s26ae, g1.s26ae, g2.s26ae, g3.s26ae);                                     \
        w = (float16)(g0.s37bf, g1.s37bf, g2.s37bf, g3.s37bf);                                     \
    } while (0)

/* The inverse: interleave x, y, z, w back into float4 and store lane l where mask m.sl is set. */
#define DR_X16_Q0 (uint16)(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23)
#define DR_X16_Q1 (uint16)(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31)
#define DR_X16_STORE4(p, i, m, g, l0, l1, l2, l3)                                                  \
    do {                                                                                           \
        if (m.s##l0)                                                                               \
            p[i.s##l0] = g.s0123;                                                                  \
        if (m.s##l1)                                                                               \
            p[i.s##l1] = g.s4567;                                                                  \
        if (m.s##l2)                                                                               \
            p[i.s##l2] = g.s89ab;                                                                  \
        if (m.s##l3)                                                                               \
            p[i.s##l3] = g.scdef;                                                                  \
    } while (0)
/* The four groups of sixteen particles stored where m is set. */
#define DR_X16_STORE16(p, i, m, g0, g1, g2, g3)                                                    \
    do {                                                                                           \
        DR_X16_STORE4(p, i, m, g0, 0, 1, 2, 3);                                                    \
        DR_X16_STORE4(p, i, m, g1, 4, 5, 6, 7);                                                    \
        DR_X16_STORE4(p, i, m, g2, 8, 9, a, b);                                                    \
        DR_X16_STORE4(p, i, m, g3, c, d, e, f);                                                    \
    } while (0)
/* x, y, z, w of sixteen particles back into four groups of four float4 (DR_X16_GROUPS). */
#define DR_X16_JOIN(x, y, z, w, g0, g1, g2, g3)                                                    \
    do {                                                                                           \
        float16 xy0 = shuffle2(x, y, DR_P16_LO), xy1 = shuffle2(x, y, DR_P16_HI);                  \
        float16 zw0 = shuffle2(z, w, DR_P16_LO), zw1 = shuffle2(z, w, DR_P16_HI);                  \
        g0 = shuffle2(xy0, zw0, DR_X16_Q0), g1 = shuffle2(xy0, zw0, DR_X16_Q1);                    \
        g2 = shuffle2(xy1, zw1, DR_X16_Q0), g3 = shuffle2(xy1, zw1, DR_X16_Q1);                    \
    } while (0)
/* The lanes k .. k + 3 of a float16, each four times: one lane's value for its particle's group. */
#define DR_X16_SPREAD(k)                                                                           \
    (k), (k), (k), (k), (k) + 1, (k) + 1, (k) + 1, (k) + 1, (k) + 2, (k) + 2, (k) + 2, (k) + 2,    \
        (k) + 3, (k) + 3, (k) + 3, (k) + 3

/* The stiffness k' and compliance of sixteen constraints, one broadcast where their materials are
 * all the same (the usual case), and their multipliers where any is XPBD (PBD lanes never read or
 * write theirs); returns whether any is. */
inline bool dr_x16_materials(__global const uint *material, __global const dr_material *materials,
                             __global const float *lambda, uint c, float16 *kp, float16 *cm,
                             float16 *l)
{
    uint16 mi = vload16(0, material + c);
    if (all(mi == (uint16)(mi.s0))) {
        dr_material m = materials[mi.s0];
        *kp = (float16)(m.kprime), *cm = (float16)(m.compliance);
    } else {
        __global const float2 *mt = (__global const float2 *)materials;
        float16 g0 = (float16)(mt[mi.s0], mt[mi.s1], mt[mi.s2], mt[mi.s3], mt[mi.s4], mt[mi.s5],
                               mt[mi.s6], mt[mi.s7]);
        float16 g1 = (float16)(mt[mi.s8], mt[mi.s9], mt[mi.sa], mt[mi.sb], mt[mi.sc], mt[mi.sd],
                               mt[mi.se], mt[mi.sf]);
        *kp = (float16)(g0.even, g1.even), *cm = (float16)(g0.odd, g1.odd);
    }
    const bool xpbd = any(*cm >= 0.0f);
    *l = xpbd ? vload16(0, lambda + c) : (float16)(0.0f);
    return xpbd;
}

/* Sixteen links of which every one is a PBD link (dr_sag_weight = 1, as every link of a cloth at
 * one substep): the correction is sr r alone. Each particle's x and d are loaded as groups of
 * four float4 (DR_X16_GROUPS), r = (xa - xb) + (da - db) is formed there, and only r and the
 * inverse masses are split into lanes; the correction w sr r is added to the groups in place (the
 * lane's factor spread to its particle's four components, w kept) and the groups are stored as
 * they are: half the shuffles of dr_x16_blend_links, 0.90-0.93 of the time a step at 256² on PoCL.
 */
inline void dr_x16_pbd_links(__global const float4 *x, __global float4 *d, uint16 ia, uint16 ib,
                             __global const uint *material, __global const dr_material *materials,
                             __global float *lambda, float16 rest, float inv_h2, float16 beta_sag,
                             uint c)
{
    float16 da0, da1, da2, da3, db0, db1, db2, db3, e0, e1, e2, e3, xb0, xb1, xb2, xb3;
    DR_X16_GROUPS(d, ia, da0, da1, da2, da3);
    DR_X16_GROUPS(d, ib, db0, db1, db2, db3);
    DR_X16_GROUPS(x, ia, e0, e1, e2, e3);
    DR_X16_GROUPS(x, ib, xb0, xb1, xb2, xb3);
    /* a - b at the substep's start, then predicted, as dr_solve_distance forms them */
    e0 -= xb0, e1 -= xb1, e2 -= xb2, e3 -= xb3;
    float16 r0 = e0 + (da0 - db0), r1 = e1 + (da1 - db1);
    float16 r2 = e2 + (da2 - db2), r3 = e3 + (da3 - db3);
    float16 rx, ry, rz, rw, ax, ay, az, aw, bx, by, bz, bw, kp, cm, l, sr, se;
    DR_X16_SPLIT(r0, r1, r2, r3, rx, ry, rz, rw);
    DR_X16_SPLIT(da0, da1, da2, da3, ax, ay, az, aw);
    DR_X16_SPLIT(db0, db1, db2, db3, bx, by, bz, bw);
    const bool xpbd = dr_x16_materials(material, materials, lambda, c, &kp, &cm, &l);
    int16 pbd, ok = dr_distance_shares16(&rx, &ry, &rz, rx, ry, rz, aw, bw, rest, kp, cm, inv_h2,
                                         beta_sag, &l, &sr, &se, &pbd);
    if (xpbd)
        vstore16(l, 0, lambda + c);
    /* d + r (w sr) per component, as dr_distance_step adds it; w kept */
    float16 sra = aw * sr, srb = -bw * sr;
    const int16 keep_w = (int16)(0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1);
#define DR_X16_ADD(g, r, s, k) g = keep_w ? g : g + r * shuffle(s, (uint16)(DR_X16_SPREAD(k)))
    DR_X16_ADD(da0, r0, sra, 0), DR_X16_ADD(db0, r0, srb, 0);
    DR_X16_ADD(da1, r1, sra, 4), DR_X16_ADD(db1, r1, srb, 4);
    DR_X16_ADD(da2, r2, sra, 8), DR_X16_ADD(db2, r2, srb, 8);
    DR_X16_ADD(da3, r3, sra, 12), DR_X16_ADD(db3, r3, srb, 12);
#undef DR_X16_ADD
    /* Pinned particles are never written: constraints of one colour may share them. */
    int16 move_a = ok & (aw > 0.0f), move_b = ok & (bw > 0.0f);
    DR_X16_STORE16(d, ia, move_a, da0, da1, da2, da3);
    DR_X16_STORE16(d, ib, move_b, db0, db1, db2, db3);
}

/* Sixteen links, some along the blend of the two gradients: x and d split into lanes, the step
 * (dr_distance_step16), the results joined back into groups. */
inline void dr_x16_blend_links(__global const float4 *x, __global float4 *d, uint16 ia, uint16 ib,
                               __global const uint *material, __global const dr_material *materials,
                               __global float *lambda, float16 rest, float inv_h2, float16 beta_sag,
                               uint c)
{
    float16 ax, ay, az, aw, bx, by, bz, bw, xax, xay, xaz, xaw, xbx, xby, xbz, xbw, g0, g1, g2, g3;
    DR_X16_GROUPS(d, ia, g0, g1, g2, g3);
    DR_X16_SPLIT(g0, g1, g2, g3, ax, ay, az, aw);
    DR_X16_GROUPS(d, ib, g0, g1, g2, g3);
    DR_X16_SPLIT(g0, g1, g2, g3, bx, by, bz, bw);
    DR_X16_GROUPS(x, ia, g0, g1, g2, g3);
    DR_X16_SPLIT(g0, g1, g2, g3, xax, xay, xaz, xaw);
    DR_X16_GROUPS(x, ib, g0, g1, g2, g3);
    DR_X16_SPLIT(g0, g1, g2, g3, xbx, xby, xbz, xbw);
    /* a - b at the substep's start and predicted, as dr_solve_distance forms them */
    float16 ex = xax - xbx, ey = xay - xby, ez = xaz - xbz;
    float16 rx = ex + (ax - bx), ry = ey + (ay - by), rz = ez + (az - bz), kp, cm, l;
    const bool xpbd = dr_x16_materials(material, materials, lambda, c, &kp, &cm, &l);
    int16 ok = dr_distance_step16(ex, ey, ez, rx, ry, rz, &ax, &ay, &az, aw, &bx, &by, &bz, bw,
                                  rest, kp, cm, inv_h2, beta_sag, &l);
    if (xpbd)
        vstore16(l, 0, lambda + c);
    int16 move_a = ok & (aw > 0.0f), move_b = ok & (bw > 0.0f);
    DR_X16_JOIN(ax, ay, az, aw, g0, g1, g2, g3);
    DR_X16_STORE16(d, ia, move_a, g0, g1, g2, g3);
    DR_X16_JOIN(bx, by, bz, bw, g0, g1, g2, g3);
    DR_X16_STORE16(d, ib, move_b, g0, g1, g2, g3);
}

/* Sixteen constraints c .. c + 15 of a colour in float16 lanes, by one of the two above: the same
 * operations on the same values either way, bitwise the one-constraint projection. */
inline void dr_x16_block(__global const float4 *x, __global float4 *d, __global const uint *idx,
                         __global const float *rest, __global const uint *material,
                         __global const dr_material *materials, __global float *lambda,
                         float inv_h2, float sag, uint c)
{
    uint16 i0 = vload16(0, idx + 2 * c), i1 = vload16(1, idx + 2 * c);
    uint16 ia = (uint16)(i0.even, i1.even), ib = (uint16)(i0.odd, i1.odd);
    float16 r = vload16(0, rest + c), beta_sag = dr_sag_weight16(r, sag);
    if (all(beta_sag >= 1.0f))
        dr_x16_pbd_links(x, d, ia, ib, material, materials, lambda, r, inv_h2, beta_sag, c);
    else
        dr_x16_blend_links(x, d, ia, ib, material, materials, lambda, r, inv_h2, beta_sag, c);
}

/* Launched over ceil(count / 32) work-items, each two blocks of sixteen, one after the other: the
 * second block's loads and first divisions then overlap the first block's long chain of square
 * roots and divisions in the CPU's out-of-order window (12% less time than one block per work-item
 * on PoCL; loading both blocks before solving either spilled registers and was slower). The
 * colour's last, partial work-item goes by blocks, then one by one. */
__kernel void solve_distance_x16(DR_CONSTRAINT_ARGS(float, rest))
{
    uint k = 2 * 16 * get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k;
    if (count - k < 2 * 16) {
        if (count - k >= 16) {
            dr_x16_block(x, d, idx, rest, material, materials, lambda, inv_h2, sag, c);
            k += 16, c += 16;
        }
        for (; k < count; ++k, ++c) {
            dr_material m = materials[material[c]];
            dr_solve_distance(x, d, idx[2 * c], idx[2 * c + 1], rest[c], m.kprime, m.compliance,
                              inv_h2, sag, &lambda[c]);
        }
        return;
    }
    dr_x16_block(x, d, idx, rest, material, materials, lambda, inv_h2, sag, c);
    dr_x16_block(x, d, idx, rest, material, materials, lambda, inv_h2, sag, c + 16);
}

__kernel void solve_dihedral(DR_CONSTRAINT_ARGS(float, rest))
{
    DR_CONSTRAINT_BEGIN(c, m);
    dr_solve_dihedral(x, d, idx[4 * c], idx[4 * c + 1], idx[4 * c + 2], idx[4 * c + 3], rest[c],
                      m.kprime, m.compliance, inv_h2, &lambda[c]);
}

__kernel void solve_attachment(DR_CONSTRAINT_ARGS(float4, target))
{
    DR_CONSTRAINT_BEGIN(c, m);
    dr_solve_attachment(x, d, idx[c], target[c], m.kprime, m.compliance, inv_h2, &lambda[c]);
}

/* Tethers: the distance kernel's arguments, max_length in rest. */
__kernel void solve_tether(DR_CONSTRAINT_ARGS(float, rest))
{
    DR_CONSTRAINT_BEGIN(c, m);
    uint2 ab = vload2(c, idx);
    dr_solve_tether(x, d, ab.x, ab.y, rest[c], m.kprime, m.compliance, inv_h2, sag, &lambda[c]);
}

/* Every particle's contact pass, one per work-item. */
__kernel void project_contacts(__global float4 *d, __global const float4 *x,
                               __global const dr_contact *contacts,
                               __global const dr_collider *colliders, uint collider_count, float t,
                               float h, float margin, __global const float *inflate,
                               __global float4 *held, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        DR_CONTACT_PASS(DR_LOAD_D, DR_STORE_D, i);
}

/* The contact pass of sixteen consecutive particles i .. i + 15 in float16 lanes
 * (dr_project_contacts_l16, bitwise the one-particle pass); d is written only where the pass moved
 * one of them (then all sixteen: one store where the other would take sixteen). */
inline void dr_contacts_x16(__global float4 *d, __global const float4 *x,
                            __global const dr_contact *contacts,
                            __global const dr_collider *colliders, uint collider_count, float t,
                            float h, float margin, __global const float *inflate,
                            __global float4 *held, uint i)
{
    float16 dx, dy, dz, dw, xx, xy, xz, xw, qx, qy, qz, qw, nx, ny, nz, nw;
    DR_P16_LOAD((__global const float *)(d + i), dx, dy, dz, dw);
    DR_P16_CONTACTS(contacts, i, qx, qy, qz, qw, nx, ny, nz, nw);
    if (all(dr_contacts_idle_l16(dx, dy, dz, dw, qw, nx, ny, nz, nw)))
        return; /* the usual case away from colliders: x is not even read */
    DR_P16_LOAD((__global const float *)(x + i), xx, xy, xz, xw);
    float16 ex = dx, ey = dy, ez = dz, push0, sx0, sy0, sz0;
    DR_P16_LOAD((__global const float *)(held + i), push0, sx0, sy0, sz0);
    float16 push = push0, sx = sx0, sy = sy0, sz = sz0;
    dr_project_contacts_l16(&ex, &ey, &ez, dw, xx, xy, xz, qx, qy, qz, qw, nx, ny, nz, nw,
                            colliders, collider_count, t, h, margin + vload16(0, inflate + i),
                            &push, &sx, &sy, &sz);
    int16 moved = (ex != dx) | (ey != dy) | (ez != dz);
    if (any(moved)) /* all sixteen, the unmoved ones with the values they had */
        DR_P16_STORE((__global float *)(d + i), ex, ey, ez, dw);
    if (any((push != push0) | (sx != sx0) | (sy != sy0) | (sz != sz0)))
        DR_P16_STORE((__global float *)(held + i), push, sx, sy, sz);
}

/* project_contacts for CPU devices, whose compilers do not vectorise it across work-items:
 * sixteen consecutive particles per work-item in float16 lanes, launched over ceil(n / 16)
 * work-items; the last, partial one goes one by one. Bitwise the same results. */
__kernel void project_contacts_x16(__global float4 *d, __global const float4 *x,
                                   __global const dr_contact *contacts,
                                   __global const dr_collider *colliders, uint collider_count,
                                   float t, float h, float margin, __global const float *inflate,
                                   __global float4 *held, uint n)
{
    DR_X16_BLOCK(i, n, DR_CONTACT_PASS(DR_LOAD_D, DR_STORE_D, i));
    dr_contacts_x16(d, x, contacts, colliders, collider_count, t, h, margin, inflate, held, i);
}

/* The constraint maths of drape, written once in the common subset of C17 and OpenCL C 1.2.
 *
 * The CPU reference solver (host/) includes this file as C; the OpenCL kernels (the .cl files
 * beside it)
 * include it as OpenCL C. Every per-particle and per-constraint formula of the step lives here, so
 * the two backends cannot drift apart: they differ only in how they loop.
 *
 * Positions are float4 with the inverse mass in w (0 = pinned). The xyz helpers below keep the w of
 * their first operand, so `x = dr_add3(x, d)` moves a particle and keeps its inverse mass.
 *
 * Within a substep the solver works on displacements: the predicted position of particle i is
 * x[i] + d[i], and every projection corrects d, never x. d is small (about v h), so its float
 * rounding is a thousand times finer than that of an absolute position, and v = d / h keeps linear
 * momentum to float precision where v = (p - x) / h would lose it to the rounding of |p|. A
 * constraint's direction uses (x_a - x_b) + (d_a - d_b), which is also exact for nearby particles.
 *
 * References: Müller, Heidelberger, Hennix, Ratcliff, "Position Based Dynamics" (2007) for the loop,
 * the distance and the dihedral-bending constraints, damping and collision constraints; Macklin,
 * Müller, Chentanez, "XPBD" (2016) for compliance; Macklin et al., "Unified Particle Physics for
 * Real-Time Applications" (2014) for position-level friction. The dihedral gradients follow
 * Bender's PositionBasedDynamics library (MIT). Seed documents: shared/seeds/000..003.
 */
#ifndef DRAPE_SHARED_H
#define DRAPE_SHARED_H

#ifdef __OPENCL_VERSION__
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double dr_wide; /* global sums: double where the device has it, as on the CPU */
#else
typedef float dr_wide;
#endif
typedef float4 dr_vec4;
#define DR_FN static inline
#define DR_GLOBAL __global
#define DR_V4(x, y, z, w) ((float4)((x), (y), (z), (w)))
#define DR_SQRT sqrt
#define DR_FMIN fmin
#define DR_FMAX fmax
#else
#include <math.h>
typedef double dr_wide;
typedef struct dr_vec4 {
    _Alignas(16) float x;
    float y, z, w;
} dr_vec4;
#define DR_FN static inline
#define DR_GLOBAL
#define DR_V4(x, y, z, w) ((dr_vec4){(x), (y), (z), (w)})
#define DR_SQRT sqrtf
#define DR_FMIN fminf
#define DR_FMAX fmaxf
#endif

/* Below this length (m) a direction is undefined and the constraint is skipped. */
#define DR_EPS 1e-9f

/* Collider kinds as stored in dr_collider.a.w (mirror drape_collider_type). */
#define DR_COLLIDER_PLANE 0
#define DR_COLLIDER_SPHERE 1
#define DR_COLLIDER_CAPSULE 2

/* A collider as both backends store it; 64 bytes, the same layout in C and OpenCL C. */
typedef struct dr_collider {
    dr_vec4 a;    /* xyz: plane point / sphere centre / capsule end at time t0 (m); w: kind */
    dr_vec4 b;    /* xyz: plane unit normal / capsule other end (m); w: radius (m) */
    dr_vec4 vel;  /* xyz: velocity (m/s); w: restitution */
    dr_vec4 info; /* x: static friction, y: kinetic friction, z: t0 (s), w: unused */
} dr_collider;

/* ---- small vector layer ---------------------------------------------------------------------- */

DR_FN dr_vec4 dr_add3(dr_vec4 a, dr_vec4 b) { return DR_V4(a.x + b.x, a.y + b.y, a.z + b.z, a.w); }
DR_FN dr_vec4 dr_sub3(dr_vec4 a, dr_vec4 b) { return DR_V4(a.x - b.x, a.y - b.y, a.z - b.z, a.w); }
DR_FN dr_vec4 dr_scale3(dr_vec4 a, float s) { return DR_V4(a.x * s, a.y * s, a.z * s, a.w); }
DR_FN float dr_dot3(dr_vec4 a, dr_vec4 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DR_FN float dr_len3(dr_vec4 a) { return DR_SQRT(dr_dot3(a, a)); }
DR_FN dr_vec4 dr_cross3(dr_vec4 a, dr_vec4 b)
{
    return DR_V4(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.0f);
}
/* a + s * b, keeping a.w. */
DR_FN dr_vec4 dr_madd3(dr_vec4 a, dr_vec4 b, float s)
{
    return DR_V4(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s, a.w);
}

/* ---- lanes: formulas written once for one constraint or for sixteen ---------------------------- */
/*
 * The multiplier step and the distance constraint are written once, over a "lane" type: `float` for
 * the CPU reference and the one-constraint-per-work-item kernels, and, in OpenCL C only, `float16`
 * for the kernel that projects sixteen constraints of a colour at once in a CPU device's SIMD
 * registers (solve_distance_x16 in kernels/project.cl). DR_LANE_FUNCTIONS(suffix, real, mask)
 * defines the functions for one lane type (CLBlast's `real` idiom, instantiated twice). A lane does
 * exactly the scalar operations in the same order (IEEE + - * / and sqrt, no contraction), so every
 * lane's result is bitwise the scalar one. Conditions are masks, combined with & and applied with
 * ?: : in C and on OpenCL scalars a comparison is 0 or 1; on OpenCL vectors it is 0 or -1 per lane
 * and ?: selects per lane. Lanes whose constraint does not apply still compute (a division by zero
 * gives inf or NaN there, never a trap) and are masked out.
 *
 * dr_delta_lambda: the multiplier step of one constraint with value C and generalised inverse mass
 * wsum = sum_i w_i |grad_i C|^2. PBD (compliance < 0): the classic step scaled by the
 * iteration-corrected stiffness k'. XPBD (compliance >= 0): Macklin et al. eq. 18 with
 * alpha~ = compliance / h^2 and the multiplier lambda accumulated so far in this substep.
 *
 * dr_distance_step: C = |r| - rest, where r = (rx, ry, rz) is the predicted a - b and e = (ex, ey,
 * ez) the same pair at the substep's start (inverse masses aw, bw). Moves the displacements of a and
 * b in place by the PBD/XPBD step, accumulates lambda for XPBD, and returns the mask of the lanes
 * where the constraint applies (some mass is free and a, b do not coincide); the caller writes back
 * only those lanes, and of them only unpinned particles.
 *
 * The correction runs along e, the gradient at the substep's start, not along r as in the PBD paper:
 * the step is the Newton step of C along that fixed direction, so its denominator is
 * grad C(p) . M^-1 grad C(x) = (aw + bw) cos(r, e). This is SHAKE's choice (Ryckaert, Ciccotti,
 * Berendsen 1977): a correction along x_a - x_b moves no angular momentum about the start positions,
 * so internal constraints keep angular momentum exactly, where PBD's direction along r bleeds it at a
 * rate proportional to h (a spinning cloth slows down). Should r have turned more than 14 degrees
 * (cos 0.97) from e within the substep, as in a hard impact, the lane falls back to the PBD
 * direction: the Newton step along e grows as 1 / cos, and near a collider it overshoots.
 */
#define DR_LANE_FUNCTIONS(S, real, mask)                                                           \
    DR_FN real dr_delta_lambda##S(real C, real wsum, real kprime, real compliance, float inv_h2,   \
                                  real lambda)                                                     \
    {                                                                                              \
        mask pbd = compliance < 0.0f;                                                              \
        real alpha = compliance * inv_h2;                                                          \
        return (pbd ? -C * kprime : -C - alpha * lambda) / (pbd ? wsum : wsum + alpha);           \
    }                                                                                              \
                                                                                                   \
    DR_FN mask dr_distance_step##S(real ex, real ey, real ez, real rx, real ry, real rz,         \
                                   real *ax, real *ay, real *az, real aw, real *bx, real *by,      \
                                   real *bz, real bw, real rest, real kprime, real compliance,     \
                                   float inv_h2, real *lambda)                                     \
    {                                                                                              \
        real wsum = aw + bw;                                                                       \
        real len = DR_SQRT(rx * rx + ry * ry + rz * rz);                                           \
        real elen = DR_SQRT(ex * ex + ey * ey + ez * ez);                                          \
        real cosine = (rx * ex + ry * ey + rz * ez) / (len * elen);                                \
        mask shake = cosine > 0.97f; /* false for NaN: e or r of zero length */                    \
        mask ok = !(wsum <= 0.0f) & !(len < DR_EPS);                                               \
        real dl = dr_delta_lambda##S(len - rest, shake ? wsum * cosine : wsum, kprime, compliance, \
                                     inv_h2, *lambda);                                             \
        *lambda = (ok & (compliance >= 0.0f)) ? *lambda + dl : *lambda;                            \
        /* along the unit vector of e (or r): scale the unnormalised one by dl / its length */     \
        real s = dl / (shake ? elen : len);                                                        \
        real ux = shake ? ex : rx, uy = shake ? ey : ry, uz = shake ? ez : rz;                     \
        real sa = aw * s, sb = -bw * s;                                                            \
        *ax = *ax + ux * sa, *ay = *ay + uy * sa, *az = *az + uz * sa;                             \
        *bx = *bx + ux * sb, *by = *by + uy * sb, *bz = *bz + uz * sb;                             \
        return ok;                                                                                 \
    }

DR_LANE_FUNCTIONS(, float, int)
#ifdef __OPENCL_VERSION__
DR_LANE_FUNCTIONS(16, float16, int16)
#endif

/* ---- constraints ----------------------------------------------------------------------------- */

/* C = |pa - pb| - rest, on the predicted positions x + d; corrects d along x_a - x_b. */
DR_FN void dr_solve_distance(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned a,
                             unsigned b, float rest, float kprime, float compliance, float inv_h2,
                             DR_GLOBAL float *lambda)
{
    dr_vec4 da = d[a], db = d[b];
    dr_vec4 e = dr_sub3(x[a], x[b]);
    dr_vec4 r = dr_add3(e, dr_sub3(da, db));
    float ax = da.x, ay = da.y, az = da.z, bx = db.x, by = db.y, bz = db.z;
    float l = compliance >= 0.0f ? *lambda : 0.0f; /* PBD never reads its multiplier */
    if (!dr_distance_step(e.x, e.y, e.z, r.x, r.y, r.z, &ax, &ay, &az, da.w, &bx, &by, &bz, db.w,
                          rest, kprime, compliance, inv_h2, &l))
        return;
    if (compliance >= 0.0f)
        *lambda = l;
    /* Pinned particles are never written: constraints of one colour may share them. */
    if (da.w > 0.0f)
        d[a] = DR_V4(ax, ay, az, da.w);
    if (db.w > 0.0f)
        d[b] = DR_V4(bx, by, bz, db.w);
}

/* C = |p - target| with rest length 0: a particle tied to a point. */
DR_FN void dr_solve_attachment(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned a,
                               dr_vec4 target, float kprime, float compliance, float inv_h2,
                               DR_GLOBAL float *lambda)
{
    dr_vec4 da = d[a];
    if (da.w <= 0.0f)
        return;
    dr_vec4 r = dr_add3(dr_sub3(x[a], target), da);
    float len = dr_len3(r);
    if (len < DR_EPS)
        return;
    float dl = dr_delta_lambda(len, da.w, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    d[a] = dr_madd3(da, r, da.w * dl / len);
}

/* atan2(y, x) for y >= 0, in [0, pi], from + - * / only (Cephes' atanf polynomial, about 1e-7
 * relative), so that the CPU and the device, which both round those operations exactly, get bitwise
 * the same angle: library atan2 and acos differ between libm and OpenCL drivers in the last bits, and
 * cloth amplifies such differences. */
DR_FN float dr_atan_unit(float t) /* 0 <= t <= 1 */
{
    const float quarter_pi = 0.78539816339744831f;
    float base = 0.0f;
    if (t > 0.41421356237309503f) { /* tan(pi/8): reduce by pi/4 */
        t = (t - 1.0f) / (t + 1.0f);
        base = quarter_pi;
    }
    float z = t * t;
    float p = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
               3.33329491539e-1f) * z * t + t;
    return base + p;
}

DR_FN float dr_atan2_upper(float y, float x)
{
    const float half_pi = 1.5707963267948966f, pi = 3.14159265358979323f;
    if (y == 0.0f && x == 0.0f)
        return 0.0f;
    float ax = DR_FMAX(x, -x);
    if (y <= ax) { /* within 45 degrees of the x axis */
        float a = dr_atan_unit(y / ax);
        return x >= 0.0f ? a : pi - a;
    }
    float a = dr_atan_unit(ax / y);
    return x >= 0.0f ? half_pi - a : half_pi + a;
}

/* The signed angle (rad, in [-pi, pi]) between the normals n1 of (e0, e1, w0) and n2 of
 * (e1, e0, w1), whose shared edge is e = e1 - e0: 0 when the two triangles lie flat, its sign the
 * side the hinge folds to. Signed, the angle is smooth through flat, where the unsigned angle of the
 * PBD paper has a kink that makes a flat rest state chatter. Degenerate triangles give 0. */
DR_FN float dr_hinge_angle(dr_vec4 n1, dr_vec4 n2, dr_vec4 e)
{
    /* atan2 of |sin| and cos resolves small angles, which acos of the cosine cannot below ~3e-4 rad
     * in float, and a flat cloth at rest needs exactly those. */
    dr_vec4 s = dr_cross3(n1, n2);
    float angle = dr_atan2_upper(dr_len3(s), dr_dot3(n1, n2));
    return dr_dot3(s, e) > 0.0f ? -angle : angle;
}

DR_FN float dr_dihedral_angle(dr_vec4 e0, dr_vec4 e1, dr_vec4 w0, dr_vec4 w1)
{
    dr_vec4 n1 = dr_cross3(dr_sub3(e0, w0), dr_sub3(e1, w0));
    dr_vec4 n2 = dr_cross3(dr_sub3(e1, w1), dr_sub3(e0, w1));
    return dr_hinge_angle(n1, n2, dr_sub3(e1, e0));
}

/* The signed hinge angle of (e0, e1, w0, w1) and its gradients with respect to e0, e1, w0, w1 (the
 * PBD paper's appendix A; the gradient formulas are Bridson's, as in Bender's
 * PositionBasedDynamics). ok is 0 for a degenerate hinge: a zero edge or a zero-area triangle. */
typedef struct dr_hinge {
    float angle;
    dr_vec4 g[4];
    int ok;
} dr_hinge;

DR_FN dr_hinge dr_hinge_gradients(dr_vec4 e0, dr_vec4 e1, dr_vec4 w0, dr_vec4 w1)
{
    dr_hinge h;
    h.ok = 0;
    h.angle = 0.0f;
    dr_vec4 e = dr_sub3(e1, e0);
    float elen = dr_len3(e);
    dr_vec4 n1 = dr_cross3(dr_sub3(e0, w0), dr_sub3(e1, w0));
    dr_vec4 n2 = dr_cross3(dr_sub3(e1, w1), dr_sub3(e0, w1));
    float n1sq = dr_dot3(n1, n1), n2sq = dr_dot3(n2, n2);
    if (elen < DR_EPS || n1sq < DR_EPS * DR_EPS || n2sq < DR_EPS * DR_EPS)
        return h;
    h.angle = dr_hinge_angle(n1, n2, e);
    n1 = dr_scale3(n1, 1.0f / n1sq);
    n2 = dr_scale3(n2, 1.0f / n2sq);
    float inv_elen = 1.0f / elen;
    h.g[0] = dr_add3(dr_scale3(n1, dr_dot3(dr_sub3(w0, e1), e) * inv_elen),
                     dr_scale3(n2, dr_dot3(dr_sub3(w1, e1), e) * inv_elen));
    h.g[1] = dr_add3(dr_scale3(n1, dr_dot3(dr_sub3(e0, w0), e) * inv_elen),
                     dr_scale3(n2, dr_dot3(dr_sub3(e0, w1), e) * inv_elen));
    h.g[2] = dr_scale3(n1, elen);
    h.g[3] = dr_scale3(n2, elen);
    h.ok = 1;
    return h;
}

/* C = angle - rest over the shared edge e0-e1, with the signed angle of dr_hinge_angle, on the
 * predicted positions x + d. Like the distance constraint (dr_distance_step) it corrects along the
 * gradients at the substep's start and takes the Newton step along them (SHAKE), which keeps angular
 * momentum; where those have turned too far from the current gradients, along the current ones. */
DR_FN void dr_solve_dihedral(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned ie0,
                             unsigned ie1, unsigned iw0, unsigned iw1, float rest, float kprime,
                             float compliance, float inv_h2, DR_GLOBAL float *lambda)
{
    const unsigned idx[4] = {ie0, ie1, iw0, iw1};
    dr_vec4 xs[4], ds[4];
    for (int i = 0; i < 4; ++i)
        xs[i] = x[idx[i]], ds[i] = d[idx[i]];
    dr_hinge now = dr_hinge_gradients(dr_add3(xs[0], ds[0]), dr_add3(xs[1], ds[1]),
                                      dr_add3(xs[2], ds[2]), dr_add3(xs[3], ds[3]));
    if (!now.ok)
        return;
    dr_hinge start = dr_hinge_gradients(xs[0], xs[1], xs[2], xs[3]);
    float cross = 0.0f, now2 = 0.0f, start2 = 0.0f;
    for (int i = 0; i < 4; ++i) {
        float w = ds[i].w;
        cross += w * dr_dot3(now.g[i], start.g[i]);
        now2 += w * dr_dot3(now.g[i], now.g[i]);
        start2 += w * dr_dot3(start.g[i], start.g[i]);
    }
    int shake = start.ok && cross > 0.97f * DR_SQRT(now2 * start2);
    float wsum = shake ? cross : now2;
    if (!(wsum > 0.0f))
        return;
    float dl = dr_delta_lambda(now.angle - rest, wsum, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    for (int i = 0; i < 4; ++i)
        if (ds[i].w > 0.0f)
            d[idx[i]] = dr_madd3(ds[i], shake ? start.g[i] : now.g[i], ds[i].w * dl);
}

/* ---- integration ----------------------------------------------------------------------------- */

/* The acceleration (m/s^2) of gravity and of air drag towards the wind velocity. */
DR_FN dr_vec4 dr_external_accel(dr_vec4 v, dr_vec4 gravity, dr_vec4 wind, float drag)
{
    return dr_madd3(gravity, dr_sub3(wind, v), drag);
}

/* v += h (g + drag (wind - v)) for a movable particle; a pinned one keeps v = 0. */
DR_FN dr_vec4 dr_apply_external(dr_vec4 v, float inv_mass, dr_vec4 gravity, dr_vec4 wind,
                                float drag, float h)
{
    if (inv_mass <= 0.0f)
        return DR_V4(0.0f, 0.0f, 0.0f, v.w);
    return dr_madd3(v, dr_external_accel(v, gravity, wind, drag), h);
}

/* The predicted displacement of the substep, d = h v, with the inverse mass in w: the predicted
 * position x + d is the semi-implicit Euler step, bitwise. */
DR_FN dr_vec4 dr_predict_displacement(dr_vec4 x, dr_vec4 v, float h)
{
    return DR_V4(v.x * h, v.y * h, v.z * h, x.w);
}

/* ---- momentum-preserving damping (Müller et al. 2007, section 3.5) ---------------------------- */
/*
 * The movable particles are one body. Each contributes a row of mass moments about a fixed origin
 * (any point near the body, so that float sums do not cancel); the rows are summed (a global
 * reduction: double loops on the CPU, CLBlast on the device); dr_rigid_motion turns the sums into
 * the centre of mass, its velocity and the angular velocity omega = I^-1 L about the centre.
 * Row: m, m r (3), m v (3), m r x v (3), m |r|^2, m r r^T (xx yy zz xy xz yz), 3 unused; r = x - origin.
 */
#define DR_DAMP_ROW 20

DR_FN void dr_damp_moments(dr_vec4 x, dr_vec4 v, dr_vec4 origin, float *row)
{
    float m = x.w > 0.0f ? 1.0f / x.w : 0.0f;
    dr_vec4 r = dr_sub3(x, origin);
    dr_vec4 l = dr_cross3(r, v);
    row[0] = m;
    row[1] = m * r.x, row[2] = m * r.y, row[3] = m * r.z;
    row[4] = m * v.x, row[5] = m * v.y, row[6] = m * v.z;
    row[7] = m * l.x, row[8] = m * l.y, row[9] = m * l.z;
    row[10] = m * dr_dot3(r, r);
    row[11] = m * r.x * r.x, row[12] = m * r.y * r.y, row[13] = m * r.z * r.z;
    row[14] = m * r.x * r.y, row[15] = m * r.x * r.z, row[16] = m * r.y * r.z;
    row[17] = row[18] = row[19] = 0.0f;
}

/* out[0] = centre of mass (m), out[1] = its velocity (m/s), out[2] = omega (rad/s); all zero for a
 * body with no mass. Computed in dr_wide (double where there is one) from the wide sums and rounded
 * to float at the end: a float omega carries a bias that damping would turn into a steady drift of
 * angular momentum. */
DR_FN void dr_rigid_motion(const dr_wide *s, dr_vec4 origin, dr_vec4 *out)
{
    dr_wide M = s[0];
    out[0] = out[1] = out[2] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    if (M <= 0.0)
        return;
    dr_wide cx = s[1] / M, cy = s[2] / M, cz = s[3] / M; /* centre - origin */
    dr_wide ux = s[4] / M, uy = s[5] / M, uz = s[6] / M;
    /* About the centre: L = sum m r x v - M c x vc; I = sum m (|r|^2 E - r r^T) - M (|c|^2 E - c c^T). */
    dr_wide L0 = s[7] - M * (cy * uz - cz * uy), L1 = s[8] - M * (cz * ux - cx * uz),
            L2 = s[9] - M * (cx * uy - cy * ux);
    dr_wide rr = s[10] - M * (cx * cx + cy * cy + cz * cz);
    dr_wide a = rr - (s[11] - M * cx * cx), b = rr - (s[12] - M * cy * cy),
            d = rr - (s[13] - M * cz * cz);
    dr_wide xy = -(s[14] - M * cx * cy), xz = -(s[15] - M * cx * cz), yz = -(s[16] - M * cy * cz);
    /* The symmetric I = [a xy xz; xy b yz; xz yz d]: omega = adj(I) L / det(I). A body that is
     * nearly a line gets a tiny multiple of the trace on the diagonal, a pass that only such a body
     * takes: on any other it would leave omega off by that fraction. */
    dr_wide trace = a + b + d;
    dr_wide det = 0.0, i00 = 0.0, i01 = 0.0, i02 = 0.0, i11 = 0.0, i12 = 0.0, i22 = 0.0;
    for (int pass = 0; pass < 2; ++pass) {
        i00 = b * d - yz * yz, i01 = xz * yz - xy * d, i02 = xy * yz - xz * b;
        i11 = a * d - xz * xz, i12 = xz * xy - a * yz, i22 = a * b - xy * xy;
        det = a * i00 + xy * i01 + xz * i02;
        if (det > 1e-9 * trace * trace * trace)
            break;
        dr_wide reg = 1e-6 * trace;
        a += reg, b += reg, d += reg;
    }
    out[0] = DR_V4((float)(origin.x + cx), (float)(origin.y + cy), (float)(origin.z + cz), 0.0f);
    out[1] = DR_V4((float)ux, (float)uy, (float)uz, 0.0f);
    if (det > 0.0)
        out[2] = DR_V4((float)((i00 * L0 + i01 * L1 + i02 * L2) / det),
                       (float)((i01 * L0 + i11 * L1 + i12 * L2) / det),
                       (float)((i02 * L0 + i12 * L1 + i22 * L2) / det), 0.0f);
}

/* The PBD paper's dampVelocities for one particle: pull v towards the rigid motion
 * vcm + omega x r of the whole body, by the fraction k. */
DR_FN dr_vec4 dr_damp_velocity(dr_vec4 v, dr_vec4 x, dr_vec4 xcm, dr_vec4 vcm, dr_vec4 omega,
                               float k)
{
    if (x.w <= 0.0f)
        return v;
    dr_vec4 rigid = dr_add3(vcm, dr_cross3(omega, dr_sub3(x, xcm)));
    return dr_madd3(v, dr_sub3(rigid, v), k);
}

/* The force (N) on particle a of a Hooke spring a-b with rest length `rest` (m), stiffness ks (N/m)
 * and damping kd (N s/m) along the spring (seed 002); b gets the opposite force. */
DR_FN dr_vec4 dr_spring_force(dr_vec4 xa, dr_vec4 xb, dr_vec4 va, dr_vec4 vb, float rest, float ks,
                              float kd)
{
    dr_vec4 d = dr_sub3(xb, xa);
    float len = dr_len3(d);
    if (len < DR_EPS)
        return DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    dr_vec4 n = dr_scale3(d, 1.0f / len);
    float f = ks * (len - rest) + kd * dr_dot3(dr_sub3(vb, va), n);
    return DR_V4(n.x * f, n.y * f, n.z * f, 0.0f);
}

/* v = d / h, the PBD velocity update ((p - x) / h in the paper). A particle that no constraint
 * moved keeps its v bitwise, so that free flight is exactly semi-implicit Euler. */
DR_FN dr_vec4 dr_update_velocity(dr_vec4 d, dr_vec4 v, float h)
{
    if (d.x == v.x * h && d.y == v.y * h && d.z == v.z * h)
        return v;
    /* A true division: a multiplication by a rounded 1/h would scale every velocity by the same
     * rounding error each substep, a drift of momentum that no longer averages out. */
    return DR_V4(d.x / h, d.y / h, d.z / h, v.w);
}

/* The Hooke constant (N/m) of a constraint in mass-spring mode: 1 / compliance where it has a
 * positive compliance, else the world's default. */
DR_FN float dr_spring_constant(float compliance, float fallback)
{
    return compliance > 0.0f ? 1.0f / compliance : fallback;
}

/* A particle's acceleration in mass-spring mode from the spring forces summed on it (N). */
DR_FN dr_vec4 dr_mass_spring_accel(dr_vec4 force, float inv_mass, dr_vec4 v, dr_vec4 gravity,
                                   dr_vec4 wind, float drag)
{
    if (inv_mass <= 0.0f)
        return DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    return dr_madd3(dr_external_accel(v, gravity, wind, drag), force, inv_mass);
}

/* ---- colliders ------------------------------------------------------------------------------- */

/* How far a collider has moved since its t0 at time t. */
DR_FN dr_vec4 dr_collider_offset(DR_GLOBAL const dr_collider *c, float t)
{
    return dr_scale3(c->vel, t - c->info.z);
}

/* Signed distance (m) from q (in the collider's own frame, i.e. with its motion taken out) to the
 * collider's surface, negative inside; *normal gets the outward unit normal at the nearest point. */
DR_FN float dr_collider_sdf(DR_GLOBAL const dr_collider *c, dr_vec4 q, dr_vec4 *normal)
{
    int kind = (int)c->a.w;
    if (kind == DR_COLLIDER_PLANE) {
        *normal = DR_V4(c->b.x, c->b.y, c->b.z, 0.0f);
        return dr_dot3(dr_sub3(q, c->a), *normal);
    }
    dr_vec4 centre = c->a;
    if (kind == DR_COLLIDER_CAPSULE) {
        dr_vec4 seg = dr_sub3(c->b, c->a);
        float seg2 = dr_dot3(seg, seg);
        float s = seg2 > 0.0f ? dr_dot3(dr_sub3(q, c->a), seg) / seg2 : 0.0f;
        centre = dr_madd3(c->a, seg, DR_FMIN(1.0f, DR_FMAX(0.0f, s)));
    }
    dr_vec4 d = dr_sub3(q, centre);
    float len = dr_len3(d);
    *normal = len > DR_EPS ? dr_scale3(d, 1.0f / len) : DR_V4(0.0f, 1.0f, 0.0f, 0.0f);
    normal->w = 0.0f;
    return len - c->b.w;
}

/* A particle's contact for one substep: q.xyz the point on the (margin-inflated) surface at the end
 * of the substep, q.w the collider's index or -1 for none; n.xyz the unit normal, n.w the normal
 * velocity (m/s, relative to the collider) before the constraints were solved. */
typedef struct dr_contact {
    dr_vec4 q;
    dr_vec4 n;
} dr_contact;

/* Whether the particle has a contact this substep. */
DR_FN int dr_has_contact(dr_contact ct) { return !(ct.q.w < 0.0f); }

/* generateCollisionConstraints for one particle (seed 000): the ray x -> p = x + d against every
 * collider.
 * If the ray enters a collider the constraint sits at the entry point; if p was already inside, it
 * sits at the nearest surface point. The collider reached deepest wins. t is the substep's start. */
DR_FN dr_contact dr_generate_contact(dr_vec4 x, dr_vec4 d, dr_vec4 v,
                                     DR_GLOBAL const dr_collider *colliders, unsigned count,
                                     float t, float h, float margin)
{
    dr_vec4 p = dr_add3(x, d);
    dr_contact best;
    best.q = DR_V4(0.0f, 0.0f, 0.0f, -1.0f);
    best.n = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    if (x.w <= 0.0f)
        return best;
    float deepest = 0.0f;
    for (unsigned i = 0; i < count; ++i) {
        DR_GLOBAL const dr_collider *c = &colliders[i];
        dr_vec4 off0 = dr_collider_offset(c, t), off1 = dr_collider_offset(c, t + h);
        dr_vec4 p_rel = dr_sub3(p, off1);
        dr_vec4 n;
        float dp = dr_collider_sdf(c, p_rel, &n) - margin;
        if (dp >= deepest)
            continue;
        dr_vec4 x_rel = dr_sub3(x, off0);
        dr_vec4 nx;
        float dx = dr_collider_sdf(c, x_rel, &nx) - margin;
        dr_vec4 q_rel = p_rel;
        if (dx >= 0.0f) {
            /* Continuous: the secant step along the ray, then onto the surface. */
            float s = dx / (dx - dp);
            q_rel = dr_madd3(x_rel, dr_sub3(p_rel, x_rel), s);
        }
        float dq = dr_collider_sdf(c, q_rel, &n) - margin;
        q_rel = dr_madd3(q_rel, n, -dq);
        deepest = dp;
        best.q = dr_add3(q_rel, off1);
        best.q.w = (float)i;
        best.n = n;
        best.n.w = dr_dot3(dr_sub3(v, c->vel), n);
    }
    return best;
}

/* The collision constraint (p - q) . n >= 0 on p = x + d, then Coulomb friction at the position
 * level: the tangential motion relative to the collider over the substep is cancelled while it is
 * within the static cone (mu_s * penetration), else shortened by mu_k * penetration (Macklin et al.
 * 2014). Returns the corrected displacement d. */
DR_FN dr_vec4 dr_project_contact(dr_vec4 d, dr_vec4 x, dr_contact ct,
                                 DR_GLOBAL const dr_collider *colliders, float h)
{
    if (!dr_has_contact(ct) || d.w <= 0.0f)
        return d;
    float depth = -dr_dot3(dr_add3(dr_sub3(x, ct.q), d), ct.n);
    if (depth <= 0.0f)
        return d;
    d = dr_madd3(d, ct.n, depth);
    DR_GLOBAL const dr_collider *c = &colliders[(int)ct.q.w];
    dr_vec4 rel = dr_madd3(d, c->vel, -h);
    dr_vec4 dt = dr_madd3(rel, ct.n, -dr_dot3(rel, ct.n));
    float lt = dr_len3(dt);
    if (lt <= c->info.x * depth)
        return dr_sub3(d, dt);
    if (lt > DR_EPS)
        d = dr_madd3(d, dt, -DR_FMIN(c->info.y * depth / lt, 1.0f));
    return d;
}

/* After v = d / h: restitution for a particle in contact. An approach faster than
 * `threshold` (m/s) bounces back with e times its speed; slower ones rest, so that resting contact
 * does not jitter. */
DR_FN dr_vec4 dr_contact_velocity(dr_vec4 v, dr_contact ct, DR_GLOBAL const dr_collider *colliders,
                                  float threshold)
{
    if (ct.q.w < 0.0f)
        return v;
    DR_GLOBAL const dr_collider *c = &colliders[(int)ct.q.w];
    float e = c->vel.w;
    float vn_before = ct.n.w;
    if (e <= 0.0f || vn_before >= -threshold)
        return v;
    float vn = dr_dot3(dr_sub3(v, c->vel), ct.n);
    float target = -e * vn_before;
    if (vn >= target)
        return v;
    return dr_madd3(v, ct.n, target - vn);
}

/* The end of a substep for one particle: its new velocity (x becomes x + d). Velocity Verlet sets
 * keep_free_velocity: it has its own velocity for particles no contact moved. */
DR_FN dr_vec4 dr_update_particle(dr_vec4 d, dr_vec4 v, dr_contact ct,
                                 DR_GLOBAL const dr_collider *colliders, float h, float threshold,
                                 int keep_free_velocity)
{
    if (!keep_free_velocity || ct.q.w >= 0.0f)
        v = dr_update_velocity(d, v, h);
    return dr_contact_velocity(v, ct, colliders, threshold);
}

/* ---- diagnostics ----------------------------------------------------------------------------- */

/* m |v|^2 of a movable particle (twice its kinetic energy, J); 0 for a pinned one. */
DR_FN float dr_twice_kinetic(dr_vec4 x, dr_vec4 v)
{
    return x.w > 0.0f ? dr_dot3(v, v) / x.w : 0.0f;
}

/* (|xa - xb| - rest)^2 of a distance constraint, m^2. */
DR_FN float dr_distance_violation2(dr_vec4 xa, dr_vec4 xb, float rest)
{
    float c = dr_len3(dr_sub3(xa, xb)) - rest;
    return c * c;
}

/* ---- rendering: vertex normals --------------------------------------------------------------- */
/*
 * A viewer lights the cloth with per-vertex normals; the world computes them where the state lives
 * (kernels/render.cl on the device, host/render.c on the CPU), with these two functions. Each vertex
 * gathers over its own list of incident triangles (an adjacency built once on the host), so that no
 * two work-items write one normal and the sum runs in the same order on both backends.
 */

/* The area-weighted normal of the triangle (a, b, c), counter-clockwise seen from the front: twice
 * its area (m^2) times its unit normal. */
DR_FN dr_vec4 dr_triangle_area_normal(dr_vec4 a, dr_vec4 b, dr_vec4 c)
{
    return dr_cross3(dr_sub3(b, a), dr_sub3(c, a));
}

/* The unit area-weighted normal of a vertex whose incident triangles are incident[begin .. end - 1]
 * (indices into `triangles`, three particle indices each); w = 0. Zero when those triangles have no
 * area, or the vertex has none. */
DR_FN dr_vec4 dr_vertex_normal(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const unsigned *triangles,
                               DR_GLOBAL const unsigned *incident, unsigned begin, unsigned end)
{
    dr_vec4 sum = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    for (unsigned k = begin; k < end; ++k) {
        unsigned t = 3u * incident[k];
        sum = dr_add3(sum, dr_triangle_area_normal(x[triangles[t]], x[triangles[t + 1u]],
                                                   x[triangles[t + 2u]]));
    }
    float len = dr_len3(sum);
    if (len < DR_EPS * DR_EPS)
        return DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    return DR_V4(sum.x / len, sum.y / len, sum.z / len, 0.0f); /* a flat cloth's is exactly unit */
}

/* A particle's position as a viewer draws it: xyz (m), w = 0 (the inverse mass dropped). */
DR_FN dr_vec4 dr_render_position(dr_vec4 x) { return DR_V4(x.x, x.y, x.z, 0.0f); }

#endif /* DRAPE_SHARED_H */

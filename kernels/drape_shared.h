/* The constraint maths of drape, written once in the common subset of C17 and OpenCL C 1.2.
 *
 * The CPU reference solver (host/) includes this file as C; the OpenCL kernels (the .cl files
 * beside it)
 * include it as OpenCL C. Every per-particle and per-constraint formula of the step lives here, so
 * the two backends cannot drift apart: they differ only in how they loop.
 *
 * Positions are float4 with the inverse mass in w (0 = pinned). The xyz helpers below keep the w of
 * their first operand, so `p = dr_add3(p, d)` moves a particle and keeps its inverse mass.
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
typedef float4 dr_vec4;
#define DR_FN static inline
#define DR_GLOBAL __global
#define DR_V4(x, y, z, w) ((float4)((x), (y), (z), (w)))
#define DR_SQRT sqrt
#define DR_ACOS acos
#define DR_FMIN fmin
#define DR_FMAX fmax
#else
#include <math.h>
typedef struct dr_vec4 {
    _Alignas(16) float x;
    float y, z, w;
} dr_vec4;
#define DR_FN static inline
#define DR_GLOBAL
#define DR_V4(x, y, z, w) ((dr_vec4){(x), (y), (z), (w)})
#define DR_SQRT sqrtf
#define DR_ACOS acosf
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

/* ---- stiffness ------------------------------------------------------------------------------- */

/* The multiplier step of one constraint with value C and generalised inverse mass
 * wsum = sum_i w_i |grad_i C|^2. PBD (compliance < 0): the classic step scaled by the
 * iteration-corrected stiffness k'. XPBD (compliance >= 0): Macklin et al. eq. 18 with
 * alpha~ = compliance / h^2 and the multiplier lambda accumulated so far in this substep. */
DR_FN float dr_delta_lambda(float C, float wsum, float kprime, float compliance, float inv_h2,
                            float lambda)
{
    if (compliance < 0.0f)
        return -C * kprime / wsum;
    float alpha = compliance * inv_h2;
    return (-C - alpha * lambda) / (wsum + alpha);
}

/* ---- constraints ----------------------------------------------------------------------------- */

/* C = |pa - pb| - rest. */
DR_FN void dr_solve_distance(DR_GLOBAL dr_vec4 *p, unsigned a, unsigned b, float rest, float kprime,
                             float compliance, float inv_h2, DR_GLOBAL float *lambda)
{
    dr_vec4 pa = p[a], pb = p[b];
    float wsum = pa.w + pb.w;
    if (wsum <= 0.0f)
        return;
    dr_vec4 d = dr_sub3(pa, pb);
    float len = dr_len3(d);
    if (len < DR_EPS)
        return;
    float dl = dr_delta_lambda(len - rest, wsum, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    float s = dl / len;
    p[a] = dr_madd3(pa, d, pa.w * s);
    p[b] = dr_madd3(pb, d, -pb.w * s);
}

/* C = |p - target| with rest length 0: a particle tied to a point. */
DR_FN void dr_solve_attachment(DR_GLOBAL dr_vec4 *p, unsigned a, dr_vec4 target, float kprime,
                               float compliance, float inv_h2, DR_GLOBAL float *lambda)
{
    dr_vec4 pa = p[a];
    if (pa.w <= 0.0f)
        return;
    dr_vec4 d = dr_sub3(pa, target);
    float len = dr_len3(d);
    if (len < DR_EPS)
        return;
    float dl = dr_delta_lambda(len, pa.w, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    p[a] = dr_madd3(pa, d, pa.w * dl / len);
}

/* Unit normals of the triangles (e0, e1, w0) and (e1, e0, w1). */
DR_FN float dr_dihedral_cos(dr_vec4 e0, dr_vec4 e1, dr_vec4 w0, dr_vec4 w1)
{
    dr_vec4 n1 = dr_cross3(dr_sub3(e0, w0), dr_sub3(e1, w0));
    dr_vec4 n2 = dr_cross3(dr_sub3(e1, w1), dr_sub3(e0, w1));
    float l = dr_len3(n1) * dr_len3(n2);
    if (l < DR_EPS * DR_EPS)
        return 1.0f;
    return DR_FMIN(1.0f, DR_FMAX(-1.0f, dr_dot3(n1, n2) / l));
}

/* The angle (rad) between the normals of the two triangles: 0 when they lie flat. */
DR_FN float dr_dihedral_angle(dr_vec4 e0, dr_vec4 e1, dr_vec4 w0, dr_vec4 w1)
{
    return DR_ACOS(dr_dihedral_cos(e0, e1, w0, w1));
}

/* C = angle - rest over the shared edge e0-e1 (PBD paper, appendix A). */
DR_FN void dr_solve_dihedral(DR_GLOBAL dr_vec4 *p, unsigned ie0, unsigned ie1, unsigned iw0,
                             unsigned iw1, float rest, float kprime, float compliance,
                             float inv_h2, DR_GLOBAL float *lambda)
{
    dr_vec4 e0 = p[ie0], e1 = p[ie1], w0 = p[iw0], w1 = p[iw1];
    dr_vec4 e = dr_sub3(e1, e0);
    float elen = dr_len3(e);
    if (elen < DR_EPS)
        return;
    dr_vec4 n1 = dr_cross3(dr_sub3(e0, w0), dr_sub3(e1, w0));
    dr_vec4 n2 = dr_cross3(dr_sub3(e1, w1), dr_sub3(e0, w1));
    float n1sq = dr_dot3(n1, n1), n2sq = dr_dot3(n2, n2);
    if (n1sq < DR_EPS * DR_EPS || n2sq < DR_EPS * DR_EPS)
        return;
    n1 = dr_scale3(n1, 1.0f / n1sq);
    n2 = dr_scale3(n2, 1.0f / n2sq);
    float inv_elen = 1.0f / elen;
    /* Gradients of the angle with respect to w0, w1, e0, e1 (up to a common sign). */
    dr_vec4 g_w0 = dr_scale3(n1, elen);
    dr_vec4 g_w1 = dr_scale3(n2, elen);
    dr_vec4 g_e0 = dr_add3(dr_scale3(n1, dr_dot3(dr_sub3(w0, e1), e) * inv_elen),
                           dr_scale3(n2, dr_dot3(dr_sub3(w1, e1), e) * inv_elen));
    dr_vec4 g_e1 = dr_add3(dr_scale3(n1, dr_dot3(dr_sub3(e0, w0), e) * inv_elen),
                           dr_scale3(n2, dr_dot3(dr_sub3(e0, w1), e) * inv_elen));
    float wsum = w0.w * dr_dot3(g_w0, g_w0) + w1.w * dr_dot3(g_w1, g_w1) +
                 e0.w * dr_dot3(g_e0, g_e0) + e1.w * dr_dot3(g_e1, g_e1);
    if (wsum <= 0.0f)
        return;
    float c = dr_dot3(n1, n2) * DR_SQRT(n1sq) * DR_SQRT(n2sq);
    float angle = DR_ACOS(DR_FMIN(1.0f, DR_FMAX(-1.0f, c)));
    float dl = dr_delta_lambda(angle - rest, wsum, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    /* The gradients above point towards a smaller angle when the hinge folds one way; flip them
     * when it folds the other way. */
    if (dr_dot3(dr_cross3(n1, n2), e) > 0.0f)
        dl = -dl;
    p[iw0] = dr_madd3(w0, g_w0, w0.w * dl);
    p[iw1] = dr_madd3(w1, g_w1, w1.w * dl);
    p[ie0] = dr_madd3(e0, g_e0, e0.w * dl);
    p[ie1] = dr_madd3(e1, g_e1, e1.w * dl);
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

/* v = (p - x) / h, the PBD velocity update. A particle that no constraint moved keeps its v
 * bitwise, so that free flight is exactly semi-implicit Euler. */
DR_FN dr_vec4 dr_update_velocity(dr_vec4 x, dr_vec4 p, dr_vec4 v, float h)
{
    dr_vec4 predicted = dr_madd3(x, v, h);
    if (p.x == predicted.x && p.y == predicted.y && p.z == predicted.z)
        return v;
    return dr_scale3(dr_sub3(p, x), 1.0f / h);
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

/* generateCollisionConstraints for one particle (seed 000): the ray x -> p against every collider.
 * If the ray enters a collider the constraint sits at the entry point; if p was already inside, it
 * sits at the nearest surface point. The collider reached deepest wins. t is the substep's start. */
DR_FN dr_contact dr_generate_contact(dr_vec4 x, dr_vec4 p, dr_vec4 v,
                                     DR_GLOBAL const dr_collider *colliders, unsigned count,
                                     float t, float h, float margin)
{
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

/* The collision constraint (p - q) . n >= 0, then Coulomb friction at the position level: the
 * tangential motion relative to the collider over the substep is cancelled while it is within the
 * static cone (mu_s * penetration), else shortened by mu_k * penetration (Macklin et al. 2014). */
DR_FN dr_vec4 dr_project_contact(dr_vec4 p, dr_vec4 x, dr_contact ct,
                                 DR_GLOBAL const dr_collider *colliders, float h)
{
    if (ct.q.w < 0.0f || p.w <= 0.0f)
        return p;
    float depth = -dr_dot3(dr_sub3(p, ct.q), ct.n);
    if (depth <= 0.0f)
        return p;
    p = dr_madd3(p, ct.n, depth);
    DR_GLOBAL const dr_collider *c = &colliders[(int)ct.q.w];
    dr_vec4 dx = dr_madd3(dr_sub3(p, x), c->vel, -h);
    dr_vec4 dt = dr_madd3(dx, ct.n, -dr_dot3(dx, ct.n));
    float lt = dr_len3(dt);
    if (lt <= c->info.x * depth)
        return dr_sub3(p, dt);
    if (lt > DR_EPS)
        p = dr_madd3(p, dt, -DR_FMIN(c->info.y * depth / lt, 1.0f));
    return p;
}

/* After v = (p - x) / h: restitution for a particle in contact. An approach faster than
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

#endif /* DRAPE_SHARED_H */

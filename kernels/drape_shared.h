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
 * References: Müller, Heidelberger, Hennix, Ratcliff, "Position Based Dynamics" (2007) for the
 * loop, the distance and the dihedral-bending constraints, damping and collision constraints;
 * Macklin, Müller, Chentanez, "XPBD" (2016) for compliance; Macklin et al., "Unified Particle
 * Physics for Real-Time Applications" (2014) for position-level friction. The dihedral gradients
 * follow Bender's PositionBasedDynamics library (MIT). The mass-spring forces follow the Taichi
 * mass-spring cloth demo (structural, shear and bending springs, semi-implicit Euler and velocity
 * Verlet).
 */
#ifndef DRAPE_SHARED_H
#define DRAPE_SHARED_H

#ifdef __OPENCL_VERSION__
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64) && !defined(DR_NO_FP64) /* DR_NO_FP64: doubles hidden (dr_cl.h) */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double dr_wide; /* global sums: double where the device has it, as on the CPU */
#else
typedef float dr_wide;
#endif
typedef float4 dr_vec4;
#define DR_FN static inline
/* A function of a hot loop that the device compiler must inline: PoCL (clang) kept the particle
 * contacts' pair push and cell walk as calls, with every live value spilled around each one. */
#ifdef __clang__
#define DR_HOT static inline __attribute__((always_inline))
#else
#define DR_HOT static inline
#endif
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
#define DR_HOT static inline
#define DR_GLOBAL
#define DR_V4(x, y, z, w) ((dr_vec4){(x), (y), (z), (w)})
#define DR_SQRT sqrtf
/* fminf and fmaxf, inline (without -ffast-math compilers call the C library for them, with every
 * register saved around the call): the same result for every pair of floats that arithmetic makes,
 * NaN and signed zeros included (the other operand where one is NaN); only a signalling NaN's
 * comes out differently, which no arithmetic makes. */
static inline float dr_fminf(float a, float b) { return a < b || b != b ? a : b; }
static inline float dr_fmaxf(float a, float b) { return a > b || b != b ? a : b; }
#define DR_FMIN dr_fminf
#define DR_FMAX dr_fmaxf
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

/* ---- lanes: formulas written once for one constraint or for sixteen ----------------------------
 */
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
 * ez) the same pair at the substep's start (inverse masses aw, bw), beta_sag the weight of the sag
 * (dr_sag_weight, below: worked out by the caller, which may choose by it). Moves the displacements
 * of a and b in place by the PBD/XPBD step, accumulates lambda for XPBD, and returns the mask of
 * the lanes where the constraint applies (some mass is free and a, b do not coincide); the caller
 * writes back only those lanes, and of them only unpinned particles.
 *
 * The direction of the correction. Along e, the gradient at the substep's start, a correction of
 * the pair moves no angular momentum about the start positions, and v = d / h then keeps the
 * angular momentum of internal constraints exactly (SHAKE: Ryckaert, Ciccotti, Berendsen 1977);
 * along r, the current gradient of the PBD paper, it bleeds angular momentum at a rate proportional
 * to h. But SHAKE's projections have a non-symmetric Jacobian, grad C(p) M^-1 grad C(x)^T, whose
 * Gauss-Seidel iteration feeds energy into the motion once links turn within a substep: at 1
 * substep a 40-link chain hanging under gravity never came to rest with it (0.02 to 1.4 m/s after
 * 20 s, whatever the iterations), while the PBD direction, a true projection, brings it to rest
 * (3e-6 m/s). So the correction runs along the blend G = (1 - beta) e/|e| + beta r/|r| and takes
 * the Newton step of C along G: dlambda = -C / (wsum r/|r| . G) (XPBD: plus alpha~). beta =
 * max(beta_turn, beta_sag), each a smoothstep, so that the blend is continuous: beta_turn from
 * cos(r, e): 0 while the link turned less than 14 degrees in the substep (DR_SHAKE_COS), 1 past 32
 * degrees (DR_PBD_COS): an impact, where SHAKE's Newton step, which grows as 1 / cos, overshoots;
 *   beta_sag from sag / rest, the fall |g| h^2 of a substep against the link's length: 0 below 1%
 *     (DR_SHAKE_SAG), 1 above 4% (DR_PBD_SAG). It depends only on the settings, not on the state,
 * so that no link can oscillate about a switch. At the default 4 substeps of 1/240 s a 2 cm link
 *     sags 0.9% per substep and keeps SHAKE's angular momentum; at 1 substep of 1/60 s it sags 14%
 *     and is projected the PBD way. Such a link (beta_sag = 1: sag at least DR_PBD_SAG of its rest
 *     length) takes the correction along r alone, without the term along e: the blend's result at
 *     beta = 1 up to the sign of a zero. Where every lane of a vector is such a link, e's length,
 *     the cosine and the term are not even computed: at one substep (every link of a cloth finer
 *     than 7 cm at 1/60 s) that saves one of the two square roots and two of the five divisions.
 */
#define DR_SHAKE_COS 0.97f /* cos 14.1 deg */
#define DR_PBD_COS 0.85f   /* cos 31.8 deg */
#define DR_SHAKE_SAG 0.01f
#define DR_PBD_SAG 0.04f

/* smoothstep of (v - lo) / (hi - lo) into beta; NaN gives 0. Comparisons, not fmin/fmax, so that
 * the CPU compiles them to min/max instructions rather than library calls. */
#define DR_SMOOTHSTEP(real, v, lo, hi, beta)                                                       \
    do {                                                                                           \
        real t_ = ((v) - (lo)) * (1.0f / ((hi) - (lo)));                                           \
        t_ = t_ > 0.0f ? t_ : 0.0f;                                                                \
        t_ = t_ < 1.0f ? t_ : 1.0f;                                                                \
        beta = t_ * t_ * (3.0f - 2.0f * t_);                                                       \
    } while (0)

/* The weight of the current gradient for a turn of the given cosine (a larger turn: more). */
#define DR_BLEND_WEIGHT(real, cosine, beta)                                                        \
    DR_SMOOTHSTEP(real, -(cosine), -DR_SHAKE_COS, -DR_PBD_COS, beta)

#define DR_LANE_FUNCTIONS(S, real, mask)                                                           \
    DR_FN real dr_delta_lambda##S(real C, real wsum, real kprime, real compliance, float inv_h2,   \
                                  real lambda)                                                     \
    {                                                                                              \
        mask pbd = compliance < 0.0f;                                                              \
        real alpha = compliance * inv_h2;                                                          \
        return (pbd ? -C * kprime : -C - alpha * lambda) / (pbd ? wsum : wsum + alpha);            \
    }                                                                                              \
                                                                                                   \
    /* beta_sag: the weight of the current gradient from the sag of a substep alone (1: PBD). */   \
    DR_FN real dr_sag_weight##S(real rest, float sag)                                              \
    {                                                                                              \
        /* sag / rest, divided only where it can reach DR_SHAKE_SAG (a select on vector lanes) */  \
        real sag_ratio = sag > DR_SHAKE_SAG * rest ? sag / rest : 0.0f, beta_sag;                  \
        DR_SMOOTHSTEP(real, sag_ratio, DR_SHAKE_SAG, DR_PBD_SAG, beta_sag);                        \
        return beta_sag;                                                                           \
    }                                                                                              \
                                                                                                   \
    /* The step's multiplier, accumulated into *lambda, as shares: the corrections are             \
     * a += aw (sr r + se e), b -= bw (sr r + se e); se is 0 where *pbd (the lanes of beta_sag =   \
     * 1, which take sr r alone); e is not read where every lane is *pbd, and is replaced by r     \
     * where it is too short to give a direction. */                                               \
    DR_FN mask dr_distance_shares##S(real *ex, real *ey, real *ez, real rx, real ry, real rz,      \
                                     real aw, real bw, real rest, real kprime, real compliance,    \
                                     float inv_h2, real beta_sag, real *lambda, real *sr,          \
                                     real *se, mask *pbd)                                          \
    {                                                                                              \
        real wsum = aw + bw;                                                                       \
        real len = DR_SQRT(rx * rx + ry * ry + rz * rz);                                           \
        mask ok = !(wsum <= 0.0f) & !(len < DR_EPS);                                               \
        real beta = 1.0f, along = 1.0f, elen = 1.0f;                                               \
        /* beta_sag = 1: G = r/|r| whatever the turn; e is not needed where every lane is so */    \
        *pbd = beta_sag >= 1.0f;                                                                   \
        int blend = !DR_ALL##S(*pbd);                                                              \
        if (blend) { /* beta and along come out 1 on the lanes of pbd */                           \
            real ux = *ex, uy = *ey, uz = *ez;                                                     \
            mask have_e = (ux * ux + uy * uy + uz * uz) >= DR_EPS * DR_EPS;                        \
            ux = have_e ? ux : rx, uy = have_e ? uy : ry, uz = have_e ? uz : rz;                   \
            *ex = ux, *ey = uy, *ez = uz; /* the direction the correction takes */                 \
            elen = DR_SQRT(ux * ux + uy * uy + uz * uz);                                           \
            real cosine = (rx * ux + ry * uy + rz * uz) / (len * elen);                            \
            DR_BLEND_WEIGHT(real, cosine, beta);                                                   \
            beta = beta > beta_sag ? beta : beta_sag;                                              \
            along = (1.0f - beta) * cosine + beta; /* r/|r| . G */                                 \
        }                                                                                          \
        real dl =                                                                                  \
            dr_delta_lambda##S(len - rest, wsum * along, kprime, compliance, inv_h2, *lambda);     \
        *lambda = (ok & (compliance >= 0.0f)) ? *lambda + dl : *lambda;                            \
        /* along r/|r| and e/|e|: the unnormalised vectors scaled by their share of dl / length */ \
        *sr = beta > 0.0f ? dl * beta / len : 0.0f;                                                \
        *se = 0.0f;                                                                                \
        if (blend)                                                                                 \
            *se = dl * (1.0f - beta) / elen;                                                       \
        return ok;                                                                                 \
    }                                                                                              \
                                                                                                   \
    DR_FN mask dr_distance_step##S(real ex, real ey, real ez, real rx, real ry, real rz, real *ax, \
                                   real *ay, real *az, real aw, real *bx, real *by, real *bz,      \
                                   real bw, real rest, real kprime, real compliance, float inv_h2, \
                                   real beta_sag, real *lambda)                                    \
    {                                                                                              \
        real sr, se;                                                                               \
        mask pbd;                                                                                  \
        mask ok = dr_distance_shares##S(&ex, &ey, &ez, rx, ry, rz, aw, bw, rest, kprime,           \
                                        compliance, inv_h2, beta_sag, lambda, &sr, &se, &pbd);     \
        real sra = aw * sr, srb = -bw * sr;                                                        \
        real ax_ = *ax + rx * sra, ay_ = *ay + ry * sra, az_ = *az + rz * sra;                     \
        real bx_ = *bx + rx * srb, by_ = *by + ry * srb, bz_ = *bz + rz * srb;                     \
        if (!DR_ALL##S(pbd)) { /* both operands of a select vectors: Oclgrind miscomputed a        \
                                  scalar one */                                                    \
            real sea = aw * se, seb = -bw * se;                                                    \
            ax_ = pbd ? ax_ : *ax + ex * sea + rx * sra;                                           \
            ay_ = pbd ? ay_ : *ay + ey * sea + ry * sra;                                           \
            az_ = pbd ? az_ : *az + ez * sea + rz * sra;                                           \
            bx_ = pbd ? bx_ : *bx + ex * seb + rx * srb;                                           \
            by_ = pbd ? by_ : *by + ey * seb + ry * srb;                                           \
            bz_ = pbd ? bz_ : *bz + ez * seb + rz * srb;                                           \
        }                                                                                          \
        *ax = ax_, *ay = ay_, *az = az_, *bx = bx_, *by = by_, *bz = bz_;                          \
        return ok;                                                                                 \
    }

/* Whether every lane of a mask is set: a scalar mask is 0 or 1, a vector one 0 or -1 per lane. */
#define DR_ALL(m) (m)
#ifdef __OPENCL_VERSION__
#define DR_ALL16(m) all(m)
#endif
DR_LANE_FUNCTIONS(, float, int)
#ifdef __OPENCL_VERSION__
DR_LANE_FUNCTIONS(16, float16, int16)
#endif

/* What the constraints of one solver set share rather than carry each: the iteration-corrected PBD
 * stiffness k' and the XPBD compliance (< 0: PBD). A set keeps one entry per distinct pair and a
 * 4-byte index per constraint (host/constraints.c, dr_solver_set.material), so a projection reads 4
 * bytes for both where it read 8; the table is a handful of entries that stay in cache. 8 bytes,
 * the same layout in C and OpenCL C. */
typedef struct dr_material {
    float kprime;     /* 1 - (1 - k)^(1/iterations) */
    float compliance; /* m/N (XPBD), < 0 for PBD */
} dr_material;

/* ---- constraints ----------------------------------------------------------------------------- */
/*
 * Each projection is a core on values, written once: xs[k], the positions at the substep's start of
 * its particles, and ds[k], their displacements (w: the inverse mass), which it corrects in place;
 * *lambda, its XPBD multiplier in private memory. It returns whether the constraint applied; only
 * then does the caller keep the corrections: the multiplier (XPBD only: PBD never reads or writes
 * it) and the displacement of each movable particle (pinned particles are never written, since the
 * constraints of one colour may share them). DR_GATHER declares xs_, ds_ and l_ and fills them
 * (LOAD(i): displacement i), the caller calls the core on them, and DR_KEEP writes back what it
 * returned (STORE(i, v)): with the accessors of global memory (and the CPU's arrays) in the
 * dr_solve_* wrappers below, of a work-group's local copy in solve_fused_local
 * (kernels/project.cl). Both see the same values in the same order, so every backend and kernel
 * variant gets bitwise the same results. No variadic macros and no function names as values: OpenCL
 * C 1.2 forbids the first (NVIDIA's compiler refuses them; tests/kernel_lint.sh checks), hence the
 * call written out.
 */
#define DR_GATHER(n, idx, x, LOAD, compliance, lambda)                                             \
    dr_vec4 xs_[n], ds_[n];                                                                        \
    for (int k_ = 0; k_ < (n); ++k_)                                                               \
        xs_[k_] = (x)[(idx)[k_]], ds_[k_] = LOAD((idx)[k_]);                                       \
    float l_ = (compliance) >= 0.0f ? *(lambda) : 0.0f
#define DR_KEEP(applied, n, idx, STORE, compliance, lambda)                                        \
    do {                                                                                           \
        if (applied) {                                                                             \
            if ((compliance) >= 0.0f)                                                              \
                *(lambda) = l_;                                                                    \
            for (int k_ = 0; k_ < (n); ++k_)                                                       \
                if (ds_[k_].w > 0.0f)                                                              \
                    STORE((idx)[k_], ds_[k_]);                                                     \
        }                                                                                          \
    } while (0)

/* The accessors of displacements d in global memory (or the CPU's array). */
#define DR_LOAD_D(i) d[i]
#define DR_STORE_D(i, v) d[i] = (v)

/* C = |pa - pb| - rest, on the predicted positions x + d; corrects d along the blend of the start
 * and the current gradient (dr_distance_step). */
DR_FN int dr_distance_core(const dr_vec4 *xs, dr_vec4 *ds, float rest, float kprime,
                           float compliance, float inv_h2, float sag, float *lambda)
{
    dr_vec4 da = ds[0], db = ds[1];
    dr_vec4 e = dr_sub3(xs[0], xs[1]);
    dr_vec4 r = dr_add3(e, dr_sub3(da, db));
    float ax = da.x, ay = da.y, az = da.z, bx = db.x, by = db.y, bz = db.z;
    if (!dr_distance_step(e.x, e.y, e.z, r.x, r.y, r.z, &ax, &ay, &az, da.w, &bx, &by, &bz, db.w,
                          rest, kprime, compliance, inv_h2, dr_sag_weight(rest, sag), lambda))
        return 0;
    ds[0] = DR_V4(ax, ay, az, da.w);
    ds[1] = DR_V4(bx, by, bz, db.w);
    return 1;
}

DR_FN void dr_solve_distance(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned a,
                             unsigned b, float rest, float kprime, float compliance, float inv_h2,
                             float sag, DR_GLOBAL float *lambda)
{
    const unsigned idx[2] = {a, b};
    DR_GATHER(2, idx, x, DR_LOAD_D, compliance, lambda);
    DR_KEEP(dr_distance_core(xs_, ds_, rest, kprime, compliance, inv_h2, sag, &l_), 2, idx,
            DR_STORE_D, compliance, lambda);
}

/* C = |p - target| with rest length 0: a particle tied to a point. */
DR_FN int dr_attachment_core(const dr_vec4 *xs, dr_vec4 *ds, dr_vec4 target, float kprime,
                             float compliance, float inv_h2, float *lambda)
{
    dr_vec4 da = ds[0];
    if (da.w <= 0.0f)
        return 0;
    dr_vec4 r = dr_add3(dr_sub3(xs[0], target), da);
    float len = dr_len3(r);
    if (len < DR_EPS)
        return 0;
    float dl = dr_delta_lambda(len, da.w, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    ds[0] = dr_madd3(da, r, da.w * dl / len);
    return 1;
}

DR_FN void dr_solve_attachment(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned a,
                               dr_vec4 target, float kprime, float compliance, float inv_h2,
                               DR_GLOBAL float *lambda)
{
    const unsigned idx[1] = {a};
    DR_GATHER(1, idx, x, DR_LOAD_D, compliance, lambda);
    DR_KEEP(dr_attachment_core(xs_, ds_, target, kprime, compliance, inv_h2, &l_), 1, idx,
            DR_STORE_D, compliance, lambda);
}

/* A tether (Kim et al., "Long Range Attachments", SCA 2012): the one-sided C = |pa - pb| - max <= 0
 * between a particle a and its anchor b, which it treats as pinned (the paper's attachment point:
 * an anchor held by an attachment is not dragged down by the tethers of a whole cloth). Inside
 * max_length it does nothing; beyond, it is the distance constraint to max_length
 * (dr_distance_core, whose step then only shortens).
 * The test is on the squared length, so that a tether at rest costs one dot product. */
DR_FN int dr_tether_core(const dr_vec4 *xs, dr_vec4 *ds, float max_length, float kprime,
                         float compliance, float inv_h2, float sag, float *lambda)
{
    ds[1].w = 0.0f; /* the anchor is never moved (so never stored: DR_KEEP stores w > 0 alone) */
    dr_vec4 r = dr_add3(dr_sub3(xs[0], xs[1]), dr_sub3(ds[0], ds[1]));
    if (dr_dot3(r, r) <= max_length * max_length)
        return 0;
    return dr_distance_core(xs, ds, max_length, kprime, compliance, inv_h2, sag, lambda);
}

DR_FN void dr_solve_tether(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned a, unsigned b,
                           float max_length, float kprime, float compliance, float inv_h2,
                           float sag, DR_GLOBAL float *lambda)
{
    const unsigned idx[2] = {a, b};
    DR_GATHER(2, idx, x, DR_LOAD_D, compliance, lambda);
    DR_KEEP(dr_tether_core(xs_, ds_, max_length, kprime, compliance, inv_h2, sag, &l_), 2, idx,
            DR_STORE_D, compliance, lambda);
}

/* Six times the signed volume of the tetrahedron (0, a, b, c): a . (b x c), m^3. */
DR_FN float dr_volume6(dr_vec4 a, dr_vec4 b, dr_vec4 c) { return dr_dot3(a, dr_cross3(b, c)); }

/* The gradients of C6 = e1 . (e2 x e3) (six times the volume of the tetrahedron with edges e_k =
 * p_k - p_0) with respect to p_0 .. p_3, into g; returns C6. grad_k = e_(k+1) x e_(k+2) (cyclic),
 * grad_0 = -(the sum of the others). */
DR_FN float dr_volume_gradients(dr_vec4 e1, dr_vec4 e2, dr_vec4 e3, dr_vec4 *g)
{
    g[1] = dr_cross3(e2, e3);
    g[2] = dr_cross3(e3, e1);
    g[3] = dr_cross3(e1, e2);
    g[0] = dr_scale3(dr_add3(dr_add3(g[1], g[2]), g[3]), -1.0f);
    return dr_dot3(e1, g[1]);
}

/* The step of a constraint C on four particles along the blend G = (1 - beta) g(x) + beta g(p) of
 * its gradients at the substep's start (start, valid where start_ok) and on the predictions (now):
 * the start's carries no torque about the start positions (SHAKE's condition, so a spinning body
 * keeps its angular momentum), the current one takes over for large turns (beta from the cosine
 * between them, DR_BLEND_WEIGHT, as the distance constraint's). The Newton step along G: the
 * multiplier step is -C / (grad C(p) . M^-1 G), XPBD's with the compliance term. */
DR_FN int dr_blended_step4(const dr_vec4 *now, const dr_vec4 *start, int start_ok, dr_vec4 *ds,
                           float C, float kprime, float compliance, float inv_h2, float *lambda)
{
    float cross = 0.0f, now2 = 0.0f, start2 = 0.0f;
    for (int i = 0; i < 4; ++i) {
        float w = ds[i].w;
        cross += w * dr_dot3(now[i], start[i]);
        now2 += w * dr_dot3(now[i], now[i]);
        start2 += w * dr_dot3(start[i], start[i]);
    }
    float beta = 1.0f;
    if (start_ok && start2 > 0.0f)
        DR_BLEND_WEIGHT(float, cross / DR_SQRT(now2 * start2), beta);
    float wsum = (1.0f - beta) * cross + beta * now2; /* grad C(p) . M^-1 G */
    if (!(wsum > 0.0f))
        return 0;
    float dl = dr_delta_lambda(C, wsum, kprime, compliance, inv_h2, *lambda);
    if (compliance >= 0.0f)
        *lambda += dl;
    for (int i = 0; i < 4; ++i)
        if (ds[i].w > 0.0f) {
            dr_vec4 g = dr_add3(dr_scale3(start[i], 1.0f - beta), dr_scale3(now[i], beta));
            ds[i] = dr_madd3(ds[i], g, ds[i].w * dl);
        }
    return 1;
}

/* The volume of a tetrahedron (PBD paper, section 4.3): C = 6 (V - V0) = e1 . (e2 x e3) - 6 V0 with
 * e_k = p_k - p_0 on the predicted positions (formed as (x_k - x_0) + (d_k - d_0), exact for nearby
 * particles); each movable particle moves by w_k G_k times the multiplier step, G the blend of the
 * gradients at the start and now (dr_blended_step4). rest6 is 6 V0. */
DR_FN int dr_volume_core(const dr_vec4 *xs, dr_vec4 *ds, float rest6, float kprime,
                         float compliance, float inv_h2, float *lambda)
{
    dr_vec4 e[4], p[4], now[4], start[4];
    for (int k = 1; k < 4; ++k)
        e[k] = dr_sub3(xs[k], xs[0]), p[k] = dr_add3(e[k], dr_sub3(ds[k], ds[0]));
    float C = dr_volume_gradients(p[1], p[2], p[3], now) - rest6;
    dr_volume_gradients(e[1], e[2], e[3], start);
    return dr_blended_step4(now, start, 1, ds, C, kprime, compliance, inv_h2, lambda);
}

DR_FN void dr_solve_volume(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned i0,
                           unsigned i1, unsigned i2, unsigned i3, float rest6, float kprime,
                           float compliance, float inv_h2, DR_GLOBAL float *lambda)
{
    const unsigned idx[4] = {i0, i1, i2, i3};
    DR_GATHER(4, idx, x, DR_LOAD_D, compliance, lambda);
    DR_KEEP(dr_volume_core(xs_, ds_, rest6, kprime, compliance, inv_h2, &l_), 4, idx, DR_STORE_D,
            compliance, lambda);
}

/* ---- small turns ---------------------------------------------------------------------------- */

/* u + phi x u: u turned by the small angle phi (rad), to first order. */
DR_FN dr_vec4 dr_madd_cross(dr_vec4 u, dr_vec4 phi) { return dr_add3(u, dr_cross3(phi, u)); }

/* The solution phi of K phi = b for the matrix of columns k[0..2], by Cramer's rule; 0 where K is
 * singular to 1e-4 of scale^3 (scale: the size of K's entries), e.g. a cluster on one line, which
 * has no rotation about that line to correct. */
DR_FN dr_vec4 dr_solve3(const dr_vec4 k[3], dr_vec4 b, float scale)
{
    dr_vec4 c12 = dr_cross3(k[1], k[2]);
    float det = dr_dot3(k[0], c12);
    if (!(DR_FMAX(det, -det) > 1e-4f * scale * scale * scale))
        return DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    return DR_V4(dr_dot3(b, c12) / det, dr_dot3(k[0], dr_cross3(b, k[2])) / det,
                 dr_dot3(k[0], dr_cross3(k[1], b)) / det, 0.0f);
}

/* The small turn phi that takes the torque out of a set of corrections (shape matching's fit, a
 * Neo-Hookean tetrahedron's step): each movable particle k, of mass m at s_k from the set's centre
 * at the substep's start, with correction D_k, gets D_k + phi x u_k instead (u_k its offset in the
 * shape being corrected), phi such that sum m s_k x (D_k + phi x u_k) = 0, as SHAKE's direction
 * makes a distance constraint's correction carry no torque about the start (dr_distance_step).
 * dr_turn_add sums one particle into t: its torque s x (force_weight corr), where force_weight corr
 * is the force behind the correction (m corr, or the constraint force on a pinned particle, which
 * corrects nothing but takes its share of the torque), the matrix K (columns k[0..2]) and s.u, s.s,
 * u.u; dr_turn_solve solves K phi = -tau and fades phi out as the distance constraint's blend does
 * for large turns (the cosine s.u / |s||u| from 0.97 to 0.85) and where K is so ill-conditioned
 * that phi is no longer small (0.05 to 0.1 rad: a set nearly on a line). */
typedef struct dr_turn {
    dr_vec4 tau, k[3];
    float su, ss, uu;
} dr_turn;

DR_FN dr_turn dr_turn_zero(void)
{
    dr_turn t;
    t.tau = t.k[0] = t.k[1] = t.k[2] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    t.su = t.ss = t.uu = 0.0f;
    return t;
}

DR_FN void dr_turn_add(dr_turn *t, dr_vec4 s, dr_vec4 u, dr_vec4 corr, float force_weight, float m)
{
    t->tau = dr_madd3(t->tau, dr_cross3(s, corr), force_weight);
    t->su += m * dr_dot3(s, u), t->ss += m * dr_dot3(s, s), t->uu += m * dr_dot3(u, u);
    t->k[0] = dr_madd3(t->k[0], u, -m * s.x);
    t->k[1] = dr_madd3(t->k[1], u, -m * s.y);
    t->k[2] = dr_madd3(t->k[2], u, -m * s.z);
}

DR_FN dr_vec4 dr_turn_solve(dr_turn t)
{
    t.k[0].x += t.su, t.k[1].y += t.su, t.k[2].z += t.su;
    float size = DR_SQRT(t.ss * t.uu), beta = 1.0f, fade;
    if (size > 0.0f)
        DR_BLEND_WEIGHT(float, t.su / size, beta);
    dr_vec4 phi = dr_solve3(t.k, dr_scale3(t.tau, -1.0f), size);
    DR_SMOOTHSTEP(float, DR_SQRT(dr_dot3(phi, phi)), 0.05f, 0.1f, fade);
    return dr_scale3(phi, (1.0f - beta) * (1.0f - fade));
}

/* The stable Neo-Hookean material as XPBD constraints per tetrahedron (Macklin and Müller, "A
 * Constraint-based Formulation of Stable Neo-Hookean Materials", MIG 2021; the energy is Smith, de
 * Goes, Kim, "Stable Neo-Hookean Flesh Simulation", 2018, without its log term):
 *   energy density  Psi = mu/2 (I_C - 3) + lambda/2 (J - gamma)^2,   gamma = 1 + mu / lambda,
 *   deviatoric      C_D = F (its nine entries), compliance alpha_D = 1 / (mu V0),
 *   hydrostatic     C_H = det F - gamma,        compliance alpha_H = 1 / (lambda V0),
 * with F = Ds Dm^-1, Ds = [p1 - p0, p2 - p0, p3 - p0] on the predicted positions and Dm the same at
 * rest; 1/2 alpha^-1 |C|^2 summed over the two is V0 Psi up to a constant (|F|^2 = I_C), and gamma
 * makes the rest shape stress-free (mu F + lambda (J - gamma) cof F = 0 at F = I).
 *
 * The paper's deviatoric constraint is the scalar C_D = |F|, whose energy is the same. But at rest
 * it is under tension (C_D = sqrt 3, balanced by the hydrostatic one), and the whole shear
 * stiffness of the material, mu in every direction across F / |F|, lies in its curvature
 * lambda_D grad^2 C_D, which XPBD's step (linear in C) does not see: shear was integrated
 * explicitly, and a body shook itself apart where the substep passed about the time a shear wave
 * takes to cross an element (E h^2 > 0.3 Pa s^2 for a box of 8 kg/m^3). F is linear in the
 * positions, F = sum_k p_k b_k^T (b_k the rows of B = Dm^-1, b_0 = -(b_1 + b_2 + b_3)), so taken
 * as nine constraints its gradient is constant and its step exact: the shear is implicit. (What
 * still bounds the substep is the hydrostatic constraint's own pre-stress, lambda (J - gamma) = -mu
 * at rest, whose curvature the step does not see either: docs/design.md.) Their multipliers form a
 * 3 x 3 matrix L.
 *
 * Gradients with respect to p_k: dF_ij/dp_k = e_i b_kj, so F's pull on p_k is L b_k; dC_H/dF =
 * cof F = [f2 x f3, f3 x f1, f1 x f2] (f_j the columns of F), so g_k = cof F b_k. The ten are
 * solved together in XPBD's step (Macklin et al. 2016, eq. 18, alpha~ = alpha / h^2); with
 * S = sum_k w_k b_k b_k^T, U = sum_k w_k g_k b_k^T, R_D = F + aD~ L, R_H = C_H + aH~ l_H:
 *   [ dL (S + aD~ I) + dl_H U                 ]   [ -R_D ]
 *   [ <U, dL> + (sum_k w_k |g_k|^2 + aH~) dl_H ] = [ -R_H ],
 * solved by eliminating dL = -(R_D + dl_H U) P, P = (S + aD~ I)^-1; every corner then moves by
 * w_k (dL b_k + dl_H g_k). At rest F's pull and the hydrostatic push cancel, so a body at rest
 * stays so in one iteration.
 *
 * mu and lambda here are the energy's parameters: matching its linearisation at F = I to linear
 * elasticity gives mu = mu_Lame, lambda = lambda_Lame + mu_Lame (host/neo_hookean.c converts
 * Young's modulus and Poisson's ratio that way). param holds, per tetrahedron, B row-major (9
 * floats), alpha_D, alpha_H (1/Pa/m^3) and gamma; lambda holds L row-major, then l_H. */
#define DR_NEO_HOOKEAN_PARAMS 12
#define DR_NEO_HOOKEAN_MULTIPLIERS 10

/* The columns f_j = sum_k e_k B[k][j] of F = Ds B. */
DR_FN void dr_deformation_gradient(const dr_vec4 e[4], const float B[9], dr_vec4 f[3])
{
    for (int j = 0; j < 3; ++j)
        f[j] = dr_add3(dr_add3(dr_scale3(e[1], B[j]), dr_scale3(e[2], B[3 + j])),
                       dr_scale3(e[3], B[6 + j]));
}

/* The edge vectors e_k = p_k - p_0 (k = 1..3) of the predicted positions. */
DR_FN void dr_tet_edges(DR_GLOBAL const dr_vec4 *x, const unsigned idx[4], const dr_vec4 ds[4],
                        dr_vec4 e[4])
{
    e[0] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 1; k < 4; ++k)
        e[k] = dr_add3(dr_sub3(x[idx[k]], x[idx[0]]), dr_sub3(ds[k], ds[0]));
}

/* Component i (0, 1, 2) of v. */
DR_FN float dr_comp3(dr_vec4 v, int i) { return i == 0 ? v.x : i == 1 ? v.y : v.z; }

/* Row i of X P, X and P 3 x 3 matrices given by their rows. */
DR_FN dr_vec4 dr_row_times(dr_vec4 xi, const dr_vec4 P[3])
{
    return dr_add3(dr_add3(dr_scale3(P[0], xi.x), dr_scale3(P[1], xi.y)), dr_scale3(P[2], xi.z));
}

/* The columns of cof F = [f2 x f3, f3 x f1, f1 x f2] for the columns f of F; returns det F. */
DR_FN float dr_cofactor(const dr_vec4 f[3], dr_vec4 cof[3])
{
    cof[0] = dr_cross3(f[1], f[2]);
    cof[1] = dr_cross3(f[2], f[0]);
    cof[2] = dr_cross3(f[0], f[1]);
    return dr_dot3(f[0], cof[0]);
}

DR_FN void dr_solve_neo_hookean(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned i0,
                                unsigned i1, unsigned i2, unsigned i3, DR_GLOBAL const float *param,
                                float inv_h2, DR_GLOBAL float *lambda)
{
    const unsigned idx[4] = {i0, i1, i2, i3};
    float B[9];
    for (int k = 0; k < 9; ++k)
        B[k] = param[k];
    dr_vec4 ds[4], e[4], f[3], cof[3], b[4], g[4], S[3], U[3], P[3], RP[3], UP[3];
    for (int k = 0; k < 4; ++k)
        ds[k] = d[idx[k]];
    dr_tet_edges(x, idx, ds, e);
    dr_deformation_gradient(e, B, f);
    for (int k = 1; k < 4; ++k)
        b[k] = DR_V4(B[3 * k - 3], B[3 * k - 2], B[3 * k - 1], 0.0f);
    b[0] = dr_scale3(dr_add3(dr_add3(b[1], b[2]), b[3]), -1.0f);
    /* hydrostatic: C_H = det F - gamma, g_k = cof F b_k */
    const float ch = dr_cofactor(f, cof) - param[11];
    const float at_d = param[9] * inv_h2, at_h = param[10] * inv_h2;
    float ahh = at_h;
    for (int i = 0; i < 3; ++i)
        S[i] = U[i] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k < 4; ++k) {
        const float w = ds[k].w;
        g[k] = dr_row_times(b[k], cof); /* sum_j b_kj (column j of cof F) */
        ahh += w * dr_dot3(g[k], g[k]);
        for (int i = 0; i < 3; ++i) {
            S[i] = dr_madd3(S[i], b[k], w * dr_comp3(b[k], i));
            U[i] = dr_madd3(U[i], b[k], w * dr_comp3(g[k], i));
        }
    }
    S[0].x += at_d, S[1].y += at_d, S[2].z += at_d;
    /* P = S^-1 (S symmetric, so its inverse's rows are the cofactor rows over the determinant) */
    const float det = dr_dot3(S[0], dr_cross3(S[1], S[2]));
    if (!(det > 0.0f))
        return; /* every corner pinned and no compliance */
    P[0] = dr_scale3(dr_cross3(S[1], S[2]), 1.0f / det);
    P[1] = dr_scale3(dr_cross3(S[2], S[0]), 1.0f / det);
    P[2] = dr_scale3(dr_cross3(S[0], S[1]), 1.0f / det);
    float urp = 0.0f, uup = 0.0f;
    for (int i = 0; i < 3; ++i) { /* row i of R_D = F + aD~ L, then of R_D P and U P */
        const dr_vec4 fi = DR_V4(dr_comp3(f[0], i), dr_comp3(f[1], i), dr_comp3(f[2], i), 0.0f);
        const dr_vec4 li = DR_V4(lambda[3 * i], lambda[3 * i + 1], lambda[3 * i + 2], 0.0f);
        RP[i] = dr_row_times(dr_madd3(fi, li, at_d), P);
        UP[i] = dr_row_times(U[i], P);
        urp += dr_dot3(U[i], RP[i]);
        uup += dr_dot3(U[i], UP[i]);
    }
    const float schur = ahh - uup;
    if (!(schur > 0.0f))
        return;
    const float dl_h = (urp - ch - at_h * lambda[9]) / schur;
    /* the forces (the corrections over w), and the turn that takes their torque about the start
     * out (dr_turn_solve): s_k and u_k the corners' offsets from the movable corners' centres of
     * mass at the start and now; a pinned corner's force counts in the torque */
    dr_vec4 dL[3], force[4], ex[4], cs = DR_V4(0.0f, 0.0f, 0.0f, 0.0f), cu = cs;
    float m[4], msum = 0.0f;
    for (int i = 0; i < 3; ++i)
        dL[i] = dr_scale3(dr_madd3(RP[i], UP[i], dl_h), -1.0f);
    for (int k = 1; k < 4; ++k) {
        const dr_vec4 pull =
            DR_V4(dr_dot3(dL[0], b[k]), dr_dot3(dL[1], b[k]), dr_dot3(dL[2], b[k]), 0.0f);
        force[k] = dr_madd3(pull, g[k], dl_h);
    }
    /* the four sum to zero, so they do to a rounding: a body at rest drifted 2e-4 m in 10 s at 1
     * substep (20 kPa) with force[0] formed like the others, 2e-8 m so */
    force[0] = dr_scale3(dr_add3(dr_add3(force[1], force[2]), force[3]), -1.0f);
    for (int k = 0; k < 4; ++k) {
        m[k] = ds[k].w > 0.0f ? 1.0f / ds[k].w : 0.0f;
        ex[k] = dr_sub3(x[idx[k]], x[idx[0]]);
        cs = dr_madd3(cs, ex[k], m[k]), cu = dr_madd3(cu, e[k], m[k]), msum += m[k];
    }
    if (!(msum > 0.0f))
        return; /* every corner pinned */
    cs = dr_scale3(cs, 1.0f / msum), cu = dr_scale3(cu, 1.0f / msum);
    dr_turn turn = dr_turn_zero();
    for (int k = 0; k < 4; ++k) {
        e[k] = dr_sub3(e[k], cu); /* u_k */
        dr_turn_add(&turn, dr_sub3(ex[k], cs), e[k], force[k], 1.0f, m[k]);
    }
    const dr_vec4 phi = dr_turn_solve(turn);
    /* L + dL turns with the corners: each of its columns by phi x */
    for (int j = 0; j < 3; ++j) {
        dr_vec4 col = DR_V4(lambda[j] + dr_comp3(dL[0], j), lambda[3 + j] + dr_comp3(dL[1], j),
                            lambda[6 + j] + dr_comp3(dL[2], j), 0.0f);
        col = dr_madd_cross(col, phi);
        lambda[j] = col.x, lambda[3 + j] = col.y, lambda[6 + j] = col.z;
    }
    lambda[9] += dl_h;
    for (int k = 0; k < 4; ++k)
        if (ds[k].w > 0.0f)
            d[idx[k]] = dr_add3(ds[k], dr_madd3(dr_cross3(phi, e[k]), force[k], ds[k].w));
}

/* ---- shape matching ---------------------------------------------------------------------------
 */
/*
 * Shape matching (Müller, Heidelberger, Teschner, Gross, "Meshless Deformations Based on Shape
 * Matching", SIGGRAPH 2005): a cluster of particles with rest offsets q_i from its rest centre of
 * mass is fitted, by mass, to its predicted positions p_i: the centre c = sum m_i p_i / sum m_i,
 * the moment A = sum m_i (p_i - c) q_i^T (their A_pq, eq. 7), its rotational part R (eq. 8), and
 * each movable particle is pulled towards its goal g_i = R q_i + c by the stiffness k' (eq. 3 with
 * alpha = k'): k' = 1 makes the cluster move rigidly, k' < 1 a soft cluster.
 *
 * R is found as Müller, Bender, Chentanez, Macklin, "A Robust Method to Extract the Rotational Part
 * of Deformations" (MIG 2016) find it: starting from the cluster's rotation of the previous solve
 * (a quaternion, so that a few iterations suffice), repeat omega = sum_j r_j x a_j / (|sum_j r_j .
 * a_j| + eps) (r_j, a_j the columns of R and A) and rotate by omega, until omega vanishes. It
 * needs no SVD, no eigen-solve and no branch that depends on a degenerate A, which is why it is
 * robust on a GPU. Their update rotates by the angle |omega|; here the rotation is the unit
 * quaternion (1, omega/2) normalised, an angle of 2 atan(|omega| / 2), which is the same for small
 * omega, has the same fixed point (omega = 0) and needs no sin or cos, so that the CPU and the
 * device, which round + - * / and sqrt alike, get bitwise the same R. A is scaled to unit norm
 * first so that eps = 1e-9 means the same for any masses and sizes.
 *
 * Quaternions are float4 (x, y, z vector part, w scalar). Positions are taken relative to the
 * first member's start position, so that a cluster far from the origin loses no precision.
 */
#define DR_SHAPE_ITERATIONS 12

DR_FN dr_vec4 dr_quat_mul(dr_vec4 a, dr_vec4 b)
{
    return DR_V4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                 a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

DR_FN dr_vec4 dr_quat_normalize(dr_vec4 q)
{
    float n = DR_SQRT(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return n > 0.0f ? DR_V4(q.x / n, q.y / n, q.z / n, q.w / n) : DR_V4(0.0f, 0.0f, 0.0f, 1.0f);
}

/* The columns of the rotation matrix of the unit quaternion q. */
DR_FN void dr_quat_columns(dr_vec4 q, dr_vec4 r[3])
{
    const float x = q.x, y = q.y, z = q.z, w = q.w;
    r[0] =
        DR_V4(1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y + w * z), 2.0f * (x * z - w * y), 0.0f);
    r[1] =
        DR_V4(2.0f * (x * y - w * z), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z + w * x), 0.0f);
    r[2] =
        DR_V4(2.0f * (x * z + w * y), 2.0f * (y * z - w * x), 1.0f - 2.0f * (x * x + y * y), 0.0f);
}

/* The rotational part of the matrix with columns a[0..2], as a unit quaternion, from the start q.
 */
DR_FN dr_vec4 dr_extract_rotation(const dr_vec4 a_in[3], dr_vec4 q)
{
    dr_vec4 a[3], r[3];
    float norm =
        DR_SQRT(dr_dot3(a_in[0], a_in[0]) + dr_dot3(a_in[1], a_in[1]) + dr_dot3(a_in[2], a_in[2]));
    if (!(norm > 0.0f))
        return q;
    for (int j = 0; j < 3; ++j)
        a[j] = dr_scale3(a_in[j], 1.0f / norm);
    for (int it = 0; it < DR_SHAPE_ITERATIONS; ++it) {
        dr_quat_columns(q, r);
        dr_vec4 omega =
            dr_add3(dr_add3(dr_cross3(r[0], a[0]), dr_cross3(r[1], a[1])), dr_cross3(r[2], a[2]));
        float along = dr_dot3(r[0], a[0]) + dr_dot3(r[1], a[1]) + dr_dot3(r[2], a[2]);
        omega = dr_scale3(omega, 1.0f / (DR_FMAX(along, -along) + 1e-9f));
        if (dr_dot3(omega, omega) < 1e-18f)
            break;
        q = dr_quat_normalize(
            dr_quat_mul(DR_V4(0.5f * omega.x, 0.5f * omega.y, 0.5f * omega.z, 1.0f), q));
    }
    return q;
}

/* The rest offset q turned by the rotation of columns r[0..2] (m). */
DR_FN dr_vec4 dr_rotate_rest(const dr_vec4 r[3], dr_vec4 q)
{
    return dr_add3(dr_add3(dr_scale3(r[0], q.x), dr_scale3(r[1], q.y)), dr_scale3(r[2], q.z));
}

/* The correction that takes a member at x + d to its goal c + u, both relative to origin (m). */
DR_FN dr_vec4 dr_shape_correction(dr_vec4 x, dr_vec4 d, dr_vec4 origin, dr_vec4 u, dr_vec4 c)
{
    return dr_sub3(dr_add3(u, c), dr_add3(dr_sub3(x, origin), d));
}

/*
 * The fit moves the cluster's particles by corrections D_i = g_i - p_i that carry no torque about
 * the predictions p_i: a PBD projection along the current gradient, which bleeds angular momentum
 * at a rate proportional to h, as the distance constraint does along r (dr_distance_step). A
 * rigid cluster spinning in free space at 2 rad/s lost 6% of its angular momentum per second at 1
 * substep of 1/60 s and 1.8% at 4. So, as the distance constraint does along e, the goals are
 * turned by a small further rotation phi about c so that the corrections carry no torque about the
 * positions s_i at the substep's start (relative to their centre of mass): sum m_i s_i x (D_i + phi
 * x u_i) = 0 with u_i = R q_i, one linear solve, K phi = -tau with tau = sum m_i s_i x D_i and K =
 * sum m_i ((s_i . u_i) I - u_i s_i^T). v = d / h then keeps the angular momentum exactly (SHAKE:
 * Ryckaert et al. 1977); phi is of the third order in the turn of a substep. As the distance
 * constraint's, the correction fades out for large turns (an impact), from a cosine of 0.97
 * between the start and the goal (DR_SHAKE_COS) to 0.85 (DR_PBD_COS); the cosine is sum m_i s_i .
 * u_i over the two shapes' norms. The mean of the corrections is taken out as well, so that
 * positions far from the origin, rounded to float, give no momentum: their sum of m_i D_i is 0 in
 * exact arithmetic.
 */
DR_FN void dr_shape_match(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d,
                          DR_GLOBAL const unsigned *members, DR_GLOBAL const dr_vec4 *rest,
                          unsigned first, unsigned count, float kprime, DR_GLOBAL dr_vec4 *rotation)
{
    const dr_vec4 origin = x[members[first]];
    float mass = 0.0f;
    dr_vec4 c = DR_V4(0.0f, 0.0f, 0.0f, 0.0f), c0 = c;
    for (unsigned k = first; k < first + count; ++k) {
        unsigned i = members[k];
        float m = x[i].w > 0.0f ? 1.0f / x[i].w : 0.0f;
        c = dr_madd3(c, dr_add3(dr_sub3(x[i], origin), d[i]), m);
        c0 = dr_madd3(c0, dr_sub3(x[i], origin), m);
        mass += m;
    }
    if (!(mass > 0.0f))
        return;
    c = dr_scale3(c, 1.0f / mass);
    c0 = dr_scale3(c0, 1.0f / mass);
    dr_vec4 a[3] = {DR_V4(0.0f, 0.0f, 0.0f, 0.0f), DR_V4(0.0f, 0.0f, 0.0f, 0.0f),
                    DR_V4(0.0f, 0.0f, 0.0f, 0.0f)};
    for (unsigned k = first; k < first + count; ++k) {
        unsigned i = members[k];
        float m = x[i].w > 0.0f ? 1.0f / x[i].w : 0.0f;
        dr_vec4 p = dr_scale3(dr_sub3(dr_add3(dr_sub3(x[i], origin), d[i]), c), m);
        a[0] = dr_madd3(a[0], p, rest[k].x);
        a[1] = dr_madd3(a[1], p, rest[k].y);
        a[2] = dr_madd3(a[2], p, rest[k].z);
    }
    dr_vec4 q = dr_extract_rotation(a, *rotation), r[3];
    *rotation = q;
    dr_quat_columns(q, r);
    /* the turn that takes the torque out of the corrections about the start */
    dr_turn turn = dr_turn_zero();
    for (unsigned k = first; k < first + count; ++k) {
        unsigned i = members[k];
        float m = x[i].w > 0.0f ? 1.0f / x[i].w : 0.0f;
        dr_vec4 u = dr_rotate_rest(r, rest[k]), s = dr_sub3(dr_sub3(x[i], origin), c0);
        dr_turn_add(&turn, s, u, dr_shape_correction(x[i], d[i], origin, u, c), m, m);
    }
    dr_vec4 phi = dr_turn_solve(turn);
    /* the mean of the corrections to the turned goals, computed as the last loop computes them */
    dr_vec4 mean = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    for (unsigned k = first; k < first + count; ++k) {
        unsigned i = members[k];
        float m = x[i].w > 0.0f ? 1.0f / x[i].w : 0.0f;
        dr_vec4 u = dr_rotate_rest(r, rest[k]);
        mean = dr_madd3(mean, dr_shape_correction(x[i], d[i], origin, dr_madd_cross(u, phi), c), m);
    }
    mean = dr_scale3(mean, 1.0f / mass);
    for (unsigned k = first; k < first + count; ++k) {
        unsigned i = members[k];
        dr_vec4 di = d[i];
        if (!(di.w > 0.0f))
            continue;
        dr_vec4 u = dr_rotate_rest(r, rest[k]);
        dr_vec4 corr = dr_shape_correction(x[i], di, origin, dr_madd_cross(u, phi), c);
        d[i] = dr_madd3(di, dr_sub3(corr, mean), kprime);
    }
}

/* atan2(y, x) for y >= 0, in [0, pi], from + - * / only (Cephes' atanf polynomial, about 1e-7
 * relative), so that the CPU and the device, which both round those operations exactly, get bitwise
 * the same angle: library atan2 and acos differ between libm and OpenCL drivers in the last bits,
 * and cloth amplifies such differences. */
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
               3.33329491539e-1f) *
                  z * t +
              t;
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
 * side the hinge folds to. Signed, the angle is smooth through flat, where the unsigned angle of
 * the PBD paper has a kink that makes a flat rest state chatter. Degenerate triangles give 0. */
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
    h.g[0] = h.g[1] = h.g[2] = h.g[3] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
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
 * blend G = (1 - beta) g(x) + beta g(p) of the gradients at the substep's start and now, beta from
 * the cosine between them, and takes the Newton step along G. */
DR_FN int dr_dihedral_core(const dr_vec4 *xs, dr_vec4 *ds, float rest, float kprime,
                           float compliance, float inv_h2, float *lambda)
{
    dr_hinge now = dr_hinge_gradients(dr_add3(xs[0], ds[0]), dr_add3(xs[1], ds[1]),
                                      dr_add3(xs[2], ds[2]), dr_add3(xs[3], ds[3]));
    if (!now.ok)
        return 0;
    dr_hinge start = dr_hinge_gradients(xs[0], xs[1], xs[2], xs[3]);
    return dr_blended_step4(now.g, start.g, start.ok, ds, now.angle - rest, kprime, compliance,
                            inv_h2, lambda);
}

DR_FN void dr_solve_dihedral(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL dr_vec4 *d, unsigned ie0,
                             unsigned ie1, unsigned iw0, unsigned iw1, float rest, float kprime,
                             float compliance, float inv_h2, DR_GLOBAL float *lambda)
{
    const unsigned idx[4] = {ie0, ie1, iw0, iw1};
    DR_GATHER(4, idx, x, DR_LOAD_D, compliance, lambda);
    DR_KEEP(dr_dihedral_core(xs_, ds_, rest, kprime, compliance, inv_h2, &l_), 4, idx, DR_STORE_D,
            compliance, lambda);
}

/* ---- integration ----------------------------------------------------------------------------- */

/* The acceleration (m/s^2) of gravity and of air drag towards the wind velocity. */
DR_FN dr_vec4 dr_external_accel(dr_vec4 v, dr_vec4 gravity, dr_vec4 wind, float drag)
{
    return dr_madd3(gravity, dr_sub3(wind, v), drag);
}

/* v += h (g + drag (wind - v)) for a movable particle; a pinned one keeps v = 0. Written once over
 * a lane type (DR_LANE_FUNCTIONS above): `float` for dr_apply_external below, `float16` for
 * predict_displacement_x16 (kernels/predict.cl); the velocity as its x, y, z components, updated in
 * place, each lane bitwise dr_madd3(v, dr_external_accel(v, gravity, wind, drag), h). */
#define DR_EXTERNAL_LANE_FUNCTIONS(S, real, mask)                                                  \
    DR_FN void dr_apply_external_l##S(real *vx, real *vy, real *vz, real inv_mass,                 \
                                      dr_vec4 gravity, dr_vec4 wind, float drag, float h)          \
    {                                                                                              \
        mask pinned = inv_mass <= 0.0f;                                                            \
        real ax = gravity.x + (wind.x - *vx) * drag, ay = gravity.y + (wind.y - *vy) * drag;       \
        real az = gravity.z + (wind.z - *vz) * drag;                                               \
        *vx = pinned ? (real)(0.0f) : *vx + ax * h;                                                \
        *vy = pinned ? (real)(0.0f) : *vy + ay * h;                                                \
        *vz = pinned ? (real)(0.0f) : *vz + az * h;                                                \
    }
DR_EXTERNAL_LANE_FUNCTIONS(, float, int)
#ifdef __OPENCL_VERSION__
DR_EXTERNAL_LANE_FUNCTIONS(16, float16, int16)
#endif

DR_FN dr_vec4 dr_apply_external(dr_vec4 v, float inv_mass, dr_vec4 gravity, dr_vec4 wind,
                                float drag, float h)
{
    float vx = v.x, vy = v.y, vz = v.z; /* OpenCL C takes no address of a vector's component */
    dr_apply_external_l(&vx, &vy, &vz, inv_mass, gravity, wind, drag, h);
    return DR_V4(vx, vy, vz, v.w);
}

/* The predicted displacement of the substep, d = h v, with the inverse mass in w: the predicted
 * position x + d is the semi-implicit Euler step, bitwise. */
DR_FN dr_vec4 dr_predict_displacement(dr_vec4 x, dr_vec4 v, float h)
{
    return DR_V4(v.x * h, v.y * h, v.z * h, x.w);
}

/* ---- momentum-preserving damping (Müller et al. 2007, section 3.5) ----------------------------
 */
/*
 * Each body (host/bodies.c) is damped on its own. Each of its particles contributes a row of mass
 * moments about a fixed origin (the body's first particle, so that float sums do not cancel); the
 * rows are summed (double loops on the CPU; on the device CLBlast for a world of one body, work
 * groups for several, kernels/damping.cl); dr_rigid_motion turns the sums into
 * the centre of mass, its velocity and the angular velocity omega = I^-1 L about the centre.
 * Row: m, m r (3), m v (3), m r x v (3), m |r|^2, m r r^T (xx yy zz xy xz yz), 3 unused; r = x -
 * origin.
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
    /* About the centre: L = sum m r x v - M c x vc; I = sum m (|r|^2 E - r r^T) - M (|c|^2 E - c
     * c^T). */
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
 * and damping kd (N s/m) along the spring (the Taichi mass-spring cloth demo); b gets the opposite
 * force. */
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

/* The mass-spring mode's integrators, one particle at a time (host/cpu/mass_spring.c loops over
 * them, kernels/mass_spring.cl runs one per work item); a is the acceleration at the start of the
 * substep. Each returns the displacement d of the substep and updates *v.
 *   semi-implicit Euler: v += h a; d = h v.
 *   velocity Verlet, first half: d = h v + h^2/2 a0; v becomes v + h a0 (the estimate with which
 *   a1 = a(x + d, v + h a0) is taken); dr_verlet_end then makes v + h/2 (a0 + a1). */
DR_FN dr_vec4 dr_euler_step(dr_vec4 x, dr_vec4 *v, dr_vec4 a, float h)
{
    *v = dr_madd3(*v, a, h);
    return dr_predict_displacement(x, *v, h);
}

DR_FN dr_vec4 dr_verlet_begin(dr_vec4 x, dr_vec4 *v, dr_vec4 a, float h)
{
    dr_vec4 d = dr_madd3(dr_predict_displacement(x, *v, h), a, 0.5f * h * h);
    *v = dr_madd3(*v, a, h);
    return d;
}

DR_FN dr_vec4 dr_verlet_end(dr_vec4 v, dr_vec4 a0, dr_vec4 a1, float h)
{
    return dr_madd3(v, dr_sub3(a1, a0), 0.5f * h);
}

/* ---- colliders ------------------------------------------------------------------------------- */

/* How far a collider has moved since its t0 at time t. */
DR_FN dr_vec4 dr_collider_offset(DR_GLOBAL const dr_collider *c, float t)
{
    return dr_scale3(c->vel, t - c->info.z);
}

/* ---- colliders in lanes ----------------------------------------------------------------------
 */
/*
 * The collider contacts of one particle or of sixteen, written once over a lane type as the
 * distance constraint above (DR_LANE_FUNCTIONS): `float` for the CPU reference and the
 * one-particle-per-work-item kernels (dr_collider_sdf, dr_friction_cut, dr_contact_push and
 * dr_project_contacts below are these at one lane), and, in OpenCL C only, `float16` for the
 * kernels that take sixteen consecutive particles per work-item on CPU devices
 * (project_contacts_x16 in kernels/project.cl, update_state_x16 in kernels/update.cl). Vectors come
 * as their x, y, z components; a collider is the same for every lane, so branches on its kind stay
 * branches. Per-particle conditions are masks: where a scalar branches on one (if (DR_ANY(m))), the
 * lanes compute what any of them needs and keep it where the mask is set, with both operands of
 * each select vectors ((real) casts: Oclgrind miscomputed a scalar one). Each lane does exactly the
 * scalar operations in the same order, so every lane is bitwise the scalar result.
 *
 * dr_collider_sdf_l: the signed distance and outward unit normal (dr_collider_sdf).
 * dr_friction_cut_l: the fraction of the tangential motion friction takes (dr_friction_cut).
 * dr_contact_push_l: d pushed out by depth along n, then friction (dr_contact_push).
 * dr_project_contacts_l: every collider contact of a particle at its prediction x + d
 * (dr_project_contacts), its contact as q (xyz, w) and n (xyz, w) components.
 */
#define DR_CONTACT_LANE_FUNCTIONS(S, real, mask)                                                   \
    DR_FN real dr_collider_sdf_l##S(DR_GLOBAL const dr_collider *c, real qx, real qy, real qz,     \
                                    real *nx, real *ny, real *nz)                                  \
    {                                                                                              \
        int kind = (int)c->a.w;                                                                    \
        if (kind == DR_COLLIDER_PLANE) {                                                           \
            *nx = (real)(c->b.x), *ny = (real)(c->b.y), *nz = (real)(c->b.z);                      \
            return (qx - c->a.x) * c->b.x + (qy - c->a.y) * c->b.y + (qz - c->a.z) * c->b.z;       \
        }                                                                                          \
        real cx = (real)(c->a.x), cy = (real)(c->a.y), cz = (real)(c->a.z);                        \
        if (kind == DR_COLLIDER_CAPSULE) {                                                         \
            float sx = c->b.x - c->a.x, sy = c->b.y - c->a.y, sz = c->b.z - c->a.z;                \
            float seg2 = sx * sx + sy * sy + sz * sz;                                              \
            real s = (real)(0.0f);                                                                 \
            if (seg2 > 0.0f)                                                                       \
                s = ((qx - c->a.x) * sx + (qy - c->a.y) * sy + (qz - c->a.z) * sz) / seg2;         \
            s = DR_FMIN((real)(1.0f), DR_FMAX((real)(0.0f), s));                                   \
            cx = c->a.x + sx * s, cy = c->a.y + sy * s, cz = c->a.z + sz * s;                      \
        }                                                                                          \
        real dx = qx - cx, dy = qy - cy, dz = qz - cz;                                             \
        real len = DR_SQRT(dx * dx + dy * dy + dz * dz), inv = 1.0f / len;                         \
        mask apart = len > DR_EPS;                                                                 \
        *nx = apart ? dx * inv : (real)(0.0f);                                                     \
        *ny = apart ? dy * inv : (real)(1.0f);                                                     \
        *nz = apart ? dz * inv : (real)(0.0f);                                                     \
        return len - c->b.w;                                                                       \
    }                                                                                              \
                                                                                                   \
    DR_FN real dr_friction_cut_l##S(real tx, real ty, real tz, real hold, real depth, float mu_s,  \
                                    float mu_k)                                                    \
    {                                                                                              \
        real lt = DR_SQRT(tx * tx + ty * ty + tz * tz);                                            \
        real kinetic = DR_FMIN(mu_k * depth / lt, (real)(1.0f));                                   \
        kinetic = lt > DR_EPS ? kinetic : (real)(0.0f);                                            \
        return lt <= mu_s * hold ? (real)(1.0f) : kinetic;                                         \
    }                                                                                              \
                                                                                                   \
    /* dr_friction_cut_l for a collider contact whose friction has already taken (sx, sy, sz)      \
     * this substep: static while that and all of t stay within mu_s hold */                       \
    DR_FN real dr_held_cut_l##S(real tx, real ty, real tz, real sx, real sy, real sz, real hold,   \
                                real depth, float mu_s, float mu_k)                                \
    {                                                                                              \
        real ax = sx + tx, ay = sy + ty, az = sz + tz;                                             \
        real kinetic = dr_friction_cut_l##S(tx, ty, tz, (real)(0.0f), depth, mu_s, mu_k);          \
        return DR_SQRT(ax * ax + ay * ay + az * az) <= mu_s * hold ? (real)(1.0f) : kinetic;       \
    }                                                                                              \
                                                                                                   \
    DR_FN void dr_contact_push_l##S(real *dx, real *dy, real *dz, real nx, real ny, real nz,       \
                                    real depth, real held, real *sx, real *sy, real *sz,           \
                                    DR_GLOBAL const dr_collider *c, real ox, real oy, real oz)     \
    {                                                                                              \
        real px = *dx + nx * depth, py = *dy + ny * depth, pz = *dz + nz * depth;                  \
        real rx = px - ox, ry = py - oy, rz = pz - oz;                                             \
        real rn = -(rx * nx + ry * ny + rz * nz);                                                  \
        real tx = rx + nx * rn, ty = ry + ny * rn, tz = rz + nz * rn;                              \
        /* held < 0: a placement's depth still to mend (dr_start_depth), no load for friction */   \
        real hold = DR_FMAX(depth + held, (real)(0.0f));                                           \
        real slide = DR_FMAX(depth + DR_FMIN(held, (real)(0.0f)), (real)(0.0f));                   \
        real cut = dr_held_cut_l##S(tx, ty, tz, *sx, *sy, *sz, hold, slide, c->info.x, c->info.y); \
        *sx = *sx + tx * cut, *sy = *sy + ty * cut, *sz = *sz + tz * cut;                          \
        *dx = px - tx * cut, *dy = py - ty * cut, *dz = pz - tz * cut;                             \
    }                                                                                              \
                                                                                                   \
    /* Pinned, or without a continuous contact and still within half the clearance of the          \
     * prediction: dr_project_contacts leaves the particle as it is. */                            \
    DR_FN mask dr_contacts_idle_l##S(real dx, real dy, real dz, real dw, real qw, real nx,         \
                                     real ny, real nz, real nw)                                    \
    {                                                                                              \
        real mx = dx - nx, my = dy - ny, mz = dz - nz;                                             \
        return (dw <= 0.0f) |                                                                      \
               ((qw < 0.0f) & (4.0f * (mx * mx + my * my + mz * mz) < nw * nw) & (nw > 0.0f));     \
    }                                                                                              \
                                                                                                   \
    DR_FN void dr_project_contacts_l##S(                                                           \
        real *dx, real *dy, real *dz, real dw, real xx, real xy, real xz, real qx, real qy,        \
        real qz, real qw, real nx, real ny, real nz, real nw,                                      \
        DR_GLOBAL const dr_collider *colliders, unsigned count, float t, float h, real margin,     \
        real *held, real *sx, real *sy, real *sz)                                                  \
    {                                                                                              \
        mask has = !(qw < 0.0f);                                                                   \
        mask skip = dr_contacts_idle_l##S(*dx, *dy, *dz, dw, qw, nx, ny, nz, nw);                  \
        if (DR_ALL##S(skip))                                                                       \
            return;                                                                                \
        real ex = *dx, ey = *dy, ez = *dz, hold = *held, ux = *sx, uy = *sy, uz = *sz;             \
        for (unsigned i = 0; i < count; ++i) {                                                     \
            DR_GLOBAL const dr_collider *c = &colliders[i];                                        \
            real px = xx + ex, py = xy + ey, pz = xz + ez;                                         \
            /* the collider of the continuous contact: that contact's plane (qw is i or i + .5) */ \
            mask own = has & (qw >= (float)i) & (qw < (float)(i + 1));                             \
            real cnx = nx, cny = ny, cnz = nz, depth = (real)(0.0f), sdepth = (real)(0.0f);        \
            if (DR_ANY##S(own))                                                                    \
                depth = -((px - qx) * nx + (py - qy) * ny + (pz - qz) * nz);                       \
            if (!DR_ALL##S(own)) {                                                                 \
                float since = (t + h) - c->info.z; /* dr_collider_offset at t + h */               \
                real snx, sny, snz;                                                                \
                sdepth =                                                                           \
                    margin - dr_collider_sdf_l##S(c, px - c->vel.x * since, py - c->vel.y * since, \
                                                  pz - c->vel.z * since, &snx, &sny, &snz);        \
                cnx = own ? cnx : snx, cny = own ? cny : sny, cnz = own ? cnz : snz;               \
                depth = own ? depth : sdepth;                                                      \
            }                                                                                      \
            /* a continuous contact that approached slower than the margin per substep (resting)   \
             * and pushed this substep holds by friction while the constraints lift the particle   \
             * off its plane again: its pushes were load all the same */                           \
            mask held_on = own & (hold > 0.0f) & (-nw * h < margin);                               \
            mask hit = ((depth > 0.0f) | held_on) & !skip;                                         \
            depth = DR_FMAX(depth, (real)(0.0f));                                                  \
            if (DR_ANY##S(hit)) {                                                                  \
                real fx = ex, fy = ey, fz = ez, gx = ux, gy = uy, gz = uz;                         \
                /* the motion friction works on: for a continuous contact whose start lay above    \
                 * its plane (it flew in), from the hit point: only the path past the hit slides   \
                 * on the surface; else from the start, relative to the collider */                \
                mask flew = own & (depth > 0.0f) &                                                 \
                            ((xx - qx) * nx + (xy - qy) * ny + (xz - qz) * nz > 0.0f);             \
                real ox = flew ? qx - xx : (real)(c->vel.x * h);                                   \
                real oy = flew ? qy - xy : (real)(c->vel.y * h);                                   \
                real oz = flew ? qz - xz : (real)(c->vel.z * h);                                   \
                dr_contact_push_l##S(&fx, &fy, &fz, cnx, cny, cnz, depth, hold, &gx, &gy, &gz, c,  \
                                     ox, oy, oz);                                                  \
                ex = hit ? fx : ex, ey = hit ? fy : ey, ez = hit ? fz : ez;                        \
                ux = hit ? gx : ux, uy = hit ? gy : uy, uz = hit ? gz : uz;                        \
                hold = hit ? hold + depth : hold;                                                  \
            }                                                                                      \
        }                                                                                          \
        *dx = ex, *dy = ey, *dz = ez, *held = hold, *sx = ux, *sy = uy, *sz = uz;                  \
    }

/* Whether any lane of a mask is set (DR_ALL's counterpart). */
#define DR_ANY(m) (m)
#ifdef __OPENCL_VERSION__
#define DR_ANY16(m) any(m)
#endif
DR_CONTACT_LANE_FUNCTIONS(, float, int)
#ifdef __OPENCL_VERSION__
DR_CONTACT_LANE_FUNCTIONS(16, float16, int16)
#endif

#ifdef __OPENCL_VERSION__
/* The opening of a sixteen-lane kernel over n particles (n a variable): work-item g takes the
 * block that starts at i = 16 g. A block past the end does nothing; the last, partial one runs the
 * statement ONE for each of its particles i, then returns. The kernel's body handles a full block.
 */
#define DR_X16_BLOCK(i, n, ONE)                                                                    \
    uint i = 16 * get_global_id(0);                                                                \
    if (i >= n)                                                                                    \
        return;                                                                                    \
    if (n - i < 16) {                                                                              \
        for (; i < n; ++i)                                                                         \
            ONE;                                                                                   \
        return;                                                                                    \
    }

/* Sixteen consecutive float4 at the float pointer f (any address space) as four float16 of their
 * x, y, z, w: four float16 loads (x0 y0 z0 w0 x1 ...), then every fourth component. */
#define DR_P16_LOAD(ptr, x, y, z, w)                                                               \
    do {                                                                                           \
        float16 g0 = vload16(0, ptr), g1 = vload16(1, ptr), g2 = vload16(2, ptr),                  \
                g3 = vload16(3, ptr);                                                              \
        x = (float16)(g0.s048c, g1.s048c, g2.s048c, g3.s048c);                                     \
        y = (float16)(g0.s159d, g1.s159d, g2.s159d, g3.s159d);                                     \
        z = (float16)(g0.s26ae, g1.s26ae, g2.s26ae, g3.s26ae);                                     \
        w = (float16)(g0.s37bf, g1.s37bf, g2.s37bf, g3.s37bf);                                     \
    } while (0)

/* The inverse: lanes a, b, c, d of x, y, z, w as four float4 (x_a y_a z_a w_a x_b ...), then the
 * sixteen float4 stored at ptr. */
#define DR_P16_QUAD(x, y, z, w, a, b, c, d)                                                        \
    (float16)(x.s##a, y.s##a, z.s##a, w.s##a, x.s##b, y.s##b, z.s##b, w.s##b, x.s##c, y.s##c,      \
              z.s##c, w.s##c, x.s##d, y.s##d, z.s##d, w.s##d)
#define DR_P16_STORE(ptr, x, y, z, w)                                                              \
    do {                                                                                           \
        vstore16(DR_P16_QUAD(x, y, z, w, 0, 1, 2, 3), 0, ptr);                                     \
        vstore16(DR_P16_QUAD(x, y, z, w, 4, 5, 6, 7), 1, ptr);                                     \
        vstore16(DR_P16_QUAD(x, y, z, w, 8, 9, a, b), 2, ptr);                                     \
        vstore16(DR_P16_QUAD(x, y, z, w, c, d, e, f), 3, ptr);                                     \
    } while (0)

/* The contacts c[i] .. c[i + 15] (q then n, 32 float4) as float16 of their components. */
#define DR_P16_CONTACTS(c, i, qx, qy, qz, qw, nx, ny, nz, nw)                                      \
    do {                                                                                           \
        __global const float *cf_ = (__global const float *)((c) + (i));                           \
        float16 a0, a1, a2, a3, b0, b1, b2, b3;                                                    \
        DR_P16_LOAD(cf_, a0, a1, a2, a3);                                                          \
        DR_P16_LOAD(cf_ + 64, b0, b1, b2, b3);                                                     \
        qx = (float16)(a0.even, b0.even), qy = (float16)(a1.even, b1.even);                        \
        qz = (float16)(a2.even, b2.even), qw = (float16)(a3.even, b3.even);                        \
        nx = (float16)(a0.odd, b0.odd), ny = (float16)(a1.odd, b1.odd);                            \
        nz = (float16)(a2.odd, b2.odd), nw = (float16)(a3.odd, b3.odd);                            \
    } while (0)

/* The inverse: the contacts c[i] .. c[i + 15] stored from the float16 of their components, lanes
 * 0-7 of a and b interleaved by shuffle2(a, b, DR_P16_LO), lanes 8-15 by DR_P16_HI (also
 * solve_distance_x16's scatter in kernels/project.cl). */
#define DR_P16_LO (uint16)(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)
#define DR_P16_HI (uint16)(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31)
#define DR_P16_CONTACTS_STORE(c, i, qx, qy, qz, qw, nx, ny, nz, nw)                                \
    do {                                                                                           \
        __global float *cf_ = (__global float *)((c) + (i));                                       \
        float16 a0 = shuffle2(qx, nx, DR_P16_LO), a1 = shuffle2(qy, ny, DR_P16_LO);                \
        float16 a2 = shuffle2(qz, nz, DR_P16_LO), a3 = shuffle2(qw, nw, DR_P16_LO);                \
        float16 b0 = shuffle2(qx, nx, DR_P16_HI), b1 = shuffle2(qy, ny, DR_P16_HI);                \
        float16 b2 = shuffle2(qz, nz, DR_P16_HI), b3 = shuffle2(qw, nw, DR_P16_HI);                \
        DR_P16_STORE(cf_, a0, a1, a2, a3);                                                         \
        DR_P16_STORE(cf_ + 64, b0, b1, b2, b3);                                                    \
    } while (0)
#endif

/* Signed distance (m) from q (in the collider's own frame, i.e. with its motion taken out) to the
 * collider's surface, negative inside; *normal gets the outward unit normal at the nearest point.
 */
DR_FN float dr_collider_sdf(DR_GLOBAL const dr_collider *c, dr_vec4 q, dr_vec4 *normal)
{
    float nx, ny, nz, dist = dr_collider_sdf_l(c, q.x, q.y, q.z, &nx, &ny, &nz);
    *normal = DR_V4(nx, ny, nz, 0.0f);
    return dist;
}

/* ---- contacts ---------------------------------------------------------------------------------
 */
/*
 * Contacts are found in two ways, so that fast particles never tunnel and resting ones never
 * chatter.
 *
 * Continuous, once per substep (dr_generate_contact): the segment x -> p = x + d of each particle
 * is intersected exactly with every collider inflated by the margin, in the collider's own frame (a
 * moving collider's motion taken out, which is exact for the linear motion colliders have), whether
 * or not p ends inside: a particle that would cross a thin capsule and leave from its far side is
 * caught at its entry point. The first hit along the segment wins. A particle that starts the
 * substep inside a collider gets its contact at the surface point nearest x, on its own side, never
 * through the centre. The contact is the half-space (p - q) . n >= 0 of the tangent plane at the
 * hit point; colliders are convex, so the half-space lies outside the collider.
 *
 * Refreshed, every iteration (dr_project_contacts): after the constraints of the iteration, each
 * particle is tested against every collider at its current prediction, with the signed distance at
 * p (the collider of its continuous contact: that contact's plane instead, so that a particle that
 * entered is never pushed out of the far side). A particle predicted outside that the constraints
 * pull in is pushed back within the same iteration, so it ends the substep outside and v = d / h
 * carries no outward kick; the seed loop's contacts, generated once from the unconstrained
 * prediction, left it inside until the next substep pushed it out, a chatter of about the depth /
 * h.
 *
 * Each push-out is followed by Coulomb friction at the position level (Macklin et al. 2014): the
 * tangential motion relative to the collider over the substep is cancelled while it is within the
 * static cone (mu_s * depth), else shortened by mu_k * depth. For a continuous contact whose start
 * lay above its plane (the particle flew in) that motion starts at the hit point: the flight
 * before the hit never slid on the surface. Counted from the substep's start, a particle at
 * 1000 m/s onto the top of a 1 cm sphere, 1.3 mm off its pole, had the tangential part (along the
 * contact) of 16 m of flight taken back, and landed 7 cm away on the far side of the sphere; one
 * dropped 3 m onto a sphere 12 degrees from its pole came to rest 1.3 degrees back uphill. A
 * particle that starts on the surface (resting: its start at or below the plane of its hit, as
 * on a convex collider, whose straight prediction leaves the surface and meets it again late in
 * the substep) is held over the whole substep: counted from the hit, only the end of its creep
 * was held, and the default cloth on its sphere kept creeping at 1.5e-4 m/s (99th percentile
 * after 10 s at 4 x 8; 4.7e-6 m/s now, as before the hit point was used).
 *
 * A resting contact (its approach over the substep shorter than the margin) that has pushed this
 * substep keeps its friction in the iterations where the constraints lift the particle off its
 * plane again: the pushes so far were load all the same, as XPBD bounds friction by the normal
 * multiplier however the particle ends. Friction only while inside let the lowest particles of a
 * soft block slide free whenever its elasticity lifted them by a few micrometres: the
 * Neo-Hookean block of scenes/jelly.json kept 2e-5 J in stick-slip for good at 4 x 8; it comes to
 * rest at 1e-10 J now. Impacts keep friction only while inside, so that a particle that flew in
 * does not have its flight taken back.
 */

/* A particle's continuous contact for one substep: q.xyz the hit point on the margin-inflated
 * surface at the end of the substep, q.w the collider's index (plus 0.5 when the particle started
 * the substep inside it), or -1 for none; n.xyz the unit normal there, n.w the normal velocity
 * (m/s, relative to the collider) before the constraints were solved. Without a contact (q.w = -1),
 * n.xyz is the predicted displacement and n.w the predicted position's clearance, its smallest
 * distance (m) to any margin-inflated collider, which lets the iterations skip particles far from
 * all. */
typedef struct dr_contact {
    dr_vec4 q;
    dr_vec4 n;
} dr_contact;

/* Whether the particle has a continuous contact this substep, and whether it started inside. */
DR_FN int dr_has_contact(dr_contact ct) { return !(ct.q.w < 0.0f); }
DR_FN int dr_started_inside(dr_contact ct) { return ct.q.w - (float)(int)ct.q.w > 0.25f; }

/* Where (s in [0, 1]) the segment q0 + s D, which starts outside the sphere of radius R about the
 * origin (m = q0 - centre), first meets it: the smaller root of |m + s D|^2 = R^2, in the form
 * without cancellation; 2 for no hit (inside, moving away, not moving, or missing it). Written once
 * over a lane type (DR_LANE_FUNCTIONS above): `float` for dr_sphere_entry, `float16` for
 * predict_displacement_x16 (kernels/predict.cl); lanes without a hit still compute and are masked
 * out, each lane bitwise the scalar result. */
#define DR_ENTRY_LANE_FUNCTIONS(S, real, mask)                                                     \
    DR_FN real dr_sphere_entry_l##S(real mx, real my, real mz, real Dx, real Dy, real Dz, real R)  \
    {                                                                                              \
        real a = Dx * Dx + Dy * Dy + Dz * Dz, b = mx * Dx + my * Dy + mz * Dz;                     \
        real c = (mx * mx + my * my + mz * mz) - R * R;                                            \
        real disc = b * b - a * c;                                                                 \
        real s = c / (DR_SQRT(disc) - b);                                                          \
        mask none = !(c > 0.0f) | !(b < 0.0f) | !(a > 0.0f) | (disc < 0.0f) | !(s <= 1.0f);        \
        return none ? (real)(2.0f) : s;                                                            \
    }
DR_ENTRY_LANE_FUNCTIONS(, float, int)
#ifdef __OPENCL_VERSION__
DR_ENTRY_LANE_FUNCTIONS(16, float16, int16)
#endif

DR_FN float dr_sphere_entry(dr_vec4 m, dr_vec4 D, float R)
{
    return dr_sphere_entry_l(m.x, m.y, m.z, D.x, D.y, D.z, R);
}

/* The same for a capsule of radius R about the segment A..B: the body (a cylinder about the
 * segment, hit within it) or either end sphere, whichever comes first. */
DR_FN float dr_capsule_entry(dr_vec4 q0, dr_vec4 D, dr_vec4 A, dr_vec4 B, float R)
{
    dr_vec4 axis = dr_sub3(B, A), m = dr_sub3(q0, A);
    float aa = dr_dot3(axis, axis);
    float s = DR_FMIN(dr_sphere_entry(m, D, R), dr_sphere_entry(dr_sub3(q0, B), D, R));
    if (aa > 0.0f) {
        /* components across the axis */
        dr_vec4 mp = dr_madd3(m, axis, -dr_dot3(m, axis) / aa);
        dr_vec4 Dp = dr_madd3(D, axis, -dr_dot3(D, axis) / aa);
        float sb = dr_sphere_entry(mp, Dp, R);
        float along = dr_dot3(dr_madd3(m, D, sb), axis);
        if (sb < s && along >= 0.0f && along <= aa)
            s = sb;
    }
    return s;
}

/* Where the segment q0 -> q1 (collider frame) that starts outside collider c inflated by margin
 * first enters it, s in [0, 1]; 2 for no hit. d0, d1: the signed distances of q0 and q1 to the
 * inflated collider (dr_collider_sdf minus margin), which the caller has already; a plane's signed
 * distance is linear along the segment, so they give its entry exactly. */
DR_FN float dr_collider_entry(DR_GLOBAL const dr_collider *c, dr_vec4 q0, dr_vec4 q1, float margin,
                              float d0, float d1)
{
    int kind = (int)c->a.w;
    dr_vec4 D = dr_sub3(q1, q0);
    if (kind == DR_COLLIDER_PLANE)
        return d1 < 0.0f && d0 >= 0.0f ? d0 / (d0 - d1) : 2.0f;
    float R = c->b.w + margin;
    if (kind == DR_COLLIDER_CAPSULE)
        return dr_capsule_entry(q0, D, c->a, c->b, R);
    return dr_sphere_entry(dr_sub3(q0, c->a), D, R);
}

/* generateCollisionConstraints (the PBD paper, 3.4) for one particle, continuously: the first
 * collider that the segment x -> p = x + d enters, or the one it starts inside. t is the substep's
 * start, h its length. */
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
    float first = 2.0f, clearance = 1e30f;
    for (unsigned i = 0; i < count; ++i) {
        DR_GLOBAL const dr_collider *c = &colliders[i];
        dr_vec4 off0 = dr_collider_offset(c, t), off1 = dr_collider_offset(c, t + h);
        dr_vec4 x_rel = dr_sub3(x, off0), p_rel = dr_sub3(p, off1);
        dr_vec4 n, np;
        float dx = dr_collider_sdf(c, x_rel, &n) - margin;
        float dp = dr_collider_sdf(c, p_rel, &np) - margin;
        clearance = DR_FMIN(clearance, dp);
        float s = 0.0f;
        dr_vec4 q_rel = x_rel;
        if (!(dx < 0.0f)) {
            s = dr_collider_entry(c, x_rel, p_rel, margin, dx, dp);
            if (s > 1.0f && dp < 0.0f)
                s = 1.0f; /* ends inside by a rounding the exact test did not see */
            if (!(s < first))
                continue;
            q_rel = dr_madd3(x_rel, dr_sub3(p_rel, x_rel), s);
            dx = dr_collider_sdf(c, q_rel, &n) - margin;
        } else if (!(s < first)) {
            continue;
        }
        first = s;
        best.q = dr_madd3(q_rel, n, -dx); /* onto the inflated surface */
        best.q = dr_add3(best.q, off1);
        best.q.w = (float)i + (s == 0.0f && dx < 0.0f ? 0.5f : 0.0f);
        best.n = n;
        best.n.w = dr_dot3(dr_sub3(v, c->vel), n);
    }
    if (!dr_has_contact(best)) /* no contact: the prediction and its clearance (see below) */
        best.n = DR_V4(d.x, d.y, d.z, clearance);
    return best;
}

/* How deep (m) a particle whose contact ct started the substep inside its collider
 * (dr_started_inside) was at the start: q is its start x put onto the inflated surface and moved
 * with the collider over the substep, so (q - x) . n less the collider's own motion; 0 for any
 * other contact. After the user placed particles (drape_world_add_particles,
 * drape_world_set_particle), the first substep starts their held push at minus this: the push-out
 * that mends a placement (a ball set down at its radius, within the margin) is no load of that
 * substep, and friction does not count it (dr_contact_push_l). Later substeps count all of it:
 * there a start inside is load, as where a rigid body's last fit puts its lowest particles back
 * into the floor. */
DR_FN float dr_start_depth(dr_vec4 x, dr_contact ct, DR_GLOBAL const dr_collider *colliders,
                           float h)
{
    if (!dr_has_contact(ct) || !dr_started_inside(ct))
        return 0.0f;
    DR_GLOBAL const dr_collider *c = &colliders[(int)ct.q.w];
    const float depth = dr_dot3(dr_sub3(ct.q, x), ct.n) - dr_dot3(c->vel, ct.n) * h;
    return DR_FMAX(depth, 0.0f);
}

/* Coulomb friction at the position level (Macklin et al. 2014): the fraction of the tangential
 * motion dt (m, over the substep) that a contact takes away: all of it while it is within the
 * static cone of the normal correction `hold` (|dt| <= mu_s hold), else mu_k `depth` of it. The
 * collider contacts and the bounces pass one budget twice; the particle pairs hold against their
 * support lifts in every iteration but count them in the kinetic cut once (dr_pair_push_vector).
 * Collider and particle contacts both use it. */
DR_FN float dr_friction_cut(dr_vec4 dt, float hold, float depth, float mu_s, float mu_k)
{
    return dr_friction_cut_l(dt.x, dt.y, dt.z, hold, depth, mu_s, mu_k);
}

/* Every contact of one particle at its current prediction x + d (see above): the half-space of its
 * continuous contact, and the signed distance to every other collider at the end of the substep
 * (t + h); each push-out is followed by friction over the substep of length h (dr_contact_push_l).
 * Returns the corrected displacement d.
 *
 * held->x (m) is how far the particle's collider contacts have pushed it out so far this
 * substep, held->yzw (m) how far their friction has moved it along the surface (all 0 at the
 * contact's generation). Coulomb bounds the whole substep's friction by mu_s times its whole push,
 * as XPBD's rigid bodies bound the friction multiplier by the normal one (Müller et al., "Detailed
 * Rigid Body Simulation with Extended Position Based Dynamics", 2020): a pass takes away all the
 * tangential motion left while the friction so far plus that stays within mu_s times the pushes so
 * far, this pass's included; else mu_k times this pass's depth. With each pass's depth alone, a
 * body whose constraints press its lowest particles into the floor a little in every iteration
 * never held: a rigid 3 x 3 x 3 box slid down a 20 degree slope with mu_s 0.4 at g (sin - mu_k
 * cos), at every substep and iteration count. */
DR_FN dr_vec4 dr_project_contacts(dr_vec4 d, dr_vec4 x, dr_contact ct,
                                  DR_GLOBAL const dr_collider *colliders, unsigned count, float t,
                                  float h, float margin, dr_vec4 *held)
{
    float dx = d.x, dy = d.y, dz = d.z, push = held->x, sx = held->y, sy = held->z, sz = held->w;
    dr_project_contacts_l(&dx, &dy, &dz, d.w, x.x, x.y, x.z, ct.q.x, ct.q.y, ct.q.z, ct.q.w, ct.n.x,
                          ct.n.y, ct.n.z, ct.n.w, colliders, count, t, h, margin, &push, &sx, &sy,
                          &sz);
    *held = DR_V4(push, sx, sy, sz);
    return DR_V4(dx, dy, dz, d.w);
}

/* The approach speed (m/s) above which a contact bounces (dr_contact_velocity_l): twice what
 * gravity adds to a velocity in one substep h, so that a particle resting on a collider never
 * bounces. */
DR_FN float dr_restitution_threshold(dr_vec4 gravity, float h)
{
    return 2.0f * dr_len3(gravity) * h;
}

/* The end of a substep in lanes, written once as the contacts above (DR_CONTACT_LANE_FUNCTIONS):
 * `float` for the CPU reference and update_state (dr_update_velocity and dr_update_particle below
 * are these at one lane), `float16` for update_state_x16
 * (kernels/update.cl). Velocities and displacements come as x, y, z components, updated in place;
 * a contact as its q and n components. Each lane is bitwise the scalar result.
 *
 * dr_update_velocity_l: v = d / h, the PBD velocity update ((p - x) / h in the paper). A particle
 * that no constraint moved keeps its v bitwise, so that free flight is exactly semi-implicit Euler.
 * A true division: a multiplication by a rounded 1/h would scale every velocity by the same
 * rounding error each substep, a drift of momentum that no longer averages out.
 * dr_contact_velocity_l: restitution, after v = d / h, for a particle whose continuous contact was
 * an impact, an approach faster than `threshold` (m/s). With e = 0 its normal velocity becomes 0:
 * it stops at the surface instead of keeping the speed it had into it. With e > 0 it bounces
 * where its motion crossed the plane, within the substep. The semi-implicit Euler step puts the
 * positions x_k on a parabola under gravity g whose velocity at t_k is v_k + g h / 2 (v_k the
 * stored velocity; the substep moves along v_k+1 = v_k + g h, the parabola's velocity halfway),
 * so the bounce is taken on that parabola: with a = -g . n, gravity towards the plane, it meets
 * the plane at speed uc = sqrt(u0^2 + 2 a z0) (u0 its normal velocity and z0 its height at the
 * substep's start) after tau = 2 z0 / (uc - u0), leaves at e uc, and in the r = h - tau left rises
 * e uc r - a r^2 / 2 off the plane (d, in place) and reaches the normal velocity e uc - a r, which
 * it stores as e uc - a r + a h / 2. So the next substeps follow the bounced parabola, and a ball
 * dropped from y0 rises to e^2 y0 at any step and phase of the impact: with e = 0.5 from 0.9 to
 * 1.1 m, within 0.15% at 1 and at 4 substeps. Taken as a reflection along the chord instead (the
 * speed v_k+1 . n, e times the depth past the plane), the rise at 1 substep depended on when in
 * the step the ball hit: from 7% short to 9% over. Without gravity along n (a = 0: a wall under
 * gravity, or no gravity) the two are the same. A bounce that the parabola brings back to the
 * plane within the substep (e uc < a r / 2) rests as with e = 0, and e = 0 is a rest also where
 * gravity pulls away from the plane (the parabola would fall off it). Velocity Verlet, whose
 * positions are not on that parabola, takes the chord (g = 0, dr_bounce_gravity). Slower approaches
 * rest, so that resting contact does not jitter. An impact has Coulomb friction too: the
 * velocity's tangential part (relative to the collider) loses mu_k times the part of the normal
 * change that stops the approach (all of it within mu_s times that), the restitution's part not
 * counted (as dr_bounce_change); and a particle whose sliding speed before the solve (w) was within
 * mu_s times its approach speed stops sliding, whatever the position pass took (with that pass's
 * share and this one's each judged alone, a particle dropped 0.3 m onto a slope of tan 0.35 with
 * mu_s 0.4, mu_k 0.3 kept 0.12 of its 0.76 m/s and slid on for good). The friction of the position
 * pass counts only how far the prediction went past the contact plane, so it took mu_k of the
 * approach speed only from a particle that hit at the start of its step; one that hit at its end
 * kept its whole sliding speed (at 45 degrees onto a plane at 14 m/s with mu_k 0.3, 7.0 to 10.0 m/s
 * left of 10 at 1 substep, by the moment of the hit). The two together take mu_k of it wherever the
 * hit falls (7.0). A particle that started the substep inside is moved out without being launched:
 * its outward normal velocity is capped at what it had before. A lane's collider is the one of its
 * contact, so the lanes go through the colliders and each takes its own; x is the particle's
 * position at the substep's start, q the contact's point. dr_update_particle_l: both
 * (dr_update_particle). */
#define DR_UPDATE_LANE_FUNCTIONS(S, real, mask)                                                    \
    DR_FN void dr_update_velocity_l##S(real dx, real dy, real dz, real *vx, real *vy, real *vz,    \
                                       float h)                                                    \
    {                                                                                              \
        mask same = (dx == *vx * h) & (dy == *vy * h) & (dz == *vz * h);                           \
        *vx = same ? *vx : dx / h, *vy = same ? *vy : dy / h, *vz = same ? *vz : dz / h;           \
    }                                                                                              \
                                                                                                   \
    DR_FN void dr_contact_velocity_l##S(                                                           \
        real *vx, real *vy, real *vz, real *dx, real *dy, real *dz, real xx, real xy, real xz,     \
        real qx, real qy, real qz, real qw, real nx, real ny, real nz, real nw, real wx, real wy,  \
        real wz, DR_GLOBAL const dr_collider *colliders, unsigned count, float h, float threshold, \
        dr_vec4 g)                                                                                 \
    {                                                                                              \
        mask has = !(qw < 0.0f);                                                                   \
        if (!DR_ANY##S(has))                                                                       \
            return;                                                                                \
        const real ox = *vx, oy = *vy, oz = *vz;                                                   \
        for (unsigned i = 0; i < count; ++i) {                                                     \
            mask own = has & (qw >= (float)i) & (qw < (float)(i + 1)); /* (int)qw == i */          \
            if (!DR_ANY##S(own))                                                                   \
                continue;                                                                          \
            DR_GLOBAL const dr_collider *c = &colliders[i];                                        \
            real vn = (ox - c->vel.x) * nx + (oy - c->vel.y) * ny + (oz - c->vel.z) * nz;          \
            mask inside = qw - (float)i > 0.25f; /* dr_started_inside */                           \
            real rise = (real)(0.0f), target = -c->vel.w * nw;                                     \
            if (c->vel.w > 0.0f) { /* the collider's restitution: the same for every lane */       \
                /* how far the prediction went past the contact plane, and where it started above  \
                 * it, in the collider's frame */                                                  \
                real cv = c->vel.x * nx + c->vel.y * ny + c->vel.z * nz;                           \
                real past = -((xx - qx) * nx + (xy - qy) * ny + (xz - qz) * nz + (cv + nw) * h);   \
                past = DR_FMIN(DR_FMAX(past, (real)(0.0f)), -nw * h);                              \
                real z0 = -nw * h - past;                                                          \
                /* the crossing on the positions' parabola: a = gravity towards the plane, u0 the  \
                 * parabola's normal velocity at the start, uc its speed at the plane, r the time  \
                 * left after it; the bounce leaves at e uc and rises `up` by the substep's end */ \
                real a = -(g.x * nx + g.y * ny + g.z * nz);                                        \
                real u0 = nw + 0.5f * h * a;                                                       \
                real uc = DR_SQRT(DR_FMAX(u0 * u0 + 2.0f * a * z0, (real)(0.0f)));                 \
                real r = h - DR_FMIN(2.0f * z0 / DR_FMAX(uc - u0, (real)(DR_EPS)), (real)(h));     \
                real eu = c->vel.w * uc;                                                           \
                real up = (eu - 0.5f * a * r) * r;                                                 \
                mask f = (up > 0.0f) & (eu > 0.0f);                                                \
                rise = f ? up : rise;                                                              \
                target = f ? eu - a * r + 0.5f * a * h : target;                                   \
            }                                                                                      \
            mask flies = rise > 0.0f;                                                              \
            real cap = DR_FMAX(nw, (real)(0.0f));                                                  \
            mask apply = own & (inside ? vn > cap : !(nw >= -threshold) & !(vn >= target));        \
            real k = inside ? cap - vn : target - vn;                                              \
            /* an impact's friction: against the part of k that stops the approach */              \
            real stop = DR_FMIN(k, -vn), tx = (ox - c->vel.x) - nx * vn;                           \
            real ty = (oy - c->vel.y) - ny * vn, tz = (oz - c->vel.z) - nz * vn;                   \
            real cut = dr_friction_cut_l##S(tx, ty, tz, stop, stop, c->info.x, c->info.y);         \
            /* static over the whole impact: the sliding speed it came in with (w, before the      \
             * solve) within mu_s of its approach speed stops, whatever the position pass took */  \
            real wn = (wx - c->vel.x) * nx + (wy - c->vel.y) * ny + (wz - c->vel.z) * nz;          \
            real sx = (wx - c->vel.x) - nx * wn, sy = (wy - c->vel.y) - ny * wn;                   \
            real sz = (wz - c->vel.z) - nz * wn;                                                   \
            mask sticks = DR_SQRT(sx * sx + sy * sy + sz * sz) <= c->info.x * -nw;                 \
            cut = sticks ? (real)(1.0f) : cut;                                                     \
            cut = !inside & (stop > 0.0f) ? cut : (real)(0.0f);                                    \
            *vx = apply ? ox + nx * k - tx * cut : *vx,                                            \
            *vy = apply ? oy + ny * k - ty * cut : *vy;                                            \
            *vz = apply ? oz + nz * k - tz * cut : *vz;                                            \
            mask bounce = apply & !inside & flies;                                                 \
            *dx = bounce ? *dx + nx * rise : *dx, *dy = bounce ? *dy + ny * rise : *dy;            \
            *dz = bounce ? *dz + nz * rise : *dz;                                                  \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    DR_FN void dr_update_particle_l##S(                                                            \
        real *dx, real *dy, real *dz, real *vx, real *vy, real *vz, real xx, real xy, real xz,     \
        real qx, real qy, real qz, real qw, real nx, real ny, real nz, real nw,                    \
        DR_GLOBAL const dr_collider *colliders, unsigned count, float h, float threshold,          \
        dr_vec4 g, int keep_free_velocity)                                                         \
    {                                                                                              \
        real ux = *vx, uy = *vy, uz = *vz;                                                         \
        dr_update_velocity_l##S(*dx, *dy, *dz, &ux, &uy, &uz, h);                                  \
        if (keep_free_velocity) { /* only where a contact moved the particle */                    \
            mask has = !(qw < 0.0f);                                                               \
            ux = has ? ux : *vx, uy = has ? uy : *vy, uz = has ? uz : *vz;                         \
        }                                                                                          \
        dr_contact_velocity_l##S(&ux, &uy, &uz, dx, dy, dz, xx, xy, xz, qx, qy, qz, qw, nx, ny,    \
                                 nz, nw, *vx, *vy, *vz, colliders, count, h, threshold, g);        \
        *vx = ux, *vy = uy, *vz = uz;                                                              \
    }

DR_UPDATE_LANE_FUNCTIONS(, float, int)
#ifdef __OPENCL_VERSION__
DR_UPDATE_LANE_FUNCTIONS(16, float16, int16)
#endif

/* v = d / h (dr_update_velocity_l). */
DR_FN dr_vec4 dr_update_velocity(dr_vec4 d, dr_vec4 v, float h)
{
    float vx = v.x, vy = v.y, vz = v.z;
    dr_update_velocity_l(d.x, d.y, d.z, &vx, &vy, &vz, h);
    return DR_V4(vx, vy, vz, v.w);
}

/* The end of a substep for one particle (dr_update_particle_l): its new velocity, and in *d the
 * displacement that takes it to its new position x + *d. Velocity Verlet sets keep_free_velocity:
 * it has its own velocity for particles no contact moved. */
DR_FN dr_vec4 dr_update_particle(dr_vec4 *d, dr_vec4 v, dr_vec4 x, dr_contact ct,
                                 DR_GLOBAL const dr_collider *colliders, unsigned count, float h,
                                 float threshold, dr_vec4 g, int keep_free_velocity)
{
    float vx = v.x, vy = v.y, vz = v.z, dx = d->x, dy = d->y, dz = d->z;
    dr_update_particle_l(&dx, &dy, &dz, &vx, &vy, &vz, x.x, x.y, x.z, ct.q.x, ct.q.y, ct.q.z,
                         ct.q.w, ct.n.x, ct.n.y, ct.n.z, ct.n.w, colliders, count, h, threshold, g,
                         keep_free_velocity);
    *d = DR_V4(dx, dy, dz, d->w);
    return DR_V4(vx, vy, vz, v.w);
}

/* ---- particle contacts ----------------------------------------------------------------------- */
/*
 * Particles with a radius push each other apart (host/cpu/particle_contacts.c and
 * kernels/particles.cl loop over these functions; docs/particle-contacts.md has the picture).
 *
 * Broad phase, once per substep, after the prediction: a hashed uniform grid of cell size 1.25
 * largest diameters, built by counting sort. Each particle's cell (from its predicted position
 * x + d) is hashed into a power-of-two table of buckets (dr_particle_bucket), a histogram of the
 * buckets is taken with integer atomics, an exclusive prefix scan turns it into bucket starts, and
 * a scatter writes the particle indices bucket by bucket. Hashing, not a box: particles may spread
 * over any distance; the table is sized by the particle count, so memory is bounded. Then, after
 * the collider contacts, each particle searches the buckets of its 27 neighbouring cells once and
 * lists its contact candidates (dr_particle_candidates), which the iterations reuse.
 *
 * Contacts, every iteration after the constraints, as a gather (Jacobi) pass (under gravity in
 * DR_CONTACT_PASSES passes by layers along up, dr_contact_pass): each particle goes
 * through its candidates and sums its own mass-weighted push-out
 * w_i / (w_i + w_j) of every pair closer than the collision distance, with Coulomb friction on the
 * pair's relative tangential motion (dr_friction_cut, the model of the collider contacts). Without
 * gravity each pair's correction is scaled by relax / max(n_i, n_j), n the contact counts at the
 * substep's start, the same factor on both sides, so that a pair moves no linear momentum. Under
 * gravity the masses are scaled for stacks (dr_stack_above: the lower particle acts heavier) and
 * each particle's pushes are averaged by the sum of its shares (a ball on three others takes the
 * mean of their three pushes, not a twelfth of each), and each particle's support is carried into
 * the next substep (dr_support_lift). A work-item writes only its own displacement, into a second
 * buffer. The sums run in 64-bit fixed point (2^-32 m): integer addition does not depend on order,
 * so the result is the same whatever order the scatter's atomics left the particles of a bucket
 * in, on any device, and bitwise the CPU reference's.
 *
 * A particle in contact with a floor (a collider whose normal is within 60 degrees of up; any
 * collider without gravity) this substep acts as immovable against one that is not (a ball on the
 * floor under a heavy one is held by the floor, not squeezed into it): the mass weighting alone
 * would leave a 1000:1 stack sinking for hundreds of iterations.
 *
 * Groups: a particle's group word holds its group id (DR_GROUP_ID) and two flags. Particles of
 * different groups always collide; of one group only when both have DR_GROUP_SELF; and when both
 * have DR_GROUP_MESH (cloths and ropes), pairs closer than DR_REST_FILTER collision distances in
 * the rest pose (shape.xyz) are neighbours in the mesh and never collide. The others then all rest
 * farther apart than their collision distance, so the rule "collision distance min(2r, rest
 * distance)" is the plain sum of the radii.
 *
 * The cell follows the largest radius, so particles much smaller than the largest crowd into few
 * buckets (a fine cloth under a coarse one). A bucket may hold the plan's bucket cap: at least
 * DR_CELL_CAP, more where few particles take part (DR_PAIR_BUDGET over their count, so that a
 * search costs at most about 27 DR_PAIR_BUDGET pair tests). A fuller bucket (everything at one
 * point, a radius as large as the scene) stops the contact pass for the step and the step reports
 * it, so that a pathological scene costs one grid build, never n^2 pair tests.
 */
#define DR_NO_CELL 0xffffffffu
#define DR_GROUP_ID 0x3fffffffu
#define DR_GROUP_SELF 0x80000000u
#define DR_GROUP_MESH 0x40000000u
#define DR_REST_FILTER 1.5f
#define DR_CELL_CAP 256u
#define DR_PAIR_BUDGET 2097152u    /* 2^21: a bucket's cap times the particles, at most (or 256) */
#define DR_NBR_CAP 32u             /* contact candidates listed per particle and substep */
#define DR_NBR_MARGIN 0.25f        /* candidates: anchors within (1 + this) collision distances */
#define DR_FIXED_ONE 4294967296.0f /* 2^32: the fixed-point unit is 2^-32 m */
#define DR_FIXED_MAX 1.0e4f /* m: one pair's push is clamped to this, so sums cannot overflow */

#ifdef __OPENCL_VERSION__
typedef long dr_fixed;
#define DR_FLOOR floor
#else
typedef long long dr_fixed;
#define DR_FLOOR floorf
#endif

/* The integer cell coordinate of a coordinate (m), clamped so that the conversion is defined for
 * any float (NaN and inf included). */
DR_FN int dr_cell_coord(float p, float inv_cell)
{
    float c = DR_FLOOR(p * inv_cell);
    c = c < 1.0e9f ? c : 1.0e9f;
    c = c > -1.0e9f ? c : -1.0e9f;
    return (int)c;
}

/* The bucket of cell (ix, iy, iz) in a table of mask + 1 buckets: the cells are taken in blocks of
 * 4 x 4 x 4, each block hashed (Teschner et al., "Optimized Spatial Hashing for Collision Detection
 * of Deformable Objects", 2003) to a run of 64 consecutive buckets, one per cell of the block. So
 * the grid's order (the buckets') keeps neighbouring cells together: the device walks the
 * particles in that order, and its work-items then read neighbouring data. Which buckets the cells
 * get changes where things are stored, never a result. */
DR_FN unsigned dr_cell_bucket(int ix, int iy, int iz, unsigned mask)
{
    unsigned x = (unsigned)ix, y = (unsigned)iy, z = (unsigned)iz;
    unsigned block = ((x >> 2) * 73856093u) ^ ((y >> 2) * 19349663u) ^ ((z >> 2) * 83492791u);
    return ((block << 6) | ((z & 3u) << 4) | ((y & 3u) << 2) | (x & 3u)) & mask;
}

/* The bucket of the cell that holds p. */
DR_FN unsigned dr_particle_bucket(dr_vec4 p, float inv_cell, unsigned mask)
{
    return dr_cell_bucket(dr_cell_coord(p.x, inv_cell), dr_cell_coord(p.y, inv_cell),
                          dr_cell_coord(p.z, inv_cell), mask);
}

/* The velocity limit of a particle with contacts: its displacement over the substep is cut to
 * `limit` (m), so that it cannot pass through another particle in one substep; limit <= 0: none. */
DR_FN dr_vec4 dr_limit_travel(dr_vec4 d, float limit)
{
    float len = dr_len3(d);
    return limit > 0.0f && len > limit ? dr_scale3(d, limit / len) : d;
}

/* How many substeps a step of dt (s) must be split into for a particle of radius r (m) moving at v
 * (m/s) to keep to the velocity limit, `travel` radii per substep: (|v| + g_dt) dt / (travel r),
 * with g_dt = |g| dt (m/s) the speed gravity adds over the step. 0 without a radius or a limit.
 * The step takes the largest over its particles (dr_step_substeps in the host's world.c), which
 * both backends take as the largest of the results' bits (a non-negative float's bits order as
 * the float does). */
DR_FN float dr_substeps_needed(dr_vec4 v, float r, float g_dt, float dt, float travel)
{
    return r > 0.0f && travel > 0.0f ? (dr_len3(v) + g_dt) * dt / (travel * r) : 0.0f;
}

/* The distance (m) below which particles i and j push each other apart; 0 when they never do.
 * shape: rest position in xyz, radius (m) in w; g: group words. */
/* Whether the distance of a pair of groups gi, gj depends on the rest positions (the mesh filter
 * below); otherwise only the radii, shape's w, matter. */
DR_FN int dr_pair_filters_rest(unsigned gi, unsigned gj)
{
    return ((gi ^ gj) & DR_GROUP_ID) == 0u && (gi & gj & DR_GROUP_SELF) != 0u &&
           (gi & gj & DR_GROUP_MESH) != 0u;
}

DR_FN float dr_pair_distance(dr_vec4 si, unsigned gi, dr_vec4 sj, unsigned gj)
{
    float D = si.w + sj.w;
    if (((gi ^ gj) & DR_GROUP_ID) != 0u)
        return D;
    if ((gi & gj & DR_GROUP_SELF) == 0u)
        return 0.0f;
    if (dr_pair_filters_rest(gi, gj) && dr_len3(dr_sub3(si, sj)) < DR_REST_FILTER * D)
        return 0.0f;
    return D;
}

/* A direction for two particles at one point: a hash of the pair, opposite for (j, i). */
DR_FN dr_vec4 dr_pair_fallback(unsigned i, unsigned j)
{
    unsigned lo = i < j ? i : j, hi = i < j ? j : i;
    unsigned k = (lo * 2654435761u) ^ (hi * 40503u + 0x9e3779b9u);
    k ^= k >> 15;
    k *= 2246822519u;
    k ^= k >> 13;
    dr_vec4 n = DR_V4((float)(k & 1023u) - 511.5f, (float)((k >> 10) & 1023u) - 511.5f,
                      (float)((k >> 20) & 1023u) - 511.5f, 0.0f);
    n = dr_scale3(n, 1.0f / dr_len3(n));
    return i < j ? n : dr_scale3(n, -1.0f);
}

DR_FN dr_fixed dr_to_fixed(float f, float *poison)
{
    *poison = *poison + (f - f); /* 0, or NaN once a push is not finite */
    f = f < DR_FIXED_MAX ? f : DR_FIXED_MAX;
    f = f > -DR_FIXED_MAX ? f : -DR_FIXED_MAX;
    return (dr_fixed)(f * DR_FIXED_ONE);
}

/* One pair's contribution to particle i's push-out (see above), summed in fixed point into
 * acc. xi, di, si, gi: particle i's position, displacement, shape and group word; grounded_i
 * whether it has a collider contact; ni its contact count at the substep's start. Pairs not
 * within their collision distance at the current predictions add nothing. */
/* Particle i's share of a pair's correction: its inverse mass wi over the pair's (a grounded
 * particle immovable against a free one) times relax over the larger of the contact counts ni, nj;
 * 0 when i cannot move. */
DR_FN float dr_pair_share(float wi, int grounded_i, unsigned ni, float wj, int grounded_j,
                          unsigned nj, float relax, float above)
{
    float ei = grounded_i && !grounded_j ? 0.0f : wi * (1.0f + above);
    float ej = grounded_j && !grounded_i ? 0.0f : wj * (1.0f - above);
    float sum = ei + ej;
    unsigned nmax = ni > nj ? ni : nj;
    return sum > 0.0f ? ei / sum * (relax / (float)(nmax > 1u ? nmax : 1u)) : 0.0f;
}
/* Mass scaling for stacks (Macklin et al. 2014, "Unified Particle Physics for Real-Time
 * Applications", 5.2): in the contacts between particles a particle acts heavier the lower it is
 * along gravity, so that the particle above takes a stacked pair's correction and a pile's weight
 * does not squeeze its lowest contacts. Here in a form without exp (bitwise the same on every
 * device): how far i is above j, r = p_i - p_j, along up (the unit vector against gravity, 0
 * without gravity), over DR_STACK_RISE collision distances, clamped to [-1, 1]; i's inverse mass is
 * scaled by 1 + that, j's by 1 - that. Side by side (0) the plain masses; a pair whose normal is
 * within 60 degrees of up, the upper particle alone moves. */
#define DR_STACK_RISE 0.5f
DR_FN float dr_stack_above(dr_vec4 r, dr_vec4 up, float D)
{
    float a = dr_dot3(r, up) / (DR_STACK_RISE * D);
    a = a < 1.0f ? a : 1.0f;
    return a > -1.0f ? a : -1.0f;
}

/* Whether a particle rests, for the stack scaling, the averaging by shares and the support
 * (dr_pair_unstacked, dr_pair_weigh, dr_support_lift): a stack carries its weight down to something
 * that holds it, so they only make sense in a pile that stands on something. A particle rests when
 * it is pinned, belongs to a mesh (a cloth, rope or soft body, held by its own constraints; as
 * before), has a floor contact (dr_particle_grounded) this substep, or has a contact candidate
 * below it (its anchor lower along up) that rested in the round before (dr_particle_rests_on). The
 * flags are worked out in DR_REST_ROUNDS Jacobi rounds per substep after the candidates, from the
 * last substep's (host and device alike), so they climb a pile that many layers per substep, and a
 * cluster in free fall loses them from the bottom up; they start as DR_REST_START. Scaled for
 * stacks and lifted without anything under it, a cluster of 60 balls colliding in free fall
 * (1 substep) fell 1.2 m/s slower than gravity after a second: the upper ball of each pair took
 * the push and the support lifted what nothing held. */
#define DR_REST_ROUNDS 4u /* rounds of the flags per substep: layers they climb */
#define DR_REST_START 0u  /* the flags before the first substep */
/* Whether particle i (anchor ai) rests on candidate j (anchor aj, flag rj of the round before).
 */
DR_FN unsigned dr_particle_rests_on(dr_vec4 ai, dr_vec4 aj, unsigned rj, dr_vec4 up)
{
    return rj != 0u && dr_dot3(dr_sub3(ai, aj), up) > 0.0f;
}

/* Whether a pair takes the stack scaling: its lower particle rests (along up the sign of
 * dot(x_i - x_j, up), `rise`; side by side, both). Odd pairs stay symmetric: (j, i) negates rise.
 */
DR_FN int dr_pair_rests(float rise, unsigned ri, unsigned rj)
{
    return rise > 0.0f ? rj != 0u : rise < 0.0f ? ri != 0u : ri != 0u && rj != 0u;
}

/* Whether pair (i, j) is an impact, which the mass scaling for stacks leaves out: with restitution
 * (fast > 0, the resting speed dr_restitution_threshold; 0 turns the test off and leaves vpre
 * unread), the pair's velocities after the prediction, vpre[i] and vpre[j], approach along
 * xij = x_i - x_j (the positions at the substep's start) faster than fast. Scaled for stacks, a
 * light ball dropped with a heavy one met it, after the heavy one's bounce off the floor, as if the
 * heavy one were immovable: the push moved the light ball alone, the pair gained momentum, and the
 * bounce that followed made 36% more energy. Odd in (i, j) like the rest: (j, i) negates both
 * factors of the dot product. */
DR_FN int dr_pair_impact(dr_vec4 xij, DR_GLOBAL const dr_vec4 *vpre, unsigned i, unsigned j,
                         float fast)
{
    return fast > 0.0f &&
           dr_dot3(dr_sub3(vpre[i], vpre[j]), xij) < -fast * DR_SQRT(dr_dot3(xij, xij));
}

/* dr_pair_unstacked's answer for a floating pair, whose lower particle does not rest (side by
 * side: either): no stack scaling, and dr_pair_weigh's momentum-exact rule of free space. */
#define DR_PAIR_FLOATING 2

/* Whether the mass scaling for stacks leaves pair (i, j) out: DR_PAIR_FLOATING for a floating
 * pair (rests: the rest flags, dr_pair_rests), else 1 for an impact (dr_pair_impact) of two
 * particles that touch no other particle at the substep's start (ni, nj: their contact counts, at
 * most 1), or two particles of meshes (DR_GROUP_MESH in both group words gi, gj: cloths, ropes,
 * tetrahedral meshes). An impact inside a pile stays scaled: left out there, the plain Jacobi
 * pushes of a block of 5000 balls landing together with restitution 0.5 (scenes/balls.json with
 * particle_restitution 0.5) threw balls 4 to 20 m up, and its energy (kinetic and gravitational)
 * rose from 255 J to 573 J at 4 substeps x 8 iterations and to 3215 J at 1 x 4; now it falls to
 * 150 J (to 165 J without restitution). Layers of
 * cloth draped around a body are not a pile, and the scaled pushes are not equal and opposite, so
 * nothing bounds the energy they add: four self-colliding cloths dropped on a sphere
 * (scenes/cloth-layers.json) landed at 2 m/s and flew up at 3 m/s a quarter of a second later,
 * their energy (kinetic and gravitational) grown by 15 J/kg at 4 substeps and 76 J/kg at 8, three
 * and thirteen times what the fall had given them. Unscaled, it never grows by more than 0.2 J/kg
 * (scene.self_collision). */
DR_FN int dr_pair_unstacked(dr_vec4 xij, DR_GLOBAL const dr_vec4 *vpre, unsigned i, unsigned j,
                            float fast, unsigned gi, unsigned gj, unsigned ni, unsigned nj,
                            dr_vec4 up, DR_GLOBAL const unsigned *rests)
{
    if (!dr_pair_rests(dr_dot3(xij, up), rests[i], rests[j]))
        return DR_PAIR_FLOATING;
    return (gi & gj & DR_GROUP_MESH) != 0u ||
           (ni <= 1u && nj <= 1u && dr_pair_impact(xij, vpre, i, j, fast));
}

/* The stack scaling of a pair (dr_stack_above), none for a pair that dr_pair_unstacked leaves
 * out. */
DR_FN float dr_pair_stack(dr_vec4 r, dr_vec4 up, float D, int unstacked)
{
    return unstacked ? 0.0f : dr_stack_above(r, up, D);
}

/* Whether a particle's collider contact holds it up against the particles above it: a contact
 * whose normal is within 60 degrees of up (a floor, not a wall), or any contact without gravity. */
DR_FN int dr_particle_grounded(dr_contact ct, dr_vec4 up)
{
    return dr_has_contact(ct) && (dr_dot3(up, up) == 0.0f || dr_dot3(ct.n, up) > 0.5f);
}

/* Whether a particle rests before its candidates are counted (dr_pair_rests): pinned, of a mesh, or
 * grounded. */
DR_FN unsigned dr_particle_rest_seed(dr_vec4 x, unsigned group, dr_contact ct, dr_vec4 up)
{
    return x.w == 0.0f || (group & DR_GROUP_MESH) != 0u || dr_particle_grounded(ct, up);
}

/* How far above its collider contact's surface a grounded particle's prediction may be and still
 * rest on it, in radii: the rounding of the push-out that puts it on the surface (0.2 um for a
 * cloth particle of 2 cm). Without it, a cloth lying on a cloth on a 15 degree slope crept down
 * it, 7.6 mm in 2.5 s at 1 substep: its particles, on the slope to a rounding error, counted as
 * lifted half the time, and the upper cloth's friction dragged them. */
#define DR_GROUND_SLACK 1e-5f

/* The plane that holds a particle of the given radius (m) up, for dr_grounded_at: its collider
 * contact's normal in xyz, in w the largest displacement along it (d . n, m) at which its
 * prediction x + d still rests on the contact's surface or is under it: (q - x) . n plus the
 * slack. No grounding contact (dr_particle_grounded): a w that no displacement reaches. Worked
 * out once per substep (the CPU reference's pass order) or per pair (the device's gather), the
 * same operations either way. */
DR_FN dr_vec4 dr_ground_plane(dr_contact ct, dr_vec4 x, dr_vec4 up, float radius)
{
    if (!dr_particle_grounded(ct, up))
        return DR_V4(0.0f, 0.0f, 0.0f, -1.0f);
    return DR_V4(ct.n.x, ct.n.y, ct.n.z,
                 dr_dot3(dr_sub3(ct.q, x), ct.n) + DR_GROUND_SLACK * radius);
}

/* Whether a particle with ground plane `plane` (dr_ground_plane) and current displacement d is
 * grounded: immovable against the particles it touches (dr_pair_share), only while its prediction
 * still rests on its contact's surface or under it (the collider pushes it back there at the end
 * of the iteration). Lifted off it by its own constraints (a cloth's links, a soft body's
 * elasticity), it takes its share of the pushes of the particles above it again. Grounded for the
 * whole substep instead, a cloth particle on the floor that its links lifted in the step after it
 * landed carried a particle lying on it up too, unopposed, and in the next step, its path clear of
 * the floor and so without a contact, was pushed back down by it: a two-step cycle of 5 to 15 mm
 * that never died out (scenes/cloth-layers.json at one substep: 24 particles reversing their
 * velocity every step, up to 0.75 m/s, 20 s after the drop; now 7, up to 0.28 m/s; docs/
 * particle-contacts.md). */
DR_FN int dr_grounded_at(dr_vec4 plane, dr_vec4 d) { return dr_dot3(d, plane) <= plane.w; }

/* Warm-started support: a particle resting in a pile is held up, substep after substep, by its
 * contacts, which the iterations must find again each time from the overlap that gravity's
 * prediction makes. A Jacobi pass moves a pile as a whole only a little per iteration, so the
 * weight of a deep pile squeezed its contacts. Instead each particle keeps `support` (m): how far
 * its particle contacts pushed it along up in the last substep, the lift included. At the next
 * grid build, when it touched other particles at the last substep's start, it starts that far up,
 * clamped to [0, cap] with cap = |g| h^2, gravity's pull over one substep: at most the weight is
 * carried over, never more (a particle that loses its support falls one substep late, no faster
 * than gravity lets it). A loose particle's lift is also clamped to how far its prediction sinks
 * along -up: the lift can stop it sinking, never send it up (a column of balls lifted while it rose
 * kept rising, weightless, and stirred the top of a pile), and DR_SUPPORT_KEEP of the lift is kept
 * for the next substep, so that a support no longer needed (a ball beside another, not on it)
 * fades. A cloth's, rope's or other mesh's particle (DR_GROUP_MESH in `group`), which its
 * constraints keep moving a little up and down, keeps the whole lift (a clamp to the sinking let
 * stacked cloths sink into each other) and DR_SUPPORT_KEEP_MESH of it. Without gravity (up = 0)
 * it does nothing. Like the warm start of sequential impulses, but per particle, written only by
 * its own work-item. *lift gets the lift (m along up), which the friction of the substep's first
 * iteration counts (dr_pair_push_vector). */
#define DR_SUPPORT_KEEP 0.95f
#define DR_SUPPORT_KEEP_MESH 0.9f
DR_FN dr_vec4 dr_support_lift(dr_vec4 d, float *support, float *lift, unsigned touching, dr_vec4 up,
                              float cap, unsigned group, unsigned rests)
{
    int mesh = (group & DR_GROUP_MESH) != 0u;
    float s = touching > 0u && rests != 0u ? *support : 0.0f, sink = -dr_dot3(d, up);
    s = s < cap ? s : cap;
    if (!mesh)
        s = s < sink ? s
                     : sink; /* it stops the sinking at most: a support holds up, never throws */
    s = s > 0.0f ? s : 0.0f;
    *support = (mesh ? DR_SUPPORT_KEEP_MESH : DR_SUPPORT_KEEP) * s;
    *lift = s;
    return dr_madd3(d, up, s);
}

/* support after a gather pass moved the displacement from d to dnew. */
DR_FN float dr_support_add(float support, dr_vec4 dnew, dr_vec4 d, dr_vec4 up)
{
    return support + dr_dot3(dr_sub3(dnew, d), up);
}

typedef struct dr_pair_sum {
    dr_fixed x, y, z;
    dr_fixed weight; /* under gravity: the sum of i's shares, the pushes' divisor */
    float poison;    /* 0, or NaN once a push is not finite */
    unsigned found;  /* pairs within their collision distance */
} dr_pair_sum;

/* A touching pair's share for i, counted in acc->found. above: dr_stack_above(r, up, D). Without
 * gravity dr_pair_share with the contact counts; under gravity without them (the pushes are
 * averaged by the sum of the shares, summed into acc->weight), so that a pair that did not touch
 * at the substep's start (both counts 0) pushes all the same: scaled by the larger count, such a
 * pair pushed nothing, and balls resting a hair apart at the grid build sank into each other
 * during the iterations. A floating pair (DR_PAIR_FLOATING) takes the rule without gravity: nothing
 * holds it up, and the same factor on both sides keeps its momentum (averaged by shares, a cluster
 * colliding in free fall fell faster than gravity). A pair that the stack scaling leaves out
 * (`unstacked`, dr_pair_unstacked)
 * counts DR_UNSTACKED_COUNT in the divisor instead of its share: an average by the count of pushes
 * with an over-relaxation of 1 / DR_UNSTACKED_COUNT (Macklin et al. 2014, 4.2). By their shares,
 * two particles of equal mass (a half each) with several contacts each moved by the mean of their
 * pushes, so the pair closed twice its overlap: an over-relaxation of 2, the edge of stability. */
#define DR_UNSTACKED_COUNT 0.75f
DR_HOT float dr_pair_weigh(dr_pair_sum *acc, float wi, int grounded_i, unsigned ni, float wj,
                           int grounded_j, unsigned nj, float relax, float above, int gravity,
                           int unstacked)
{
    acc->found = acc->found + 1u;
    if (!gravity || unstacked == DR_PAIR_FLOATING)
        return dr_pair_share(wi, grounded_i, ni, wj, grounded_j, nj, relax, above);
    float share = dr_pair_share(wi, grounded_i, 1u, wj, grounded_j, 1u, 1.0f, above);
    float counted = unstacked ? (share > 0.0f ? DR_UNSTACKED_COUNT : 0.0f) : share;
    acc->weight += dr_to_fixed(counted, &acc->poison);
    return share;
}

/* A touching pair's push on i before its share: out along n by the depth, less the friction cut of
 * the relative tangential motion. r = (x_i - x_j) + (d_i - d_j), len2 = |r|^2 < D^2. Exactly the
 * negation of (j, i)'s.
 *
 * li, lj: the support lifts of i and j along up this substep (dr_support_lift); first: whether
 * this is the substep's first iteration. Coulomb bounds the whole tangential correction by mu
 * times the whole normal one, and a lift is part of both: it lifts a particle before the
 * iterations, so it never passes through a pair. So in the first iteration friction works on the
 * relative motion without the lifts' tangential part (which it undoes where it cannot hold it: on
 * a frictionless slope the pair gives it back), against the depth plus max(li, lj) |n . up| (the
 * pair carries at least the weight that the upper particle's lift took). With the depths alone,
 * friction held a few percent of the weight: a pile's contacts crept until a pile 17 balls deep
 * slumped at one substep, and a ball slid on a particle as on ice; with the lifts' tangential
 * part kept, a ball on a slope of particles slid a tenth as far as it should (the lift along up
 * cancels the pull down the slope). In the later iterations the lift still bears the weight, so
 * a pair within the static cone of depth plus lift stays stuck; the kinetic cut, taken against
 * the lift once (in the first iteration), is against the depth alone. Static friction against
 * the depth alone there let a cloth lying on another on a slope of 15 degrees creep down it at
 * 3 to 4 mm/s with mu_s 0.4 (4 substeps), for as long as it lay there. */
DR_HOT dr_vec4 dr_pair_push_vector(unsigned i, unsigned j, dr_vec4 r, float len2, float D,
                                   dr_vec4 di, dr_vec4 dj, float mu_s, float mu_k, dr_vec4 up,
                                   float li, float lj, unsigned first)
{
    float len = DR_SQRT(len2);
    dr_vec4 n = len > DR_EPS ? dr_scale3(r, 1.0f / len) : dr_pair_fallback(i, j);
    float depth = D - len, tilt = dr_dot3(n, up);
    float held = (li > lj ? li : lj) * (tilt < 0.0f ? -tilt : tilt);
    dr_vec4 lifted = dr_scale3(up, first ? li - lj : 0.0f);
    dr_vec4 lt = dr_madd3(lifted, n, -dr_dot3(lifted, n)); /* the lifts' tangential part */
    dr_vec4 u = dr_sub3(di, dj);
    dr_vec4 dt = dr_sub3(dr_madd3(u, n, -dr_dot3(u, n)), lt);
    float cut = dr_friction_cut(dt, depth + held, first ? depth + held : depth, mu_s, mu_k);
    return dr_sub3(dr_madd3(dr_scale3(n, depth), dt, -cut), lt);
}

/* push (dr_pair_push_vector) times share, into acc's fixed-point sums. */
DR_HOT void dr_pair_add(dr_pair_sum *acc, dr_vec4 push, float share)
{
    push = dr_scale3(push, share);
    acc->x += dr_to_fixed(push.x, &acc->poison);
    acc->y += dr_to_fixed(push.y, &acc->poison);
    acc->z += dr_to_fixed(push.z, &acc->poison);
}

/* Passes by layers along up: under gravity each iteration's contact pass runs in
 * DR_CONTACT_PASSES passes, bottom to top by layers of one cell along up (layer k in pass
 * k mod DR_CONTACT_PASSES), each pass a gather of its own particles' pushes from the latest
 * displacements of all (Gauss-Seidel between passes, Jacobi within one, so that no result depends
 * on the order of the work-items). A layer then sees the push of the layer below it in the same
 * iteration: a pile's weight climbs DR_CONTACT_PASSES layers per iteration instead of one (16
 * layers of 1.25 diameters: a pile 20 balls deep in one sweep). Without gravity one pass (the
 * momentum-exact Jacobi gather). A power of two, at most 256. */
#define DR_CONTACT_PASSES 16u

/* How many passes each iteration's contact pass takes: DR_CONTACT_PASSES under gravity, else 1. */
DR_FN unsigned dr_contact_passes(dr_vec4 up)
{
    return dr_dot3(up, up) > 0.0f ? DR_CONTACT_PASSES : 1u;
}

/* The pass of a particle whose anchor is `anchor`: its layer along up (cells of 1 / inv_cell m)
 * modulo DR_CONTACT_PASSES; 0 without gravity. */
DR_FN unsigned dr_contact_pass(dr_vec4 anchor, dr_vec4 up, float inv_cell)
{
    return (unsigned)dr_cell_coord(dr_dot3(anchor, up), inv_cell) & (DR_CONTACT_PASSES - 1u);
}

/* The OpenCL backend's per-pass member lists (kernels/particles.cl, particle_pass_count): the
 * particles are counted and listed in chunks of DR_PASS_CHUNK consecutive indices, one work-item
 * per chunk, so that each pass's members come out in index order whatever the thread order. */
#define DR_PASS_CHUNK 64u

/* One pair's push on i (see above), summed into acc. j's displacement is d[j], or done[j] when j's
 * contact pass (pass_of[j], dr_contact_pass of its anchor, worked out once per substep) comes
 * before `pass` (the passes before this one in the iteration wrote their particles' results to
 * done; d holds every particle's displacement from before the first pass). With pass 0 neither
 * done nor pass_of is read. */
DR_HOT void dr_pair_push(dr_pair_sum *acc, unsigned i, unsigned j, dr_vec4 xi, dr_vec4 di,
                         dr_vec4 si, unsigned gi, int grounded_i, unsigned ni,
                         DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *d,
                         DR_GLOBAL const dr_vec4 *shape, DR_GLOBAL const unsigned *group,
                         DR_GLOBAL const dr_contact *contacts, DR_GLOBAL const unsigned *nbr,
                         float mu_s, float mu_k, float relax, dr_vec4 up,
                         DR_GLOBAL const float *lift, unsigned first, DR_GLOBAL const dr_vec4 *done,
                         DR_GLOBAL const unsigned char *pass_of, unsigned pass,
                         DR_GLOBAL const dr_vec4 *vpre, float fast, DR_GLOBAL const unsigned *rests)
{
    dr_vec4 sj = shape[j], xj = x[j];
    dr_vec4 dj = pass > 0u && pass_of[j] < pass ? done[j] : d[j];
    float D = dr_pair_distance(si, gi, sj, group[j]);
    dr_vec4 r = dr_add3(dr_sub3(xi, xj), dr_sub3(di, dj));
    float len2 = dr_dot3(r, r);
    if (!(len2 < D * D))
        return;
    int unstacked =
        dr_pair_unstacked(dr_sub3(xi, xj), vpre, i, j, fast, gi, group[j], ni, nbr[j], up, rests);
    float share =
        dr_pair_weigh(acc, xi.w, grounded_i, ni, xj.w,
                      dr_grounded_at(dr_ground_plane(contacts[j], xj, up, sj.w), dj), nbr[j], relax,
                      dr_pair_stack(r, up, D, unstacked), dr_dot3(up, up) > 0.0f, unstacked);
    if (!(share > 0.0f))
        return;
    dr_pair_add(
        acc, dr_pair_push_vector(i, j, r, len2, D, di, dj, mu_s, mu_k, up, lift[i], lift[j], first),
        share);
}

/* Particle i's new displacement from its displacement di and its pair sums acc (relax: the
 * relaxation factor). */
DR_FN dr_vec4 dr_pair_sum_apply(dr_pair_sum acc, dr_vec4 di, float relax)
{
    if (acc.found == 0u)
        return di;
    float unit = 1.0f / DR_FIXED_ONE;
    if (acc.weight > (dr_fixed)DR_FIXED_ONE)
        unit = relax / (float)acc.weight;
    else if (acc.weight > 0)
        unit = relax / DR_FIXED_ONE;
    return DR_V4(di.x + ((float)acc.x * unit + acc.poison),
                 di.y + ((float)acc.y * unit + acc.poison),
                 di.z + ((float)acc.z * unit + acc.poison), di.w);
}

/* Whether the step's grid may be searched: its fullest bucket (limits[0]) within the plan's bucket
 * cap (limits[2], dr_particle_plan_update). */
DR_FN int dr_grid_fits(DR_GLOBAL const unsigned *limits) { return limits[0] <= limits[2]; }

/* Whether j is a contact candidate of i for this substep: a pair that may collide whose anchors
 * are closer than (1 + DR_NBR_MARGIN) collision distances. Symmetric in i and j, so that i lists
 * j exactly when j lists i. */
DR_FN int dr_within_reach(float D, float d2)
{
    float reach = D * (1.0f + DR_NBR_MARGIN);
    return reach > 0.0f && d2 < reach * reach;
}

DR_FN int dr_pair_candidate(dr_vec4 si, unsigned gi, dr_vec4 ai, dr_vec4 sj, unsigned gj,
                            dr_vec4 aj)
{
    dr_vec4 r = dr_sub3(ai, aj);
    return dr_within_reach(dr_pair_distance(si, gi, sj, gj), dr_dot3(r, r));
}

/* A walk over the contact candidates of particle i in the grid: the particles of the buckets of
 * the 27 cells around its anchor (the anchors make the search symmetric) that dr_pair_candidate
 * accepts. dr_walk_begin starts it, dr_walk_next gives the next candidate's index, DR_NO_CELL at
 * the end. The table has mask + 1 >= 64 buckets (dr_particle_plan), so that the 27 cells take 27
 * distinct buckets: the low six bits of a cell's bucket are its coordinates modulo 4
 * (dr_cell_bucket), three consecutive values along each axis. start has mask + 2 entries. The
 * cells are taken x fastest, then y, then z, in rows along x (dr_walk_row); the walk keeps no list
 * of them (on GPUs a private array is memory, not registers). grid_anchor and grid_group hold the
 * anchors (each particle's radius in w) and the groups in the grid's order (`sorted`): a bucket's
 * particles lie side by side there, and those further than the two radii's reach are passed over
 * before anything else of theirs is read. The test is dr_pair_candidate's, with the shape's rest
 * position read only where the groups' mesh filter needs it. */
typedef struct dr_cell_walk {
    dr_vec4 si, ai; /* particle i's shape and anchor */
    unsigned gi, mask;
    unsigned row;              /* dy + 1 + 3 (dz + 1): the cells (x - 1 .. x + 1, y + dy, z + dz) */
    unsigned k, end, k2, end2; /* the places in `sorted` left in the row: [k, end), [k2, end2) */
    int cx, cy, cz;            /* the cell of i's anchor */
    float D, d2; /* the last candidate's collision distance, and squared distance at the anchors */
} dr_cell_walk;

/* The walk's row of three cells: their buckets are consecutive within a 4 x 4 x 4 block
 * (dr_cell_bucket), so that their particles lie side by side in `sorted`, in one run where the
 * three share a block and in two where x - 1 or x + 1 lies in the next block. */
DR_HOT void dr_walk_row(dr_cell_walk *w, DR_GLOBAL const unsigned *start)
{
    const int y = w->cy + (int)(w->row % 3u) - 1, z = w->cz + (int)(w->row / 3u) - 1;
    const unsigned lo = dr_cell_bucket(w->cx - 1, y, z, w->mask),
                   hi = dr_cell_bucket(w->cx + 1, y, z, w->mask);
    const unsigned place = (unsigned)w->cx & 3u; /* x's place in its block */
    /* place 0: x - 1 alone, then x .. x + 1 (hi - 1 .. hi); place 3: x - 1 .. x (lo .. lo + 1),
     * then x + 1 alone; otherwise lo .. lo + 2 = hi */
    w->k = start[lo];
    w->end = start[place == 0u ? lo + 1u : place == 3u ? lo + 2u : hi + 1u];
    w->k2 = place == 0u ? start[hi - 1u] : place == 3u ? start[hi] : 0u;
    w->end2 = place == 0u || place == 3u ? start[hi + 1u] : 0u;
}

/* The walk's particle i and its cell, before its first row. */
DR_FN void dr_walk_init(dr_cell_walk *w, unsigned i, DR_GLOBAL const dr_vec4 *anchor,
                        DR_GLOBAL const dr_vec4 *shape, DR_GLOBAL const unsigned *group,
                        float inv_cell, unsigned mask)
{
    w->si = shape[i];
    w->ai = anchor[i];
    w->gi = group[i];
    w->mask = mask;
    w->cx = dr_cell_coord(w->ai.x, inv_cell);
    w->cy = dr_cell_coord(w->ai.y, inv_cell);
    w->cz = dr_cell_coord(w->ai.z, inv_cell);
}

DR_FN void dr_walk_begin(dr_cell_walk *w, unsigned i, DR_GLOBAL const dr_vec4 *anchor,
                         DR_GLOBAL const dr_vec4 *shape, DR_GLOBAL const unsigned *group,
                         float inv_cell, unsigned mask, DR_GLOBAL const unsigned *start)
{
    dr_walk_init(w, i, anchor, shape, group, inv_cell, mask);
    w->row = 0u;
    dr_walk_row(w, start);
}

/* The walk over the half shell after i (the OpenCL backend's particle_count_half): of the 27 cells,
 * those after i's own in the walk's order (x fastest, then y, then z), and in i's own bucket the
 * places after i's (`rank`, its rank there: its place is start[bucket] + rank). That is the rest
 * of the middle row (row 4: i's own bucket after i, then x + 1) and rows 5 to 8 (y + 1 at z, the
 * three at z + 1): 13 cells and half of the own. The 27 cells take 27 distinct buckets, so of two
 * particles in neighbouring cells exactly one walks the other's bucket, and of two in one bucket
 * the one placed first: each pair that dr_pair_candidate accepts is found once, by one of the two.
 */
DR_FN void dr_walk_begin_half(dr_cell_walk *w, unsigned i, unsigned rank,
                              DR_GLOBAL const dr_vec4 *anchor, DR_GLOBAL const dr_vec4 *shape,
                              DR_GLOBAL const unsigned *group, float inv_cell, unsigned mask,
                              DR_GLOBAL const unsigned *start)
{
    dr_walk_init(w, i, anchor, shape, group, inv_cell, mask);
    w->row = 4u;
    /* x + 1 is the next bucket unless x is the last of its block (place 3): then a second run */
    const unsigned own = dr_cell_bucket(w->cx, w->cy, w->cz, mask), last = (w->cx & 3) == 3;
    const unsigned next = last ? dr_cell_bucket(w->cx + 1, w->cy, w->cz, mask) : 0u;
    w->k = start[own] + rank + 1u;
    w->end = start[own + (last ? 1u : 2u)];
    w->k2 = last ? start[next] : 0u;
    w->end2 = last ? start[next + 1u] : 0u;
}

DR_HOT unsigned dr_walk_next(dr_cell_walk *w, unsigned i, DR_GLOBAL const dr_vec4 *grid_anchor,
                             DR_GLOBAL const unsigned *grid_group, DR_GLOBAL const dr_vec4 *shape,
                             DR_GLOBAL const unsigned *start, DR_GLOBAL const unsigned *sorted)
{
    for (;;) {
        while (w->k >= w->end) {
            if (w->k2 < w->end2) {
                w->k = w->k2;
                w->end = w->end2;
                w->k2 = w->end2 = 0u;
            } else if (++w->row < 9u) {
                dr_walk_row(w, start);
            } else {
                return DR_NO_CELL;
            }
        }
        unsigned k = w->k++;
        dr_vec4 g = grid_anchor[k], r = dr_sub3(w->ai, g);
        float d2 = dr_dot3(r, r);
        if (!dr_within_reach(w->si.w + g.w, d2)) /* the most any pair of these radii reaches */
            continue;
        unsigned j = sorted[k], gj = grid_group[k];
        if (j == i)
            continue;
        dr_vec4 sj = dr_pair_filters_rest(w->gi, gj) ? shape[j] : DR_V4(0.0f, 0.0f, 0.0f, g.w);
        float D = dr_pair_distance(w->si, w->gi, sj, gj);
        if (dr_within_reach(D, d2)) {
            w->D = D;
            w->d2 = d2;
            return j;
        }
    }
}

/* Whether the walk's last candidate touches i: closer than their collision distance at the anchors
 * (the substep's start). */
DR_FN int dr_walk_touching(const dr_cell_walk *w) { return w->d2 < w->D * w->D; }

/* Candidate j into slot k of row `row` of the candidate lists, if the row has room for it (k <
 * DR_NBR_CAP; a particle with more candidates searches the grid again). */
DR_FN void dr_list_put(DR_GLOBAL unsigned *list, unsigned row, unsigned k, unsigned j)
{
    if (k < DR_NBR_CAP)
        list[row * DR_NBR_CAP + k] = j;
}

/* The candidates of particle i, once per substep after the grid is built: the buckets of the 27
 * cells around its anchor (each visited once; the anchors make the search symmetric), every j that
 * dr_pair_candidate accepts. The first DR_NBR_CAP go into row `row` of list, list[row * DR_NBR_CAP
 * ...] (row i, or the particle's place in the OpenCL backend's pass order); returns how
 * many there are (more than DR_NBR_CAP: the push pass searches the grid again for i). *touching
 * gets the pairs within their collision distance at the anchors (the substep's start). The table
 * has mask + 1 buckets; start has mask + 2 entries. */
DR_FN unsigned
dr_particle_candidates(unsigned i, unsigned row, DR_GLOBAL const dr_vec4 *grid_anchor,
                       DR_GLOBAL const unsigned *grid_group, DR_GLOBAL const dr_vec4 *anchor,
                       DR_GLOBAL const dr_vec4 *shape, DR_GLOBAL const unsigned *group,
                       DR_GLOBAL const unsigned *start, DR_GLOBAL const unsigned *sorted,
                       float inv_cell, unsigned mask, DR_GLOBAL unsigned *list, unsigned *touching)
{
    unsigned count = 0u, found = 0u;
    *touching = 0u;
    if (!(shape[i].w > 0.0f))
        return 0u;
    dr_cell_walk walk;
    dr_walk_begin(&walk, i, anchor, shape, group, inv_cell, mask, start);
    for (unsigned j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted);
         j != DR_NO_CELL;
         j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted)) {
        dr_list_put(list, row, count++, j);
        found += dr_walk_touching(&walk) ? 1u : 0u;
    }
    *touching = found;
    return count;
}

/* Particle i's rest flag for this substep (dr_particle_rest_seed, dr_particle_rests_on) from the
 * flags of the substep before (before), over its candidates: its list (row `row`, count entries),
 * or the grid again when the list is incomplete. */
DR_FN unsigned
dr_particle_rests(unsigned i, unsigned row, unsigned count, DR_GLOBAL const unsigned *list,
                  DR_GLOBAL const dr_vec4 *grid_anchor, DR_GLOBAL const unsigned *grid_group,
                  DR_GLOBAL const dr_vec4 *anchor, DR_GLOBAL const dr_vec4 *shape,
                  DR_GLOBAL const unsigned *group, DR_GLOBAL const unsigned *start,
                  DR_GLOBAL const unsigned *sorted, float inv_cell, unsigned mask,
                  DR_GLOBAL const unsigned *before, dr_vec4 x, dr_contact ct, dr_vec4 up)
{
    dr_vec4 ai = anchor[i];
    unsigned rests = dr_particle_rest_seed(x, group[i], ct, up);
    if (count <= DR_NBR_CAP) {
        for (unsigned k = 0u; k < count && !rests; ++k) {
            unsigned j = list[row * DR_NBR_CAP + k];
            rests = dr_particle_rests_on(ai, anchor[j], before[j], up);
        }
        return rests;
    }
    dr_cell_walk walk;
    dr_walk_begin(&walk, i, anchor, shape, group, inv_cell, mask, start);
    for (unsigned j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted);
         j != DR_NO_CELL && !rests;
         j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted))
        rests = dr_particle_rests_on(ai, anchor[j], before[j], up);
    return rests;
}

/* Particle i's displacement plus the sum of its pair pushes (see above), once per iteration: over
 * its candidate list, or, when it has more than DR_NBR_CAP candidates, over the same candidates
 * found in the grid again. ncand, list and nbr (the contact counts) come from
 * dr_particle_candidates (i's list in row `row`), contacts are the collider contacts, mu_s,
 * mu_k the Coulomb coefficients, lift the support lifts of the substep, counted when first (the
 * substep's first iteration; dr_pair_push_vector).
 * d holds the displacements from before the iteration's first
 * contact pass, done those the passes before `pass` wrote, pass_of each particle's contact pass
 * (dr_pair_push). *found gets the pairs within their collision distance. */
DR_FN dr_vec4 dr_particle_gather(
    unsigned i, DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *d,
    DR_GLOBAL const dr_vec4 *grid_anchor, DR_GLOBAL const unsigned *grid_group,
    DR_GLOBAL const dr_vec4 *anchor, DR_GLOBAL const dr_vec4 *shape,
    DR_GLOBAL const unsigned *group, DR_GLOBAL const dr_contact *contacts,
    DR_GLOBAL const unsigned *nbr, DR_GLOBAL const unsigned *ncand, DR_GLOBAL const unsigned *list,
    unsigned row, DR_GLOBAL const unsigned *start, DR_GLOBAL const unsigned *sorted, float inv_cell,
    unsigned mask, float mu_s, float mu_k, float relax, dr_vec4 up, DR_GLOBAL const float *lift,
    unsigned first, DR_GLOBAL const dr_vec4 *done, DR_GLOBAL const unsigned char *pass_of,
    unsigned pass, DR_GLOBAL const dr_vec4 *vpre, float fast, DR_GLOBAL const unsigned *rests,
    unsigned *found)
{
    dr_vec4 xi = x[i], di = d[i], si = shape[i];
    unsigned gi = group[i];
    *found = 0u;
    if (!(si.w > 0.0f))
        return di;
    int grounded_i = dr_grounded_at(dr_ground_plane(contacts[i], xi, up, si.w), di);
    unsigned ni = nbr[i], count = ncand[i];
    dr_pair_sum acc = {0, 0, 0, 0, 0.0f, 0u};
    if (count <= DR_NBR_CAP) {
        for (unsigned k = 0u; k < count; ++k)
            dr_pair_push(&acc, i, list[row * DR_NBR_CAP + k], xi, di, si, gi, grounded_i, ni, x, d,
                         shape, group, contacts, nbr, mu_s, mu_k, relax, up, lift, first, done,
                         pass_of, pass, vpre, fast, rests);
    } else {
        dr_cell_walk walk;
        dr_walk_begin(&walk, i, anchor, shape, group, inv_cell, mask, start);
        for (unsigned j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted);
             j != DR_NO_CELL;
             j = dr_walk_next(&walk, i, grid_anchor, grid_group, shape, start, sorted))
            dr_pair_push(&acc, i, j, xi, di, si, gi, grounded_i, ni, x, d, shape, group, contacts,
                         nbr, mu_s, mu_k, relax, up, lift, first, done, pass_of, pass, vpre, fast,
                         rests);
    }
    *found = acc.found;
    return dr_pair_sum_apply(acc, di, relax);
}

/* The pairs that bounce (dr_bounce_gap): those within this many collision distances at the new
 * positions, where the solve leaves a pair that touched. A pair that only came near (within the
 * candidates' reach, 1 + DR_NBR_MARGIN distances) while approaching bounced too, before it touched:
 * several such pairs at once around a particle each took their change in full, and an elastic gas
 * gained energy without bound; the pair now touches in a later substep and bounces then. */
#define DR_BOUNCE_TOUCH 1.05f

/* The normal of a bouncing pair at the moment it met: from j to i where the straight paths of the
 * substep, from the relative position r0 at its start and the relative displacement u before the
 * solve, first come D apart, at r0 + s u with s = c / (-b + sqrt(b^2 - a c)) (a = u . u, b = r0 . u
 * < 0, c = r0 . r0 - D^2 > 0; the root without cancellation; s > 1 for a pair that the bounce
 * reaches before it touched); n, the normal at the new positions, where they do not meet so (they
 * overlapped at the start, or the paths pass further apart than D). The solve's push-out turns the
 * pair about each other as it separates them (the deeper the overlap it finds, the more), and with
 * the normal at the new positions two equal elastic balls meeting 30 degrees off centre at 2 m/s
 * parted at 36.9 degrees at 1 substep, and 59 degrees for 44 at 70 degrees off centre and 5 m/s
 * (Newton's normal is the line of centres at impact). (j, i) gets the exact negation: r0 and u are
 * negated, a, b, c the same. */
DR_FN dr_vec4 dr_bounce_normal(dr_vec4 r0, dr_vec4 u, float D, dr_vec4 n)
{
    float a = dr_dot3(u, u), b = dr_dot3(r0, u), c = dr_dot3(r0, r0) - D * D;
    float disc = b * b - a * c;
    if (!(c > 0.0f) || !(b < 0.0f) || !(disc >= 0.0f))
        return n;
    float s = c / (DR_SQRT(disc) - b);
    dr_vec4 rc = dr_madd3(r0, u, s);
    float len2 = dr_dot3(rc, rc);
    return len2 > 0.0f ? dr_scale3(rc, 1.0f / DR_SQRT(len2)) : n;
}

/* Whether particle i, with collider contact ct and velocity v, is held by its collider against a
 * pair's bounce of normal n (from the other particle to i): it has a contact, n points into the
 * collider, and i is not moving towards the other particle faster than slow. Such a particle takes
 * no share of the bounce (dr_pair_share's grounded side: a ball dropped on a ball resting on the
 * floor bounces off it). A particle that a collider touches but that moves towards the other one
 * (leaving a wall after its own bounce, sliding along it) is not held: frozen, it handed its own
 * speed to the other particle and kept it too, and a gas of elastic balls in a box gained energy
 * without bound. */
DR_FN int dr_bounce_held(dr_contact ct, dr_vec4 v, dr_vec4 n, float slow)
{
    return dr_has_contact(ct) && dr_dot3(n, ct.n) < 0.0f && dr_dot3(v, n) >= -slow;
}

/* One candidate pair's change of separating normal velocity for dr_particle_bounce (see below):
 * 0 for none (not within reach, no bounce and not separating faster than slow, or not finite),
 * with the pair's normal n, from j to i, and whether each end is held by its collider against the
 * pair (dr_bounce_held, in *held_i and *held_j). x, v: the new positions (w: inverse mass) and
 * velocities; d: the substep's displacements (x - d is where it started) and contacts: the collider
 * contacts, read only for a pair that bounces; vpre[i], vpre[j]: the velocities before the
 * solve, read only when e > 0 or for a pair of loose particles (not `mesh`); D: the pair's
 * collision distance; g: gravity (m/s^2), h: the substep (s); mesh: whether i or j is a mesh's
 * particle (a cloth's, a rope's). A bounce takes a pair within DR_BOUNCE_TOUCH distances, the cap
 * on the separating speed one within the candidates' reach.
 *
 * A bounce raises the pair's separating speed to e times its speed at the moment it met, on the
 * parabola that the step's positions follow (dr_contact_velocity_l): a = -(g_i - g_j) . n, the
 * relative gravity towards each other, where an end that is pinned or held falls with no g; the
 * pair, z0 apart at the substep's start (beyond D) and approaching at u0 = before + a h / 2 on the
 * parabola, meets at uc = sqrt(u0^2 + 2 a z0). A held end's velocity before the solve has the
 * substep's gravity g h in it, which its collider takes away: `before` leaves it out (with it, a
 * ball dropped on a ball resting on the floor met it g h too slowly, and rose 7% short at 1
 * substep). The positions stay where the solve left them, z =
 * |x_i - x_j| - D apart (about 0, or up to DR_BOUNCE_TOUCH - 1 distances before they touched), so
 * the velocity that gives the bounced parabola's energy, e^2 uc^2 / 2 at contact, from there is
 * a h / 2 + sqrt(e^2 uc^2 - 2 a z): the step's modified energy v^2 / 2 + a z - a h v / 2, which
 * its flight keeps. A ball dropped from 0.33 to 1 m onto a pinned ball with e = 0.5 now rises e^2
 * as high within 0.5% at 1 and 4 substeps, where the step is not split (dr_substeps_needed: the
 * bounce's energy is the split substep's, and the flight's substep is longer; from 1 m at 1
 * substep the rise is 5% short); at e |before| it rose 9% short at 1 substep. Two free ends fall
 * alike (a = 0, no end held): e |before|, and e = 0 does not bounce.
 * A lone pair (`lone`: neither has another candidate, dr_bounce_pair) bounces along the normal at
 * the moment it met (dr_bounce_normal), and in round 0 *slip takes back the part across that
 * normal of what the solve changed its relative velocity by along the normal at the new positions
 * (it pushed them apart along that), so that the pair keeps the tangential velocity it met with:
 * Newton's impact along the line of centres. Two equal elastic balls meeting 30 degrees off centre
 * parted at 36.9 degrees instead of 30 at 1 substep (core.particles test_oblique_impact_follows_
 * the_line_of_centres). A pair among others keeps the normal at the new positions and no slip,
 * which keep the energy of its bounce whatever the others did: with them for every pair, an
 * elastic gas at 1 substep gained up to 4% (test_elastic_balls_gain_no_energy). Otherwise *slip
 * is 0.
 * (j, i) gets bitwise the same gap and held flags swapped, and the negated n: r, n and the
 * relative velocities and positions are exact negations, their dot products the same products. */
DR_FN float dr_bounce_gap(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *v,
                          DR_GLOBAL const dr_vec4 *d, DR_GLOBAL const dr_contact *contacts,
                          DR_GLOBAL const dr_vec4 *vpre, unsigned i, unsigned j, float D, float e,
                          float slow, dr_vec4 g, float h, int mesh, dr_vec4 *n, int *held_i,
                          int *held_j, float applied, unsigned round, int lone, dr_vec4 *slip,
                          int *bounce, int placed)
{
    *bounce = -1;
    *slip = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    dr_vec4 xi = x[i], xj = x[j], vi = v[i], vj = v[j];
    dr_vec4 r = dr_sub3(xi, xj);
    float len2 = dr_dot3(r, r), reach = D * (1.0f + DR_NBR_MARGIN), touch = D * DR_BOUNCE_TOUCH;
    if (!(len2 < reach * reach) || !(len2 > 0.0f))
        return 0.0f;
    float len = DR_SQRT(len2);
    *n = dr_scale3(r, 1.0f / len);
    float vn = dr_dot3(dr_sub3(vi, vj), *n);
    float before = e > 0.0f || !mesh ? dr_dot3(dr_sub3(vpre[i], vpre[j]), *n) : 0.0f;
    *bounce = slow > 0.0f || placed ? 0 : -1; /* the cap, or nothing to do in any round */
    float gap = 0.0f;
    if (e > 0.0f && len2 < touch * touch && before < -slow) {
        /* a bounce: raise the separation to e times the speed at the meeting, along the normal
         * there */
        *bounce = 1;
        dr_vec4 now = *n, u = dr_sub3(vi, vj), dv = dr_sub3(vpre[i], vpre[j]);
        dr_vec4 r0 = dr_sub3(dr_sub3(xi, d[i]), dr_sub3(xj, d[j]));
        if (lone)
            *n = dr_bounce_normal(r0, dr_scale3(dv, h), D, now);
        vn = dr_dot3(u, *n);
        before = dr_dot3(dv, *n);
        *held_i = dr_bounce_held(contacts[i], vi, *n, slow);
        *held_j = dr_bounce_held(contacts[j], vj, dr_scale3(*n, -1.0f), slow);
        int free_i = xi.w > 0.0f, free_j = xj.w > 0.0f;
        float fall_i = !*held_i && free_i ? 1.0f : 0.0f, stop_i = *held_i && free_i ? 1.0f : 0.0f;
        float fall_j = !*held_j && free_j ? 1.0f : 0.0f, stop_j = *held_j && free_j ? 1.0f : 0.0f;
        if (lone && round == 0u) {
            /* pre: the relative velocity before the solve, less the gravity a held end's collider
             * takes */
            dr_vec4 pre = dr_madd3(dv, g, -(stop_i - stop_j) * h);
            dr_vec4 across = dr_madd3(now, *n, -dr_dot3(now, *n));
            *slip = dr_scale3(across, -dr_dot3(dr_sub3(u, pre), now));
        }
        float gn = dr_dot3(g, *n), a = (fall_j - fall_i) * gn;
        float z0 = dr_dot3(r0, *n) - D;
        float u0 = before - (stop_i - stop_j) * gn * h + 0.5f * h * a;
        float eu = e * DR_SQRT(DR_FMAX(u0 * u0 + 2.0f * a * DR_FMAX(z0, 0.0f), 0.0f));
        gap = 0.5f * a * h + DR_SQRT(DR_FMAX(eu * eu - 2.0f * a * (len - D), 0.0f)) - vn;
        /* the rounds before added `applied`: this round may take it back, no more */
        gap = gap > -applied ? gap : -applied;
        return gap == gap ? gap : 0.0f;
    }
    if ((slow > 0.0f || placed) && vn > slow) {
        /* no bounce: separate at most at the resting speed, or as fast as before the solve (a
         * mesh's pair without restitution: at the resting speed); a pair that mends a placement,
         * also without gravity */
        float most = before > slow ? before : slow;
        gap = vn > most ? most - vn : 0.0f;
    }
    if (!(gap == gap) || gap == 0.0f)
        return 0.0f;
    *held_i = dr_bounce_held(contacts[i], vi, *n, slow);
    *held_j = dr_bounce_held(contacts[j], vj, dr_scale3(*n, -1.0f), slow);
    return gap;
}

/* The rounds of restitution in a substep with e > 0 (dr_particle_bounce). More converge further,
 * but not to energy kept exactly: the rounds start from the velocities the position solve left,
 * whose pushes they cannot take back, and the elastic gas of core.particles gained energy with 16
 * (1.03 of its start after 5 s at 1 substep) where 8 keep it under. */
#define DR_BOUNCE_ROUNDS 8u

/* A collider's part in the rounds of restitution (dr_particle_bounce): particle i, which a
 * collider touches with normal n, keeps at least the normal velocity off it that the update left
 * it (its bounce off the collider, or its rest on it), v0 . n with v0 its velocity before the
 * first round, against the pairs' bounces that push it into the collider in the same round; but
 * no more than the collider can have given it, its normal velocity before the solve (vpre) plus
 * twice its approach speed then (ct.n.w, relative to the collider: an elastic bounce), which the
 * pairs' cap may take back. Without that bound a ball set down 1 mm above one resting on the floor,
 * whose prediction fell within the floor's margin, kept the 11.9 m/s by which the pair's push-out
 * lifted it a diameter in one substep, and rose 7 m (core.particles
 * test_overlap_does_not_launch). wall[0]: that target (written in round 0), wall[1]: what this
 * raised in the rounds before, which a round may take back, no more. v: i's velocity after the
 * round's pairs. */
DR_FN dr_vec4 dr_bounce_wall(dr_vec4 v, dr_vec4 v0, dr_vec4 vpre, dr_contact ct,
                             DR_GLOBAL float *wall, unsigned round)
{
    if (!dr_has_contact(ct))
        return v;
    float kept = dr_dot3(v0, ct.n), most = dr_dot3(vpre, ct.n) - 2.0f * DR_FMIN(ct.n.w, 0.0f);
    float target = round > 0u ? wall[0] : DR_FMIN(kept, most), raised = round > 0u ? wall[1] : 0.0f;
    float gap = target - dr_dot3(v, ct.n);
    gap = gap > -raised ? gap : -raised;
    if (!(gap == gap))
        gap = 0.0f;
    wall[0] = target;
    wall[1] = raised + gap;
    return gap != 0.0f ? dr_madd3(v, ct.n, gap) : v;
}

/* Whether a round of restitution changed particle i's velocity from v to vnew, for the pairs of
 * the round after (dr_particle_bounce's `moved`). */
DR_FN unsigned char dr_bounce_moved(dr_vec4 v, dr_vec4 vnew)
{
    return (unsigned char)(v.x != vnew.x || v.y != vnew.y || v.z != vnew.z);
}

/* What a pair keeps for the next round of restitution (dr_particle_bounce) from dr_bounce_gap's
 * `bounce`: a bounce (1) what its rounds added in all, `done` + `gap`; a pair under the cap on the
 * separating speed (0), 0; one with nothing to do in any round (-1: out of reach at the new
 * positions, or no bounce and no cap without gravity), -1, which the rounds after skip. */
DR_FN float dr_bounce_applied(int bounce, float done, float gap)
{
    return bounce > 0 ? done + gap : (bounce < 0 ? -1.0f : 0.0f);
}

/* The squared relative speed below which a pair's gap (dr_bounce_gap) is 0 whatever its normal:
 * without restitution (e = 0) 0.98 slow^2, since its normal velocity |(v_i - v_j) . n| cannot
 * then exceed slow (|n| is 1 within a few roundings); with restitution none (-1). Such a pair is
 * skipped before its positions are read or its square root taken. */
DR_FN float dr_bounce_quiet(float e, float slow) { return e > 0.0f ? -1.0f : 0.98f * slow * slow; }

/* A bouncing pair's change of relative velocity for i (the change of v_i - v_j before the shares):
 * n * gap plus slip (dr_bounce_gap), and Coulomb friction on the relative tangential velocity
 * (slip included) against the part of the gap that stops the approach, min(gap, -(v_i - v_j) . n)
 * (dr_friction_cut, the model of the push-out, in velocities). The push-out's friction works
 * against the depth that a pair's overlap left, so it covers the stopping of the pairs that
 * touched in the solve; a pair
 * that the bounce reaches first (within DR_BOUNCE_TOUCH distances, not yet overlapping) had no
 * friction at all, and two balls meeting obliquely slid past each other as if frictionless at 4
 * substeps while at 1 they did not. Neither counts the restitution's part, as at the colliders
 * (Macklin et al. 2014, Mueller et al. 2020): friction takes mu times the approach speed whether
 * the pair overlapped first or not. A cap (gap < 0) has no friction. (j, i) gets bitwise the
 * negation: its relative velocity and n are exact negations, vn and gap the same. */
DR_FN dr_vec4 dr_bounce_change(dr_vec4 vi, dr_vec4 vj, dr_vec4 n, float gap, dr_vec4 slip,
                               float mu_s, float mu_k)
{
    dr_vec4 u = dr_add3(dr_sub3(vi, vj), slip), dv = dr_madd3(slip, n, gap);
    float vn = dr_dot3(u, n), stop = gap < -vn ? gap : -vn;
    if (!(stop > 0.0f))
        return dv;
    dr_vec4 t = dr_madd3(u, n, -vn);
    return dr_madd3(dv, t, -dr_friction_cut(t, stop, stop, mu_s, mu_k));
}

/* A candidate pair (i, j) in a round of the bounce pass, as the CPU reference (each pair once) and
 * dr_particle_bounce (each pair from both ends) take it: 0 where it has nothing to do, since the
 * two approach more slowly than dr_bounce_quiet allows or one has more than DR_NBR_CAP candidates
 * (then *bounce = -1), else its gap, normal, slip and held flags from dr_bounce_gap (lone when
 * neither has another candidate); v: this round's velocities, done: what the pair's rounds added
 * so far, round: the round. */
DR_FN float dr_bounce_pair(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *v,
                           DR_GLOBAL const dr_vec4 *d, DR_GLOBAL const dr_contact *contacts,
                           DR_GLOBAL const dr_vec4 *vpre, DR_GLOBAL const unsigned *ncand,
                           unsigned i, unsigned j, float D, float e, float slow, float quiet,
                           dr_vec4 g, float h, int mesh, float done, unsigned round, dr_vec4 *n,
                           dr_vec4 *slip, int *held_i, int *held_j, int *bounce, int placed)
{
    dr_vec4 u = dr_sub3(v[i], v[j]);
    *bounce = -1;
    if (dr_dot3(u, u) < quiet || ncand[i] > DR_NBR_CAP || ncand[j] > DR_NBR_CAP)
        return 0.0f;
    return dr_bounce_gap(x, v, d, contacts, vpre, i, j, D, e, slow, g, h, mesh, n, held_i, held_j,
                         done, round, ncand[i] <= 1u && ncand[j] <= 1u, slip, bounce, placed);
}

/* Whether the pair (i, j) mends a placement: the substep is the first after the user placed
 * particles first .. first + count - 1 (drape_world_add_particles, drape_world_set_particle), and
 * i or j is among them. */
DR_FN int dr_pair_placed(unsigned i, unsigned j, unsigned first, unsigned count)
{
    return i - first < count || j - first < count;
}

/* A pair's velocity change dv (dr_bounce_change) times i's share, into i's fixed-point sums (in
 * units of 2^-32 m/s). The share is dr_pair_weigh's without the stack scaling, held_i and held_j
 * from dr_bounce_held: under gravity (slow > 0) the bounces are averaged by the sum of i's shares,
 * as the push-out is; scaled by the larger contact count at the substep's start instead, a ball
 * that several new contacts bounced at once took each pair's change in full, and a pile of elastic
 * balls in a box never came to rest (it kept the kinetic energy it was poured with). */
DR_FN void dr_bounce_add(dr_pair_sum *acc, dr_vec4 dv, float wi, int held_i, unsigned ni, float wj,
                         int held_j, unsigned nj, float slow)
{
    float share = dr_pair_weigh(acc, wi, held_i, ni, wj, held_j, nj, 1.0f, 0.0f, slow > 0.0f, 0);
    if (!(share > 0.0f))
        return;
    dv = dr_scale3(dv, share);
    acc->x += dr_to_fixed(dv.x, &acc->poison);
    acc->y += dr_to_fixed(dv.y, &acc->poison);
    acc->z += dr_to_fixed(dv.z, &acc->poison);
}

/* Restitution between particles, and a cap on their separating speed, once per substep after the
 * update (v = d / h), as a gather over the candidate lists: for a pair within (1 + DR_NBR_MARGIN)
 * collision distances at the new positions x, with normal n and relative normal velocity vn:
 *   - when the pair's normal velocity before the solve (vpre, after the prediction) was an approach
 *     faster than `slow` (m/s), it separates at least e times that approach speed;
 *   - otherwise, under gravity (slow > 0), it separates at most at `slow` or at its separating
 *     speed before the solve, whichever is larger: resolving an overlap by position turns the
 *     overlap into velocity, which threw balls out of a pile that the mass scaling for stacks lets
 *     settle (restitution 0 means they do not bounce); the cap takes back what the solve added, no
 *     more. Capped at `slow` alone, it took speed that no contact had given: a ball falling past a
 *     pinned one 1 cm away, never touching it, was swung under it and thrown sideways at 3.9 m/s;
 *     a ball sliding off another was held back as it left; and with restitution a ball that
 *     bounced off another was stopped in the substeps after, while the pair was still within
 *     reach (a 1 kg ball dropped from 1 m onto one resting on the floor rose 1.8 cm at 4 substeps
 *     with e = 1). A pair with a mesh's particle (a cloth's, a rope's) without restitution is
 *     still capped at `slow`: the constraints of stacked layers keep moving them apart and
 *     together, which the cap damps (capped only at what the solve added, cloth-layers at one
 *     substep gained up to 0.27 J/kg, not 0.13, and moved at a mean 17 cm/s after 10 s).
 * A bounce also has friction (dr_bounce_change). The missing (or excess) velocity is split by
 * inverse mass (a particle that its collider holds against the pair, dr_bounce_held, immovable
 * against a free one) and averaged like the push-out (dr_bounce_add), summed in fixed point.
 * Slower approaches rest, so that resting contact does not jitter. A particle with more than
 * DR_NBR_CAP candidates takes no part (on either side of a pair, so that the pair moves no linear
 * momentum). i's candidates are in row `row` of list (dr_particle_candidates). Returns particle
 * i's new velocity.
 *
 * With restitution (e > 0) the pass runs DR_BOUNCE_ROUNDS rounds (`round` 0, 1, ...), each from
 * the velocities the round before left, as the rounds of sequential impulses but Jacobi: a bounce
 * raises the pair's separating speed to its target less what it still lacks, and may take back
 * what the rounds before added, no more (`applied`, per slot of i's row: both sides of a pair
 * keep the same sum, bitwise; -1 for a pair with nothing to do in any round, dr_bounce_applied);
 * a particle that a collider touches keeps its normal velocity off it (dr_bounce_wall, `wall` per
 * particle). From the second round on a pair neither of whose particles the round before changed
 * (moved[i], moved[j], written by the round before, dr_bounce_moved) is skipped: it would do
 * what it did then, nothing more, and a resting pile's rounds after the first cost little. In the
 * first substep after the user placed particles placed_first .. placed_first + placed_count - 1, a
 * pair with one of them is capped at its separation before the solve even without gravity
 * (dr_pair_placed): the push-out that mends a placement is no approach. One
 * averaged round left the bounces of several contacts at once far from their targets: a ball
 * hitting two touching balls at once (e = 1, no gravity) came out with 1.83 times the energy it
 * brought, an elastic gas in a box kept 0.23 of its kinetic energy after 5 s at 1 substep; eight
 * rounds: 1.0000 and 0.91. */
DR_FN dr_vec4 dr_particle_bounce(unsigned i, DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *v,
                                 DR_GLOBAL const dr_vec4 *d, DR_GLOBAL const dr_vec4 *vpre,
                                 DR_GLOBAL const dr_vec4 *shape, DR_GLOBAL const unsigned *group,
                                 DR_GLOBAL const dr_contact *contacts,
                                 DR_GLOBAL const unsigned *nbr, DR_GLOBAL const unsigned *ncand,
                                 DR_GLOBAL const unsigned *list, unsigned row, float e, float slow,
                                 float mu_s, float mu_k, dr_vec4 g, float h,
                                 DR_GLOBAL float *applied, DR_GLOBAL float *wall,
                                 DR_GLOBAL const unsigned char *moved, unsigned round,
                                 unsigned placed_first, unsigned placed_count)
{
    dr_vec4 vi = v[i], si = shape[i];
    unsigned count = ncand[i];
    if (!(si.w > 0.0f) || count > DR_NBR_CAP)
        return vi;
    unsigned gi = group[i], ni = nbr[i];
    const float wi = x[i].w, quiet = dr_bounce_quiet(e, slow);
    const int moved_i = round == 0u || moved[i];
    dr_pair_sum acc = {0, 0, 0, 0, 0.0f, 0u};
    for (unsigned k = 0u; k < count; ++k) {
        float done = e > 0.0f && round > 0u ? applied[row * DR_NBR_CAP + k] : 0.0f, gap = 0.0f;
        if (done < 0.0f) /* nothing to do in this round */
            continue;
        unsigned j = list[row * DR_NBR_CAP + k];
        if (!moved_i && !moved[j]) /* the same as in the round before, which it did */
            continue;
        dr_vec4 n, slip;
        int held_i, held_j, bounce;
        gap = dr_bounce_pair(
            x, v, d, contacts, vpre, ncand, i, j, dr_pair_distance(si, gi, shape[j], group[j]), e,
            slow, quiet, g, h, ((gi | group[j]) & DR_GROUP_MESH) != 0u, done, round, &n, &slip,
            &held_i, &held_j, &bounce, dr_pair_placed(i, j, placed_first, placed_count));
        if (gap != 0.0f)
            dr_bounce_add(&acc, dr_bounce_change(vi, v[j], n, gap, slip, mu_s, mu_k), wi, held_i,
                          ni, x[j].w, held_j, nbr[j], slow);
        if (e > 0.0f && round + 1u < DR_BOUNCE_ROUNDS)
            applied[row * DR_NBR_CAP + k] = dr_bounce_applied(bounce, done, gap);
    }
    vi = dr_pair_sum_apply(acc, vi, 1.0f);
    return e > 0.0f ? dr_bounce_wall(vi, v[i], vpre[i], contacts[i], &wall[2u * i], round) : vi;
}

/* ---- non-finite state ------------------------------------------------------------------------ */
/*
 * A step that makes the state non-finite (an explicit step past its stability limit, an overflow)
 * is caught where each particle is updated: the lowest index per phase in which it turned up is
 * kept in three counters (atomic minimum on the device), which the host reads once per step. The
 * phase is told by what is non-finite: the velocity before the update comes from the prediction
 * (external forces, damping, spring forces), the displacement from the projection, the new state
 * from the update itself.
 */
#define DR_PHASE_PREDICT 0
#define DR_PHASE_PROJECT 1
#define DR_PHASE_UPDATE 2
#define DR_NO_PARTICLE 0xffffffffu

DR_FN int dr_finite4(dr_vec4 a)
{
    /* a finite float minus itself is 0; inf - inf and NaN are NaN */
    return (a.x - a.x) == 0.0f && (a.y - a.y) == 0.0f && (a.z - a.z) == 0.0f;
}

/* The phase in which a particle's state turned non-finite: v and d before the update, v1 and x1
 * after; -1 when everything is finite. */
DR_FN int dr_nonfinite_phase(dr_vec4 v, dr_vec4 d, dr_vec4 v1, dr_vec4 x1)
{
    if (!dr_finite4(v))
        return DR_PHASE_PREDICT;
    if (!dr_finite4(d))
        return DR_PHASE_PROJECT;
    if (!dr_finite4(v1) || !dr_finite4(x1))
        return DR_PHASE_UPDATE;
    return -1;
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
 * (kernels/render.cl on the device, host/render.c on the CPU), with these two functions. Each
 * vertex gathers over its own list of incident triangles (an adjacency built once on the host), so
 * that no two work-items write one normal and the sum runs in the same order on both backends.
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
    if (len < DR_EPS * DR_EPS || !dr_finite4(DR_V4(len, 0.0f, 0.0f, 0.0f)))
        return DR_V4(0.0f, 0.0f, 0.0f, 0.0f); /* no area, or too large to measure in float */
    return DR_V4(sum.x / len, sum.y / len, sum.z / len, 0.0f); /* a flat cloth's is exactly unit */
}

/* A particle's position as a viewer draws it: xyz (m), w = 0 (the inverse mass dropped). */
DR_FN dr_vec4 dr_render_position(dr_vec4 x) { return DR_V4(x.x, x.y, x.z, 0.0f); }

#ifdef __OPENCL_VERSION__
/* The arguments of every constraint kernel, in the order host/opencl/opencl_step.c sets them: the
 * positions at the substep's start x, the displacements d, each constraint's particles idx and its
 * rest value (rest_type: float, or a float4 target), its material, the multipliers lambda, 1 / h^2,
 * the sag, and the colour's constraints [offset, offset + count). */
#define DR_CONSTRAINT_ARGS(rest_type, rest)                                                        \
    __global const float4 *x, __global float4 *d, __global const uint *idx,                        \
        __global const rest_type *rest, __global const uint *material,                             \
        __global const dr_material *materials, __global float *lambda, float inv_h2, float sag,    \
        uint offset, uint count

/* A one-constraint-per-work-item kernel's start: its constraint c and that one's material m; a
 * work-item past the colour's end returns. */
#define DR_CONSTRAINT_BEGIN(c, m)                                                                  \
    const uint k_ = get_global_id(0);                                                              \
    if (k_ >= count)                                                                               \
        return;                                                                                    \
    const uint c = offset + k_;                                                                    \
    const dr_material m = materials[material[c]]

/* Particle i against every collider at its current prediction (dr_project_contacts), its
 * displacement through the accessors LOAD(i) and STORE(i, v) (DR_GATHER), its push and friction so
 * far this substep in held[i] (dr_project_contacts); t is the substep's start. A loose particle's
 * radius (inflate) adds to the collision margin. */
#define DR_CONTACT_PASS(LOAD, STORE, i)                                                            \
    do {                                                                                           \
        float4 di_ = LOAD(i);                                                                      \
        dr_contact ct_ = contacts[i];                                                              \
        if (!dr_contacts_idle_l(di_.x, di_.y, di_.z, di_.w, ct_.q.w, ct_.n.x, ct_.n.y, ct_.n.z,    \
                                ct_.n.w)) { /* most particles touch nothing: nothing to write */   \
            float4 hi_ = held[i], hn_ = hi_;                                                       \
            float4 dn_ = dr_project_contacts(di_, x[i], ct_, colliders, collider_count, t, h,      \
                                             margin + inflate[i], &hn_);                           \
            if (any(dn_ != di_))                                                                   \
                STORE(i, dn_);                                                                     \
            if (any(hn_ != hi_))                                                                   \
                held[i] = hn_;                                                                     \
        }                                                                                          \
    } while (0)
#endif

#endif /* DRAPE_SHARED_H */

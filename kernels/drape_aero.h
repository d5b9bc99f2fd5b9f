/* Aerodynamics: lift and drag on triangles, and a seeded turbulent wind, written once for the CPU
 * reference (host/aero.c) and the kernels (kernels/aero.cl), in the common subset of C17 and OpenCL
 * C.
 *
 * The force on a triangle is NvCloth's (NVIDIA, SwSolverKernel.cpp, applyWind): with u the velocity
 * of the triangle relative to the air (the mean of its corners' velocities minus the wind at its
 * centre), n its unit normal, A its area and cos t = n . u / |u|, sin t = sqrt(1 - cos^2 t),
 *
 *     F_drag = -1/2 rho A C_D |cos t| |u| u
 *     F_lift = -1/2 rho A C_L cos t sin t |u| ((u x n) x u / |u|)
 *
 * Drag opposes the motion through the air in proportion to the area the triangle shows to it; lift
 * acts across the motion, in the plane of u and n ((u x n) x u/|u| is n |u| - u cos t, of length
 * |u| sin t), and vanishes when the triangle faces the flow or lies along it. NvCloth folds the
 * dynamic pressure's 1/2 into its density; here it is written out, so rho is the air's (kg/m^3) and
 * C_D, C_L are the usual coefficients (a flat plate across the flow has C_D about 1.2). Each corner
 * takes a third of the force. Each particle gathers the forces of its own triangles (a CSR
 * adjacency built on the host), so no two work-items write one particle and the sums run in the
 * same order on both backends.
 *
 * Turbulence is value noise (a seeded hash of the lattice points, interpolated with smoothstep
 * weights) of the position over the gust length, advected with the mean wind (Taylor's frozen
 * turbulence): each component of the gust is in [-1, 1] times the turbulence amplitude. The hash
 * works on 32-bit integers and the interpolation uses + - * and floor only, all exact on both
 * backends, so the CPU and the device blow the same gusts bit for bit.
 */
#ifndef DRAPE_AERO_H
#define DRAPE_AERO_H

#include "drape_shared.h"

#ifdef __OPENCL_VERSION__
#define DR_FLOOR floor
#else
#define DR_FLOOR floorf
#endif

/* A 32-bit integer hash with good avalanche (Wellons' lowbias32). */
DR_FN unsigned dr_hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* The noise value in [-1, 1) of lattice point (i, j, k) for gust component c under seed s. */
DR_FN float dr_lattice_value(int i, int j, int k, unsigned c, unsigned seed)
{
    unsigned h =
        dr_hash32(seed ^ dr_hash32((unsigned)i +
                                   dr_hash32((unsigned)j + dr_hash32((unsigned)k + dr_hash32(c)))));
    return (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f; /* 24 bits: exact in float */
}

DR_FN float dr_lerp(float a, float b, float s) { return a + (b - a) * s; }

/* One component of trilinear value noise at q (in lattice units). */
DR_FN float dr_value_noise(dr_vec4 q, unsigned c, unsigned seed)
{
    const float lim = 1e8f; /* keeps the lattice index within an int */
    float qx = DR_FMIN(DR_FMAX(q.x, -lim), lim), qy = DR_FMIN(DR_FMAX(q.y, -lim), lim),
          qz = DR_FMIN(DR_FMAX(q.z, -lim), lim);
    float fx = DR_FLOOR(qx), fy = DR_FLOOR(qy), fz = DR_FLOOR(qz);
    int i = (int)fx, j = (int)fy, k = (int)fz;
    float tx = qx - fx, ty = qy - fy, tz = qz - fz;
    float sx = tx * tx * (3.0f - 2.0f * tx), sy = ty * ty * (3.0f - 2.0f * ty),
          sz = tz * tz * (3.0f - 2.0f * tz);
    float e[2];
    for (int dz = 0; dz < 2; ++dz) {
        float a = dr_lerp(dr_lattice_value(i, j, k + dz, c, seed),
                          dr_lattice_value(i + 1, j, k + dz, c, seed), sx);
        float b = dr_lerp(dr_lattice_value(i, j + 1, k + dz, c, seed),
                          dr_lattice_value(i + 1, j + 1, k + dz, c, seed), sx);
        e[dz] = dr_lerp(a, b, sy);
    }
    return dr_lerp(e[0], e[1], sz);
}

/* The air's velocity (m/s) at point p and time t (s): flow.xyz is the mean wind, flow.w one over
 * the gust length (1/m); amplitude the turbulence (m/s), 0 for a steady wind. */
DR_FN dr_vec4 dr_air_velocity(dr_vec4 p, float t, dr_vec4 flow, float amplitude, unsigned seed)
{
    dr_vec4 wind = DR_V4(flow.x, flow.y, flow.z, 0.0f);
    if (!(amplitude > 0.0f))
        return wind;
    dr_vec4 q = dr_scale3(dr_madd3(p, wind, -t), flow.w);
    return DR_V4(wind.x + amplitude * dr_value_noise(q, 0u, seed),
                 wind.y + amplitude * dr_value_noise(q, 1u, seed),
                 wind.z + amplitude * dr_value_noise(q, 2u, seed), 0.0f);
}

/* The aerodynamic force (N) on triangle (a, b, c), counter-clockwise seen from its front, whose
 * corners are at xa, xb, xc and move with va, vb, vc. coeff = (C_D, C_L, rho (kg/m^3), turbulence
 * (m/s)); flow and seed as for dr_air_velocity, t the time (s). In w: |F| / |u| (N s/m), the force
 * per unit of speed through the air, for dr_aero_apply's bound. Zero for a triangle without area
 * or at rest in the air. */
DR_FN dr_vec4 dr_aero_force(dr_vec4 xa, dr_vec4 xb, dr_vec4 xc, dr_vec4 va, dr_vec4 vb, dr_vec4 vc,
                            dr_vec4 coeff, dr_vec4 flow, unsigned seed, float t)
{
    const float third = 1.0f / 3.0f;
    dr_vec4 zero = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    dr_vec4 n = dr_triangle_area_normal(xa, xb, xc); /* 2 A n */
    float area2 = dr_len3(n);
    dr_vec4 centre = dr_scale3(dr_add3(dr_add3(xa, xb), xc), third);
    dr_vec4 air = dr_air_velocity(centre, t, flow, coeff.w, seed);
    dr_vec4 u = dr_sub3(dr_scale3(dr_add3(dr_add3(va, vb), vc), third), air);
    float speed2 = dr_dot3(u, u);
    if (!(area2 > DR_EPS * DR_EPS) || !(speed2 > DR_EPS * DR_EPS))
        return zero;
    float speed = DR_SQRT(speed2);
    n = dr_scale3(n, 1.0f / area2);
    float cosine = dr_dot3(n, u) / speed;
    float sine = DR_SQRT(DR_FMAX(0.0f, 1.0f - cosine * cosine));
    dr_vec4 lift_dir = dr_cross3(dr_cross3(u, n), dr_scale3(u, 1.0f / speed));
    float q = 0.25f * coeff.z * area2 * speed; /* 1/2 rho A |u| */
    float drag = -q * coeff.x * DR_FMAX(cosine, -cosine), lift = -q * coeff.y * cosine * sine;
    dr_vec4 f = dr_add3(dr_scale3(u, drag), dr_scale3(lift_dir, lift));
    f.w = dr_len3(f) / speed;
    return f;
}

/* The force on triangle `tri` of `triangles` (three particle indices each). */
DR_FN dr_vec4 dr_aero_triangle(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *v,
                               DR_GLOBAL const unsigned *triangles, unsigned tri, dr_vec4 coeff,
                               dr_vec4 flow, unsigned seed, float t)
{
    unsigned a = triangles[3u * tri], b = triangles[3u * tri + 1u], c = triangles[3u * tri + 2u];
    return dr_aero_force(x[a], x[b], x[c], v[a], v[b], v[c], coeff, flow, seed, t);
}

/* A particle's velocity after h seconds of a third of the force of each of its triangles
 * incident[begin .. end - 1] (forces per triangle, N, with |F| / |u| in w: dr_aero_force); a
 * pinned particle (inv_mass 0) keeps v.
 *
 * The step is explicit, and the air's pull on a particle relaxes its motion through the air at the
 * rate k = inv_mass / 3 * sum |F| / |u| (1/s). Where h k > 1 a full step would overshoot: carry
 * the particle past the air's speed, and the next step back further, the motion growing each step;
 * a 20 g flag in a 10 m/s wind at 1 substep of 1/60 s (h k about 10) flew at 178 m/s. There the
 * step is cut to 1 / (h k) of itself, which stops the motion through the air at most (the linear
 * drag's implicit limit); below, the step is the force's in full, so a plate falling at its
 * terminal velocity (h k = 0.07 at 1 substep) meets it exactly. */
DR_FN dr_vec4 dr_aero_apply(dr_vec4 v, float inv_mass, DR_GLOBAL const dr_vec4 *forces,
                            DR_GLOBAL const unsigned *incident, unsigned begin, unsigned end,
                            float h)
{
    if (!(inv_mass > 0.0f) || begin == end)
        return v;
    dr_vec4 sum = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    float rate = 0.0f;
    for (unsigned k = begin; k < end; ++k) {
        dr_vec4 f = forces[incident[k]];
        sum = dr_add3(sum, f);
        rate += f.w;
    }
    float scale = h * inv_mass * (1.0f / 3.0f), hk = scale * rate;
    return dr_madd3(v, sum, hk > 1.0f ? scale / hk : scale);
}

#endif /* DRAPE_AERO_H */

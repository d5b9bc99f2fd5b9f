/* Balloons: the pressure constraint of Müller et al., "Position Based Dynamics" (2007),
 * section 4.4, written once for the CPU reference (host/balloons.c) and the kernels
 * (kernels/balloon.cl), in the common subset of C17 and OpenCL C.
 *
 * A balloon is a closed triangle mesh whose triangles face outward. Its volume is
 *     V = 1/6 sum over triangles (a, b, c) of (p_a x p_b) . p_c
 * (the paper's C without the 1/6), taken about an origin o, the balloon's first particle at the
 * substep's start, so that the float products stay small. The constraint C = V - k_pressure V0,
 * evaluated at the predicted positions p, moves each movable particle along
 * grad_i V = 1/6 sum over i's triangles of x_j x x_k ((i, j, k) in the triangle's cyclic order) at
 * the positions x of the substep's start, times w_i and the multiplier step of dr_delta_lambda (PBD
 * or XPBD, as every constraint). Like the distance constraint's direction (dr_distance_step), the
 * gradient at the start carries no torque about the start positions, so v = d / h keeps the
 * angular momentum (SHAKE); at the predictions it carries none about those, and a free balloon
 * inflated to 1.5 V0 (an elastic skin, 4 substeps) spun itself up from rest: 0.21 J after 4 s, 12
 * J after 8 s, and 0.67 kg m^2/s of angular momentum, which damping, keeping momenta, cannot take
 * out. It is global: every particle of the balloon depends on every other, so it is projected on
 * its own, after the coloured constraints of each iteration.
 *
 * The two global sums (V and sum_i w_i |grad_i C|^2) are taken in a fixed order, so that the CPU
 * and the device agree bit for bit: DR_SUM_LANES lanes, lane l summing elements l, l + L, l + 2L,
 * ... in order in dr_wide (double where the device has it), then one pass summing the lanes in
 * order. The lanes are work-items on the device (independent of the work-group size) and a loop on
 * the CPU.
 */
#ifndef DRAPE_BALLOON_H
#define DRAPE_BALLOON_H

#include "drape_shared.h"

#define DR_SUM_LANES 64u

/* p - o of particle a on the predicted positions, formed as (x - o) + d. */
DR_FN dr_vec4 dr_balloon_point(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *d, unsigned a,
                               dr_vec4 o)
{
    return dr_add3(dr_sub3(x[a], o), d[a]);
}

/* Six times the signed volume of the tetrahedron (o, a, b, c) of triangle t: (p_a x p_b) . p_c. */
DR_FN float dr_balloon_volume6(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *d,
                               DR_GLOBAL const unsigned *triangles, unsigned t, dr_vec4 o)
{
    dr_vec4 a = dr_balloon_point(x, d, triangles[3u * t], o);
    dr_vec4 b = dr_balloon_point(x, d, triangles[3u * t + 1u], o);
    dr_vec4 c = dr_balloon_point(x, d, triangles[3u * t + 2u], o);
    return dr_dot3(dr_cross3(a, b), c);
}

/* grad_i V at the substep's start of particle i, whose triangles are incident[begin .. end - 1];
 * w = its inverse mass. */
DR_FN dr_vec4 dr_balloon_gradient(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const unsigned *triangles,
                                  DR_GLOBAL const unsigned *incident, unsigned begin, unsigned end,
                                  unsigned i, dr_vec4 o)
{
    dr_vec4 g = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    for (unsigned k = begin; k < end; ++k) {
        unsigned t = 3u * incident[k];
        unsigned a = triangles[t], b = triangles[t + 1u], c = triangles[t + 2u];
        unsigned j = a == i ? b : b == i ? c : a, l = a == i ? c : b == i ? a : b;
        g = dr_add3(g, dr_cross3(dr_sub3(x[j], o), dr_sub3(x[l], o)));
    }
    return DR_V4(g.x * (1.0f / 6.0f), g.y * (1.0f / 6.0f), g.z * (1.0f / 6.0f), x[i].w);
}

/* Lane `lane`'s share of the two sums: sums[0] += 6 V of triangles lane, lane + L, ..., sums[1] +=
 * w |g|^2 of vertices lane, lane + L, ... (g[] the gradients, inverse mass in w). */
DR_FN void dr_balloon_lane(DR_GLOBAL const dr_vec4 *x, DR_GLOBAL const dr_vec4 *d,
                           DR_GLOBAL const unsigned *triangles, unsigned triangle_count,
                           DR_GLOBAL const dr_vec4 *g, unsigned vertex_count, dr_vec4 o,
                           unsigned lane, dr_wide *sums)
{
    dr_wide vol = 0.0, wg = 0.0;
    for (unsigned t = lane; t < triangle_count; t += DR_SUM_LANES)
        vol += (dr_wide)dr_balloon_volume6(x, d, triangles, t, o);
    for (unsigned v = lane; v < vertex_count; v += DR_SUM_LANES) {
        dr_vec4 gv = g[v];
        wg += (dr_wide)(gv.w * dr_dot3(gv, gv));
    }
    sums[0] = vol;
    sums[1] = wg;
}

/* How far one substep may take a balloon's volume: a factor of this either way from its volume at
 * the substep's first iteration. The gradient is the start's (above), so the iterations move along
 * a fixed direction, and V grows as the cube of the distance along it: they converge only while
 * the target radius is within about sqrt(2) of the start's (a volume factor of 2.8). A balloon
 * asked for 4 V0 from rest shrank below V0 in its first substep, and for 6 V0 turned inside out;
 * from 7 V0 on the step ended non-finite, whatever the substeps. Now a balloon far from its
 * target reaches it over a few substeps, at most doubling (or halving) its volume in each. The
 * target itself moves there over time (the host's dr_balloon_target: doubling at most every 0.1 s),
 * so this bound holds only for a balloon squeezed or pulled far in one substep. */
#define DR_BALLOON_GROWTH 2.0f

/* The multiplier step from the lanes' sums (2 per lane): state = (lambda, its step, V (m^3), the
 * volume at the substep's first iteration (m^3), or 0 before it: zero at the substep's start);
 * target = k_pressure V0 (m^3), taken within DR_BALLOON_GROWTH of that first volume. */
DR_FN dr_vec4 dr_balloon_step(DR_GLOBAL const dr_wide *partial, float target, float kprime,
                              float compliance, float inv_h2, dr_vec4 state)
{
    dr_wide vol = 0.0, wg = 0.0;
    for (unsigned l = 0; l < DR_SUM_LANES; ++l) {
        vol += partial[2u * l];
        wg += partial[2u * l + 1u];
    }
    float V = (float)(vol / 6.0), W = (float)wg;
    float first = state.w > 0.0f ? state.w : V;
    if (first > 0.0f)
        target =
            DR_FMIN(DR_FMAX(target, first * (1.0f / DR_BALLOON_GROWTH)), first * DR_BALLOON_GROWTH);
    if (!(W > 0.0f))
        return DR_V4(state.x, 0.0f, V, first);
    float dl = dr_delta_lambda(V - target, W, kprime, compliance, inv_h2, state.x);
    return DR_V4(compliance >= 0.0f ? state.x + dl : state.x, dl, V, first);
}

/* A vertex's displacement after the step: d + w g dlambda (g.w = w; pinned: unchanged). */
DR_FN dr_vec4 dr_balloon_apply(dr_vec4 d, dr_vec4 g, float dl)
{
    return g.w > 0.0f ? dr_madd3(d, g, g.w * dl) : d;
}

#endif /* DRAPE_BALLOON_H */

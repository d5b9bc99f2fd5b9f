/* Momentum-preserving damping (Müller et al., "Position Based Dynamics", 2007, section 3.5; seed 000,
 * dampVelocities).
 *
 * The movable particles are treated as one body: its centre of mass x_cm, velocity v_cm, angular
 * momentum L and inertia tensor I give the rigid motion v_cm + omega x r with omega = I^-1 L. Each
 * particle's deviation from that rigid motion is reduced by the fraction k. The changes sum to zero
 * linear and angular momentum, so only the deformation loses energy. The sums are taken in double on
 * the host; the per-particle update is dr_damp_velocity of the shared header.
 */
#include "world_internal.h"

#include <math.h>

typedef struct body_sums {
    double mass, x[3], v[3], L[3], I[3][3];
} body_sums;

static void sum_body(const drape_world *w, body_sums *s)
{
    *s = (body_sums){0};
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        dr_vec4 x = w->x[i], v = w->v[i];
        if (x.w <= 0.0f)
            continue;
        double m = 1.0 / x.w;
        s->mass += m;
        s->x[0] += m * x.x, s->x[1] += m * x.y, s->x[2] += m * x.z;
        s->v[0] += m * v.x, s->v[1] += m * v.y, s->v[2] += m * v.z;
    }
    if (s->mass <= 0.0)
        return;
    for (int k = 0; k < 3; ++k)
        s->x[k] /= s->mass, s->v[k] /= s->mass;
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        dr_vec4 x = w->x[i], v = w->v[i];
        if (x.w <= 0.0f)
            continue;
        double m = 1.0 / x.w;
        double r[3] = {x.x - s->x[0], x.y - s->x[1], x.z - s->x[2]};
        double u[3] = {v.x, v.y, v.z};
        s->L[0] += m * (r[1] * u[2] - r[2] * u[1]);
        s->L[1] += m * (r[2] * u[0] - r[0] * u[2]);
        s->L[2] += m * (r[0] * u[1] - r[1] * u[0]);
        double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                s->I[a][b] += m * ((a == b ? rr : 0.0) - r[a] * r[b]);
    }
}

/* omega = I^-1 L. A body on a line (a rope at rest) has a singular I; a tiny multiple of the trace
 * on the diagonal keeps omega finite and only its spin about the line undetermined (it is zero). */
static void solve_omega(const body_sums *s, double omega[3])
{
    double I[3][3];
    double trace = s->I[0][0] + s->I[1][1] + s->I[2][2];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            I[a][b] = s->I[a][b] + (a == b ? 1e-9 * trace : 0.0);
    double det = I[0][0] * (I[1][1] * I[2][2] - I[1][2] * I[2][1]) -
                 I[0][1] * (I[1][0] * I[2][2] - I[1][2] * I[2][0]) +
                 I[0][2] * (I[1][0] * I[2][1] - I[1][1] * I[2][0]);
    omega[0] = omega[1] = omega[2] = 0.0;
    if (!(fabs(det) > 0.0))
        return;
    double inv[3][3] = {
        {I[1][1] * I[2][2] - I[1][2] * I[2][1], I[0][2] * I[2][1] - I[0][1] * I[2][2],
         I[0][1] * I[1][2] - I[0][2] * I[1][1]},
        {I[1][2] * I[2][0] - I[1][0] * I[2][2], I[0][0] * I[2][2] - I[0][2] * I[2][0],
         I[0][2] * I[1][0] - I[0][0] * I[1][2]},
        {I[1][0] * I[2][1] - I[1][1] * I[2][0], I[0][1] * I[2][0] - I[0][0] * I[2][1],
         I[0][0] * I[1][1] - I[0][1] * I[1][0]},
    };
    for (int a = 0; a < 3; ++a)
        omega[a] = (inv[a][0] * s->L[0] + inv[a][1] * s->L[1] + inv[a][2] * s->L[2]) / det;
}

void dr_damp_velocities(drape_world *w, float k)
{
    body_sums s;
    sum_body(w, &s);
    if (s.mass <= 0.0)
        return;
    double omega[3];
    solve_omega(&s, omega);
    dr_vec4 xcm = DR_V4((float)s.x[0], (float)s.x[1], (float)s.x[2], 0.0f);
    dr_vec4 vcm = DR_V4((float)s.v[0], (float)s.v[1], (float)s.v[2], 0.0f);
    dr_vec4 om = DR_V4((float)omega[0], (float)omega[1], (float)omega[2], 0.0f);
    for (uint32_t i = 0; i < w->particle_count; ++i)
        w->v[i] = dr_damp_velocity(w->v[i], w->x[i], xcm, vcm, om, k);
}

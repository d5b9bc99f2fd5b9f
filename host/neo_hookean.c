/* The stable Neo-Hookean tetrahedron: the energy of Macklin and Müller, "A Constraint-based
 * Formulation of Stable Neo-Hookean Materials" (2021), as ten XPBD constraints (F's nine entries
 * and det F - gamma) solved together by dr_solve_neo_hookean in kernels/drape_shared.h (the
 * equations are there).
 *
 * A tetrahedron is stored with its rest shape's inverse Dm^-1, the two compliances 1 / (mu V0) and
 * 1 / (lambda V0) and gamma = 1 + mu / lambda (the solver set's param, DR_NEO_HOOKEAN_PARAMS
 * floats), its rest volume V0 in rest, and the user's Young's modulus and Poisson's ratio in
 * target, so that drape_world_get_neo_hookean gives back what was asked for. The Lamé parameters of
 * the energy come from E and nu by matching its small-strain limit to linear elasticity: mu = E /
 * (2 (1 + nu)), lambda = lambda_Lame + mu = mu / (1 - 2 nu) (the stable Neo-Hookean energy mu/2
 * (I_C - 3) + lambda/2 (J - 1 - mu/lambda)^2 has the stress mu (eps + eps^T) + (lambda - mu)
 * tr(eps) I there).
 */
#include "world_internal.h"

#include <math.h>
#include <stdlib.h>

drape_neo_hookean_def drape_default_neo_hookean_def(void)
{
    drape_neo_hookean_def d = {{0, 0, 0, 0}, 1e5f, 0.3f};
    return d;
}

drape_result dr_add_neo_hookean(drape_world *w, const char *fn, const drape_neo_hookean_def *def,
                                uint32_t *out_id)
{
    static const char *const names[] = {"particles[0]", "particles[1]", "particles[2]",
                                        "particles[3]"};
    if (!def)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    const uint32_t *idx = def->particles;
    drape_result r = dr_check_constraint(w, fn, idx, names, 4, drape_stiffness_xpbd(0.0f));
    if (r != DRAPE_OK)
        return r;
    const double E = def->youngs_modulus, nu = def->poisson_ratio;
    if (!(E > 0.0) || !isfinite(E))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->youngs_modulus = %g Pa must be > 0 and finite", fn, E);
    if (!(nu > -1.0 && nu < 0.5))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->poisson_ratio = %g must be in (-1, 0.5)", fn, nu);
    r = dr_world_pull(w); /* the rest shape is the current one */
    float rest6;
    if (r == DRAPE_OK)
        r = dr_rest_tetrahedron(w, fn, idx, &rest6);
    if (r != DRAPE_OK)
        return r;
    /* Dm^-1: its rows are the cross products of Dm's columns over det Dm = 6 V0 (in double) */
    double e[3][3];
    for (int k = 0; k < 3; ++k) {
        const dr_vec4 a = w->x[idx[k + 1]], o = w->x[idx[0]];
        e[k][0] = (double)a.x - o.x, e[k][1] = (double)a.y - o.y, e[k][2] = (double)a.z - o.z;
    }
    const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                       e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                       e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    float param[DR_NEO_HOOKEAN_PARAMS];
    for (int row = 0; row < 3; ++row) {
        const double *a = e[(row + 1) % 3], *b = e[(row + 2) % 3];
        const double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                             a[0] * b[1] - a[1] * b[0]};
        for (int col = 0; col < 3; ++col)
            param[3 * row + col] = (float)(c[col] / det);
    }
    const double v0 = det / 6.0, mu = E / (2.0 * (1.0 + nu)), lambda = mu / (1.0 - 2.0 * nu);
    const double alpha_d = 1.0 / (mu * v0), alpha_h = 1.0 / (lambda * v0);
    if (!(alpha_d <= DR_MAX_COMPLIANCE && alpha_h <= DR_MAX_COMPLIANCE))
        return dr_fail(
            &w->def, DRAPE_ERROR_INVALID_ARGUMENT,
            "%s: the compliance 1 / (mu V0) = %g of the tetrahedron of particles %u, %u, "
            "%u, %u (V0 = %g m^3, mu = %g Pa) is above %g: too soft or too small",
            fn, fmax(alpha_d, alpha_h), idx[0], idx[1], idx[2], idx[3], v0, mu,
            (double)DR_MAX_COMPLIANCE);
    param[9] = (float)alpha_d;
    param[10] = (float)alpha_h;
    param[11] = (float)(1.0 + mu / lambda);
    uint32_t id;
    r = dr_store_constraint(w, DRAPE_CONSTRAINT_NEO_HOOKEAN, fn, idx, (float)v0,
                            drape_stiffness_xpbd(0.0f), 0,
                            DR_V4(def->youngs_modulus, def->poisson_ratio, 0.0f, 0.0f), &id);
    if (r != DRAPE_OK)
        return r;
    dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_NEO_HOOKEAN];
    for (int k = 0; k < DR_NEO_HOOKEAN_PARAMS; ++k)
        s->param[(size_t)id * DR_NEO_HOOKEAN_PARAMS + (size_t)k] = param[k];
    if (out_id)
        *out_id = id;
    return DRAPE_OK;
}

drape_result drape_world_add_neo_hookean(drape_world *w, const drape_neo_hookean_def *def,
                                         uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    return dr_add_neo_hookean(w, __func__, def, out_id);
}

drape_result drape_world_get_neo_hookean(const drape_world *w, uint32_t id,
                                         drape_neo_hookean_def *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_neo_hookean";
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_NEO_HOOKEAN];
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (id >= s->count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: Neo-Hookean id %u does not exist (the world has %u)", fn, id, s->count);
    for (int k = 0; k < 4; ++k)
        out->particles[k] = s->idx[4 * (size_t)id + k];
    out->youngs_modulus = s->target[id].x;
    out->poisson_ratio = s->target[id].y;
    return DRAPE_OK;
}

/* How fast a particle of Neo-Hookean tetrahedra rings against the substep h: omega h, with
 * omega^2 = w sum (mu + lambda) V0 |b_k|^2 over its tetrahedra (b_k its row of Dm^-1, w its inverse
 * mass): its stiffness over its mass. The hydrostatic constraint's pre-stress, which the step does
 * not see (docs/design.md, "Solids"), makes a body shake apart or collapse when omega h is large.
 * Measured in free space or at rest on a plane, 10 s: the default soft box (0.5 m, 1 kg, 4^3
 * particles, nu 0.3) at 1 substep rests at 20 kPa (omega h 16) and shakes apart at 50 kPa (26);
 * the repository's TetGen block scaled to 3 cm (1000 kg/m^3, 100 kPa) collapses at 4 substeps (41)
 * and still shakes at 24 (6.9), resting only at 64 (2.6); a lone 2 cm tetrahedron of 100 kPa
 * collapses at 4 (8.4). So past DR_NEO_HOOKEAN_STABLE a body was never seen to rest, and below it
 * a mesh's shape decides: the warning names the certain failures, not every one. */
#define DR_NEO_HOOKEAN_STABLE 20.0

/* Adds tetrahedron c's stiffness (mu + lambda) V0 |b_k|^2 (N/m) to each corner's sum. */
static void add_stiffness(const dr_constraints *s, uint32_t c, double *sum)
{
    const float *param = s->param + (size_t)c * DR_NEO_HOOKEAN_PARAMS;
    double bb[4] = {0.0, 0.0, 0.0, 0.0};
    for (int k = 1; k < 4; ++k)
        for (int j = 0; j < 3; ++j) {
            const double b = param[3 * (k - 1) + j];
            bb[k] += b * b;
        }
    for (int j = 0; j < 3; ++j) { /* b_0 = -(b_1 + b_2 + b_3) */
        const double b = (double)param[j] + param[3 + j] + param[6 + j];
        bb[0] += b * b;
    }
    const double stiffness =
        1.0 / (double)param[9] + 1.0 / (double)param[10]; /* (mu + lambda) V0 */
    for (int k = 0; k < 4; ++k)
        sum[s->idx[4 * (size_t)c + (size_t)k]] += stiffness * bb[k];
}

void dr_neo_hookean_warn(drape_world *w)
{
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_NEO_HOOKEAN];
    double h;
    if (s->count == 0 || !dr_substep_check_due(w, &w->neo_hookean_check, s->count, &h))
        return;
    double *sum = calloc(w->particle_count, sizeof *sum);
    if (!sum)
        return; /* a warning is not worth failing the step for */
    for (uint32_t c = 0; c < s->count; ++c)
        add_stiffness(s, c, sum);
    double worst = 0.0;
    uint32_t at = 0, over = 0;
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        const double r = sqrt(sum[i] * (double)w->x[i].w) * h;
        over += r > DR_NEO_HOOKEAN_STABLE;
        if (r > worst)
            worst = r, at = i;
    }
    free(sum);
    if (!(worst > DR_NEO_HOOKEAN_STABLE))
        return;
    w->neo_hookean_check.warned = true;
    dr_log(&w->def, DRAPE_LOG_WARNING,
           "drape_world_step: %u particles of Neo-Hookean tetrahedra are too stiff for the substep "
           "of %g s: particle %u rings at omega h = %.3g (omega^2 its stiffness over its mass), "
           "past the %g beyond which bodies shake apart or collapse. Take at least %.0f substeps "
           "(def.substeps; poorly shaped tetrahedra need several times more), or a softer "
           "material, larger tetrahedra or heavier particles. Said once per world",
           over, h, at, worst, DR_NEO_HOOKEAN_STABLE,
           ceil(w->def.substeps * worst / DR_NEO_HOOKEAN_STABLE));
}

/* The stiffness model of a constraint, chosen explicitly: PBD stiffness (Müller et al., "Position
 * Based Dynamics", 2007, section 3.3) or XPBD compliance (Macklin, Müller, Chentanez, "XPBD",
 * 2016). A def names its model and sets the one field that model reads; one that also sets the
 * other field is refused, so that neither is silently ignored. Inside, the solver keeps the
 * encoding of kernels/drape_shared.h: a negative compliance selects PBD.
 */
#include "world_internal.h"

#include <stdio.h>

drape_stiffness drape_stiffness_pbd(float k)
{
    return (drape_stiffness){k, 0.0f, DRAPE_STIFFNESS_PBD};
}

drape_stiffness drape_stiffness_xpbd(float compliance)
{
    return (drape_stiffness){1.0f, compliance, DRAPE_STIFFNESS_XPBD};
}

static const char *const model_names[] = {"DRAPE_STIFFNESS_PBD", "DRAPE_STIFFNESS_XPBD"};

/* The refusal of a def that sets `name`, which its model does not read. */
static drape_result unread(const drape_world_def *log, const char *fn, const char *field,
                           const char *name, float value, drape_stiffness_model model,
                           const char *keep)
{
    const char *reads = model == DRAPE_STIFFNESS_PBD ? "stiffness" : "compliance";
    return dr_fail(log, DRAPE_ERROR_INVALID_ARGUMENT,
                   "%s: %s%s = %g is set but %smodel is %s, which reads the %s alone: set "
                   "%smodel = %s for a %s, or leave it %s",
                   fn, field, name, (double)value, field, model_names[model], reads, field,
                   model_names[1 - model], name, keep);
}

drape_result dr_check_stiffness(const drape_world_def *log, const char *fn, const char *field,
                                drape_stiffness s)
{
    const drape_result bad = DRAPE_ERROR_INVALID_ARGUMENT;
    if (s.model == DRAPE_STIFFNESS_PBD) {
        if (!(s.stiffness >= 0.0f && s.stiffness <= 1.0f))
            return dr_fail(log, bad, "%s: %sstiffness = %g must be in [0, 1]", fn, field,
                           (double)s.stiffness);
        if (s.compliance != 0.0f)
            return unread(log, fn, field, "compliance", s.compliance, s.model, "0");
        return DRAPE_OK;
    }
    if (s.model == DRAPE_STIFFNESS_XPBD) {
        if (!(s.compliance >= 0.0f && s.compliance <= DR_MAX_COMPLIANCE))
            return dr_fail(log, bad, "%s: %scompliance = %g must be in [0, %g] (XPBD)", fn, field,
                           (double)s.compliance, (double)DR_MAX_COMPLIANCE);
        if (s.stiffness != 1.0f)
            return unread(log, fn, field, "stiffness", s.stiffness, s.model, "1");
        return DRAPE_OK;
    }
    return dr_fail(log, bad,
                   "%s: %smodel = %d is not a stiffness model (DRAPE_STIFFNESS_PBD or "
                   "DRAPE_STIFFNESS_XPBD)",
                   fn, field, (int)s.model);
}

drape_result dr_check_stiffnesses(const drape_world_def *log, const char *fn, uint32_t count,
                                  const char *const *fields, const drape_stiffness *s)
{
    drape_result r = DRAPE_OK;
    for (uint32_t k = 0; k < count && r == DRAPE_OK; ++k)
        r = dr_check_stiffness(log, fn, fields[k], s[k]);
    return r;
}

float dr_solver_compliance(drape_stiffness s)
{
    return s.model == DRAPE_STIFFNESS_XPBD ? s.compliance : -1.0f;
}

drape_stiffness dr_stiffness_of_solver(float stiffness, float compliance)
{
    return compliance < 0.0f ? drape_stiffness_pbd(stiffness) : drape_stiffness_xpbd(compliance);
}

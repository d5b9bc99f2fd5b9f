/* The world: its settings, its lifetime and the step entry point.
 *
 * A world owns everything it simulates and nothing is global, so any number of worlds can live in one
 * process. drape_world_step validates nothing per step: every input was checked when it entered the
 * world, and a rejected input leaves the world exactly as it was.
 */
#include "world_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

drape_world_def drape_default_world_def(void)
{
    drape_world_def def;
    memset(&def, 0, sizeof def);
    def.gravity = (drape_vec3){0.0f, -9.81f, 0.0f};
    def.dt = 1.0f / 60.0f;
    def.substeps = 4;
    def.iterations = 8;
    def.damping = 0.0f;
    def.air_drag = 0.0f;
    def.collision_margin = 0.005f;
    def.mode = DRAPE_MODE_PBD;
    def.integrator = DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER;
    def.spring_stiffness = 2000.0f;
    def.spring_damping = 2.0f;
    def.color_order = DRAPE_COLOR_ORDER_NATURAL;
    def.color_seed = 1;
    def.color_balance = true;
    def.log = drape_log_stderr;
    return def;
}

bool dr_finite3(drape_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

dr_vec4 dr_vec4_from(drape_vec3 v, float w) { return DR_V4(v.x, v.y, v.z, w); }

bool dr_grow(void **array, uint32_t *capacity, uint32_t need, size_t elem)
{
    if (need <= *capacity)
        return true;
    uint64_t cap = *capacity ? *capacity : 16;
    while (cap < need)
        cap *= 2;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    void *grown = realloc(*array, (size_t)cap * elem);
    if (!grown)
        return false;
    *array = grown;
    *capacity = (uint32_t)cap;
    return true;
}

/* Checks a def field by field; `fn` names the API call in the message. */
static drape_result validate_def(const drape_world_def *def, const char *fn)
{
    if (!dr_finite3(def->gravity))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.gravity is not finite", fn);
    if (!(def->dt > 0.0f) || !isfinite(def->dt))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.dt = %g s must be > 0", fn,
                       (double)def->dt);
    if (def->substeps < 1)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.substeps = %d must be >= 1", fn,
                       def->substeps);
    if (def->iterations < 1)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.iterations = %d must be >= 1",
                       fn, def->iterations);
    if (!(def->damping >= 0.0f && def->damping <= 1.0f))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.damping = %g must be in [0, 1]",
                       fn, (double)def->damping);
    if (!(def->air_drag >= 0.0f) || !isfinite(def->air_drag))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.air_drag = %g 1/s must be >= 0",
                       fn, (double)def->air_drag);
    if (!dr_finite3(def->wind))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.wind is not finite", fn);
    if (!(def->collision_margin >= 0.0f) || !isfinite(def->collision_margin))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.collision_margin = %g m must be >= 0", fn,
                       (double)def->collision_margin);
    if (def->mode != DRAPE_MODE_PBD && def->mode != DRAPE_MODE_MASS_SPRING)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.mode = %d is not a solver mode",
                       fn, (int)def->mode);
    if (def->integrator != DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER &&
        def->integrator != DRAPE_INTEGRATOR_VELOCITY_VERLET)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.integrator = %d is not an integrator", fn, (int)def->integrator);
    if (!(def->spring_stiffness > 0.0f) || !isfinite(def->spring_stiffness))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.spring_stiffness = %g N/m must be > 0", fn,
                       (double)def->spring_stiffness);
    if (!(def->spring_damping >= 0.0f) || !isfinite(def->spring_damping))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.spring_damping = %g N s/m must be >= 0", fn,
                       (double)def->spring_damping);
    if (def->color_order != DRAPE_COLOR_ORDER_NATURAL &&
        def->color_order != DRAPE_COLOR_ORDER_LARGEST_FIRST &&
        def->color_order != DRAPE_COLOR_ORDER_RANDOM)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.color_order = %d is not a colouring order", fn,
                       (int)def->color_order);
    return DRAPE_OK;
}

drape_result drape_world_create(const drape_world_def *def, drape_world **out)
{
    if (out)
        *out = NULL;
    if (!def || !out)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "drape_world_create: %s is NULL",
                       def ? "out" : "def");
    drape_result r = validate_def(def, "drape_world_create");
    if (r != DRAPE_OK)
        return r;
    drape_world *w = calloc(1, sizeof *w);
    if (!w)
        return dr_fail(def, DRAPE_ERROR_OUT_OF_MEMORY, "drape_world_create: no memory for a world");
    w->def = *def;
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_DISTANCE], 2);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_DIHEDRAL], 4);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_ATTACHMENT], 1);
    w->solver_dirty = true;
    w->stiffness_dirty = true;
    *out = w;
    return DRAPE_OK;
}

void drape_world_destroy(drape_world *w)
{
    if (!w)
        return;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        dr_constraints_free(&w->constraints[t]);
        dr_solver_set_free(&w->solver[t]);
    }
    free(w->x);
    free(w->v);
    free(w->p);
    free(w->a);
    free(w->a1);
    free(w->contacts);
    free(w->colliders);
    free(w);
}

drape_world_def drape_world_get_def(const drape_world *w) { return w->def; }

drape_result drape_world_set_def(drape_world *w, const drape_world_def *def)
{
    if (!def)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "drape_world_set_def: def is NULL");
    drape_result r = validate_def(def, "drape_world_set_def");
    if (r != DRAPE_OK)
        return r;
    if (def->iterations != w->def.iterations)
        w->stiffness_dirty = true;
    if (def->color_order != w->def.color_order || def->color_seed != w->def.color_seed ||
        def->color_balance != w->def.color_balance)
        w->solver_dirty = true;
    w->def = *def;
    return DRAPE_OK;
}

double drape_world_time(const drape_world *w) { return w->time; }

drape_result drape_world_step(drape_world *w)
{
    drape_result r = dr_world_prepare(w);
    if (r != DRAPE_OK)
        return r;
    dr_cpu_step(w);
    return DRAPE_OK;
}

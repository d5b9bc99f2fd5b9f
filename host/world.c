/* The world: its settings, its lifetime and the step entry point.
 *
 * A world owns everything it simulates and nothing is global, so any number of worlds can live in
 * one process. drape_world_step validates nothing per step: every input was checked when it entered
 * the world, and a rejected input leaves the world exactly as it was.
 */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

drape_backend_def drape_default_backend_def(void)
{
    drape_backend_def def = {DRAPE_BACKEND_CPU, NULL, NULL, NULL, 0, DR_DEF_COOKIE};
    return def;
}

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
    def.spring_stiffness = 1.0f;
    def.spring_damping = 0.0002f;
    def.color_order = DRAPE_COLOR_ORDER_NATURAL;
    def.color_seed = 1;
    def.color_balance = true;
    def.particle_static_friction = 0.4f;
    def.particle_kinetic_friction = 0.3f;
    def.particle_travel_limit = 1.0f;
    def.particle_max_substeps = 32;
    def.particle_restitution = 0.0f;
    def.contact_relaxation = 1.0f;
    def.contact_passes = 16;
    def.backend = drape_default_backend_def();
    def.log = drape_log_stderr;
    def.cookie = DR_DEF_COOKIE;
    return def;
}

bool dr_finite3(drape_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

bool dr_within3(drape_vec3 v)
{
    return fabsf(v.x) <= DR_MAX_MAGNITUDE && fabsf(v.y) <= DR_MAX_MAGNITUDE &&
           fabsf(v.z) <= DR_MAX_MAGNITUDE; /* false for NaN too */
}

drape_result dr_check_vectors(const drape_world_def *log, const char *fn, const dr_field3 *fields,
                              size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        const dr_field3 *f = &fields[k];
        if (!dr_within3(f->v))
            return dr_fail(log, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: %s = (%g, %g, %g) %s must be finite and within %g", fn, f->name,
                           (double)f->v.x, (double)f->v.y, (double)f->v.z, f->unit,
                           (double)DR_MAX_MAGNITUDE);
    }
    return DRAPE_OK;
}

drape_result dr_check_positive(const drape_world_def *log, const char *fn, const char *name,
                               float value, const char *unit)
{
    if (value > 0.0f && isfinite(value))
        return DRAPE_OK;
    return dr_fail(log, DRAPE_ERROR_INVALID_ARGUMENT, "%s: %s = %g %s must be > 0 and finite", fn,
                   name, (double)value, unit);
}

drape_result dr_check_mass_and_vectors(const drape_world_def *log, const char *fn, float mass,
                                       const dr_field3 *fields, size_t count)
{
    drape_result r = dr_check_positive(log, fn, "def->mass", mass, "kg");
    return r == DRAPE_OK ? dr_check_vectors(log, fn, fields, count) : r;
}

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

const char *drape_distance_kernel_name(drape_distance_kernel kernel)
{
    static const char *const names[DRAPE_DISTANCE_KERNEL_COUNT] = {
        "auto", "per-constraint", "lanes16", "fused", "fused-local"};
    return (unsigned)kernel < DRAPE_DISTANCE_KERNEL_COUNT ? names[kernel] : NULL;
}

/* The distance kernel a def asks for: its own, else $DRAPE_DISTANCE_KERNEL, else AUTO (the backend
 * then picks by device type). An unknown name in the variable fails, naming it and the choices. */
static drape_result requested_kernel(const drape_world_def *def, drape_distance_kernel *out)
{
    *out = def->distance_kernel;
    const char *env = getenv("DRAPE_DISTANCE_KERNEL");
    if (*out != DRAPE_DISTANCE_KERNEL_AUTO || !env || !*env)
        return DRAPE_OK;
    for (int k = 0; k < DRAPE_DISTANCE_KERNEL_COUNT; ++k)
        if (strcmp(env, drape_distance_kernel_name((drape_distance_kernel)k)) == 0) {
            *out = (drape_distance_kernel)k;
            return DRAPE_OK;
        }
    return dr_fail(def, DRAPE_ERROR_ENVIRONMENT,
                   "DRAPE_DISTANCE_KERNEL=\"%s\" is not a distance kernel: use auto, "
                   "per-constraint, lanes16, fused or fused-local",
                   env);
}

/* Checks a def field by field; `fn` names the API call in the message. */
static drape_result validate_def(const drape_world_def *def, const char *fn)
{
    if (!dr_within3(def->gravity))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.gravity (%g, %g, %g) m/s^2 must be finite and within %g", fn,
                       (double)def->gravity.x, (double)def->gravity.y, (double)def->gravity.z,
                       (double)DR_MAX_MAGNITUDE);
    if (!(def->dt > 0.0f && def->dt <= DRAPE_MAX_DT))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.dt = %g s must be in (0, %g]",
                       fn, (double)def->dt, (double)DRAPE_MAX_DT);
    if (def->substeps < 1 || def->substeps > DRAPE_MAX_SUBSTEPS)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.substeps = %d must be in [1, %d]", fn, def->substeps,
                       DRAPE_MAX_SUBSTEPS);
    const double h = (double)def->dt / def->substeps;
    if (h < (double)DR_MIN_SUBSTEP)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: the substep def.dt / def.substeps = %g s is shorter than %g s, the "
                       "shortest the solver takes (it divides by h^2)",
                       fn, h, (double)DR_MIN_SUBSTEP);
    if (def->iterations < 1 || def->iterations > DRAPE_MAX_ITERATIONS)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.iterations = %d must be in [1, %d]", fn, def->iterations,
                       DRAPE_MAX_ITERATIONS);
    if (!(def->damping >= 0.0f && def->damping <= 1.0f))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.damping = %g must be in [0, 1]",
                       fn, (double)def->damping);
    if (!(def->air_drag >= 0.0f) || !isfinite(def->air_drag))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.air_drag = %g 1/s must be >= 0",
                       fn, (double)def->air_drag);
    /* with a tolerance for dt's rounding: 60 1/s at dt = 1/60 s (0.016666668 as a float) is 1/h */
    if ((double)def->air_drag * h > 1.0 + 1e-6)
        return dr_fail(
            def, DRAPE_ERROR_INVALID_ARGUMENT,
            "%s: def.air_drag = %g 1/s is more than 1/h = %g 1/s: the explicit drag step "
            "would overshoot the wind and, above 2/h, diverge (use more substeps)",
            fn, (double)def->air_drag, 1.0 / h);
    if (!dr_within3(def->wind))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.wind must be finite and within %g m/s", fn,
                       (double)DR_MAX_MAGNITUDE);
    if (!(def->collision_margin >= 0.0f && def->collision_margin <= DR_MAX_MAGNITUDE))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.collision_margin = %g m must be in [0, %g]", fn,
                       (double)def->collision_margin, (double)DR_MAX_MAGNITUDE);
    const struct {
        float value;
        const char *name;
    } nonnegative[] = {
        {def->particle_static_friction, "particle_static_friction"},
        {def->particle_kinetic_friction, "particle_kinetic_friction"},
        {def->particle_travel_limit, "particle_travel_limit"},
    };
    for (size_t i = 0; i < sizeof nonnegative / sizeof *nonnegative; ++i)
        if (!(nonnegative[i].value >= 0.0f) || !isfinite(nonnegative[i].value))
            return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def.%s = %g must be >= 0", fn,
                           nonnegative[i].name, (double)nonnegative[i].value);
    if (def->particle_max_substeps < 0 || def->particle_max_substeps > DRAPE_MAX_SUBSTEPS)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.particle_max_substeps = %d must be in [0, %d]", fn,
                       def->particle_max_substeps, DRAPE_MAX_SUBSTEPS);
    if (!(def->particle_restitution >= 0.0f && def->particle_restitution <= 1.0f))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.particle_restitution = %g must be in [0, 1]", fn,
                       (double)def->particle_restitution);
    if (!(def->contact_relaxation > 0.0f && def->contact_relaxation < 2.0f))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.contact_relaxation = %g must be in (0, 2)", fn,
                       (double)def->contact_relaxation);
    if (def->contact_passes < 0 || def->contact_passes > DRAPE_MAX_ITERATIONS)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.contact_passes = %d must be in [0, %d]", fn, def->contact_passes,
                       DRAPE_MAX_ITERATIONS);
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
    DR_CHECK_DEF(def, &def->backend, fn, "backend");
    const drape_backend type = def->backend.type;
    if (type != DRAPE_BACKEND_CPU && type != DRAPE_BACKEND_OPENCL && type != DRAPE_BACKEND_AUTO)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.backend.type = %d is not a backend", fn, (int)type);
    if (!drape_distance_kernel_name(def->distance_kernel))
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.distance_kernel = %d is not a distance kernel", fn,
                       (int)def->distance_kernel);
    if (def->color_order != DRAPE_COLOR_ORDER_NATURAL &&
        def->color_order != DRAPE_COLOR_ORDER_LARGEST_FIRST &&
        def->color_order != DRAPE_COLOR_ORDER_RANDOM)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def.color_order = %d is not a colouring order", fn,
                       (int)def->color_order);
    return DRAPE_OK;
}

/* DRAPE_BACKEND_AUTO: the OpenCL backend if it starts (w->cl), else the CPU reference with one
 * warning that says why (no platform, a selector that matched nothing, a kernel that did not
 * build); the backend's own error messages are not errors here, so they go into that warning. */
typedef struct auto_log {
    drape_log_fn log;
    void *user;
    char why[480];
} auto_log;

static void keep_error(drape_log_level level, const char *message, void *user)
{
    auto_log *a = user;
    if (level == DRAPE_LOG_ERROR)
        snprintf(a->why, sizeof a->why, "%s", message);
    else
        a->log(level, message, a->user);
}

static drape_result auto_opencl_create(drape_world *w)
{
    const drape_log_fn def_log = w->def.log;
    auto_log a = {def_log ? def_log : drape_log_stderr, w->def.log_user, ""};
    w->def.log = keep_error;
    w->def.log_user = &a;
    drape_result r = dr_opencl_create(w, &w->cl);
    w->def.log = def_log;
    w->def.log_user = a.user;
    if (r == DRAPE_OK) /* the backend must not keep this function's log, which ends here */
        dr_opencl_set_log(w->cl, a.log, a.user);
    else
        dr_log(&w->def, DRAPE_LOG_WARNING,
               "drape_world_create: falling back to the CPU reference solver: %s",
               a.why[0] ? a.why : "the OpenCL backend could not start");
    return DRAPE_OK;
}

drape_result drape_world_create(const drape_world_def *def, drape_world **out)
{
    if (out)
        *out = NULL;
    if (!def || !out)
        return dr_fail(def, DRAPE_ERROR_INVALID_ARGUMENT, "drape_world_create: %s is NULL",
                       def ? "out" : "def");
    DR_CHECK_DEF(def, def, "drape_world_create", "world");
    drape_result r = validate_def(def, "drape_world_create");
    if (r != DRAPE_OK)
        return r;
    drape_world *w = calloc(1, sizeof *w);
    if (!w)
        return dr_fail(def, DRAPE_ERROR_OUT_OF_MEMORY, "drape_world_create: no memory for a world");
    w->def = *def;
    if (def->backend.device) {
        size_t len = strlen(def->backend.device);
        w->device_selector = malloc(len + 1);
        if (!w->device_selector) {
            free(w);
            return dr_fail(def, DRAPE_ERROR_OUT_OF_MEMORY, "drape_world_create: no memory");
        }
        memcpy(w->device_selector, def->backend.device, len + 1);
    }
    w->def.backend.device = w->device_selector;
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_DISTANCE], 2);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_DIHEDRAL], 4);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_ATTACHMENT], 1);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_TETHER], 2);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_VOLUME], 4);
    dr_constraints_init(&w->constraints[DRAPE_CONSTRAINT_NEO_HOOKEAN], 4);
    w->constraints[DRAPE_CONSTRAINT_NEO_HOOKEAN].params = DR_NEO_HOOKEAN_PARAMS;
    w->constraints[DRAPE_CONSTRAINT_NEO_HOOKEAN].multipliers = DR_NEO_HOOKEAN_MULTIPLIERS;
    w->solver_dirty = true;
    w->stiffness_dirty = true;
    w->plan_dirty = true;
    w->stale = DR_STALE_ALL;
    w->backend = DRAPE_BACKEND_CPU;
    snprintf(w->device_name, sizeof w->device_name, "CPU reference (one thread)");
    if (def->backend.type != DRAPE_BACKEND_CPU)
        r = requested_kernel(def, &w->kernel_request);
    if (r != DRAPE_OK) {
        drape_world_destroy(w);
        return r;
    }
    if (def->backend.type != DRAPE_BACKEND_CPU) {
        r = def->backend.type == DRAPE_BACKEND_AUTO ? auto_opencl_create(w)
                                                    : dr_opencl_create(w, &w->cl);
        if (w->cl) {
            w->backend = DRAPE_BACKEND_OPENCL;
            dr_opencl_device_name(w->cl, w->device_name, sizeof w->device_name);
        } else if (r != DRAPE_OK) {
            dr_fail(def, r,
                    "drape_world_create: the OpenCL backend was asked for and could not "
                    "start (see the message above)");
            drape_world_destroy(w);
            return r;
        }
    }
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
    free(w->d);
    free(w->a);
    free(w->a1);
    free(w->contacts);
    free(w->shape);
    free(w->inflate);
    free(w->held);
    free(w->group);
    dr_particle_grid_free(&w->grid);
    free(w->colliders);
    dr_shapes_free(&w->shapes);
    dr_bodies_free(&w->bodies);
    dr_render_destroy(w);
    dr_tear_destroy(w); /* its device buffers belong to the backend's context */
    dr_opencl_destroy(w->cl);
    dr_aero_destroy(w);
    dr_balloons_destroy(w);
    free(w->device_selector);
    free(w);
}

drape_world_def drape_world_get_def(const drape_world *w)
{
    return w ? w->def : drape_default_world_def();
}

float dr_substep_sag(drape_vec3 gravity, float h)
{
    return dr_len3(dr_vec4_from(gravity, 0.0f)) * h * h;
}

/* The same device selector: NULL and "" both mean the default. */
static bool same_selector(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The name of the first setting that the backend took at creation and that `next` changes, NULL
 * when it changes none of them. */
static const char *fixed_setting_changed(const drape_backend_def *now,
                                         const drape_backend_def *next)
{
    if (next->type != now->type)
        return "type";
    if (!same_selector(next->device, now->device))
        return "device";
    if (next->gl_context != now->gl_context || next->gl_display != now->gl_display)
        return next->gl_context != now->gl_context ? "gl_context" : "gl_display";
    if (next->device_memory_limit != now->device_memory_limit)
        return "device_memory_limit";
    return NULL;
}

drape_result drape_world_set_def(drape_world *w, const drape_world_def *def)
{
    DR_CHECK_WORLD(w);
    DR_CHECK_DEF(&w->def, def, "drape_world_set_def", "world");
    drape_result r = validate_def(def, "drape_world_set_def");
    if (r != DRAPE_OK)
        return r;
    const char *fixed = fixed_setting_changed(&w->def.backend, &def->backend);
    if (fixed)
        return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                       "drape_world_set_def: def.backend.%s cannot change after creation (the "
                       "backend was set up with it); make a new world for another",
                       fixed);
    drape_distance_kernel kernel = w->kernel_request;
    if (w->cl && def->distance_kernel != w->def.distance_kernel) {
        r = requested_kernel(def, &kernel);
        if (r != DRAPE_OK)
            return r;
    }
    if (w->cl && def->profiling != w->def.profiling) {
        r = dr_opencl_set_profiling(w->cl, def->profiling);
        if (r != DRAPE_OK)
            return r;
    }
    if (def->iterations != w->def.iterations)
        w->stiffness_dirty = true;
    if (def->color_order != w->def.color_order || def->color_seed != w->def.color_seed ||
        def->color_balance != w->def.color_balance)
        w->solver_dirty = true;
    w->def = *def;
    w->def.backend.device = w->device_selector;
    w->kernel_request = kernel;
    return w->cl ? dr_opencl_configure(w) : DRAPE_OK;
}

double drape_world_time(const drape_world *w) { return w ? w->time : 0.0; }

drape_backend drape_world_backend(const drape_world *w)
{
    return w ? w->backend : DRAPE_BACKEND_CPU;
}

const char *drape_world_device(const drape_world *w) { return w ? w->device_name : NULL; }

drape_distance_kernel drape_world_distance_kernel(const drape_world *w)
{
    return w && w->cl ? dr_opencl_distance_kernel(w->cl) : DRAPE_DISTANCE_KERNEL_AUTO;
}

drape_result dr_world_pull(const drape_world *w)
{
    /* Reading the device into the host arrays changes no observable state: the world stays const.
     */
    return w->cl ? dr_opencl_pull((drape_world *)w) : DRAPE_OK;
}

/* After `steps` steps run back to back (by `fn`): DRAPE_ERROR_NON_FINITE, with the particle and the
 * phase, when their check (w->nonfinite, filled by either backend) found a non-finite state. */
static drape_result check_finite(drape_world *w, const char *fn, uint32_t steps)
{
    static const char *const what[DR_NONFINITE_PHASES] = {
        "the prediction (external forces, damping or spring forces)",
        "the projection (constraints and contacts)", "the update (velocities and positions)"};
    char when[96];
    if (steps > 1)
        snprintf(when, sizeof when, "one of the %u steps run back to back that ended at", steps);
    else
        snprintf(when, sizeof when, "the step that ended at");
    /* More substeps is the wrong advice for a compliant stretch under dihedral bending: at 16 or
     * 32 substeps it can run away where at 4 to 8 it rests. A triangle that folds flat through
     * itself turns the hinge angle over by pi, and PBD bending, stiffer per second the more
     * substeps there are, snaps it back (docs/scene-format.md, Dihedrals). */
    char bending[256] = "";
    if (w->constraints[DRAPE_CONSTRAINT_DIHEDRAL].count > 0 && w->def.substeps > 8)
        snprintf(bending, sizeof bending,
                 "; or, at %u substeps, a compliant stretch under dihedral bending ran away (a "
                 "balloon's soft skin after an impact, a cloth without shear links), which 4 to 8 "
                 "substeps, shear links, a stiffer stretch or XPBD bending (a compliance) rest",
                 (unsigned)w->def.substeps);
    for (int p = 0; p < DR_NONFINITE_PHASES; ++p)
        if (w->nonfinite[p] != DR_NO_PARTICLE)
            return dr_fail(
                &w->def, DRAPE_ERROR_NON_FINITE,
                "%s: the state became non-finite in %s t = %.6g s: particle %u first, in "
                "%s; the time step may be too long for the stiffness, drag or masses "
                "(more substeps), or an input is extreme%s",
                fn, when, w->time, w->nonfinite[p], what[p], bending);
    return DRAPE_OK;
}

/* drape_world_step and drape_world_step_n: OpenCL queues every step and checks once; the CPU checks
 * each step. */
bool dr_substep_check_due(const drape_world *w, dr_substep_check *c, uint64_t key, double *h)
{
    *h = (double)w->def.dt / (double)w->def.substeps;
    if (c->warned || w->def.mode != DRAPE_MODE_PBD || (key == c->key && *h == c->h))
        return false;
    c->key = key, c->h = *h;
    return true;
}

static drape_result step_n(drape_world *w, uint32_t steps, const char *fn)
{
    if (steps == 0)
        return DRAPE_OK;
    if (steps > 1 && dr_tear_active(w)) { /* breakable links are checked after every step */
        drape_result r = DRAPE_OK;
        for (uint32_t i = 0; i < steps && r == DRAPE_OK; ++i)
            r = step_n(w, 1, fn);
        return r;
    }
    drape_result r = dr_world_prepare(w);
    if (r == DRAPE_OK)
        r = dr_aero_prepare(w);
    if (r != DRAPE_OK)
        return r;
    dr_particle_plan_update(w);
    dr_mass_spring_warn(w);
    dr_neo_hookean_warn(w);
    dr_balloons_warn(w);
    w->fullest_bucket = 0;
    if (w->cl) {
        r = dr_opencl_step(w, steps);
        if (r != DRAPE_OK)
            return dr_fail(&w->def, r, "%s: the OpenCL step failed (see above)", fn);
        w->profile.steps += steps;
        r = check_finite(w, fn, steps);
        if (r == DRAPE_OK)
            r = dr_particle_check(w);
        return r == DRAPE_OK ? dr_tear_after_step(w) : r;
    }
    for (uint32_t i = 0; i < steps && r == DRAPE_OK; ++i) {
        r = dr_cpu_step(w);
        if (r != DRAPE_OK)
            return r;
        w->profile.steps++;
        r = check_finite(w, fn, 1);
        if (r == DRAPE_OK)
            r = dr_particle_check(w);
        if (r == DRAPE_OK)
            r = dr_tear_after_step(w);
    }
    return r;
}

drape_result drape_world_step(drape_world *w)
{
    DR_CHECK_WORLD(w);
    return step_n(w, 1, "drape_world_step");
}

drape_result drape_world_step_n(drape_world *w, uint32_t steps)
{
    DR_CHECK_WORLD(w);
    return step_n(w, steps, "drape_world_step_n");
}

drape_result drape_world_get_profile(const drape_world *w, drape_profile *out)
{
    DR_CHECK_WORLD(w);
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "drape_world_get_profile: out is NULL");
    *out = w->profile;
    drape_result r = w->cl ? dr_opencl_profile(w->cl, out) : DRAPE_OK;
    out->recolored = w->recolored;
    return r;
}

void drape_world_reset_profile(drape_world *w)
{
    if (!w)
        return;
    memset(&w->profile, 0, sizeof w->profile);
    w->recolored = 0;
    if (w->cl)
        dr_opencl_reset_profile(w->cl);
}

drape_result drape_world_get_diagnostics(drape_world *w, drape_diagnostics *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_diagnostics";
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    drape_result r = dr_world_prepare(w);
    if (r != DRAPE_OK)
        return r;
    if (w->cl && !w->stale)
        return dr_opencl_diagnostics(w->cl, out);
    r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    double twice_ke = 0.0, sq = 0.0;
    for (uint32_t i = 0; i < w->particle_count; ++i)
        twice_ke += dr_twice_kinetic(w->x[i], w->v[i]);
    const dr_solver_set *d = &w->solver[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t c = 0; c < d->count; ++c)
        sq += dr_distance_violation2(w->x[d->idx[2 * c]], w->x[d->idx[2 * c + 1]], d->rest[c]);
    out->kinetic_energy = 0.5 * twice_ke;
    out->distance_residual = d->count ? sqrt(sq / d->count) : 0.0;
    return DRAPE_OK;
}

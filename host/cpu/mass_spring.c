/* The mass-spring mode (after the Taichi mass-spring cloth demo, with semi-implicit Euler and
 * velocity Verlet): the same cloth topology, but every distance constraint is a Hooke spring with
 * damping along it, integrated explicitly, for comparison with PBD.
 *
 * Spring constant: 1 / compliance where the constraint has a positive compliance, else the world's
 * spring_stiffness. Attachments become zero-length springs to their targets; dihedral constraints
 * have no spring form and are ignored in this mode. Integrators:
 *   semi-implicit Euler  v += h a(x, v);  p = x + h v
 *   velocity Verlet      p = x + h v + h^2/2 a(x, v);  v += h/2 (a(x, v) + a(p, v + h a(x, v)))
 * Both leave the displacement d = p - x of the substep; collisions then act on it exactly as in
 * PBD (host/cpu/cpu_step.c).
 */
#include "world_internal.h"

#include <stdio.h>

/* The position of particle i, x[i] + d[i] (d may be NULL: x[i]). */
static dr_vec4 position(const drape_world *w, const dr_vec4 *d, uint32_t i)
{
    return d ? dr_add3(w->x[i], d[i]) : w->x[i];
}

/* acc[i] = the acceleration of particle i at positions x + d and velocities vel (0 when pinned). */
static void accelerations(const drape_world *w, const dr_vec4 *d, const dr_vec4 *vel, dr_vec4 *acc)
{
    const float kd = w->def.spring_damping;
    for (uint32_t i = 0; i < w->particle_count; ++i)
        acc[i] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    const dr_solver_set *s = &w->solver[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t c = 0; c < s->count; ++c) {
        uint32_t a = s->idx[2 * c], b = s->idx[2 * c + 1];
        dr_vec4 f = dr_spring_force(
            position(w, d, a), position(w, d, b), vel[a], vel[b], s->rest[c],
            dr_spring_constant(dr_set_material(s, c).compliance, w->def.spring_stiffness), kd);
        acc[a] = dr_add3(acc[a], f);
        acc[b] = dr_sub3(acc[b], f);
    }
    const dr_solver_set *at = &w->solver[DRAPE_CONSTRAINT_ATTACHMENT];
    const dr_vec4 still = DR_V4(0.0f, 0.0f, 0.0f, 0.0f);
    for (uint32_t c = 0; c < at->count; ++c) {
        uint32_t a = at->idx[c];
        dr_vec4 f = dr_spring_force(
            position(w, d, a), at->target[c], vel[a], still, 0.0f,
            dr_spring_constant(dr_set_material(at, c).compliance, w->def.spring_stiffness), kd);
        acc[a] = dr_add3(acc[a], f);
    }
    const dr_vec4 g = dr_vec4_from(w->def.gravity, 0.0f), wind = dr_vec4_from(w->def.wind, 0.0f);
    for (uint32_t i = 0; i < w->particle_count; ++i)
        acc[i] = dr_mass_spring_accel(acc[i], w->x[i].w, vel[i], g, wind, w->def.air_drag);
}

void dr_mass_spring_predict(drape_world *w, float h)
{
    const uint32_t n = w->particle_count;
    accelerations(w, NULL, w->v, w->a);
    if (w->def.integrator == DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER) {
        for (uint32_t i = 0; i < n; ++i)
            w->d[i] = dr_euler_step(w->x[i], &w->v[i], w->a[i], h);
        return;
    }
    /* Velocity Verlet (drape_shared.h): both halves around a1 = a(p, v + h a0). */
    for (uint32_t i = 0; i < n; ++i)
        w->d[i] = dr_verlet_begin(w->x[i], &w->v[i], w->a[i], h);
    accelerations(w, w->d, w->v, w->a1);
    for (uint32_t i = 0; i < n; ++i)
        w->v[i] = dr_verlet_end(w->v[i], w->a[i], w->a1[i], h);
}

void dr_mass_spring_warn(drape_world *w)
{
    if (w->def.mode != DRAPE_MODE_MASS_SPRING || w->mode_warned)
        return;
    static const struct {
        drape_constraint_type type;
        const char *name;
    } pbd_only[] = {{DRAPE_CONSTRAINT_DIHEDRAL, "dihedral bending constraints"},
                    {DRAPE_CONSTRAINT_TETHER, "tethers"},
                    {DRAPE_CONSTRAINT_VOLUME, "tetrahedral volumes"},
                    {DRAPE_CONSTRAINT_NEO_HOOKEAN, "Neo-Hookean tetrahedra"}};
    char left[512] = "";
    size_t used = 0;
    for (size_t k = 0; k < sizeof pbd_only / sizeof pbd_only[0]; ++k) {
        const uint32_t n = w->constraints[pbd_only[k].type].live;
        if (n && used < sizeof left)
            used += (size_t)snprintf(left + used, sizeof left - used, "%s%u %s", used ? ", " : "",
                                     n, pbd_only[k].name);
    }
    const struct {
        bool on;
        const char *name;
    } parts[] = {{drape_world_balloon_count(w) > 0, "balloons"},
                 {w->shapes.count > 0, "shape-matched clusters"},
                 {dr_aero_configured(w), "aerodynamics"},
                 {w->plan.enabled, "contacts between particles"}};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k)
        if (parts[k].on && used < sizeof left)
            used += (size_t)snprintf(left + used, sizeof left - used, "%s%s", used ? ", " : "",
                                     parts[k].name);
    if (!used)
        return;
    w->mode_warned = true;
    dr_log(&w->def, DRAPE_LOG_WARNING,
           "drape_world_step: the mass-spring mode leaves out %s: they are solved in the PBD mode "
           "only (def.mode = DRAPE_MODE_PBD). Said once per world",
           left);
}

int dr_keeps_integrator_velocity(const drape_world_def *def)
{
    return def->mode == DRAPE_MODE_MASS_SPRING &&
           def->integrator == DRAPE_INTEGRATOR_VELOCITY_VERLET;
}

dr_vec4 dr_bounce_gravity(const drape_world_def *def)
{
    const drape_vec3 none = {0.0f, 0.0f, 0.0f};
    return dr_vec4_from(dr_keeps_integrator_velocity(def) ? none : def->gravity, 0.0f);
}

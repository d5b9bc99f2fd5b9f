/* The CPU reference solver: the PBD paper's Algorithm 1 with substeps, in plain C on one thread.
 *
 *   for each substep, h = dt / substeps (more substeps where fast particles with contacts need
 *   them, adaptive_substeps.c):
 *     predict   v += h (g + drag (wind - v)); damp(v); p = x + h v      (or the mass-spring forces)
 *     grid      particles with a radius: velocity limit, hashed grid
 *     collide   one continuous contact per particle: the segment x -> p against every collider;
 *               then the contact candidates between particles, their counts and support levels
 *     project   `iterations` times: every constraint type, colour by colour; then the contacts
 *               between particles (one gather pass); then every particle against every collider
 *     update    v = (p - x) / h; x = p; restitution for particles in contact; non-finite check;
 *               then restitution between particles (a gather over the contact candidates)
 *
 * It loops over the colour-ordered solver sets in order, so its Gauss-Seidel order is the one the
 * OpenCL backend runs colour by colour in parallel; all per-element maths comes from
 * kernels/drape_shared.h. This is the yardstick for correctness and the baseline for speed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "world_internal.h"

#include <string.h>
#include <time.h>

/* Wall time in ms, for the per-phase profile (drape_world_get_profile). */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static void predict_pbd(drape_world *w, float h)
{
    const dr_vec4 g = dr_vec4_from(w->def.gravity, 0.0f), wind = dr_vec4_from(w->def.wind, 0.0f);
    /* the aerodynamic forces from the velocities at the substep's start, as the drag of
     * dr_apply_external: taken after gravity's kick, they held a falling cloth g h under its
     * terminal velocity */
    dr_aero_predict_cpu(w, h);
    for (uint32_t i = 0; i < w->particle_count; ++i)
        w->v[i] = dr_apply_external(w->v[i], w->x[i].w, g, wind, w->def.air_drag, h);
    if (w->def.damping > 0.0f)
        dr_damp_velocities(w, w->def.damping);
    for (uint32_t i = 0; i < w->particle_count; ++i)
        w->d[i] = dr_predict_displacement(w->x[i], w->v[i], h);
}

static void generate_contacts(drape_world *w, float h)
{
    const float t = (float)w->time;
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        w->contacts[i] =
            dr_generate_contact(w->x[i], w->d[i], w->v[i], w->colliders, w->collider_count, t, h,
                                w->def.collision_margin + w->inflate[i]);
        w->held[i] = DR_V4(0.0f, 0.0f, 0.0f, 0.0f); /* nothing pushed yet (dr_project_contacts) */
    }
}

/* The first substep after the user placed particles (placed_first, placed_count): each of their
 * contacts that started inside owes its start's depth (dr_start_depth), which friction does not
 * count. */
static void placement_debt(drape_world *w, float h)
{
    for (uint32_t i = w->placed_first, k = 0; k < w->placed_count; ++i, ++k) {
        const float owed = dr_start_depth(w->x[i], w->contacts[i], w->colliders, h);
        if (owed > 0.0f)
            w->held[i].x = -owed;
    }
}

static void project_constraints(drape_world *w, float inv_h2, float sag)
{
    const dr_solver_set *d = &w->solver[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t c = 0; c < d->count; ++c)
        dr_solve_distance(w->x, w->d, d->idx[2 * c], d->idx[2 * c + 1], d->rest[c],
                          dr_set_material(d, c).kprime, dr_set_material(d, c).compliance, inv_h2,
                          sag, &d->lambda[c]);
    const dr_solver_set *b = &w->solver[DRAPE_CONSTRAINT_DIHEDRAL];
    for (uint32_t c = 0; c < b->count; ++c) {
        const uint32_t *q = &b->idx[4 * c];
        dr_solve_dihedral(w->x, w->d, q[0], q[1], q[2], q[3], b->rest[c],
                          dr_set_material(b, c).kprime, dr_set_material(b, c).compliance, inv_h2,
                          &b->lambda[c]);
    }
    const dr_solver_set *a = &w->solver[DRAPE_CONSTRAINT_ATTACHMENT];
    for (uint32_t c = 0; c < a->count; ++c)
        dr_solve_attachment(w->x, w->d, a->idx[c], a->target[c], dr_set_material(a, c).kprime,
                            dr_set_material(a, c).compliance, inv_h2, &a->lambda[c]);
    const dr_solver_set *t = &w->solver[DRAPE_CONSTRAINT_TETHER];
    for (uint32_t c = 0; c < t->count; ++c)
        dr_solve_tether(w->x, w->d, t->idx[2 * c], t->idx[2 * c + 1], t->rest[c],
                        dr_set_material(t, c).kprime, dr_set_material(t, c).compliance, inv_h2, sag,
                        &t->lambda[c]);
    const dr_solver_set *v = &w->solver[DRAPE_CONSTRAINT_VOLUME];
    for (uint32_t c = 0; c < v->count; ++c) {
        const uint32_t *q = &v->idx[4 * c];
        dr_solve_volume(w->x, w->d, q[0], q[1], q[2], q[3], v->rest[c],
                        dr_set_material(v, c).kprime, dr_set_material(v, c).compliance, inv_h2,
                        &v->lambda[c]);
    }
    const dr_solver_set *n = &w->solver[DRAPE_CONSTRAINT_NEO_HOOKEAN];
    for (uint32_t c = 0; c < n->count; ++c) {
        const uint32_t *q = &n->idx[4 * c];
        dr_solve_neo_hookean(w->x, w->d, q[0], q[1], q[2], q[3],
                             &n->param[(size_t)DR_NEO_HOOKEAN_PARAMS * c], inv_h2,
                             &n->lambda[(size_t)DR_NEO_HOOKEAN_MULTIPLIERS * c]);
    }
}

static void project_contacts(drape_world *w, float h)
{
    if (w->collider_count == 0)
        return;
    const float t = (float)w->time, margin = w->def.collision_margin;
    for (uint32_t i = 0; i < w->particle_count; ++i)
        w->d[i] = dr_project_contacts(w->d[i], w->x[i], w->contacts[i], w->colliders,
                                      w->collider_count, t, h, margin + w->inflate[i], &w->held[i]);
}

/* The update, and the lowest index per phase of a particle whose state turned non-finite
 * (dr_nonfinite_phase), kept across the substeps of a step in w->nonfinite as the device does. */
static void update(drape_world *w, float h)
{
    const float threshold = dr_restitution_threshold(dr_vec4_from(w->def.gravity, 0.0f), h);
    const int verlet = dr_keeps_integrator_velocity(&w->def);
    const dr_vec4 g = dr_bounce_gravity(&w->def);
    for (uint32_t i = 0; i < w->particle_count; ++i) {
        const dr_vec4 v = w->v[i];
        dr_vec4 d = w->d[i];
        w->v[i] = dr_update_particle(&d, v, w->x[i], w->contacts[i], w->colliders,
                                     w->collider_count, h, threshold, g, verlet);
        w->x[i] = dr_add3(w->x[i], d);
        int phase = dr_nonfinite_phase(v, d, w->v[i], w->x[i]);
        if (phase >= 0 && i < w->nonfinite[phase])
            w->nonfinite[phase] = i;
    }
}

static drape_result substep(drape_world *w, float h)
{
    drape_profile *prof = &w->profile;
    const bool particles = w->plan.enabled && w->def.mode == DRAPE_MODE_PBD;
    double t0 = now_ms();
    if (w->def.mode == DRAPE_MODE_PBD)
        predict_pbd(w, h);
    else
        dr_mass_spring_predict(w, h);
    double tg = now_ms();
    if (particles) {
        drape_result r = dr_cpu_particle_grid(w);
        if (r != DRAPE_OK)
            return r;
    }
    double t1 = now_ms();
    generate_contacts(w, h);
    if (w->placed_count && w->collider_count)
        placement_debt(w, h);
    double t2 = now_ms();
    if (particles) {
        drape_result r = dr_cpu_particle_candidates(w);
        if (r != DRAPE_OK)
            return r;
        t1 += now_ms() - t2; /* the grid's time */
        t2 = now_ms();
    }
    if (w->def.mode == DRAPE_MODE_PBD) {
        const float inv_h2 = 1.0f / (h * h), sag = dr_substep_sag(w->def.gravity, h);
        for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
            if (w->solver[t].count)
                memset(w->solver[t].lambda, 0,
                       w->solver[t].count * w->constraints[t].multipliers * sizeof(float));
        for (int it = 0; it < w->def.iterations; ++it) {
            project_constraints(w, inv_h2, sag);
            dr_shapes_project(w);
            if (particles)
                dr_cpu_particle_contacts(w, it);
            dr_balloons_project_cpu(w, h, it == 0);
            project_contacts(w, h);
        }
        /* the contacts alone, with the last word over the meshes' constraints */
        for (int pass = 0, tail = dr_contact_tail(w); pass < tail; ++pass) {
            dr_cpu_particle_contacts(w, w->def.iterations + pass);
            project_contacts(w, h);
        }
        if (w->shapes.count) /* rigid clusters end the substep rigid */
            dr_shapes_project(w);
    } else {
        project_contacts(w, h);
    }
    double t3 = now_ms();
    update(w, h);
    if (particles) {
        drape_result r = dr_cpu_particle_bounce(
            w, dr_restitution_threshold(dr_vec4_from(w->def.gravity, 0.0f), h), h);
        if (r != DRAPE_OK)
            return r;
    }
    w->time += h;
    double t4 = now_ms();
    prof->predict_ms += tg - t0;
    prof->grid_ms += t1 - tg;
    prof->collide_ms += t2 - t1;
    prof->project_ms += t3 - t2;
    prof->update_ms += t4 - t3;
    return DRAPE_OK;
}

drape_result dr_cpu_step(drape_world *w)
{
    const int substeps = dr_step_substeps(w, dr_substeps_vary(w) ? dr_particle_speed_bits(w) : 0u);
    for (int p = 0; p < DR_NONFINITE_PHASES; ++p)
        w->nonfinite[p] = DR_NO_PARTICLE;
    drape_result r = DRAPE_OK;
    for (int s = 0; s < substeps && r == DRAPE_OK; ++s) {
        r = substep(w, w->substep);
        dr_placement_mended(w);
    }
    w->profile.substeps += (uint64_t)substeps;
    return r;
}

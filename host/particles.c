/* Particles: position (m), velocity (m/s) and mass (kg, 0 = pinned), stored as float4 with the
 * inverse mass in w, the layout the OpenCL kernels read; and for contacts between particles their
 * radius (m) with their rest position (where they were added), and their collision group. */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

drape_particle_def drape_default_particle_def(void)
{
    drape_particle_def def = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true};
    return def;
}

/* contact: also the radius and the group (drape_world_set_particle does not read them) */
static drape_result check_particle(const drape_world *w, const drape_particle_def *d,
                                   const char *fn, uint32_t i, bool contact)
{
    if (!dr_within3(d->position))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: particle %u: position (%g, %g, %g) m must be finite and within %g", fn,
                       i, (double)d->position.x, (double)d->position.y, (double)d->position.z,
                       (double)DR_MAX_MAGNITUDE);
    if (!dr_within3(d->velocity))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: particle %u: velocity must be finite and within %g m/s", fn, i,
                       (double)DR_MAX_MAGNITUDE);
    if (!(d->mass == 0.0f || (d->mass >= DR_MIN_MASS && isfinite(d->mass))))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: particle %u: mass = %g kg must be 0 (pinned) or at least %g kg", fn, i,
                       (double)d->mass, (double)DR_MIN_MASS);
    if (!contact)
        return DRAPE_OK;
    if (!(d->radius >= 0.0f && d->radius <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: particle %u: radius = %g m must be >= 0 (0: no particle contacts) and "
                       "at most %g",
                       fn, i, (double)d->radius, (double)DR_MAX_MAGNITUDE);
    if (d->group > DRAPE_GROUP_MAX)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: particle %u: group = %u is above DRAPE_GROUP_MAX (%u)", fn, i, d->group,
                       DRAPE_GROUP_MAX);
    return DRAPE_OK;
}

static uint32_t group_word(const drape_particle_def *d)
{
    return d->group | (d->self_collide ? DR_GROUP_SELF : 0u);
}

static float inverse_mass(float mass) { return mass > 0.0f ? 1.0f / mass : 0.0f; }

/* Particles first .. end - 1 placed by the user: the range of those placed since the last substep
 * grows to cover them (world_internal.h, placed_first). */
static void mark_placed(drape_world *w, uint32_t first, uint32_t end)
{
    if (w->placed_count > 0) {
        const uint32_t was_end = w->placed_first + w->placed_count;
        first = first < w->placed_first ? first : w->placed_first;
        end = end > was_end ? end : was_end;
    }
    w->placed_first = first;
    w->placed_count = end - first;
}

void dr_placement_mended(drape_world *w) { w->placed_first = w->placed_count = 0; }

void dr_placement_clip(drape_world *w)
{
    const uint32_t n = w->particle_count;
    const uint32_t end = w->placed_first + w->placed_count;
    w->placed_count = w->placed_first >= n ? 0 : (end < n ? end : n) - w->placed_first;
}

drape_result dr_add_particles(drape_world *w, const char *fn, const drape_particle_def *defs,
                              uint32_t count, uint32_t *first_index)
{
    if (count > 0 && !defs)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: defs is NULL", fn);
    if (count > UINT32_MAX - 1 - w->particle_count)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: %u more particles would overflow the index range", fn, count);
    uint64_t with_radius = 0;
    for (uint32_t i = 0; i < count; ++i) {
        drape_result r = check_particle(w, &defs[i], fn, i, true);
        if (r != DRAPE_OK)
            return r;
        with_radius += defs[i].radius > 0.0f;
    }
    /* Linux grants memory lazily: too many particles for the machine would be killed later */
    char what[64];
    snprintf(what, sizeof what, "%u particles", count);
    drape_result fits = dr_check_memory_extra(w, fn, what, count, 0, 0,
                                              with_radius * dr_particle_grid_bytes_each());
    if (fits != DRAPE_OK)
        return fits;
    drape_result pulled = dr_world_pull(w);
    if (pulled != DRAPE_OK)
        return pulled;
    uint32_t need = w->particle_count + count;
    if (need > w->particle_capacity) {
        uint32_t cap = w->particle_capacity, cap_x = cap, cap_v = cap, cap_d = cap, cap_a = cap,
                 cap_a1 = cap, cap_c = cap, cap_s = cap, cap_g = cap, cap_i = cap, cap_h = cap;
        /* Grow each array; a failure part way leaves larger arrays and the old count: still valid.
         */
        if (!dr_grow((void **)&w->x, &cap_x, need, sizeof *w->x) ||
            !dr_grow((void **)&w->v, &cap_v, need, sizeof *w->v) ||
            !dr_grow((void **)&w->d, &cap_d, need, sizeof *w->d) ||
            !dr_grow((void **)&w->a, &cap_a, need, sizeof *w->a) ||
            !dr_grow((void **)&w->a1, &cap_a1, need, sizeof *w->a1) ||
            !dr_grow((void **)&w->contacts, &cap_c, need, sizeof *w->contacts) ||
            !dr_grow((void **)&w->shape, &cap_s, need, sizeof *w->shape) ||
            !dr_grow((void **)&w->group, &cap_g, need, sizeof *w->group) ||
            !dr_grow((void **)&w->inflate, &cap_i, need, sizeof *w->inflate) ||
            !dr_grow((void **)&w->held, &cap_h, need, sizeof *w->held))
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u particles", fn,
                           need);
        w->particle_capacity = cap_x;
    }
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t k = w->particle_count + i;
        w->x[k] = dr_vec4_from(defs[i].position, inverse_mass(defs[i].mass));
        w->v[k] = dr_vec4_from(defs[i].velocity, 0.0f);
        w->d[k] = DR_V4(0.0f, 0.0f, 0.0f, w->x[k].w);
        w->shape[k] = dr_vec4_from(defs[i].position, defs[i].radius);
        w->group[k] = group_word(&defs[i]);
        w->inflate[k] = defs[i].radius;
        dr_particle_take_group(w, defs[i].group);
    }
    w->plan_dirty = true;
    w->bodies.dirty = true; /* a new movable particle is in no body yet (damping) */
    if (first_index)
        *first_index = w->particle_count;
    mark_placed(w, w->particle_count, need);
    w->particle_count = need;
    w->stale |= DR_STALE_PARTICLES;
    return DRAPE_OK;
}

drape_result drape_world_add_particles(drape_world *w, const drape_particle_def *defs,
                                       uint32_t count, uint32_t *first_index)
{
    DR_CHECK_WORLD(w);
    return dr_add_particles(w, __func__, defs, count, first_index);
}

uint32_t drape_world_particle_count(const drape_world *w) { return w ? w->particle_count : 0; }

void dr_particles_set_contact(drape_world *w, const uint32_t *idx, uint32_t count,
                              dr_body_contact c)
{
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t i = idx[k];
        const uint32_t mesh = w->group[i] & DR_GROUP_MESH;
        w->group[i] = c.group | mesh;
        w->shape[i].w = c.radius;
        w->inflate[i] = mesh ? 0.0f : c.radius;
    }
    w->plan_dirty = true;
    w->stale |= DR_STALE_PARTICLES;
}

drape_result drape_world_set_particle(drape_world *w, uint32_t index, const drape_particle_def *def)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_particle";
    if (index >= w->particle_count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: index %u is out of range (the world has %u particles)", fn, index,
                       w->particle_count);
    if (!def)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    drape_result r = check_particle(w, def, fn, index, false);
    if (r == DRAPE_OK)
        r = dr_world_pull(w);
    if (r != DRAPE_OK)
        return r;
    float inv = inverse_mass(def->mass);
    if ((inv == 0.0f) != (w->x[index].w == 0.0f))
        w->solver_dirty = true; /* pinning changes which constraints conflict */
    if (inv != w->x[index].w)
        w->plan_dirty = true; /* the members' mass ratio (dr_split_travel) */
    w->x[index] = dr_vec4_from(def->position, inv);
    w->v[index] = dr_vec4_from(def->velocity, 0.0f);
    /* the rest position, radius and group stay those of drape_world_add_particles */
    mark_placed(w, index, index + 1);
    w->stale |= DR_STALE_PARTICLES;
    return DRAPE_OK;
}

drape_result dr_check_particle_range(const drape_world *w, uint32_t first, uint32_t count,
                                     const char *fn)
{
    if (first > w->particle_count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: first = %u is out of range (the world has %u particles)", fn, first,
                       w->particle_count);
    if (count > w->particle_count - first) /* the last index, in 64 bits: first + count wraps */
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: particles %u to %llu (first = %u, count = %u) are out of range (the "
                       "world has %u particles)",
                       fn, first, (unsigned long long)first + count - 1, first, count,
                       w->particle_count);
    return DRAPE_OK;
}

static drape_result check_range(const drape_world *w, uint32_t first, uint32_t count,
                                const void *out, const char *fn)
{
    if (!out && count > 0)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    drape_result r = dr_check_particle_range(w, first, count, fn);
    return r != DRAPE_OK ? r : dr_world_pull(w);
}

static drape_result copy_xyz(const drape_world *w, const dr_vec4 *src, uint32_t first,
                             uint32_t count, drape_vec3 *out, const char *fn)
{
    drape_result r = check_range(w, first, count, out, fn);
    if (r != DRAPE_OK)
        return r;
    for (uint32_t i = 0; i < count; ++i)
        out[i] = (drape_vec3){src[first + i].x, src[first + i].y, src[first + i].z};
    return DRAPE_OK;
}

drape_result drape_world_get_positions(const drape_world *w, uint32_t first, uint32_t count,
                                       drape_vec3 *out)
{
    DR_CHECK_WORLD(w);
    return copy_xyz(w, w->x, first, count, out, "drape_world_get_positions");
}

drape_result drape_world_get_velocities(const drape_world *w, uint32_t first, uint32_t count,
                                        drape_vec3 *out)
{
    DR_CHECK_WORLD(w);
    return copy_xyz(w, w->v, first, count, out, "drape_world_get_velocities");
}

drape_result drape_world_get_radii(const drape_world *w, uint32_t first, uint32_t count, float *out)
{
    DR_CHECK_WORLD(w);
    drape_result r = check_range(w, first, count, out, "drape_world_get_radii");
    if (r != DRAPE_OK)
        return r;
    for (uint32_t i = 0; i < count; ++i)
        out[i] = w->shape[first + i].w;
    return DRAPE_OK;
}

drape_result drape_world_get_masses(const drape_world *w, uint32_t first, uint32_t count,
                                    float *out)
{
    DR_CHECK_WORLD(w);
    drape_result r = check_range(w, first, count, out, "drape_world_get_masses");
    if (r != DRAPE_OK)
        return r;
    for (uint32_t i = 0; i < count; ++i)
        out[i] = inverse_mass(w->x[first + i].w);
    return DRAPE_OK;
}

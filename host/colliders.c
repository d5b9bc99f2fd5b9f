/* Colliders: infinite planes, spheres and capsules, each static or moving with a prescribed
 * velocity. They are stored as dr_collider (kernels/drape_shared.h), the layout both backends read;
 * collision constraints against them are generated each substep (Müller et al., "Position Based
 * Dynamics", 2007, section 3.4, generateCollisionConstraints). */
#include "world_internal.h"

#include <math.h>
#include <string.h>

drape_collider_def drape_default_collider_def(void)
{
    drape_collider_def d;
    memset(&d, 0, sizeof d);
    d.type = DRAPE_COLLIDER_PLANE;
    d.normal = (drape_vec3){0.0f, 1.0f, 0.0f};
    d.radius = 0.5f;
    d.static_friction = 0.4f;
    d.kinetic_friction = 0.3f;
    d.restitution = 0.0f;
    d.cookie = DR_DEF_COOKIE;
    return d;
}

void drape_open_box_colliders(float half, drape_collider_def out[5])
{
    const drape_vec3 points[5] = {
        {0, 0, 0}, {-half, 0, 0}, {half, 0, 0}, {0, 0, -half}, {0, 0, half}};
    const drape_vec3 normals[5] = {{0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int i = 0; i < 5; ++i) {
        out[i] = drape_default_collider_def();
        out[i].position = points[i];
        out[i].normal = normals[i];
    }
}

static bool in_unit(float f) { return f >= 0.0f && f <= 1.0f; }

/* Validates a def and converts it to the stored form; t0 is the time its motion starts from. */
static drape_result make_collider(const drape_world *w, const drape_collider_def *d, const char *fn,
                                  dr_collider *out)
{
    DR_CHECK_DEF(&w->def, d, fn, "collider");
    if ((unsigned)d->type > DRAPE_COLLIDER_CAPSULE)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->type = %d is not a collider type", fn, (int)d->type);
    const dr_field3 fields[] = {{"def->position", "m", d->position},
                                {"def->end", "m", d->end},
                                {"def->velocity", "m/s", d->velocity}};
    drape_result checked = dr_check_vectors(&w->def, fn, fields, sizeof fields / sizeof fields[0]);
    if (checked != DRAPE_OK)
        return checked;
    if (!dr_finite3(d->normal))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->normal = (%g, %g, %g) must be finite", fn, (double)d->normal.x,
                       (double)d->normal.y, (double)d->normal.z);
    if (d->type != DRAPE_COLLIDER_PLANE && !(d->radius > 0.0f && d->radius <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->radius = %g m must be > 0 and at most %g", fn, (double)d->radius,
                       (double)DR_MAX_MAGNITUDE);
    if (!(d->static_friction >= 0.0f) || !(d->kinetic_friction >= 0.0f) ||
        !isfinite(d->static_friction) || !isfinite(d->kinetic_friction))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->static_friction = %g and def->kinetic_friction = %g must be >= 0",
                       fn, (double)d->static_friction, (double)d->kinetic_friction);
    if (!in_unit(d->restitution))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->restitution = %g must be in [0, 1]", fn, (double)d->restitution);
    dr_vec4 b = dr_vec4_from(d->end, d->radius);
    if (d->type == DRAPE_COLLIDER_PLANE) {
        /* Normalised in double: the squared length of a normal such as (0, 1e20, 0) overflows a
         * float, and a tiny one underflows. */
        const double nx = d->normal.x, ny = d->normal.y, nz = d->normal.z;
        const double len = sqrt(nx * nx + ny * ny + nz * nz);
        if (!(len > 0.0))
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: def->normal of a plane must not be zero", fn);
        b = DR_V4((float)(nx / len), (float)(ny / len), (float)(nz / len), 0.0f);
    }
    out->a = dr_vec4_from(d->position, (float)d->type);
    out->b = b;
    out->vel = dr_vec4_from(d->velocity, d->restitution);
    out->info = DR_V4(d->static_friction, d->kinetic_friction, (float)w->time, 0.0f);
    return DRAPE_OK;
}

drape_result drape_world_add_collider(drape_world *w, const drape_collider_def *def,
                                      uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_collider";
    dr_collider c;
    drape_result r = make_collider(w, def, fn, &c);
    if (r != DRAPE_OK)
        return r;
    if (!dr_grow((void **)&w->colliders, &w->collider_capacity, w->collider_count + 1,
                 sizeof *w->colliders))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for another collider",
                       fn);
    w->colliders[w->collider_count] = c;
    if (out_id)
        *out_id = w->collider_count;
    w->collider_count++;
    w->stale |= DR_STALE_COLLIDERS;
    return DRAPE_OK;
}

drape_result drape_world_set_collider(drape_world *w, uint32_t id, const drape_collider_def *def)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_collider";
    if (id >= w->collider_count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: collider id %u is out of range (the world has %u)", fn, id,
                       w->collider_count);
    dr_collider c;
    drape_result r = make_collider(w, def, fn, &c);
    if (r != DRAPE_OK)
        return r;
    w->colliders[id] = c;
    w->stale |= DR_STALE_COLLIDERS;
    return DRAPE_OK;
}

uint32_t drape_world_collider_count(const drape_world *w) { return w ? w->collider_count : 0; }

drape_result drape_world_collider_distance(const drape_world *w, uint32_t id, drape_vec3 point,
                                           float *out_distance)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_collider_distance";
    if (id >= w->collider_count)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: collider id %u is out of range (the world has %u)", fn, id,
                       w->collider_count);
    if (!out_distance || !dr_finite3(point))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: out_distance is NULL or point is not finite", fn);
    const dr_collider *c = &w->colliders[id];
    dr_vec4 q = dr_sub3(dr_vec4_from(point, 0.0f), dr_collider_offset(c, (float)w->time));
    dr_vec4 n;
    *out_distance = dr_collider_sdf(c, q, &n);
    return DRAPE_OK;
}

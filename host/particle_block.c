/* The bulk builder of loose particles: a box or a sphere filled with balls of one radius, on a
 * cubic lattice or on the same lattice jittered by a seeded random offset. The jitter is at most
 * half the gap between lattice neighbours along each axis, so no two balls start overlapping and
 * the packing is reproducible from the seed (a splitmix64 stream, the same on every platform).
 */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

drape_particle_block_def drape_default_particle_block_def(void)
{
    drape_particle_block_def d = {
        .shape = DRAPE_BLOCK_BOX,
        .centre = {0.0f, 0.5f, 0.0f},
        .size = {0.5f, 0.5f, 0.5f},
        .packing = DRAPE_PACKING_LATTICE,
        .radius = 0.025f,
        .spacing = 0.0f,
        .max_count = 0,
        .seed = 1,
        .mass = 0.01f,
        .velocity = {0.0f, 0.0f, 0.0f},
        .group = 0,
        .self_collide = true,
        .cookie = DR_DEF_COOKIE,
    };
    return d;
}

/* splitmix64 (Steele, Lea, Flood 2014): a uniform float in [-1, 1). */
static float jitter(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

static drape_result check(drape_world *w, const drape_particle_block_def *d, const char *fn)
{
    const dr_field3 fields[] = {{"def->centre", "m", d->centre},
                                {"def->size", "m", d->size},
                                {"def->velocity", "m/s", d->velocity}};
    drape_result checked = dr_check_vectors(&w->def, fn, fields, sizeof fields / sizeof fields[0]);
    if (checked != DRAPE_OK)
        return checked;
    if (!(d->size.x > 0.0f) ||
        (d->shape == DRAPE_BLOCK_BOX && !(d->size.y > 0.0f && d->size.z > 0.0f)))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->size = (%g, %g, %g) m must be > 0", fn, (double)d->size.x,
                       (double)d->size.y, (double)d->size.z);
    if ((unsigned)d->shape > DRAPE_BLOCK_SPHERE || (unsigned)d->packing > DRAPE_PACKING_RANDOM)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->shape = %d or def->packing = %d is not one of the enum's values",
                       fn, (int)d->shape, (int)d->packing);
    if (!(d->radius > 0.0f) || !isfinite(d->radius))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def->radius = %g m must be > 0",
                       fn, (double)d->radius);
    if (!(d->spacing == 0.0f || d->spacing >= 2.0f * d->radius) || !isfinite(d->spacing))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->spacing = %g m must be 0 or >= 2 radius = %g m", fn,
                       (double)d->spacing, 2.0 * d->radius);
    if (!(d->mass > 0.0f) || !isfinite(d->mass))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def->mass = %g kg must be > 0",
                       fn, (double)d->mass);
    if (d->group > DRAPE_GROUP_MAX)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->group = %u is above DRAPE_GROUP_MAX", fn, d->group);
    return DRAPE_OK;
}

drape_result drape_world_add_particle_block(drape_world *w, const drape_particle_block_def *d,
                                            drape_build_info *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_particle_block";
    DR_CHECK_DEF(&w->def, d, fn, "particle_block");
    drape_result r = check(w, d, fn);
    if (r != DRAPE_OK)
        return r;
    const float pitch = d->spacing > 0.0f ? d->spacing : 2.2f * d->radius;
    const bool sphere = d->shape == DRAPE_BLOCK_SPHERE;
    const drape_vec3 size = sphere ? (drape_vec3){d->size.x, d->size.x, d->size.x} : d->size;
    /* sites per axis: every centre at least one radius inside the block */
    double per[3] = {floor((size.x - 2.0 * d->radius) / pitch) + 1.0,
                     floor((size.y - 2.0 * d->radius) / pitch) + 1.0,
                     floor((size.z - 2.0 * d->radius) / pitch) + 1.0};
    if (per[0] < 1.0 || per[1] < 1.0 || per[2] < 1.0 ||
        per[0] * per[1] * per[2] > (double)(1u << 28))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: a block of %g x %g x %g m holds %s balls of radius %g m at pitch %g m "
                       "(at least 1, at most 2^28 lattice sites, whatever max_count)",
                       fn, (double)size.x, (double)size.y, (double)size.z,
                       per[0] < 1.0 || per[1] < 1.0 || per[2] < 1.0 ? "no" : "too many",
                       (double)d->radius, (double)pitch);
    const uint32_t nx = (uint32_t)per[0], ny = (uint32_t)per[1], nz = (uint32_t)per[2];
    uint32_t cap = nx * ny * nz;
    if (d->max_count && d->max_count < cap)
        cap = d->max_count;
    /* Before anything is allocated: the defs, the world's arrays and the contacts' grid. Linux
     * grants memory lazily, so a block far too large would be killed while it is filled in. */
    char what[96];
    snprintf(what, sizeof what, "a block of %u balls", cap);
    r = dr_check_memory_extra(w, fn, what, cap, 0, 0,
                              (uint64_t)cap *
                                  (sizeof(drape_particle_def) + dr_particle_grid_bytes_each()));
    if (r != DRAPE_OK)
        return r;
    drape_particle_def *defs = malloc((size_t)cap * sizeof *defs);
    if (!defs)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u balls", fn, cap);
    const float reach = 0.5f * (pitch - 2.0f * d->radius), half = 0.5f * size.x - d->radius;
    uint64_t state = d->seed;
    uint32_t n = 0;
    for (uint32_t j = 0; j < ny && n < cap; ++j)
        for (uint32_t k = 0; k < nz && n < cap; ++k)
            for (uint32_t i = 0; i < nx && n < cap; ++i) {
                /* lattice offsets about the centre */
                drape_vec3 o = {((float)i - 0.5f * (float)(nx - 1)) * pitch,
                                ((float)j - 0.5f * (float)(ny - 1)) * pitch,
                                ((float)k - 0.5f * (float)(nz - 1)) * pitch};
                if (sphere && o.x * o.x + o.y * o.y + o.z * o.z > half * half)
                    continue;
                if (d->packing == DRAPE_PACKING_RANDOM) {
                    o.x += reach * jitter(&state);
                    o.y += reach * jitter(&state);
                    o.z += reach * jitter(&state);
                }
                drape_particle_def *p = &defs[n++];
                *p = drape_default_particle_def();
                p->position = (drape_vec3){d->centre.x + o.x, d->centre.y + o.y, d->centre.z + o.z};
                p->velocity = d->velocity;
                p->mass = d->mass;
                p->radius = d->radius;
                p->group = d->group;
                p->self_collide = d->self_collide;
            }
    const dr_build_mark mark = dr_build_begin(w);
    r = n ? dr_add_particles(w, fn, defs, n, NULL)
          : dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                    "%s: the sphere of diameter %g m holds no ball of radius %g m", fn,
                    (double)size.x, (double)d->radius);
    free(defs);
    if (r == DRAPE_OK)
        dr_build_info_since(w, &mark, out);
    return r;
}

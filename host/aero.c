/* Aerodynamics: lift and drag per triangle (NvCloth's formula, kernels/drape_aero.h), with a seeded
 * turbulent wind, added to the velocities in the prediction of every substep.
 *
 * The world keeps the triangles that feel the air and, per particle, the list of its triangles
 * (host/adjacency.c), rebuilt before a step when the world has grown. The CPU reference computes
 * the force of every triangle, then lets every particle gather a third of its triangles' forces, in
 * the order the device does (host/opencl/aero_opencl.c), so the two backends agree bit for bit.
 * Aerodynamics is off until drape_world_set_aero gives a drag or lift coefficient.
 */
#include "aero.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

drape_aero_def drape_default_aero_def(void)
{
    drape_aero_def d = {0.0f, 0.0f, 1.2f, 0.0f, 1.0f, 1u};
    return d;
}

static drape_result get_aero(drape_world *w, const char *fn, dr_aero **out)
{
    if (!w->aero) {
        w->aero = calloc(1, sizeof *w->aero);
        if (!w->aero)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for aerodynamics",
                           fn);
        w->aero->def = drape_default_aero_def();
    }
    *out = w->aero;
    return DRAPE_OK;
}

void dr_aero_destroy(drape_world *w)
{
    dr_aero *a = w->aero;
    if (!a)
        return;
    free(a->triangles);
    free(a->offsets);
    free(a->incident);
    free(a->forces);
    free(a);
    w->aero = NULL;
}

drape_result drape_world_set_aero(drape_world *w, const drape_aero_def *d)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_aero";
    if (!d)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    if (!(d->drag >= 0.0f && d->drag <= 100.0f) || !(d->lift >= 0.0f && d->lift <= 100.0f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->drag = %g and def->lift = %g must be in [0, 100]", fn,
                       (double)d->drag, (double)d->lift);
    if (!(d->air_density > 0.0f && d->air_density <= 1e4f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->air_density = %g kg/m^3 must be in (0, 1e4]", fn,
                       (double)d->air_density);
    if (!(d->turbulence >= 0.0f && d->turbulence <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->turbulence = %g m/s must be in [0, %g]", fn, (double)d->turbulence,
                       (double)DR_MAX_MAGNITUDE);
    if (!(d->gust_length >= 1e-3f && d->gust_length <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->gust_length = %g m must be in [1e-3, %g]", fn,
                       (double)d->gust_length, (double)DR_MAX_MAGNITUDE);
    dr_aero *a = NULL;
    drape_result r = get_aero(w, fn, &a);
    if (r == DRAPE_OK)
        a->def = *d;
    return r;
}

drape_aero_def drape_world_get_aero(const drape_world *w)
{
    return w && w->aero ? w->aero->def : drape_default_aero_def();
}

uint32_t drape_world_aero_triangle_count(const drape_world *w)
{
    return w && w->aero ? w->aero->count : 0;
}

drape_result dr_add_aero_triangles(drape_world *w, const char *fn, const uint32_t *indices,
                                   uint32_t count)
{
    if (count && !indices)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: indices is NULL", fn);
    for (size_t t = 0; t < count; ++t) {
        const uint32_t *c = &indices[3 * t];
        for (int k = 0; k < 3; ++k)
            if (c[k] >= w->particle_count)
                return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                               "%s: indices[%zu] = %u, but the world has %u particles", fn,
                               3 * t + (size_t)k, c[k], w->particle_count);
        if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2])
            return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                           "%s: triangle %zu (%u, %u, %u) repeats a particle", fn, t, c[0], c[1],
                           c[2]);
    }
    dr_aero *a = NULL;
    drape_result r = get_aero(w, fn, &a);
    if (r != DRAPE_OK || count == 0)
        return r;
    if ((uint64_t)a->count + count > UINT32_MAX / 3)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: too many triangles", fn);
    const uint32_t need = a->count + count;
    if (need > a->capacity) {
        uint32_t cap = a->capacity ? a->capacity : 64;
        while (cap < need)
            cap = cap > UINT32_MAX / 6 ? need : cap * 2;
        uint32_t *tri = realloc(a->triangles, (size_t)3 * cap * sizeof *tri);
        if (tri)
            a->triangles = tri;
        dr_vec4 *f = tri ? realloc(a->forces, (size_t)cap * sizeof *f) : NULL;
        if (f)
            a->forces = f;
        if (!tri || !f)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u triangles", fn,
                           need);
        a->capacity = cap;
    }
    memcpy(&a->triangles[(size_t)3 * a->count], indices, (size_t)3 * count * sizeof *indices);
    a->count = need;
    a->vertex_count = UINT32_MAX; /* the adjacency is rebuilt before the next step */
    a->version++;
    return DRAPE_OK;
}

drape_result drape_world_add_aero_triangles(drape_world *w, const uint32_t *indices, uint32_t count)
{
    DR_CHECK_WORLD(w);
    return dr_add_aero_triangles(w, __func__, indices, count);
}

bool dr_aero_configured(const drape_world *w)
{
    const dr_aero *a = w->aero;
    return a && a->count && (a->def.drag > 0.0f || a->def.lift > 0.0f);
}

bool dr_aero_active(const drape_world *w)
{
    return dr_aero_configured(w) && w->def.mode == DRAPE_MODE_PBD;
}

drape_result dr_aero_prepare(drape_world *w)
{
    dr_aero *a = w->aero;
    if (!dr_aero_active(w) || a->vertex_count == w->particle_count)
        return DRAPE_OK;
    uint32_t *offsets, *incident;
    if (!dr_triangle_adjacency(a->triangles, a->count, w->particle_count, &offsets, &incident))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "drape_world_step: no memory for the adjacency of %u aerodynamic triangles",
                       a->count);
    free(a->offsets);
    free(a->incident);
    a->offsets = offsets;
    a->incident = incident;
    a->vertex_count = w->particle_count;
    a->version++;
    return DRAPE_OK;
}

void dr_aero_params(const drape_world *w, dr_vec4 *coeff, dr_vec4 *flow)
{
    const drape_aero_def *d = &w->aero->def;
    *coeff = DR_V4(d->drag, d->lift, d->air_density, d->turbulence);
    *flow = dr_vec4_from(w->def.wind, 1.0f / d->gust_length);
}

void dr_aero_predict_cpu(drape_world *w, float h)
{
    if (!dr_aero_active(w))
        return;
    dr_aero *a = w->aero;
    dr_vec4 coeff, flow;
    dr_aero_params(w, &coeff, &flow);
    const float t = (float)w->time;
    for (uint32_t k = 0; k < a->count; ++k)
        a->forces[k] = dr_aero_triangle(w->x, w->v, a->triangles, k, coeff, flow, a->def.seed, t);
    for (uint32_t i = 0; i < w->particle_count; ++i)
        w->v[i] = dr_aero_apply(w->v[i], w->x[i].w, a->forces, a->incident, a->offsets[i],
                                a->offsets[i + 1], h);
}

drape_result dr_add_cloth_aero(drape_world *w, const char *fn, uint32_t base, uint32_t nx,
                               uint32_t ny)
{
    const uint32_t count = 2 * (nx - 1) * (ny - 1);
    uint32_t *tri = malloc((size_t)3 * count * sizeof *tri);
    if (!tri)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "%s: no memory for %u aerodynamic triangles", fn, count);
    uint32_t *t = tri;
    for (uint32_t j = 0; j + 1 < ny; ++j)
        for (uint32_t i = 0; i + 1 < nx; ++i) {
            const uint32_t p00 = base + j * nx + i, p10 = p00 + 1, p01 = p00 + nx, p11 = p01 + 1;
            *t++ = p00, *t++ = p10, *t++ = p11; /* split along (i,j)-(i+1,j+1) */
            *t++ = p00, *t++ = p11, *t++ = p01;
        }
    drape_result r = dr_add_aero_triangles(w, fn, tri, count);
    free(tri);
    return r;
}

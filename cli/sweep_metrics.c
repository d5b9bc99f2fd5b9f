/* What a sweep case's summary says about its final state, for comparing cases at a glance and for
 * learning from them: the kinetic energy and the distance residual (the world's own diagnostics),
 * the largest strain of a triangle edge against its length at the start (cloths and meshes start at
 * rest length), and the deepest penetration of a particle into a collider (the world's signed
 * distance, margin not included). A position or a metric that is not finite makes the case fail:
 * an unstable case is reported, never summarised with NaN.
 */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>

static double edge_length(const drape_vec3 *x, uint32_t a, uint32_t b)
{
    double dx = (double)x[a].x - x[b].x, dy = (double)x[a].y - x[b].y, dz = (double)x[a].z - x[b].z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static drape_result read_positions(const drape_scene *s, drape_vec3 **out, uint32_t *n)
{
    drape_world *w = drape_scene_world(s);
    *n = drape_world_particle_count(w);
    *out = malloc(((size_t)*n + 1) * sizeof **out);
    if (!*out)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    drape_result r = *n ? drape_world_get_positions(w, 0, *n, *out) : DRAPE_OK;
    if (r != DRAPE_OK) {
        free(*out);
        *out = NULL;
    }
    return r;
}

drape_result cli_edge_lengths_init(const drape_scene *s, cli_edge_lengths *out)
{
    *out = (cli_edge_lengths){0};
    uint32_t triangles = 0, n = 0;
    const uint32_t *t = drape_scene_triangles(s, &triangles);
    drape_vec3 *x = NULL;
    drape_result r = read_positions(s, &x, &n);
    if (r != DRAPE_OK)
        return r;
    /* Each triangle's three edges; an edge shared by two triangles is measured twice, which
     * changes nothing about a maximum. */
    out->edges = malloc(((size_t)triangles * 6 + 1) * sizeof *out->edges);
    out->length = malloc(((size_t)triangles * 3 + 1) * sizeof *out->length);
    if (!out->edges || !out->length) {
        free(x);
        cli_edge_lengths_free(out);
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < triangles; ++k)
        for (int e = 0; e < 3; ++e) {
            uint32_t a = t[3 * k + (uint32_t)e], b = t[3 * k + (uint32_t)(e + 1) % 3];
            float length = (float)edge_length(x, a, b);
            if (!(length > 0.0f))
                continue; /* a degenerate edge has no strain */
            out->edges[2 * out->count] = a;
            out->edges[2 * out->count + 1] = b;
            out->length[out->count++] = length;
        }
    free(x);
    return DRAPE_OK;
}

void cli_edge_lengths_free(cli_edge_lengths *e)
{
    free(e->edges);
    free(e->length);
    *e = (cli_edge_lengths){0};
}

drape_result cli_case_metrics_measure(const drape_scene *s, const cli_edge_lengths *edges,
                                      cli_case_metrics *out, char *why, size_t why_size)
{
    drape_world *w = drape_scene_world(s);
    drape_diagnostics d;
    drape_result r = drape_world_get_diagnostics(w, &d);
    if (r != DRAPE_OK) {
        snprintf(why, why_size, "cannot read the diagnostics: %s", drape_result_string(r));
        return r;
    }
    uint32_t n = 0;
    drape_vec3 *x = NULL;
    r = read_positions(s, &x, &n);
    if (r != DRAPE_OK) {
        snprintf(why, why_size, "cannot read the positions back: %s", drape_result_string(r));
        return r;
    }
    *out = (cli_case_metrics){.kinetic_energy = d.kinetic_energy,
                              .distance_residual = d.distance_residual};
    for (uint32_t i = 0; i < n; ++i)
        if (!isfinite(x[i].x) || !isfinite(x[i].y) || !isfinite(x[i].z)) {
            snprintf(why, why_size, "the state is not finite: particle %u is at (%g, %g, %g)", i,
                     (double)x[i].x, (double)x[i].y, (double)x[i].z);
            free(x);
            return DRAPE_ERROR_NON_FINITE;
        }
    for (uint32_t k = 0; k < edges->count; ++k) {
        double strain = fabs(
            edge_length(x, edges->edges[2 * k], edges->edges[2 * k + 1]) / edges->length[k] - 1.0);
        out->max_strain = fmax(out->max_strain, strain);
    }
    const uint32_t colliders = drape_world_collider_count(w);
    for (uint32_t c = 0; c < colliders && r == DRAPE_OK; ++c)
        for (uint32_t i = 0; i < n && r == DRAPE_OK; ++i) {
            float distance = 0.0f;
            r = drape_world_collider_distance(w, c, x[i], &distance);
            out->max_penetration = fmax(out->max_penetration, -(double)distance);
        }
    free(x);
    if (r != DRAPE_OK) {
        snprintf(why, why_size, "cannot measure penetration: %s", drape_result_string(r));
        return r;
    }
    const struct {
        const char *name;
        double value;
    } checks[] = {{"the kinetic energy", out->kinetic_energy},
                  {"the distance residual", out->distance_residual},
                  {"the strain", out->max_strain},
                  {"the penetration", out->max_penetration}};
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; ++k)
        if (!isfinite(checks[k].value)) {
            snprintf(why, why_size, "the state is not finite: %s is %g", checks[k].name,
                     checks[k].value);
            return DRAPE_ERROR_NON_FINITE;
        }
    return DRAPE_OK;
}

/* The viewer's topology of a world (topology.h).
 *
 * Lines are the world's distance constraints (drape_world_get_distances), so that whatever a scene
 * holds is drawn as the solver sees it. Lines with no end on a triangle (ropes, chains, a loose
 * triangle of particles) are sorted first: outside the skeleton view they are the only lines drawn.
 * Spheres are the particles on no triangle and the loose particles (in no object), less the inert
 * ones, a tearing cloth's spares until a split uses them (viz_topology_spheres). A sphere's
 * radius is a third of its shortest line, so that a chain's beads do not overlap; a particle with
 * no line is drawn at its contact radius (drape_world_get_radii: a ball is as large as the solver
 * makes it), or 4 cm when it has none.
 */
#include "topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void viz_topology_free(viz_topology *t)
{
    free(t->triangles);
    free(t->edges);
    free(t->edge_rest);
    free(t->neighbour_offsets);
    free(t->neighbours);
    free(t->neighbour_rest);
    free(t->spheres);
    free(t->colors);
    free(t->role);
    memset(t, 0, sizeof *t);
}

void viz_topology_spheres(viz_topology *t)
{
    const uint32_t n = t->particle_count;
    uint8_t *on = calloc((size_t)n + 1, 1);
    if (!on) { /* keep the spheres as they were */
        fprintf(stderr, "drape-view: no memory to sort the spheres anew\n");
        return;
    }
    /* on[p]: bit 0 on a triangle, bit 1 coloured (not inert, or given a neighbour's colour);
     * a few sweeps reach an inert particle whose triangles' other vertices are inert too */
    for (uint32_t p = 0; p < n; ++p)
        on[p] = t->role[p] & VIZ_INERT ? 0 : 2;
    for (int sweep = 0; sweep < 4; ++sweep)
        for (uint32_t k = 0; k < t->triangle_count; ++k) {
            const uint32_t *tri = &t->triangles[3 * (size_t)k];
            if (tri[0] >= n || tri[1] >= n || tri[2] >= n)
                continue;
            for (int c = 0; c < 3; ++c) {
                const uint32_t p = tri[c];
                on[p] |= 1;
                for (int f = 1; f < 3 && !(on[p] & 2); ++f) {
                    const uint32_t from = tri[(c + f) % 3];
                    if (on[from] & 2) {
                        memcpy(&t->colors[4 * (size_t)p], &t->colors[4 * (size_t)from],
                               3 * sizeof(float));
                        on[p] |= 2;
                    }
                }
            }
        }
    t->sphere_count = 0;
    for (uint32_t p = 0; p < n; ++p)
        if ((!(on[p] & 1) || !(t->role[p] & VIZ_IN_OBJECT)) && !(t->role[p] & VIZ_INERT))
            t->spheres[t->sphere_count++] = p;
    free(on);
}

void viz_object_color(int k, float rgb[3])
{
    /* hues 24, 126, 235, 315, 50, 275, 0, 90 degrees; loose particles cyan, 185 */
    static const float palette[8][3] = {
        {0.92f, 0.45f, 0.13f}, {0.25f, 0.75f, 0.30f}, {0.35f, 0.40f, 0.95f}, {0.85f, 0.25f, 0.70f},
        {0.92f, 0.78f, 0.15f}, {0.62f, 0.30f, 0.90f}, {0.90f, 0.22f, 0.22f}, {0.55f, 0.85f, 0.20f},
    };
    static const float loose[3] = {0.15f, 0.80f, 0.85f};
    memcpy(rgb, k < 0 ? loose : palette[k % 8], 3 * sizeof *rgb);
}

/* Neighbour lists: a counting sort of both ends of every edge. */
static bool neighbours(viz_topology *t)
{
    const uint32_t n = t->particle_count;
    uint32_t *o = t->neighbour_offsets;
    for (size_t k = 0; k < 2 * (size_t)t->edge_count; ++k)
        o[t->edges[k] + 1]++;
    for (uint32_t p = 0; p < n; ++p)
        o[p + 1] += o[p];
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!fill)
        return false;
    memcpy(fill, o, ((size_t)n + 1) * sizeof *fill);
    for (size_t k = 0; k < t->edge_count; ++k) {
        uint32_t a = t->edges[2 * k], b = t->edges[2 * k + 1];
        t->neighbours[fill[a]] = b;
        t->neighbour_rest[fill[a]++] = t->edge_rest[k];
        t->neighbours[fill[b]] = a;
        t->neighbour_rest[fill[b]++] = t->edge_rest[k];
    }
    free(fill);
    return true;
}

bool viz_topology_build(viz_topology *t, const drape_scene *scene)
{
    memset(t, 0, sizeof *t);
    const drape_world *w = drape_scene_world(scene);
    const uint32_t n = drape_world_particle_count(w);
    const uint32_t edges = drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE);
    uint32_t triangles = 0;
    const uint32_t *tri = drape_scene_triangles(scene, &triangles);
    t->particle_count = n;
    t->triangle_count = triangles;
    t->edge_count = edges;
    t->triangles = malloc(3 * (size_t)triangles * sizeof *t->triangles + 1);
    t->edges = malloc(2 * (size_t)edges * sizeof *t->edges + 1);
    t->edge_rest = malloc((size_t)edges * sizeof *t->edge_rest + 1);
    t->neighbour_offsets = calloc((size_t)n + 1, sizeof *t->neighbour_offsets);
    t->neighbours = malloc(2 * (size_t)edges * sizeof *t->neighbours + 1);
    t->neighbour_rest = malloc(2 * (size_t)edges * sizeof *t->neighbour_rest + 1);
    t->spheres = malloc((size_t)n * sizeof *t->spheres + 1);
    t->colors = malloc(4 * (size_t)n * sizeof *t->colors + 1);
    t->role = calloc((size_t)n + 1, 1);
    drape_distance_def *d = malloc((size_t)edges * sizeof *d + 1);
    uint8_t *surface = calloc((size_t)n + 1, 1);
    float *radii = malloc((size_t)n * sizeof *radii + 1),
          *masses = malloc((size_t)n * sizeof *masses + 1);
    bool ok = t->triangles && t->edges && t->edge_rest && t->neighbour_offsets && t->neighbours &&
              t->neighbour_rest && t->spheres && t->colors && t->role && d && surface && radii &&
              masses;
    if (!ok)
        fprintf(stderr, "drape-view: no memory for the topology of %u particles\n", n);
    if (ok && (drape_world_get_distances(w, 0, edges, d) != DRAPE_OK ||
               drape_world_get_radii(w, 0, n, radii) != DRAPE_OK ||
               drape_world_get_masses(w, 0, n, masses) != DRAPE_OK)) {
        fprintf(stderr, "drape-view: cannot read the world's distance constraints or particle "
                        "radii or masses (see above)\n");
        ok = false;
    }
    if (ok) {
        if (triangles)
            memcpy(t->triangles, tri, 3 * (size_t)triangles * sizeof *tri);
        for (size_t k = 0; k < 3 * (size_t)triangles; ++k)
            surface[tri[k]] = 1;
        /* free lines first, then the rest, each in creation order (surface[p] bit 0: on a
         * triangle; bit 1, set below: in an object) */
        uint32_t e = 0;
        for (int pass = 0; pass < 2; ++pass)
            for (uint32_t k = 0; k < edges; ++k) {
                const bool on_surface = (surface[d[k].a] | surface[d[k].b]) & 1;
                if (on_surface != (pass == 1))
                    continue;
                t->edges[2 * e] = d[k].a;
                t->edges[2 * e + 1] = d[k].b;
                t->edge_rest[e++] = d[k].rest_length;
                t->free_edge_count += pass == 0;
            }
        /* colours by object, loose particles in their own (and always as spheres) */
        for (uint32_t p = 0; p < n; ++p)
            viz_object_color(-1, &t->colors[4 * (size_t)p]);
        drape_scene_object o;
        for (uint32_t k = 0; drape_scene_get_object(scene, k, &o); ++k) {
            const uint32_t end =
                o.first_particle + o.particle_count < n ? o.first_particle + o.particle_count : n;
            for (uint32_t p = o.first_particle; p < end; ++p) {
                viz_object_color((int)k, &t->colors[4 * (size_t)p]);
                surface[p] |= 2; /* in an object */
                t->role[p] = VIZ_IN_OBJECT;
            }
        }
        /* inert: in no object, pinned, no radius, on no triangle and no line */
        for (uint32_t p = 0; p < n; ++p)
            t->role[p] |=
                surface[p] == 0 && masses[p] == 0.0f && !(radii[p] > 0.0f) ? VIZ_INERT : 0;
        for (uint32_t k = 0; k < edges; ++k)
            for (int end = 0; end < 2; ++end) {
                const uint32_t p = end ? d[k].b : d[k].a;
                if (p < n)
                    t->role[p] &= (uint8_t)~VIZ_INERT;
            }
        /* spheres: particles on no triangle, a third of their shortest line across, or with no
         * line their contact radius (else 4 cm) */
        for (uint32_t p = 0; p < n; ++p)
            t->colors[4 * (size_t)p + 3] = INFINITY;
        for (uint32_t k = 0; k < t->free_edge_count; ++k)
            for (int end = 0; end < 2; ++end) {
                float *r = &t->colors[4 * (size_t)t->edges[2 * k + end] + 3];
                *r = fminf(*r, t->edge_rest[k] / 3.0f);
            }
        for (uint32_t p = 0; p < n; ++p) {
            float *r = &t->colors[4 * (size_t)p + 3];
            *r = isfinite(*r) && *r > 0.0f ? *r : radii[p] > 0.0f ? radii[p] : 0.04f;
        }
        viz_topology_spheres(t);
        ok = neighbours(t);
        if (!ok)
            fprintf(stderr, "drape-view: no memory for the neighbour lists\n");
    }
    free(d);
    free(surface);
    free(radii);
    free(masses);
    if (!ok)
        viz_topology_free(t);
    return ok;
}

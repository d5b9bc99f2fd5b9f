/* The cloth grid's triangles, skeleton lines and neighbour lists (topology.h).
 *
 * Quad (i, j) is split along its (i, j)-(i+1, j+1) diagonal, as the builder's dihedral hinges are,
 * into (00, 11, 10) and (00, 01, 11): counter-clockwise seen from the side v x u points to, the top
 * of a cloth with u = +x and v = +z. Lines: every structural neighbour pair and
 * both diagonals of every quad (the builder's stretch and shear constraints); rest lengths are the
 * grid spacings, as the builder takes them from the initial positions.
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
    memset(t, 0, sizeof *t);
}

static float length3(drape_vec3 a, float s, drape_vec3 b, float t)
{
    float x = a.x * s + b.x * t, y = a.y * s + b.y * t, z = a.z * s + b.z * t;
    return sqrtf(x * x + y * y + z * z);
}

bool viz_topology_grid(viz_topology *t, const drape_cloth_def *d, uint32_t first,
                       uint32_t particle_count)
{
    memset(t, 0, sizeof *t);
    const uint32_t nx = d->nx, ny = d->ny;
    const size_t quads = (size_t)(nx - 1) * (ny - 1);
    const size_t edges = (size_t)(nx - 1) * ny + (size_t)nx * (ny - 1) + 2 * quads;
    t->particle_count = particle_count;
    t->triangle_count = (uint32_t)(2 * quads);
    t->edge_count = (uint32_t)edges;
    t->triangles = malloc(6 * quads * sizeof *t->triangles);
    t->edges = malloc(2 * edges * sizeof *t->edges);
    t->edge_rest = malloc(edges * sizeof *t->edge_rest);
    t->neighbour_offsets = calloc((size_t)particle_count + 1, sizeof *t->neighbour_offsets);
    t->neighbours = malloc(2 * edges * sizeof *t->neighbours);
    t->neighbour_rest = malloc(2 * edges * sizeof *t->neighbour_rest);
    if (!t->triangles || !t->edges || !t->edge_rest || !t->neighbour_offsets || !t->neighbours ||
        !t->neighbour_rest) {
        fprintf(stderr, "drape-view: no memory for the topology of a %u x %u cloth\n", nx, ny);
        viz_topology_free(t);
        return false;
    }
#define P(i, j) (first + (uint32_t)(j) * nx + (uint32_t)(i))
    uint32_t *tri = t->triangles;
    for (uint32_t j = 0; j + 1 < ny; ++j)
        for (uint32_t i = 0; i + 1 < nx; ++i) {
            const uint32_t q[6] = {P(i, j), P(i + 1, j + 1), P(i + 1, j),
                                   P(i, j), P(i, j + 1),     P(i + 1, j + 1)};
            memcpy(tri, q, sizeof q);
            tri += 6;
        }
    const float du = 1.0f / (float)(nx - 1), dv = 1.0f / (float)(ny - 1);
    const float lu = length3(d->u_axis, du, d->v_axis, 0.0f);
    const float lv = length3(d->u_axis, 0.0f, d->v_axis, dv);
    const float ld1 = length3(d->u_axis, du, d->v_axis, dv);  /* (i, j)-(i+1, j+1) */
    const float ld2 = length3(d->u_axis, -du, d->v_axis, dv); /* (i+1, j)-(i, j+1) */
    size_t e = 0;
    for (uint32_t j = 0; j < ny; ++j)
        for (uint32_t i = 0; i < nx; ++i) {
            struct { int ok; uint32_t a, b; float rest; } cand[4] = {
                {i + 1 < nx, P(i, j), P(i + 1, j), lu},
                {j + 1 < ny, P(i, j), P(i, j + 1), lv},
                {i + 1 < nx && j + 1 < ny, P(i, j), P(i + 1, j + 1), ld1},
                {i + 1 < nx && j + 1 < ny, P(i + 1, j), P(i, j + 1), ld2},
            };
            for (int k = 0; k < 4; ++k)
                if (cand[k].ok) {
                    t->edges[2 * e] = cand[k].a;
                    t->edges[2 * e + 1] = cand[k].b;
                    t->edge_rest[e++] = cand[k].rest;
                }
        }
#undef P
    /* Neighbour lists: a counting sort of both ends of every edge. */
    uint32_t *o = t->neighbour_offsets;
    for (size_t k = 0; k < 2 * edges; ++k)
        o[t->edges[k] + 1]++;
    for (uint32_t p = 0; p < particle_count; ++p)
        o[p + 1] += o[p];
    uint32_t *fill = malloc(((size_t)particle_count + 1) * sizeof *fill);
    if (!fill) {
        fprintf(stderr, "drape-view: no memory for the neighbour lists\n");
        viz_topology_free(t);
        return false;
    }
    memcpy(fill, o, ((size_t)particle_count + 1) * sizeof *fill);
    for (size_t k = 0; k < edges; ++k) {
        uint32_t a = t->edges[2 * k], b = t->edges[2 * k + 1];
        t->neighbours[fill[a]] = b;
        t->neighbour_rest[fill[a]++] = t->edge_rest[k];
        t->neighbours[fill[b]] = a;
        t->neighbour_rest[fill[b]++] = t->edge_rest[k];
    }
    free(fill);
    return true;
}

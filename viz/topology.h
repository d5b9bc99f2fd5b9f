/* What the viewer draws over a cloth grid, made on the host once per scene: the triangles (handed to
 * drape_world_set_triangles and used as the element buffer), the skeleton's lines (structural and
 * shear constraints, with rest lengths) and, per particle, its line neighbours (CSR) for the
 * per-vertex strain of the stress colouring. The world's public API does not list constraint
 * endpoints, so they are rebuilt here from the grid, as host/builders.c lays them out. */
#ifndef VIZ_TOPOLOGY_H
#define VIZ_TOPOLOGY_H

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct viz_topology {
    uint32_t particle_count;    /* particles of the world covered: every index is below it */
    uint32_t triangle_count;
    uint32_t *triangles;        /* 3 * triangle_count, counter-clockwise seen from the front */
    uint32_t edge_count;
    uint32_t *edges;            /* 2 * edge_count particle indices */
    float *edge_rest;           /* rest length of each edge, m */
    uint32_t *neighbour_offsets; /* particle_count + 1: particle p's neighbours are [o[p], o[p+1]) */
    uint32_t *neighbours;       /* 2 * edge_count particle indices */
    float *neighbour_rest;      /* the rest length of each of those pairs, m */
} viz_topology;

/* The topology of cloth `def` built as particles first .. first + nx * ny - 1 of a world of
 * `particle_count` particles. Its front faces v_axis x u_axis: up for the default horizontal cloth
 * (u = +x, v = +z). False when out of memory (with a message). */
bool viz_topology_grid(viz_topology *out, const drape_cloth_def *def, uint32_t first,
                       uint32_t particle_count);
void viz_topology_free(viz_topology *t);

#endif

/* What the viewer draws over a world, made on the host once per world from what the world and its
 * scene report (no scene is special-cased): the surface triangles (the scene's cloth
 * triangulations, meshes and own triangles), every distance constraint as a line with its rest
 * length, the particles on no triangle (ropes) and the loose particles (in no object) to draw as
 * spheres, each particle's colour (its object's) and sphere radius, and per particle its line
 * neighbours (CSR) for the per-vertex strain of the stress colouring. */
#ifndef VIZ_TOPOLOGY_H
#define VIZ_TOPOLOGY_H

#include <drape/scene.h>

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct viz_topology {
    uint32_t particle_count; /* particles of the world covered: every index is below it */
    uint32_t triangle_count;
    uint32_t *triangles;      /* 3 * triangle_count */
    uint32_t edge_count;      /* every distance constraint */
    uint32_t free_edge_count; /* the first free_edge_count edges touch no triangle (ropes) */
    uint32_t *edges;          /* 2 * edge_count particle indices */
    float *edge_rest;         /* rest length of each edge, m */
    uint32_t
        *neighbour_offsets; /* particle_count + 1: particle p's neighbours are [o[p], o[p+1]) */
    uint32_t *neighbours;   /* 2 * edge_count particle indices */
    float *neighbour_rest;  /* the rest length of each of those pairs, m */
    uint32_t sphere_count;
    uint32_t *spheres; /* the particles on no triangle, and the loose ones (in no object) */
    float *colors;     /* 4 per particle: its object's colour (RGB) and sphere radius (m) */
    uint8_t *role;     /* per particle: VIZ_IN_OBJECT, VIZ_INERT */
} viz_topology;

/* viz_topology.role: the particle is in an object; it was inert when the topology was built (in no
 * object, pinned, with no contact radius, on no triangle and no distance constraint: nothing in
 * the world moves it or is moved by it; a tearing cloth keeps its spares so until a split uses one
 * as a copy). */
enum { VIZ_IN_OBJECT = 1, VIZ_INERT = 2 };

/* The topology of the scene's world now. False when out of memory or the world cannot be read
 * (with a message). */
bool viz_topology_build(viz_topology *out, const drape_scene *scene);
void viz_topology_free(viz_topology *t);
/* The spheres again from the triangles now (after a tear moved some to the copies of split
 * particles): the particles on no triangle or in no object, less the inert ones (VIZ_INERT: a
 * tearing cloth's spares, drawn once a split puts them on the cloth's triangles). An inert
 * particle on a triangle takes the colour of a vertex of it that is not. */
void viz_topology_spheres(viz_topology *t);

/* The colour of object k of a scene (k = -1: loose particles); distinct hues, so that a test can
 * tell objects apart in a picture. */
void viz_object_color(int k, float rgb[3]);

#endif

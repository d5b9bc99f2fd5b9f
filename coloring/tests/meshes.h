/* Constraint sets and the meshes they come from, shared by the colouring tests and the benchmark:
 * cloth grids with springs in the order the world's cloth builder uses, triangle meshes (regular
 * grid, irregular grid, disc) with their edges and dihedral bending constraints, and random
 * constraint graphs. Generators abort on allocation failure: they are test fixtures. */
#ifndef DRAPE_COLORING_TEST_MESHES_H
#define DRAPE_COLORING_TEST_MESHES_H

#include "drape_coloring.h"

#include <stdint.h>

/* splitmix64, for reproducible fixtures. */
typedef struct test_rng {
    uint64_t state;
} test_rng;

uint64_t test_rng_next(test_rng *rng);
uint32_t test_rng_below(test_rng *rng, uint32_t range); /* [0, range) */
double test_rng_unit(test_rng *rng);                    /* [0, 1) */

/* A growable array of constraints of one arity. */
typedef struct cset {
    uint32_t *indices;
    uint32_t arity;
    uint32_t count;
    uint32_t capacity;
} cset;

void cset_init(cset *set, uint32_t arity);
void cset_add(cset *set, const uint32_t *particles);
void cset_free(cset *set);

/* Spring families of a cloth grid. */
enum {
    GRID_STRUCTURAL = 1,
    GRID_SHEAR = 2,
    GRID_BEND = 4, /* skip-one springs */
};

/* The springs of an nx x ny grid, particle (i, j) = j * nx + i, in the cloth builder's order (see
 * drape_coloring.h): one pass over the grid per spring direction, each pass row by row (j outer,
 * i inner), each spring only where both of its particles exist:
 *   structural  (i,j)-(i+1,j);  (i,j)-(i,j+1)
 *   shear       (i,j)-(i+1,j+1);  (i+1,j)-(i,j+1)
 *   bending     (i,j)-(i+2,j);  (i,j)-(i,j+2) */
void grid_springs(cset *out, uint32_t nx, uint32_t ny, unsigned families);

/* The same springs in one pass, all directions of a cell together (for j, for i: the six
 * directions above). First-fit in this order misses the bound with bending (13, not 12). */
void grid_springs_interleaved(cset *out, uint32_t nx, uint32_t ny, unsigned families);

/* The dihedral bending constraints (edge0, edge1, wing0, wing1) of an nx x ny grid split along
 * (i,j)-(i+1,j+1), in the cloth builder's order (see drape_coloring.h): three passes, each row by
 * row, over the interior edges of one direction:
 *   diagonal    (i,j)-(i+1,j+1)                 wings (i,j+1) and (i+1,j)
 *   vertical    (i,j)-(i,j+1),   0 < i < nx-1   wings (i-1,j) and (i+1,j+1)
 *   horizontal  (i,j)-(i+1,j),   0 < j < ny-1   wings (i+1,j+1) and (i,j-1)
 * with the vertical pass before the horizontal one when nx >= ny, after it otherwise. */
void grid_dihedrals(cset *out, uint32_t nx, uint32_t ny);

/* Triangles, counter-clockwise, three particle indices each. */
typedef struct tri_mesh {
    uint32_t particle_count;
    uint32_t *triangles;
    uint32_t count;
} tri_mesh;

void tri_mesh_free(tri_mesh *mesh);

/* An nx x ny grid of quads split along the (i,j)-(i+1,j+1) diagonal. */
void grid_triangles(tri_mesh *out, uint32_t nx, uint32_t ny);

/* An irregular mesh: a grid whose quads are split along a random diagonal, with each triangle then
 * removed with probability `hole` (leaving holes, dangling triangles and bow-tie vertices). */
void irregular_triangles(tri_mesh *out, uint32_t nx, uint32_t ny, double hole, test_rng *rng);

/* A disc: a centre particle and `rings` rings around it, ring r holding r * spokes particles,
 * consecutive rings joined by a strip of triangles; the centre has `spokes` triangles. */
void disc_triangles(tri_mesh *out, uint32_t rings, uint32_t spokes);

/* The edges of a mesh as distance constraints, sorted by (lower index, higher index). */
void mesh_edges(cset *out, const tri_mesh *mesh);

/* One dihedral bending constraint (edge0, edge1, wing0, wing1) per edge shared by two triangles,
 * edge0 < edge1, sorted by (edge0, edge1): triangle (edge0, edge1, wing0) and (edge1, edge0, wing1)
 * are the two counter-clockwise triangles on the edge. On grid_triangles this is the natural grid
 * order: for each particle, its edges to (i+1,j), (i,j+1), (i+1,j+1). */
void mesh_dihedrals(cset *out, const tri_mesh *mesh);

/* `count` random constraints stored with arity `arity`: each takes 1 .. arity random particles
 * (possibly repeated) in random slots, the other slots DRAPE_NO_PARTICLE. */
void random_constraints(cset *out, uint32_t particle_count, uint32_t count, uint32_t arity,
                        test_rng *rng);

/* particle_count flags, all movable (1); free with free(). */
uint8_t *movable_all(uint32_t particle_count);
/* Pins (sets 0) the particles of an nx x ny grid that drape_cloth_pin flags name. */
void pin_cloth(uint8_t *movable, uint32_t nx, uint32_t ny, uint32_t pins);
/* Pins (sets 0) each particle with probability `probability`. */
void pin_random(uint8_t *movable, uint32_t particle_count, double probability, test_rng *rng);

/* Every colouring order, for the loops over them. */
#define COLOR_ORDER_COUNT 3
extern const drape_color_order color_orders[COLOR_ORDER_COUNT];

drape_color_input color_input(const cset *set, const uint8_t *movable, uint32_t particle_count,
                              drape_color_order order, uint64_t seed, bool balance);

#endif

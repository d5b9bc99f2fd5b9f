/* Greedy graph colouring of a constraint graph, with no dependency on OpenCL or on the world.
 *
 * Two constraints conflict when they share a movable particle; pinned particles (inverse mass 0)
 * never move, so constraints may share them within a colour (Box2D v3 treats static bodies the same
 * way). A colouring lets every colour be projected in parallel with no races, and fixes the
 * Gauss-Seidel order so that it is the same on every backend.
 * Reference: Fratarcangeli & Pellacini, "Towards a Massively Parallel Solver for Position Based
 * Dynamics", SIGRAD 2014.
 *
 * The colouring is greedy first-fit: each constraint, in the chosen order, takes the lowest colour
 * that no earlier constraint sharing a movable particle holds. It never needs more than the most
 * conflicts of one constraint + 1 colours, and never fewer than the lower bound (the most
 * constraints on one movable particle). It costs O(count * arity + particle_count) time for up to
 * 64 colours (times ceil(colours / 64) beyond): on one core, 6.3 million constraints take about
 * 0.1 s in natural order and 0.7 s in random order with balancing (coloring/README.md). The output
 * depends only on the input: the same input gives the same colouring on every platform.
 *
 * Cloth builders: natural first-fit reaches the lower bound on a regular nx x ny grid (nx, ny >= 5,
 * particle (i, j) = j * nx + i, free or pinned by any drape_cloth_pin flags) when the constraints
 * come in this order (pins scattered inside the cloth can cost up to 3 more colours):
 *
 *   distance springs, one pass over the grid per direction, each pass row by row (j outer,
 *   i inner), each spring only where both particles exist:
 *     1. (i,j)-(i+1,j)    2. (i,j)-(i,j+1)                 structural         -> 4 colours
 *     3. (i,j)-(i+1,j+1)  4. (i+1,j)-(i,j+1)               + shear            -> 8 colours
 *     5. (i,j)-(i+2,j)    6. (i,j)-(i,j+2)                 + skip-one bending -> 12 colours
 *   Putting all springs of a cell together in one pass costs a 13th colour with bending.
 *
 *   dihedral bending (quads split along (i,j)-(i+1,j+1)), as (edge0, edge1, wing0, wing1), three
 *   passes row by row over the interior edges of one direction:
 *     1. diagonal    (i,j)-(i+1,j+1), wings (i,j+1), (i+1,j)
 *     2. vertical    (i,j)-(i,j+1) for 0 < i < nx-1, wings (i-1,j), (i+1,j+1)
 *     3. horizontal  (i,j)-(i+1,j) for 0 < j < ny-1, wings (i+1,j+1), (i,j-1)
 *   with passes 2 and 3 swapped when nx < ny                                 -> 12 colours
 *   All edges of a particle together (sorted by edge) take 14 colours.
 *
 * coloring/tests/meshes.c generates exactly these orders and coloring/tests/test_grids.c holds the
 * bounds to them.
 */
#ifndef DRAPE_COLORING_H
#define DRAPE_COLORING_H

#include <drape/drape.h>
#include <stddef.h>
#include <stdint.h>

/* A slot of a constraint that holds this value is unused: constraints of smaller arity can share
 * one array with larger ones. */
#define DRAPE_NO_PARTICLE UINT32_MAX

typedef struct drape_color_input {
    const uint32_t
        *indices;   /* arity * count particle indices, constraint c at [c*arity, c*arity+arity) */
    uint32_t arity; /* 1 .. 8 */
    uint32_t count; /* constraints */
    const uint8_t *movable; /* particle_count flags: 0 = pinned (creates no conflict) */
    uint32_t particle_count;
    drape_color_order order;
    uint64_t seed; /* for DRAPE_COLOR_ORDER_RANDOM: same seed, same order everywhere */
    bool balance;  /* run the balancing pass (never adds colours) */
} drape_color_input;

/* Both arrays come from malloc and are never NULL after success (even with no constraints); a
 * caller may take one over (set the field to NULL) and release it with free(). Within a colour the
 * constraints keep their input order. */
typedef struct drape_coloring {
    uint32_t *order; /* count entries: position k of the coloured order holds constraint order[k] */
    uint32_t *offsets; /* stats.colors + 1 entries: colour c is order[offsets[c] .. offsets[c+1]) */
    drape_coloring_stats stats;
} drape_coloring;

/* Colours the constraints. On success *out owns its arrays (free with drape_coloring_free).
 * Returns DRAPE_ERROR_INVALID_ARGUMENT for a bad input (in or out NULL, arity outside 1 .. 8, an
 * order that is not a drape_color_order, indices NULL with count > 0, movable NULL with count > 0
 * and particle_count > 0, an index >= particle_count that is not DRAPE_NO_PARTICLE) and
 * DRAPE_ERROR_OUT_OF_MEMORY; *out is then zeroed (unless out is NULL) and nothing is leaked.
 * A particle listed twice in one constraint counts once; a constraint with no movable particle
 * conflicts with nothing (first-fit gives it colour 0). count = 0 gives 0 colours, offsets {0}. */
drape_result drape_color_constraints(const drape_color_input *in, drape_coloring *out);
void drape_coloring_free(drape_coloring *coloring);

#endif

/* Greedy graph colouring of a constraint graph, with no dependency on OpenCL or on the world.
 *
 * Two constraints conflict when they share a movable particle; pinned particles (inverse mass 0)
 * never move, so constraints may share them within a colour (Box2D v3 treats static bodies the same
 * way). A colouring lets every colour be projected in parallel with no races, and fixes the
 * Gauss-Seidel order so that it is the same on every backend.
 * Reference: Fratarcangeli & Pellacini, "Towards a Massively Parallel Solver for Position Based
 * Dynamics", SIGRAD 2014.
 */
#ifndef DRAPE_COLORING_H
#define DRAPE_COLORING_H

#include <drape/drape.h>
#include <stddef.h>
#include <stdint.h>

/* A slot of a constraint that holds this value is unused: constraints of smaller arity can share one
 * array with larger ones. */
#define DRAPE_NO_PARTICLE UINT32_MAX

typedef struct drape_color_input {
    const uint32_t *indices; /* arity * count particle indices, constraint c at [c*arity, c*arity+arity) */
    uint32_t arity;          /* 1 .. 8 */
    uint32_t count;          /* constraints */
    const uint8_t *movable;  /* particle_count flags: 0 = pinned (creates no conflict) */
    uint32_t particle_count;
    drape_color_order order;
    uint64_t seed;           /* for DRAPE_COLOR_ORDER_RANDOM */
    bool balance;            /* run the balancing pass (never adds colours) */
} drape_color_input;

typedef struct drape_coloring {
    uint32_t *order;   /* count entries: position k of the coloured order holds constraint order[k] */
    uint32_t *offsets; /* stats.colors + 1 entries: colour c is order[offsets[c] .. offsets[c+1]) */
    drape_coloring_stats stats;
} drape_coloring;

/* Colours the constraints. On success *out owns its arrays (free with drape_coloring_free).
 * Returns DRAPE_ERROR_INVALID_ARGUMENT for a bad input (arity, an index >= particle_count that is
 * not DRAPE_NO_PARTICLE) and DRAPE_ERROR_OUT_OF_MEMORY; *out is then zeroed. */
drape_result drape_color_constraints(const drape_color_input *in, drape_coloring *out);
void drape_coloring_free(drape_coloring *coloring);

#endif

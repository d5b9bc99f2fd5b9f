/* Independent groups of particles, for a projection with one work-group per cloth
 * (host/partition.c).
 */
#ifndef DRAPE_PARTITION_H
#define DRAPE_PARTITION_H

#include "world_internal.h"

/* A group takes particles until it holds at least this many: tiny cloths, ropes and loose particles
 * share a work-group rather than each taking one that would sit mostly idle. */
#define DR_PARTITION_MIN_PARTICLES 64u

/* The particles cut into contiguous ranges that no constraint crosses, and each solver set's
 * colours cut by those ranges. */
typedef struct dr_partition {
    uint32_t groups; /* 0 with no particles */
    uint32_t *first; /* groups + 1 entries: group g holds particles [first[g], first[g + 1]) */
    /* per type, colors * (groups + 1) entries: group g's constraints of colour c are the slots
     * [r[c * (groups + 1) + g], r[c * (groups + 1) + g + 1]) of the solver set */
    uint32_t *ranges[DRAPE_CONSTRAINT_TYPE_COUNT];
    uint32_t largest;       /* the most constraints, all types together, of one group */
    uint32_t widest;        /* the most constraints of one colour of one type in one group */
    uint32_t largest_group; /* the most particles of one group */
} dr_partition;

/* Builds *p for the world's solver sets (as dr_world_prepare left them), reordering each colour of
 * each set by group (stable); bit t of *reordered is set when set t's order changed (its slot_of
 * follows). The reorder changes no result: the constraints of a colour share no movable particle,
 * so every backend may project them in any order. Returns DRAPE_ERROR_OUT_OF_MEMORY (and leaves *p
 * empty, the sets as they were) when the scratch cannot be had. */
drape_result dr_partition_build(drape_world *w, dr_partition *p, unsigned *reordered);
void dr_partition_free(dr_partition *p);

#endif

/* What the files of the colouring library share, and nothing else: the constraint graph as the
 * caller gave it, the per-particle colour masks, and the allocation wrappers.
 *
 * The graph is never built as constraint-constraint adjacency. Every question the colouring asks
 * ("which colours do the neighbours of this constraint hold?") is answered from the particles: in a
 * valid colouring each movable particle meets at most one constraint of each colour, so the set of
 * colours around a constraint is the union of one bit mask per particle. Colours are handled 64 at
 * a time (a "window"), one uint64_t per particle; Box2D v3 keeps such a bit set per colour.
 */
#ifndef DRAPE_COLORING_INTERNAL_H
#define DRAPE_COLORING_INTERNAL_H

#include "drape_coloring.h"

#include <stddef.h>
#include <stdint.h>

/* Colours per window: the bits of one uint64_t mask. */
#define COLOR_WINDOW 64u
/* colors[c] of a constraint that has no colour yet. */
#define COLOR_NONE UINT32_MAX

typedef struct color_graph {
    const uint32_t *indices; /* arity * count, DRAPE_NO_PARTICLE marks an unused slot */
    const uint8_t *movable;  /* particle_count flags, 0 = pinned */
    uint32_t arity;
    uint32_t count;
    uint32_t particle_count;
} color_graph;

/* Allocation of count * size bytes (at least one byte, so that success is never NULL), NULL on
 * overflow or failure. The tests build the library with DRAPE_COLORING_ALLOC_HOOK to fail them. */
void *color_alloc(size_t count, size_t size);
void *color_calloc(size_t count, size_t size);
void color_free(void *pointer);

/* The particles of constraint c. */
static inline const uint32_t *color_constraint(const color_graph *g, uint32_t c)
{
    return g->indices + (size_t)c * g->arity;
}

/* Slot s of a constraint counts for the graph: it names a movable particle that no earlier slot of
 * the same constraint names (a particle listed twice is one incidence). */
static inline int color_slot_counts(const color_graph *g, const uint32_t *particles, uint32_t s)
{
    uint32_t p = particles[s];
    if (p == DRAPE_NO_PARTICLE || g->movable[p] == 0)
        return 0;
    for (uint32_t t = 0; t < s; ++t) {
        if (particles[t] == p)
            return 0;
    }
    return 1;
}

/* The union of the masks of a constraint's movable particles: the colours of the window that its
 * neighbours hold (and its own, when it has one in the window). A repeated particle only repeats an
 * OR, so no de-duplication is needed here. */
static inline uint64_t color_gather(const color_graph *g, const uint64_t *masks,
                                    const uint32_t *particles)
{
    uint64_t m = 0;
    for (uint32_t s = 0; s < g->arity; ++s) {
        uint32_t p = particles[s];
        if (p != DRAPE_NO_PARTICLE && g->movable[p] != 0)
            m |= masks[p];
    }
    return m;
}

/* Sets (value 1) or clears (value 0) `bit` in the masks of a constraint's movable particles. */
static inline void color_scatter(const color_graph *g, uint64_t *masks, const uint32_t *particles,
                                 uint64_t bit, int value)
{
    for (uint32_t s = 0; s < g->arity; ++s) {
        uint32_t p = particles[s];
        if (p == DRAPE_NO_PARTICLE || g->movable[p] == 0)
            continue;
        masks[p] = value ? (masks[p] | bit) : (masks[p] & ~bit);
    }
}

/* Index of the lowest set bit of a non-zero mask. */
static inline uint32_t color_lowest_bit(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(m);
#else
    uint32_t b = 0;
    while ((m & 1u) == 0) {
        m >>= 1;
        ++b;
    }
    return b;
#endif
}

/* Number of bits up to and including the highest set bit (0 for 0). */
static inline uint32_t color_bit_width(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return m == 0 ? 0u : 64u - (uint32_t)__builtin_clzll(m);
#else
    uint32_t w = 0;
    while (m != 0) {
        m >>= 1;
        ++w;
    }
    return w;
#endif
}

/* The order in which first-fit visits the constraints (order.c). *out_sequence is NULL for the
 * natural order (constraint c is visited c-th), otherwise a permutation of 0 .. count-1 that the
 * caller frees with color_free. `degree` holds, per particle, the constraints on it. */
drape_result color_make_sequence(const color_graph *g, drape_color_order order, uint64_t seed,
                                 const uint32_t *degree, uint32_t **out_sequence);

/* Greedy first-fit colouring (first_fit.c): every constraint, visited in `sequence` (NULL =
 * natural; the array is used as scratch and overwritten), gets the lowest colour that none of the
 * constraints visited before it and sharing a movable particle holds. `masks` (particle_count
 * entries) must be zero on entry and is left dirty. Writes colors[count] and the colour count. */
drape_result color_first_fit(const color_graph *g, uint32_t *sequence, uint64_t *masks,
                             uint32_t *colors, uint32_t *out_color_count);

/* Balancing (balance.c): moves constraints from colours larger than ceil(count / colors) to smaller
 * ones where no neighbour holds that colour. Never adds a colour, never empties one, and keeps the
 * colouring valid. `masks` must be zero on entry and is zero again on return. */
drape_result color_balance(const color_graph *g, uint64_t *masks, uint32_t *colors,
                           uint32_t color_count);

#endif

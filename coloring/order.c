/* The order in which greedy first-fit visits the constraints.
 *
 * First-fit gives every constraint the lowest colour its already-coloured neighbours leave free, so
 * the result depends only on the visiting order (Fratarcangeli & Pellacini, "Towards a Massively
 * Parallel Solver for Position Based Dynamics", SIGRAD 2014, colour the constraint graph greedily).
 *
 * natural: creation order. On a cloth grid built in the order drape_coloring.h gives, it reaches
 *   the lower bound.
 * largest-first: Welsh & Powell (1967), the constraints with the most conflicts first. The degree
 *   is the incidence degree: the sum over the constraint's movable particles of the other
 *   constraints on that particle, capped at count - 1, so a neighbour that shares two particles
 *   counts twice. It is exact for distance constraints without duplicates and costs O(arity) per
 *   constraint, where the exact neighbour count would need the adjacency this library never
 *   builds. Ties keep creation order.
 * random: a Fisher-Yates shuffle driven by splitmix64 (Steele, Lea, Flood, "Fast splittable
 *   pseudorandom number generators", OOPSLA 2014) seeded by the caller; the same seed gives the
 *   same order on every platform.
 */
#include "coloring_internal.h"

typedef struct splitmix64 {
    uint64_t state;
} splitmix64;

static uint64_t splitmix64_next(splitmix64 *rng)
{
    uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A value in [0, range), range <= 2^32, by multiplying 32 random bits (Lemire's method without the
 * rejection step: the bias is below range / 2^32 and the result is reproducible). */
static uint32_t splitmix64_below(splitmix64 *rng, uint64_t range)
{
    return (uint32_t)(((splitmix64_next(rng) >> 32) * range) >> 32);
}

static void shuffle(uint32_t *sequence, uint32_t count, uint64_t seed)
{
    splitmix64 rng = {seed};
    for (uint32_t i = 0; i < count; ++i)
        sequence[i] = i;
    for (uint32_t i = count; i > 1; --i) {
        uint32_t j = splitmix64_below(&rng, i);
        uint32_t t = sequence[i - 1];
        sequence[i - 1] = sequence[j];
        sequence[j] = t;
    }
}

static uint32_t incidence_degree(const color_graph *g, const uint32_t *degree, uint32_t c)
{
    const uint32_t *particles = color_constraint(g, c);
    uint64_t sum = 0;
    for (uint32_t s = 0; s < g->arity; ++s) {
        if (color_slot_counts(g, particles, s))
            sum += degree[particles[s]] - 1u;
    }
    uint64_t cap = g->count - 1u;
    return (uint32_t)(sum < cap ? sum : cap);
}

/* A stable counting sort on the degree, largest first: O(count) time and count + 1 buckets. */
static drape_result largest_first(const color_graph *g, const uint32_t *degree, uint32_t *sequence)
{
    uint32_t *start = color_calloc((size_t)g->count + 1u, sizeof *start);
    if (start == NULL)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    /* Bucket b holds degree count - 1 - b, so that ascending buckets are descending degrees. */
    uint32_t top = g->count - 1u;
    for (uint32_t c = 0; c < g->count; ++c)
        start[top - incidence_degree(g, degree, c) + 1u]++;
    for (uint32_t b = 0; b < g->count; ++b)
        start[b + 1u] += start[b];
    for (uint32_t c = 0; c < g->count; ++c) {
        sequence[start[top - incidence_degree(g, degree, c)]++] = c;
    }
    color_free(start);
    return DRAPE_OK;
}

drape_result color_make_sequence(const color_graph *g, drape_color_order order, uint64_t seed,
                                 const uint32_t *degree, uint32_t **out_sequence)
{
    *out_sequence = NULL;
    if (order == DRAPE_COLOR_ORDER_NATURAL || g->count == 0)
        return DRAPE_OK;
    uint32_t *sequence = color_alloc(g->count, sizeof *sequence);
    if (sequence == NULL)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    if (order == DRAPE_COLOR_ORDER_RANDOM) {
        shuffle(sequence, g->count, seed);
    } else {
        drape_result result = largest_first(g, degree, sequence);
        if (result != DRAPE_OK) {
            color_free(sequence);
            return result;
        }
    }
    *out_sequence = sequence;
    return DRAPE_OK;
}

/* drape_color_constraints: the pipeline from a constraint array to colour ranges.
 *
 *   validate -> particle degrees and the lower bound -> visiting order -> first-fit
 *            -> balancing (optional) -> counting sort of the constraints by colour
 *
 * Constraints of one colour share no movable particle, so the solver can project a colour in
 * parallel, one kernel launch per colour, in a Gauss-Seidel order that is the same on every
 * backend (Fratarcangeli & Pellacini, "Towards a Massively Parallel Solver for Position Based
 * Dynamics", SIGRAD 2014). Pinned particles never move and create no conflict.
 *
 * The lower bound: the constraints on one movable particle must all differ in colour, so no
 * colouring has fewer colours than the most constraints on one movable particle.
 *
 * Cost: O(count * arity + particle_count) time for up to 64 colours, and about 4 bytes per
 * constraint and 12 bytes per particle of scratch besides the output. Everything is deterministic:
 * the same input gives the same output on every platform.
 */
#include "coloring_internal.h"

#include <string.h>

static drape_result validate(const drape_color_input *in)
{
    if (in == NULL)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    if (in->arity < 1 || in->arity > 8)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    if (in->order != DRAPE_COLOR_ORDER_NATURAL && in->order != DRAPE_COLOR_ORDER_LARGEST_FIRST &&
        in->order != DRAPE_COLOR_ORDER_RANDOM) {
        return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    if (in->count == 0)
        return DRAPE_OK;
    if (in->indices == NULL)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    if (in->movable == NULL && in->particle_count > 0)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    if ((size_t)in->count > SIZE_MAX / sizeof(uint32_t) / in->arity) {
        return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    size_t n = (size_t)in->count * in->arity;
    for (size_t k = 0; k < n; ++k) {
        uint32_t p = in->indices[k];
        if (p != DRAPE_NO_PARTICLE && p >= in->particle_count)
            return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    return DRAPE_OK;
}

/* degree[p] = constraints on movable particle p (a particle listed twice in a constraint counts
 * once); returns the largest, the lower bound on the colour count. */
static uint32_t count_degrees(const color_graph *g, uint32_t *degree)
{
    uint32_t most = 0;
    for (uint32_t c = 0; c < g->count; ++c) {
        const uint32_t *particles = color_constraint(g, c);
        for (uint32_t s = 0; s < g->arity; ++s) {
            if (!color_slot_counts(g, particles, s))
                continue;
            uint32_t d = ++degree[particles[s]];
            if (d > most)
                most = d;
        }
    }
    return most;
}

/* Groups the constraints by colour, ascending creation order within a colour (neighbouring
 * constraints stay close in memory), and fills the statistics. */
static drape_result make_ranges(const color_graph *g, const uint32_t *colors, uint32_t color_count,
                                uint32_t lower_bound, drape_coloring *out)
{
    uint32_t *order = color_alloc(g->count, sizeof *order);
    uint32_t *offsets = color_calloc((size_t)color_count + 1u, sizeof *offsets);
    if (order == NULL || offsets == NULL) {
        color_free(order);
        color_free(offsets);
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t c = 0; c < g->count; ++c)
        offsets[colors[c] + 1u]++;
    for (uint32_t k = 0; k < color_count; ++k)
        offsets[k + 1u] += offsets[k];
    for (uint32_t c = 0; c < g->count; ++c)
        order[offsets[colors[c]]++] = c;
    /* offsets[k] now ends colour k; shift it back to where colour k starts. */
    for (uint32_t k = color_count; k > 0; --k)
        offsets[k] = offsets[k - 1u];
    offsets[0] = 0;

    drape_coloring_stats stats = {g->count, color_count, 0, 0, 0.0f, lower_bound};
    for (uint32_t k = 0; k < color_count; ++k) {
        uint32_t size = offsets[k + 1u] - offsets[k];
        if (k == 0 || size < stats.smallest)
            stats.smallest = size;
        if (size > stats.largest)
            stats.largest = size;
    }
    stats.mean = color_count > 0 ? (float)((double)g->count / color_count) : 0.0f;
    out->order = order;
    out->offsets = offsets;
    out->stats = stats;
    return DRAPE_OK;
}

/* Runs the pipeline with the scratch arrays the caller owns. */
static drape_result color_with(const color_graph *g, const drape_color_input *in, uint32_t *degree,
                               uint64_t *masks, uint32_t *colors, drape_coloring *out)
{
    uint32_t lower_bound = count_degrees(g, degree);
    uint32_t *sequence = NULL;
    drape_result result = color_make_sequence(g, in->order, in->seed, degree, &sequence);
    if (result != DRAPE_OK)
        return result;
    uint32_t color_count = 0;
    result = color_first_fit(g, sequence, masks, colors, &color_count);
    color_free(sequence);
    if (result != DRAPE_OK)
        return result;
    if (in->balance && color_count > 1) {
        memset(masks, 0, (size_t)g->particle_count * sizeof *masks);
        result = color_balance(g, masks, colors, color_count);
        if (result != DRAPE_OK)
            return result;
    }
    return make_ranges(g, colors, color_count, lower_bound, out);
}

drape_result drape_color_constraints(const drape_color_input *in, drape_coloring *out)
{
    if (out == NULL)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    drape_result result = validate(in);
    if (result != DRAPE_OK)
        return result;

    color_graph g = {in->indices, in->movable, in->arity, in->count, in->particle_count};
    uint32_t *degree = color_calloc(g.particle_count, sizeof *degree);
    uint64_t *masks = color_calloc(g.particle_count, sizeof *masks);
    uint32_t *colors = color_alloc(g.count, sizeof *colors);
    if (degree == NULL || masks == NULL || colors == NULL) {
        result = DRAPE_ERROR_OUT_OF_MEMORY;
    } else {
        result = color_with(&g, in, degree, masks, colors, out);
    }
    color_free(degree);
    color_free(masks);
    color_free(colors);
    return result;
}

void drape_coloring_free(drape_coloring *coloring)
{
    if (coloring == NULL)
        return;
    color_free(coloring->order);
    color_free(coloring->offsets);
    memset(coloring, 0, sizeof *coloring);
}

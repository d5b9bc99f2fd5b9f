/* Balancing: even out colour sizes after first-fit without adding a colour.
 *
 * Every colour is one kernel launch, and a launch is as slow as its largest colour while a small
 * colour leaves most of the device idle, so the solver wants colours of equal size. First-fit fills
 * the low colours and leaves the last ones nearly empty (most of all in random order). In the
 * spirit of NVIDIA Warp's warp.utils.graph_coloring_balance, this pass moves constraints out of
 * colours larger than the target ceil(count / colours) into colours smaller than it that none of
 * their neighbours holds:
 *
 *   for each window of 64 colours that has a colour below the target:
 *     masks <- the window's colours around each movable particle
 *     for each constraint c, in creation order, whose colour is above the target:
 *       move c to the smallest colour of the window below the target that its masks leave free
 *
 * repeated while a pass moves something (at most BALANCE_PASSES times), since a move can free a
 * colour for a constraint that was stuck earlier. A move only goes from above the target to below
 * it, so no colour is ever emptied or added, the sum of the excesses falls with every move and the
 * pass terminates. One pass costs O(count * arity) per window that needs filling.
 */
#include "coloring_internal.h"

#define BALANCE_PASSES 4

typedef struct balance_state {
    const color_graph *g;
    uint64_t *masks;
    uint32_t *colors;
    uint32_t *sizes;
    uint32_t target;
} balance_state;

static int in_window(uint32_t color, uint32_t base, uint32_t width)
{
    return color >= base && color - base < width;
}

/* Sets (value 1) or clears (value 0) the window bits of every constraint coloured in the window. */
static void mark_window(const balance_state *b, uint32_t base, uint32_t width, int value)
{
    const color_graph *g = b->g;
    for (uint32_t c = 0; c < g->count; ++c) {
        uint32_t color = b->colors[c];
        if (!in_window(color, base, width))
            continue;
        uint64_t bit = value ? UINT64_C(1) << (color - base) : UINT64_MAX;
        color_scatter(g, b->masks, color_constraint(g, c), bit, value);
    }
}

/* The colour of `allowed` (window bits) with the fewest constraints; the lowest on a tie. */
static uint32_t smallest_allowed(const balance_state *b, uint32_t base, uint64_t allowed)
{
    uint32_t best = base + color_lowest_bit(allowed);
    for (allowed &= allowed - 1u; allowed != 0; allowed &= allowed - 1u) {
        uint32_t color = base + color_lowest_bit(allowed);
        if (b->sizes[color] < b->sizes[best])
            best = color;
    }
    return best;
}

/* One sweep of the constraints into window `base`; returns the number of moves. */
static uint32_t fill_window(balance_state *b, uint32_t base, uint32_t width)
{
    const color_graph *g = b->g;
    uint64_t below = 0; /* window colours below the target */
    for (uint32_t k = 0; k < width; ++k) {
        if (b->sizes[base + k] < b->target)
            below |= UINT64_C(1) << k;
    }
    if (below == 0)
        return 0;
    mark_window(b, base, width, 1);
    uint32_t moves = 0;
    for (uint32_t c = 0; c < g->count && below != 0; ++c) {
        uint32_t from = b->colors[c];
        if (b->sizes[from] <= b->target)
            continue;
        const uint32_t *particles = color_constraint(g, c);
        uint64_t allowed = below & ~color_gather(g, b->masks, particles);
        if (allowed == 0)
            continue;
        uint32_t to = smallest_allowed(b, base, allowed);
        if (in_window(from, base, width)) {
            color_scatter(g, b->masks, particles, UINT64_C(1) << (from - base), 0);
        }
        color_scatter(g, b->masks, particles, UINT64_C(1) << (to - base), 1);
        b->colors[c] = to;
        b->sizes[from]--;
        if (++b->sizes[to] == b->target)
            below &= ~(UINT64_C(1) << (to - base));
        ++moves;
    }
    /* Every particle with a bit set belongs to a constraint now coloured in the window. */
    mark_window(b, base, width, 0);
    return moves;
}

drape_result color_balance(const color_graph *g, uint64_t *masks, uint32_t *colors,
                           uint32_t color_count)
{
    if (color_count < 2)
        return DRAPE_OK;
    uint32_t *sizes = color_calloc(color_count, sizeof *sizes);
    if (sizes == NULL)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    for (uint32_t c = 0; c < g->count; ++c)
        sizes[colors[c]]++;
    balance_state b = {g, masks, colors, sizes,
                       g->count / color_count + (g->count % color_count != 0)};
    for (int pass = 0; pass < BALANCE_PASSES; ++pass) {
        uint32_t moves = 0;
        for (uint32_t base = 0; base < color_count; base += COLOR_WINDOW) {
            uint32_t left = color_count - base;
            moves += fill_window(&b, base, left < COLOR_WINDOW ? left : COLOR_WINDOW);
        }
        if (moves == 0)
            break;
    }
    color_free(sizes);
    return DRAPE_OK;
}

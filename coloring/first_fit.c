/* Greedy first-fit colouring, 64 colours at a time.
 *
 * Each constraint, in the visiting order, takes the lowest colour that no constraint visited before
 * it and sharing a movable particle holds (Fratarcangeli & Pellacini, SIGRAD 2014). The
 * colours around a constraint are the OR of one uint64_t mask per movable particle, so one
 * constraint costs O(arity) and the whole pass O(count * arity), with no adjacency list.
 *
 * More than 64 colours: a window holds colours base .. base + 63. A constraint whose neighbours
 * already fill the window is deferred; when the pass is over, the masks of the constraints it
 * touched are cleared and the deferred constraints, still in visiting order, are coloured in the
 * next window. This is exactly first-fit: a constraint coloured in window w saw every earlier
 * neighbour with a colour in w (those are coloured in w, in order, before it), and it was deferred
 * from windows before w only because first-fit would not give it a colour there. A window costs
 * O(constraints still uncoloured * arity), so the total is O(count * arity * ceil(colours / 64));
 * cloth never needs a second window.
 */
#include "coloring_internal.h"

/* Colours the constraints of `source` (NULL: 0 .. n-1) in window `base`. Returns the number
 * deferred and ORs the window's used colours into *used. */
static uint32_t color_window(const color_graph *g, const uint32_t *source, uint32_t n,
                             uint64_t *masks, uint32_t *colors, uint32_t base, uint64_t *used)
{
    uint32_t deferred = 0;
    uint64_t window_used = 0;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t c = source != NULL ? source[k] : k;
        const uint32_t *particles = color_constraint(g, c);
        uint64_t taken = color_gather(g, masks, particles);
        if (taken == UINT64_MAX) {
            colors[c] = COLOR_NONE;
            ++deferred;
            continue;
        }
        uint32_t bit = color_lowest_bit(~taken);
        colors[c] = base + bit;
        window_used |= UINT64_C(1) << bit;
        color_scatter(g, masks, particles, UINT64_C(1) << bit, 1);
    }
    *used = window_used;
    return deferred;
}

drape_result color_first_fit(const color_graph *g, uint32_t *sequence, uint64_t *masks,
                             uint32_t *colors, uint32_t *out_color_count)
{
    const uint32_t *source = sequence;
    uint32_t *pending = sequence; /* deferred constraints, compacted in place */
    uint32_t *owned = NULL;       /* pending storage for the natural order, made on demand */
    uint32_t n = g->count;
    uint32_t base = 0;
    for (;;) {
        uint64_t used = 0;
        uint32_t deferred = color_window(g, source, n, masks, colors, base, &used);
        if (deferred == 0) {
            *out_color_count = base + color_bit_width(used);
            break;
        }
        if (pending == NULL) {
            owned = color_alloc(deferred, sizeof *owned);
            if (owned == NULL)
                return DRAPE_ERROR_OUT_OF_MEMORY;
            pending = owned;
        }
        uint32_t m = 0;
        for (uint32_t k = 0; k < n; ++k) {
            uint32_t c = source != NULL ? source[k] : k;
            const uint32_t *particles = color_constraint(g, c);
            for (uint32_t s = 0; s < g->arity; ++s) {
                if (particles[s] != DRAPE_NO_PARTICLE)
                    masks[particles[s]] = 0;
            }
            if (colors[c] == COLOR_NONE)
                pending[m++] = c; /* m <= k: safe in place */
        }
        source = pending;
        n = deferred;
        base += COLOR_WINDOW;
    }
    color_free(owned);
    return DRAPE_OK;
}

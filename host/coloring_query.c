/* The colour of each constraint in the solver's colouring, for tests and tools that check it (no
 * two constraints of a colour share a movable particle) after the world recoloured itself. */
#include "world_internal.h"

drape_result drape_world_get_constraint_colors(const drape_world *w, drape_constraint_type type,
                                               uint32_t first, uint32_t count, uint32_t *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_constraint_colors";
    if ((unsigned)type >= DRAPE_CONSTRAINT_TYPE_COUNT)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: type = %d is not a type", fn,
                       (int)type);
    const dr_constraints *s = &w->constraints[type];
    if (count && !out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (first > s->count || count > s->count - first)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: constraints %u .. %u + %u are out of range (the world has %u)", fn,
                       first, first, count, s->count);
    drape_result r = dr_world_prepare((drape_world *)w); /* the colouring is made lazily */
    if (r != DRAPE_OK)
        return r;
    const dr_solver_set *set = &w->solver[type];
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t id = first + k;
        if (s->removed[id]) {
            out[k] = UINT32_MAX;
            continue;
        }
        const uint32_t slot = set->slot_of[id];
        uint32_t lo = 0, hi = set->stats.colors; /* the colour c with offsets[c] <= slot */
        while (hi - lo > 1) {
            const uint32_t mid = (lo + hi) / 2;
            if (set->offsets[mid] <= slot)
                lo = mid;
            else
                hi = mid;
        }
        out[k] = lo;
    }
    return DRAPE_OK;
}

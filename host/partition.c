/* One work-group per cloth: the particles cut into independent groups, for the fused projection.
 *
 * Independent cloths share no particle, so each can be projected, all colours and all iterations,
 * by its own work-group with barriers between its colours and none between work-groups: the layout
 * of NvCloth and of Kim et al., "Long Range Attachments", SCA 2012. Builders make each cloth a
 * contiguous range of particles, so the groups are ranges: a boundary between particles j - 1 and
 * j is a cut where no constraint of any type has one particle below j and another at or above it
 * (pinned particles count too: a group then never reads a particle another group may write). Cuts
 * closer than DR_PARTITION_MIN_PARTICLES are skipped, so small pieces share a group. A world whose
 * constraints cross everywhere is one group: the single-cloth case.
 *
 * The colouring stays the one every backend runs (coloring/): within each colour the constraints
 * are only reordered by group (stable), so that group g's share of colour c is one contiguous range
 * of slots. The constraints of a colour share no movable particle, hence projecting them in any
 * order gives bitwise the same state, on the CPU reference as on the device; and each group sees
 * its constraints in the CPU's colour order, so the fused launch keeps bitwise parity.
 */
#include "partition.h"

#include <stdlib.h>
#include <string.h>

void dr_partition_free(dr_partition *p)
{
    free(p->first);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        free(p->ranges[t]);
    memset(p, 0, sizeof *p);
}

/* The group of the first particle of slot c (all of its particles are in one group). */
static uint32_t group_of_slot(const uint32_t *idx, uint32_t arity, uint32_t c,
                              const uint32_t *group, uint32_t n)
{
    for (uint32_t k = 0; k < arity; ++k) {
        const uint32_t i = idx[(size_t)c * arity + k];
        if (i < n)
            return group[i];
    }
    return 0;
}

/* The cuts: particle j starts a new group. `open` (n + 1 entries, zeroed) counts the constraints
 * that span each boundary. */
static uint32_t cut_groups(const drape_world *w, int32_t *open, uint32_t *first)
{
    const uint32_t n = w->particle_count;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const dr_solver_set *s = &w->solver[t];
        const uint32_t arity = w->constraints[t].arity;
        for (uint32_t c = 0; c < s->count; ++c) {
            uint32_t lo = UINT32_MAX, hi = 0;
            for (uint32_t k = 0; k < arity; ++k) {
                const uint32_t i = s->idx[(size_t)c * arity + k];
                if (i >= n)
                    continue;
                lo = i < lo ? i : lo;
                hi = i > hi ? i : hi;
            }
            if (lo < hi) { /* spans the boundaries before lo + 1 .. hi */
                open[lo + 1]++;
                open[hi + 1]--;
            }
        }
    }
    uint32_t groups = 0;
    int32_t spanning = 0;
    for (uint32_t j = 0; j < n; ++j) {
        spanning += open[j];
        if (j == 0 || (spanning == 0 && j - first[groups - 1] >= DR_PARTITION_MIN_PARTICLES))
            first[groups++] = j;
    }
    first[groups] = n;
    return groups;
}

/* Applies `perm` (new slot -> old slot) to `count` elements of `bytes` each. */
static void permute(void *base, size_t bytes, const uint32_t *perm, uint32_t count, void *tmp)
{
    unsigned char *b = base, *t = tmp;
    for (uint32_t k = 0; k < count; ++k)
        memcpy(t + (size_t)k * bytes, b + (size_t)perm[k] * bytes, bytes);
    memcpy(b, t, (size_t)count * bytes);
}

/* Orders set t's colours by group (stable) and fills its range table; true when it reordered. */
static bool split_set(drape_world *w, int t, const uint32_t *group, uint32_t groups,
                      uint32_t *ranges, uint32_t *slot_group, uint32_t *perm, uint32_t *inverse,
                      void *tmp, uint32_t *per_group, uint32_t *widest)
{
    dr_solver_set *s = &w->solver[t];
    const dr_constraints *cs = &w->constraints[t];
    const uint32_t n = w->particle_count, g1 = groups + 1;
    bool sorted = true;
    for (uint32_t c = 0; c < s->count; ++c)
        slot_group[c] = group_of_slot(s->idx, cs->arity, c, group, n);
    for (uint32_t col = 0; col < s->stats.colors; ++col) {
        uint32_t *r = ranges + (size_t)col * g1;
        memset(r, 0, g1 * sizeof *r);
        const uint32_t begin = s->offsets[col], end = s->offsets[col + 1];
        for (uint32_t c = begin; c < end; ++c) {
            r[slot_group[c] + 1]++;
            sorted = sorted && (c == begin || slot_group[c] >= slot_group[c - 1]);
        }
        r[0] = begin;
        for (uint32_t g = 0; g < groups; ++g) {
            per_group[g] += r[g + 1];
            *widest = r[g + 1] > *widest ? r[g + 1] : *widest;
            r[g + 1] += r[g];
        }
    }
    if (sorted)
        return false;
    for (uint32_t col = 0; col < s->stats.colors; ++col) {
        uint32_t *r = ranges + (size_t)col * g1;
        /* r[g] is group g's first slot; place each constraint at its group's next */
        uint32_t *next = inverse; /* borrowed: groups + 1 <= particle_count + 1 entries */
        memcpy(next, r, g1 * sizeof *next);
        for (uint32_t c = s->offsets[col]; c < s->offsets[col + 1]; ++c)
            perm[next[slot_group[c]]++] = c;
    }
    for (uint32_t k = 0; k < s->count; ++k)
        inverse[perm[k]] = k;
    permute(s->idx, cs->arity * sizeof *s->idx, perm, s->count, tmp);
    permute(s->rest, sizeof *s->rest, perm, s->count, tmp);
    permute(s->material, sizeof *s->material, perm, s->count, tmp);
    permute(s->lambda, cs->multipliers * sizeof *s->lambda, perm, s->count, tmp);
    permute(s->target, sizeof *s->target, perm, s->count, tmp);
    if (cs->params)
        permute(s->param, cs->params * sizeof *s->param, perm, s->count, tmp);
    for (uint32_t id = 0; id < cs->count; ++id)
        if (s->slot_of[id] != UINT32_MAX)
            s->slot_of[id] = inverse[s->slot_of[id]];
    return true;
}

drape_result dr_partition_build(drape_world *w, dr_partition *p, unsigned *reordered)
{
    dr_partition_free(p);
    *reordered = 0;
    const uint32_t n = w->particle_count;
    size_t most = 0, widest_bytes = sizeof(dr_vec4);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const dr_constraints *cs = &w->constraints[t];
        size_t b = cs->arity * sizeof(uint32_t);
        b = cs->multipliers * sizeof(float) > b ? cs->multipliers * sizeof(float) : b;
        b = cs->params * sizeof(float) > b ? cs->params * sizeof(float) : b;
        widest_bytes = b > widest_bytes ? b : widest_bytes;
        most = w->solver[t].count > most ? w->solver[t].count : most;
    }
    int32_t *open = calloc((size_t)n + 1, sizeof *open);
    uint32_t *group = malloc(((size_t)n + 1) * sizeof *group);
    uint32_t *per_group = NULL;
    uint32_t *slot_group = malloc((most + 1) * sizeof *slot_group);
    uint32_t *perm = malloc((most + 1) * sizeof *perm);
    uint32_t *inverse = malloc((most + n + 2) * sizeof *inverse);
    void *tmp = malloc((most + 1) * widest_bytes);
    p->first = malloc(((size_t)n + 2) * sizeof *p->first);
    drape_result r = DRAPE_ERROR_OUT_OF_MEMORY;
    if (!open || !group || !slot_group || !perm || !inverse || !tmp || !p->first)
        goto done;
    p->groups = n ? cut_groups(w, open, p->first) : 0;
    if (!n)
        p->first[0] = 0;
    per_group = calloc((size_t)p->groups + 1, sizeof *per_group);
    if (!per_group)
        goto done;
    for (uint32_t g = 0; g < p->groups; ++g) {
        const uint32_t size = p->first[g + 1] - p->first[g];
        p->largest_group = size > p->largest_group ? size : p->largest_group;
        for (uint32_t i = p->first[g]; i < p->first[g + 1]; ++i)
            group[i] = g;
    }
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const uint32_t colors = w->solver[t].count ? w->solver[t].stats.colors : 0;
        p->ranges[t] = malloc(((size_t)colors * (p->groups + 1) + 1) * sizeof *p->ranges[t]);
        if (!p->ranges[t])
            goto done;
        if (colors && split_set(w, t, group, p->groups, p->ranges[t], slot_group, perm, inverse,
                                tmp, per_group, &p->widest))
            *reordered |= 1u << t;
    }
    for (uint32_t g = 0; g < p->groups; ++g)
        p->largest = per_group[g] > p->largest ? per_group[g] : p->largest;
    r = DRAPE_OK;
done:
    if (r != DRAPE_OK)
        dr_partition_free(p);
    free(open);
    free(group);
    free(per_group);
    free(slot_group);
    free(perm);
    free(inverse);
    free(tmp);
    return r;
}

/* Independent checks of a colouring (see check.h). The conflict graph is built here the slow,
 * obvious way: a particle -> constraints incidence list, walked per constraint. */
#include "check.h"

#include "meshes.h"
#include "drape_test.h"

#include <math.h>
#include <string.h>

static void *zeroed(size_t count, size_t size)
{
    void *p = calloc(count + 1u, size);
    ENSURE(p != NULL);
    return p;
}

static int counts(const drape_color_input *in, const uint32_t *particles, uint32_t s)
{
    uint32_t p = particles[s];
    if (p == DRAPE_NO_PARTICLE || !in->movable[p])
        return 0;
    for (uint32_t t = 0; t < s; ++t) {
        if (particles[t] == p)
            return 0;
    }
    return 1;
}

/* Particle -> constraints lists: constraints of particle p are list[start[p] .. start[p+1]). */
typedef struct incidence {
    uint32_t *start;
    uint32_t *list;
} incidence;

static incidence make_incidence(const drape_color_input *in)
{
    incidence inc = {zeroed(in->particle_count + 1u, sizeof(uint32_t)),
                     zeroed((size_t)in->count * in->arity, sizeof(uint32_t))};
    for (uint32_t c = 0; c < in->count; ++c) {
        const uint32_t *q = in->indices + (size_t)c * in->arity;
        for (uint32_t s = 0; s < in->arity; ++s) {
            if (counts(in, q, s))
                inc.start[q[s] + 1u]++;
        }
    }
    for (uint32_t p = 0; p < in->particle_count; ++p)
        inc.start[p + 1u] += inc.start[p];
    uint32_t *fill = zeroed(in->particle_count, sizeof(uint32_t));
    for (uint32_t c = 0; c < in->count; ++c) {
        const uint32_t *q = in->indices + (size_t)c * in->arity;
        for (uint32_t s = 0; s < in->arity; ++s) {
            if (counts(in, q, s))
                inc.list[inc.start[q[s]] + fill[q[s]]++] = c;
        }
    }
    free(fill);
    return inc;
}

static void free_incidence(incidence *inc)
{
    free(inc->start);
    free(inc->list);
}

uint32_t reference_lower_bound(const drape_color_input *in)
{
    uint32_t *degree = zeroed(in->particle_count, sizeof(uint32_t));
    uint32_t most = 0;
    for (uint32_t c = 0; c < in->count; ++c) {
        const uint32_t *q = in->indices + (size_t)c * in->arity;
        for (uint32_t s = 0; s < in->arity; ++s) {
            if (counts(in, q, s) && ++degree[q[s]] > most)
                most = degree[q[s]];
        }
    }
    free(degree);
    return most;
}

/* Calls visit(neighbour, user) once for every constraint that shares a movable particle with c. */
static void for_each_neighbour(const drape_color_input *in, const incidence *inc, uint32_t c,
                               uint32_t *stamp, void (*visit)(uint32_t, void *), void *user)
{
    const uint32_t *q = in->indices + (size_t)c * in->arity;
    for (uint32_t s = 0; s < in->arity; ++s) {
        if (!counts(in, q, s))
            continue;
        for (uint32_t k = inc->start[q[s]]; k < inc->start[q[s] + 1u]; ++k) {
            uint32_t e = inc->list[k];
            if (e == c || stamp[e] == c + 1u)
                continue;
            stamp[e] = c + 1u;
            visit(e, user);
        }
    }
}

static void count_one(uint32_t e, void *user)
{
    (void)e;
    ++*(uint32_t *)user;
}

uint32_t reference_max_conflicts(const drape_color_input *in)
{
    incidence inc = make_incidence(in);
    uint32_t *stamp = zeroed(in->count, sizeof(uint32_t));
    uint32_t most = 0;
    for (uint32_t c = 0; c < in->count; ++c) {
        uint32_t n = 0;
        for_each_neighbour(in, &inc, c, stamp, count_one, &n);
        if (n > most)
            most = n;
    }
    free(stamp);
    free_incidence(&inc);
    return most;
}

typedef struct taken_colors {
    const uint32_t *colors;
    uint8_t *taken;
    uint32_t before; /* only neighbours visited earlier count */
} taken_colors;

static void take(uint32_t e, void *user)
{
    taken_colors *t = user;
    if (e < t->before)
        t->taken[t->colors[e]] = 1;
}

void reference_first_fit(const drape_color_input *in, uint32_t *colors)
{
    incidence inc = make_incidence(in);
    uint32_t *stamp = zeroed(in->count, sizeof(uint32_t));
    uint8_t *taken = zeroed(in->count, 1);
    for (uint32_t c = 0; c < in->count; ++c) {
        memset(taken, 0, in->count);
        taken_colors t = {colors, taken, c};
        for_each_neighbour(in, &inc, c, stamp, take, &t);
        uint32_t color = 0;
        while (taken[color])
            ++color;
        colors[c] = color;
    }
    free(taken);
    free(stamp);
    free_incidence(&inc);
}

void check_coloring(const drape_color_input *in, const drape_coloring *out, uint32_t *colors)
{
    uint32_t n = in->count, k = out->stats.colors;
    ENSURE(out->order != NULL && out->offsets != NULL);
    ENSURE_EQ(out->stats.constraints, n);
    ENSURE_EQ(out->offsets[0], 0);
    ENSURE_EQ(out->offsets[k], n);

    uint32_t *color_of = zeroed(n, sizeof(uint32_t));
    uint8_t *seen = zeroed(n, 1);
    uint32_t smallest = UINT32_MAX, largest = 0;
    for (uint32_t color = 0; color < k; ++color) {
        uint32_t first = out->offsets[color], end = out->offsets[color + 1u];
        ENSURE(first < end); /* no empty colour */
        if (end - first < smallest)
            smallest = end - first;
        if (end - first > largest)
            largest = end - first;
        for (uint32_t pos = first; pos < end; ++pos) {
            uint32_t c = out->order[pos];
            ENSURE(c < n);
            ENSURE(!seen[c]); /* every constraint exactly once */
            seen[c] = 1;
            color_of[c] = color;
        }
    }

    /* No colour holds two constraints that share a movable particle. */
    uint32_t *owner = zeroed(in->particle_count, sizeof(uint32_t));
    for (uint32_t color = 0; color < k; ++color) {
        for (uint32_t pos = out->offsets[color]; pos < out->offsets[color + 1u]; ++pos) {
            const uint32_t *q = in->indices + (size_t)out->order[pos] * in->arity;
            for (uint32_t s = 0; s < in->arity; ++s) {
                if (!counts(in, q, s))
                    continue;
                ENSURE(owner[q[s]] != color + 1u);
                owner[q[s]] = color + 1u;
            }
        }
    }
    free(owner);

    ENSURE_EQ(out->stats.smallest, k > 0 ? smallest : 0);
    ENSURE_EQ(out->stats.largest, largest);
    ENSURE(k == 0 ? out->stats.mean == 0.0f
                  : fabs(out->stats.mean - (double)n / k) <= 1e-6 * ((double)n / k));
    uint32_t bound = reference_lower_bound(in);
    ENSURE_EQ(out->stats.lower_bound, bound);
    ENSURE(k >= bound);
    if (n > 0)
        ENSURE(k >= 1);
    if (n <= 200000)
        ENSURE(k <= reference_max_conflicts(in) + 1u);

    if (colors != NULL)
        memcpy(colors, color_of, (size_t)n * sizeof *colors);
    free(seen);
    free(color_of);
}

double size_ratio(const drape_coloring *out)
{
    return out->stats.smallest > 0 ? (double)out->stats.largest / out->stats.smallest : 0.0;
}

drape_coloring color_checked(const drape_color_input *in)
{
    drape_coloring out;
    ENSURE_EQ(drape_color_constraints(in, &out), DRAPE_OK);
    check_coloring(in, &out, NULL);
    return out;
}

uint32_t check_all_orders(drape_color_input in)
{
    uint32_t natural = 0;
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        in.order = color_orders[o];
        in.balance = false;
        drape_coloring plain = color_checked(&in);
        in.balance = true;
        drape_coloring balanced = color_checked(&in);
        ENSURE_EQ(balanced.stats.colors, plain.stats.colors);
        ENSURE(size_ratio(&balanced) <= size_ratio(&plain));
        if (o == 0)
            natural = plain.stats.colors;
        drape_coloring_free(&plain);
        drape_coloring_free(&balanced);
    }
    return natural;
}

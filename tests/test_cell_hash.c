/* The hashed grid's neighbour buckets (kernels/drape_shared.h): dr_neighbour_buckets lists the
 * buckets of the 27 cells around a point, each once, in the cells' order. It searches for repeated
 * buckets only in tables of fewer than 64 buckets, where they can occur; this test holds it to the
 * plain search (every cell's bucket compared with those listed before) on cells near the origin,
 * near the clamp at ±1e9 cells and at random, in tables from 1 to 2^20 buckets, and checks that
 * repeats occur in the small tables (so the comparison means something) and never in the others. */
#include "drape_shared.h"
#include "drape_test.h"
#include "test_list.h"

#include <stdint.h>

/* The plain search: every cell's bucket, unless an earlier cell took it. */
static unsigned plain_buckets(int cx, int cy, int cz, unsigned mask, unsigned *b)
{
    unsigned n = 0u;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                unsigned c = dr_cell_bucket(cx + dx, cy + dy, cz + dz, mask);
                int dup = 0;
                for (unsigned k = 0u; k < n; ++k)
                    dup |= b[k] == c;
                if (!dup)
                    b[n++] = c;
            }
    return n;
}

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static void test_neighbour_buckets_match_the_plain_search(void)
{
    const float cell = 0.25f, inv_cell = 1.0f / cell;
    uint32_t state = 2463534242u;
    unsigned repeated_small = 0, repeated_large = 0, wrong = 0;
    for (unsigned bits = 0; bits <= 20; ++bits) {
        const unsigned mask = (1u << bits) - 1u;
        for (int k = 0; k < 4000; ++k) {
            int c[3];
            for (int a = 0; a < 3; ++a) {
                uint32_t r = next_random(&state);
                c[a] = k % 4 == 0   ? (int)(r % 17u) - 8 /* around the origin */
                       : k % 4 == 1 ? (r & 1u ? 1 : -1) * (1000000000 - (int)(r % 9u))
                                    : (int)(r % 200001u) - 100000;
            }
            /* a point inside cell c */
            dr_vec4 p = DR_V4(((float)c[0] + 0.5f) * cell, ((float)c[1] + 0.5f) * cell,
                              ((float)c[2] + 0.5f) * cell, 0.0f);
            int q[3] = {dr_cell_coord(p.x, inv_cell), dr_cell_coord(p.y, inv_cell),
                        dr_cell_coord(p.z, inv_cell)};
            unsigned want[27], got[27];
            unsigned n_want = plain_buckets(q[0], q[1], q[2], mask, want);
            unsigned n_got = dr_neighbour_buckets(p, inv_cell, mask, got);
            int same = n_want == n_got;
            for (unsigned i = 0; same && i < n_want; ++i)
                same = want[i] == got[i];
            if (!same && wrong++ < 5)
                printf("  cell (%d, %d, %d), %u buckets: %u distinct buckets, dr_neighbour_buckets "
                       "gave %u\n",
                       q[0], q[1], q[2], mask + 1u, n_want, n_got);
            if (n_want < 27u)
                *(mask < 63u ? &repeated_small : &repeated_large) += 1;
        }
    }
    printf("  cells with a repeated bucket: %u in tables of 1 to 32 buckets, %u in larger ones\n",
           repeated_small, repeated_large);
    ENSURE(wrong == 0);
    ENSURE(repeated_small > 1000 && repeated_large == 0);
}

int suite_cell_hash(void)
{
    RUN_TEST(test_neighbour_buckets_match_the_plain_search);
    return test_finish();
}

/* The hashed grid (kernels/drape_shared.h): the walk over a particle's contact candidates
 * (dr_cell_walk) visits the buckets of the 27 cells around it without searching for a bucket two
 * cells share, which holds because the grid's table has at least 64 buckets (dr_particle_plan) and
 * the 27 cells' buckets then differ in their low six bits. This test checks both: that in tables of
 * 64 to 2^20 buckets no two of the 27 cells share a bucket, on cells near the origin, near the
 * clamp at ±1e9 cells and at random, where smaller tables do repeat buckets (so the check can
 * fail), and that a world of three balls gets a table of 64 buckets. */
#include "drape_shared.h"
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdint.h>

/* How many distinct buckets the 27 cells around cell (cx, cy, cz) take. */
static unsigned distinct_buckets(int cx, int cy, int cz, unsigned mask)
{
    unsigned b[27], n = 0u;
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

static void test_the_27_cells_take_distinct_buckets(void)
{
    uint32_t state = 2463534242u;
    unsigned repeated_small = 0, repeated_large = 0;
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
            if (distinct_buckets(c[0], c[1], c[2], mask) < 27u) {
                if (mask < 63u)
                    repeated_small++;
                else if (repeated_large++ < 5)
                    printf("  cell (%d, %d, %d) in %u buckets: a bucket repeats\n", c[0], c[1],
                           c[2], mask + 1u);
            }
        }
    }
    printf("  cells with a repeated bucket: %u in tables of 1 to 32 buckets, %u in larger ones\n",
           repeated_small, repeated_large);
    ENSURE(repeated_small > 1000 && repeated_large == 0);
}

static void test_a_small_world_gets_64_buckets(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = NULL;
    ENSURE_OK(drape_world_create(&def, &w));
    drape_particle_def p[3];
    for (int i = 0; i < 3; ++i) {
        p[i] = drape_default_particle_def();
        p[i].position = (drape_vec3){0.1f * (float)i, 1.0f, 0.0f};
        p[i].radius = 0.04f;
    }
    ENSURE_OK(drape_world_add_particles(w, p, 3, NULL));
    ENSURE_OK(drape_world_step(w));
    drape_contact_stats cs;
    ENSURE_OK(drape_world_get_contact_stats(w, &cs));
    printf("  3 balls: %u buckets\n", cs.buckets);
    ENSURE(cs.buckets == 64u);
    drape_world_destroy(w);
}

int suite_cell_hash(void)
{
    RUN_TEST(test_the_27_cells_take_distinct_buckets);
    RUN_TEST(test_a_small_world_gets_64_buckets);
    return test_finish();
}

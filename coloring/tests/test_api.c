/* The contract of drape_color_constraints at its edges: pinned-only constraints, empty input, bad
 * input, freeing, and determinism (the same input gives the same colouring, and a golden hash
 * catches any change of the algorithm's output). */
#include "check.h"
#include "meshes.h"
#include "drape_test.h"
#include "test_list.h"

#include <string.h>

void test_pinned_constraints(void)
{
    /* Particles 0..3 pinned, 4..5 movable. Constraints touching only pinned particles (or no
     * particle at all) conflict with nothing. */
    const uint32_t none = DRAPE_NO_PARTICLE;
    const uint32_t indices[] = {0,    1,    none, /* pinned only */
                                1,    2,    3,    /* pinned only, shares 1 with the first */
                                none, none, none, /* no particle */
                                0,    4,    none, /* movable 4 */
                                4,    5,    1,    /* movable 4 and 5: conflicts with the previous */
                                2,    2,    2};   /* one pinned particle three times */
    const uint8_t movable[6] = {0, 0, 0, 0, 1, 1};
    drape_color_input in = {indices, 3, 6, movable, 6, DRAPE_COLOR_ORDER_NATURAL, 0, false};
    drape_coloring out = color_checked(&in);
    ENSURE_EQ(out.stats.colors, 2);
    ENSURE_EQ(out.stats.lower_bound, 2);
    drape_coloring_free(&out);

    /* Everything pinned: one colour, lower bound 0. */
    const uint8_t pinned[6] = {0};
    in.movable = pinned;
    ENSURE_EQ(check_all_orders(in), 1);
    out = color_checked(&in);
    ENSURE_EQ(out.stats.lower_bound, 0);
    ENSURE_EQ(out.stats.smallest, 6);
    drape_coloring_free(&out);

    /* No particles at all: movable may be NULL, every slot unused. */
    const uint32_t empty_slots[4] = {none, none, none, none};
    drape_color_input bare = {empty_slots, 2, 2, NULL, 0, DRAPE_COLOR_ORDER_RANDOM, 1, true};
    out = color_checked(&bare);
    ENSURE_EQ(out.stats.colors, 1);
    drape_coloring_free(&out);
}

void test_empty_input(void)
{
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        drape_color_input in = {NULL, 2, 0, NULL, 0, color_orders[o], 9, o == 1};
        drape_coloring out;
        memset(&out, 0xAB, sizeof out);
        ENSURE_EQ(drape_color_constraints(&in, &out), DRAPE_OK);
        check_coloring(&in, &out, NULL);
        ENSURE_EQ(out.stats.colors, 0);
        ENSURE_EQ(out.stats.constraints, 0);
        ENSURE_EQ(out.stats.smallest, 0);
        ENSURE_EQ(out.stats.largest, 0);
        ENSURE_EQ(out.stats.lower_bound, 0);
        ENSURE(out.stats.mean == 0.0f);
        drape_coloring_free(&out);
    }
}

/* Asserts that `in` is refused with `expected` and that *out is zeroed. */
static void ensure_refused(const drape_color_input *in, drape_result expected)
{
    drape_coloring out, zero;
    memset(&out, 0xAB, sizeof out);
    memset(&zero, 0, sizeof zero);
    ENSURE_EQ(drape_color_constraints(in, &out), expected);
    ENSURE(memcmp(&out, &zero, sizeof out) == 0);
}

void test_invalid_input(void)
{
    const uint32_t indices[4] = {0, 1, 1, 2};
    const uint8_t movable[3] = {1, 1, 1};
    const drape_color_input good = {indices, 2, 2, movable, 3, DRAPE_COLOR_ORDER_NATURAL, 0, true};
    drape_coloring out = color_checked(&good);
    drape_coloring_free(&out);

    drape_color_input in = good;
    in.arity = 0;
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    in.arity = 9;
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    in = good;
    in.count = 0;
    in.arity = 9; /* arity is checked even with nothing to colour */
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    in = good;
    in.particle_count = 2; /* index 2 is now out of range */
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    in = good;
    in.indices = NULL;
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    in = good;
    in.movable = NULL;
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    in = good;
    in.order = (drape_color_order)3;
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
    ensure_refused(NULL, DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE_EQ(drape_color_constraints(&good, NULL), DRAPE_ERROR_INVALID_ARGUMENT);

    /* Index UINT32_MAX - 1 with particle_count UINT32_MAX - 1 is out of range; UINT32_MAX is the
     * unused slot and is fine. */
    const uint32_t edge_indices[2] = {DRAPE_NO_PARTICLE - 1u, 0};
    in = good;
    in.indices = edge_indices;
    in.count = 1;
    in.particle_count = 3;
    ensure_refused(&in, DRAPE_ERROR_INVALID_ARGUMENT);
}

void test_free_is_idempotent(void)
{
    drape_coloring_free(NULL);
    drape_coloring zero;
    memset(&zero, 0, sizeof zero);
    drape_coloring_free(&zero);
    const uint32_t indices[2] = {0, 1};
    const uint8_t movable[2] = {1, 1};
    drape_color_input in = {indices, 2, 1, movable, 2, DRAPE_COLOR_ORDER_NATURAL, 0, false};
    drape_coloring out = color_checked(&in);
    drape_coloring_free(&out);
    ENSURE(out.order == NULL && out.offsets == NULL && out.stats.colors == 0);
    drape_coloring_free(&out);
}

static int same_coloring(const drape_coloring *a, const drape_coloring *b)
{
    return a->stats.colors == b->stats.colors && a->stats.constraints == b->stats.constraints &&
           memcmp(a->order, b->order, a->stats.constraints * sizeof *a->order) == 0 &&
           memcmp(a->offsets, b->offsets, (a->stats.colors + 1u) * sizeof *a->offsets) == 0;
}

void test_random_order_deterministic(void)
{
    cset set;
    grid_springs(&set, 48, 40, GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND);
    uint8_t *movable = movable_all(48 * 40);
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        for (int balance = 0; balance < 2; ++balance) {
            drape_color_input in =
                color_input(&set, movable, 48 * 40, color_orders[o], 42, balance);
            drape_coloring a = color_checked(&in), b = color_checked(&in);
            ENSURE(same_coloring(&a, &b));
            drape_coloring_free(&a);
            drape_coloring_free(&b);
        }
    }
    /* Another seed gives another colouring, and random order costs colours (about 40% on grids). */
    drape_color_input in = color_input(&set, movable, 48 * 40, DRAPE_COLOR_ORDER_RANDOM, 42, false);
    drape_coloring a = color_checked(&in);
    in.seed = 43;
    drape_coloring b = color_checked(&in);
    ENSURE(!same_coloring(&a, &b));
    ENSURE(a.stats.colors > 12 && b.stats.colors > 12);
    drape_coloring_free(&a);
    drape_coloring_free(&b);
    free(movable);
    cset_free(&set);
}

/* FNV-1a over the order and the offsets. */
static uint64_t coloring_hash(const drape_coloring *out)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    const uint32_t *arrays[2] = {out->order, out->offsets};
    const uint32_t lengths[2] = {out->stats.constraints, out->stats.colors + 1u};
    for (int a = 0; a < 2; ++a) {
        for (uint32_t k = 0; k < lengths[a]; ++k) {
            for (int byte = 0; byte < 4; ++byte) {
                h ^= (arrays[a][k] >> (8 * byte)) & 0xFFu;
                h *= UINT64_C(0x100000001b3);
            }
        }
    }
    return h;
}

/* The output is part of the solver's contract (it fixes the Gauss-Seidel order on every backend
 * and platform), so a change of it must be deliberate: these hashes then need updating. */
void test_determinism_hash(void)
{
    cset set;
    grid_springs(&set, 40, 30, GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND);
    uint8_t *movable = movable_all(40 * 30);
    pin_cloth(movable, 40, 30, DRAPE_PIN_CORNER_01 | DRAPE_PIN_CORNER_11);
    const uint64_t expected[3][2] = {
        {UINT64_C(0x73a2b90c2e6c3071), UINT64_C(0x51d72bb520f984a8)},
        {UINT64_C(0x61de9250312a0caa), UINT64_C(0x05773b7b6eed47db)},
        {UINT64_C(0x9d39dec7064b15d4), UINT64_C(0x96c471ec3aae30bd)},
    };
    int mismatch = 0;
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        for (int balance = 0; balance < 2; ++balance) {
            drape_color_input in = color_input(&set, movable, 40 * 30, color_orders[o], 7, balance);
            drape_coloring out = color_checked(&in);
            uint64_t h = coloring_hash(&out);
            if (h != expected[o][balance]) {
                fprintf(stderr, "order %d balance %d: hash 0x%016llx\n", o, balance,
                        (unsigned long long)h);
                mismatch = 1;
            }
            drape_coloring_free(&out);
        }
    }
    free(movable);
    cset_free(&set);
    ENSURE(!mismatch);
}

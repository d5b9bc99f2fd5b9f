/* Allocation failure: the library, built with DRAPE_COLORING_ALLOC_HOOK, allocates through the
 * hooks below, which fail the n-th allocation and count the blocks still held. For every n until
 * the call succeeds, drape_color_constraints must return DRAPE_ERROR_OUT_OF_MEMORY, leave *out
 * zeroed and hold no memory; this walks every allocation of every path. */
#include "check.h"
#include "meshes.h"
#include "drape_test.h"

#include <string.h>

void *drape_coloring_test_alloc(size_t bytes, int zero);
void drape_coloring_test_free(void *pointer);

static long allocations_left = -1; /* the allocation that fails is the one that finds this 0 */
static long live_blocks = 0;

void *drape_coloring_test_alloc(size_t bytes, int zero)
{
    if (allocations_left == 0)
        return NULL;
    if (allocations_left > 0)
        --allocations_left;
    void *p = zero ? calloc(1, bytes) : malloc(bytes);
    if (p != NULL)
        ++live_blocks;
    return p;
}

void drape_coloring_test_free(void *pointer)
{
    if (pointer != NULL)
        --live_blocks;
    free(pointer);
}

/* Fails allocation 0, 1, 2, ... until the call succeeds; returns how many failures it tried. */
static int walk_failures(const drape_color_input *in)
{
    drape_coloring zero;
    memset(&zero, 0, sizeof zero);
    for (long fail_at = 0;; ++fail_at) {
        drape_coloring out;
        memset(&out, 0xAB, sizeof out);
        allocations_left = fail_at;
        drape_result result = drape_color_constraints(in, &out);
        allocations_left = -1;
        if (result == DRAPE_OK) {
            check_coloring(in, &out, NULL);
            ENSURE_EQ(live_blocks, 2); /* order and offsets */
            drape_coloring_free(&out);
            ENSURE_EQ(live_blocks, 0);
            return (int)fail_at;
        }
        ENSURE_EQ(result, DRAPE_ERROR_OUT_OF_MEMORY);
        ENSURE(memcmp(&out, &zero, sizeof out) == 0);
        ENSURE_EQ(live_blocks, 0);
    }
}

int main(void)
{
    cset grid;
    grid_springs(&grid, 20, 20, GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND);
    uint8_t *movable = movable_all(400);
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        drape_color_input in = color_input(&grid, movable, 400, color_orders[o], 3, true);
        /* degree, masks, colors, [sequence, buckets], sizes, order, offsets */
        ENSURE(walk_failures(&in) >= 6);
    }

    /* Over 64 colours in natural order: the deferred-constraint buffer is allocated too. */
    test_rng rng = {8};
    cset dense;
    random_constraints(&dense, 40, 2000, 3, &rng);
    drape_color_input in = color_input(&dense, movable, 40, DRAPE_COLOR_ORDER_NATURAL, 0, true);
    ENSURE(walk_failures(&in) >= 7);

    free(movable);
    cset_free(&grid);
    cset_free(&dense);
    printf("out_of_memory ok\n");
    return EXIT_SUCCESS;
}

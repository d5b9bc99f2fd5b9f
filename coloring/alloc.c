/* Allocation for the colouring library.
 *
 * Every allocation goes through these three functions so that a test build (compiled with
 * DRAPE_COLORING_ALLOC_HOOK) can fail the n-th allocation and count what is still held, and prove
 * that drape_color_constraints returns DRAPE_ERROR_OUT_OF_MEMORY without leaking on every path.
 * Sizes are checked for overflow here, once, instead of at every call site.
 */
#include "coloring_internal.h"

#include <stdlib.h>

#ifdef DRAPE_COLORING_ALLOC_HOOK
/* Supplied by the test program: returns NULL to simulate a failure. */
void *drape_coloring_test_alloc(size_t bytes, int zero);
void drape_coloring_test_free(void *pointer);
#endif

static size_t byte_count(size_t count, size_t size)
{
    if (count == 0 || size == 0)
        return 1;
    if (count > SIZE_MAX / size)
        return 0;
    return count * size;
}

/* count * size bytes, zeroed when `zero` is set; NULL when the size overflows or memory is out. */
static void *allocate(size_t count, size_t size, int zero)
{
    size_t bytes = byte_count(count, size);
    if (bytes == 0)
        return NULL;
#ifdef DRAPE_COLORING_ALLOC_HOOK
    return drape_coloring_test_alloc(bytes, zero);
#else
    return zero ? calloc(1, bytes) : malloc(bytes);
#endif
}

void *color_alloc(size_t count, size_t size) { return allocate(count, size, 0); }

void *color_calloc(size_t count, size_t size) { return allocate(count, size, 1); }

void color_free(void *pointer)
{
#ifdef DRAPE_COLORING_ALLOC_HOOK
    drape_coloring_test_free(pointer);
#else
    free(pointer);
#endif
}

/* Growable arrays: the one helper every list of the scene library (vertices, triangles, objects,
 * targets) grows through, doubling, with the element count kept in uint32_t like the library's
 * indices.
 */
#include "scene_internal.h"

#include <stdlib.h>

void *sc_grow(void *array, uint32_t *capacity, uint32_t need, size_t elem)
{
    if (need <= *capacity)
        return array;
    uint32_t cap = *capacity ? *capacity : 16;
    while (cap < need)
        cap = cap > UINT32_MAX / 2 ? need : cap * 2;
    if ((size_t)cap > SIZE_MAX / elem)
        return NULL;
    void *p = realloc(array, (size_t)cap * elem);
    if (p)
        *capacity = cap;
    return p;
}

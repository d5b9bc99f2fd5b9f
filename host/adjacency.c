/* Triangle adjacency: for every particle, the list of triangles it is a corner of, as CSR (offsets
 * per particle into one list of triangle ids, in increasing id order). A kernel that gathers over a
 * particle's own triangles needs no atomics, and the CPU reference and the device then sum in the
 * same order (render normals, aerodynamic forces, a balloon's volume gradient).
 */
#include "world_internal.h"

#include <stdlib.h>
#include <string.h>

bool dr_triangle_adjacency(const uint32_t *triangles, uint32_t count, uint32_t n,
                           uint32_t **out_offsets, uint32_t **out_incident)
{
    uint32_t *offsets = calloc((size_t)n + 1, sizeof *offsets);
    uint32_t *incident = malloc((size_t)3 * count * sizeof *incident + 1);
    uint32_t *fill = malloc((size_t)n * sizeof *fill + 1);
    if (!offsets || !incident || !fill) {
        free(offsets);
        free(incident);
        free(fill);
        return false;
    }
    for (size_t k = 0; k < (size_t)3 * count; ++k)
        offsets[triangles[k] + 1]++;
    for (uint32_t v = 0; v < n; ++v)
        offsets[v + 1] += offsets[v];
    memcpy(fill, offsets, (size_t)n * sizeof *fill);
    for (uint32_t tri = 0; tri < count; ++tri)
        for (int c = 0; c < 3; ++c)
            incident[fill[triangles[3 * tri + c]]++] = tri;
    free(fill);
    *out_offsets = offsets;
    *out_incident = incident;
    return true;
}

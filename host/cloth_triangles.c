/* The triangulation of a cloth grid, written once: drape_world_add_cloth's dihedral constraints
 * hinge on these triangles' edges, and whatever draws or exports a cloth (the scene library, and
 * through it the viewer and the OBJ export) takes its triangles from here.
 */
#include "world_internal.h"

uint32_t drape_cloth_triangles(uint32_t nx, uint32_t ny, uint32_t first_particle, uint32_t *out)
{
    if (nx < 2 || ny < 2)
        return 0;
    /* the count's 3 indices a triangle, and the last particle's index, within 32 bits (a 65536 x
     * 65536 cloth's count wrapped to a small number, and out was written past it) */
    const uint64_t count = 2ull * (nx - 1) * (ny - 1);
    if (3 * count > UINT32_MAX || (uint64_t)first_particle + (uint64_t)nx * ny - 1 > UINT32_MAX)
        return 0;
    if (out)
        for (uint32_t j = 0; j + 1 < ny; ++j)
            for (uint32_t i = 0; i + 1 < nx; ++i) {
                const uint32_t p00 = first_particle + j * nx + i, p10 = p00 + 1;
                const uint32_t p01 = p00 + nx, p11 = p01 + 1;
                uint32_t *t = out + 6 * ((size_t)j * (nx - 1) + i);
                t[0] = p00, t[1] = p10, t[2] = p11;
                t[3] = p00, t[4] = p11, t[5] = p01;
            }
    return (uint32_t)count;
}

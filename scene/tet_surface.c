/* The outward surface of a tetrahedral mesh, for drawing and exporting a tetrahedral body: the
 * faces that belong to one tetrahedron only. Each face is kept as the tetrahedron sees it from
 * outside (counter-clockwise seen from the side away from its fourth corner), so that the
 * surface's normals point out of the body. Faces are matched by their sorted vertex triple.
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct face_key {
    uint32_t sorted[3];
    uint32_t face; /* tetrahedron * 4 + the corner it is opposite */
} face_key;

static int compare_faces(const void *a, const void *b)
{
    const face_key *x = a, *y = b;
    for (int k = 0; k < 3; ++k)
        if (x->sorted[k] != y->sorted[k])
            return x->sorted[k] < y->sorted[k] ? -1 : 1;
    return (x->face > y->face) - (x->face < y->face);
}

/* The face of a right-handed tetrahedron opposite corner k, counter-clockwise from outside. */
static void outward_face(const uint32_t q[4], int k, uint32_t out[3])
{
    static const int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
    for (int i = 0; i < 3; ++i)
        out[i] = q[faces[k][i]];
}

static void sort3(uint32_t v[3])
{
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2 - i; ++j)
            if (v[j] > v[j + 1]) {
                uint32_t t = v[j];
                v[j] = v[j + 1], v[j + 1] = t;
            }
}

bool sc_tet_surface(const uint32_t *tets, uint32_t tet_count, uint32_t **out, uint32_t *count)
{
    *out = NULL;
    *count = 0;
    const size_t n = 4 * (size_t)tet_count;
    face_key *keys = malloc((n + 1) * sizeof *keys);
    uint32_t *tris = malloc((3 * n + 1) * sizeof *tris);
    if (!keys || !tris) {
        free(keys);
        free(tris);
        return false;
    }
    for (size_t f = 0; f < n; ++f) {
        outward_face(&tets[4 * (f / 4)], (int)(f % 4), keys[f].sorted);
        sort3(keys[f].sorted);
        keys[f].face = (uint32_t)f;
    }
    qsort(keys, n, sizeof *keys, compare_faces);
    uint32_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && memcmp(keys[j].sorted, keys[i].sorted, sizeof keys[i].sorted) == 0)
            ++j;
        if (j == i + 1) {
            const uint32_t f = keys[i].face;
            outward_face(&tets[4 * (size_t)(f / 4)], (int)(f % 4), &tris[3 * (size_t)m++]);
        }
        i = j;
    }
    free(keys);
    *out = tris;
    *count = m;
    return true;
}

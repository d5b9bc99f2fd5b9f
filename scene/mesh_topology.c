/* The topology a triangle mesh needs to become cloth: every edge once (a distance constraint each)
 * and every edge shared by exactly two triangles as a hinge (a dihedral bending constraint, PBD
 * paper appendix A). Edges on more than two triangles (non-manifold) get no hinge.
 *
 * Half-edges are sorted by their undirected key and then by the triangle's third vertex, so that
 * equal edges sit side by side, and two triangles on the same three vertices (however many times a
 * triangle is repeated) sit side by side within them: O(T log T) for T triangles, and the result
 * depends on nothing but the mesh.
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct half_edge {
    uint32_t lo, hi; /* the edge's vertices, lo < hi */
    uint32_t triangle;
    uint32_t corner; /* the edge runs from corner to corner + 1 of the triangle */
    uint32_t third;  /* the triangle's vertex off the edge */
} half_edge;

static int compare_half_edges(const void *pa, const void *pb)
{
    const half_edge *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->third != b->third)
        return a->third < b->third ? -1 : 1;
    if (a->triangle != b->triangle)
        return a->triangle < b->triangle ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

static uint32_t third_vertex(const uint32_t *t, uint32_t lo, uint32_t hi)
{
    for (int k = 0; k < 3; ++k)
        if (t[k] != lo && t[k] != hi)
            return t[k];
    return t[0];
}

bool sc_mesh_topology_build(const drape_mesh *m, sc_mesh_topology *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    const size_t n = 3 * (size_t)m->triangle_count;
    half_edge *he = malloc((n ? n : 1) * sizeof *he);
    out->edges = malloc((n ? n : 1) * 2 * sizeof *out->edges);
    out->hinges = malloc((n / 2 + 1) * sizeof *out->hinges);
    if (!he || !out->edges || !out->hinges) {
        free(he);
        sc_mesh_topology_free(out);
        snprintf(why, why_size, "no memory for the edges of %u triangles", m->triangle_count);
        return false;
    }
    for (uint32_t t = 0; t < m->triangle_count; ++t)
        for (uint32_t k = 0; k < 3; ++k) {
            uint32_t a = m->triangles[3 * (size_t)t + k];
            uint32_t b = m->triangles[3 * (size_t)t + (k + 1) % 3];
            uint32_t c = m->triangles[3 * (size_t)t + (k + 2) % 3];
            he[3 * (size_t)t + k] = (half_edge){a < b ? a : b, a < b ? b : a, t, k, c};
        }
    qsort(he, n, sizeof *he, compare_half_edges);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && he[j].lo == he[i].lo && he[j].hi == he[i].hi)
            ++j;
        for (size_t k = i + 1; k < j; ++k)
            if (he[k].third == he[k - 1].third) {
                uint32_t l0 = m->face_lines ? m->face_lines[he[k - 1].triangle] : 0;
                uint32_t l1 = m->face_lines ? m->face_lines[he[k].triangle] : 0;
                snprintf(why, why_size,
                         "triangles %u (line %u) and %u (line %u) are the same triangle",
                         he[k - 1].triangle, l0, he[k].triangle, l1);
                free(he);
                sc_mesh_topology_free(out);
                return false;
            }
        out->edges[2 * (size_t)out->edge_count] = he[i].lo;
        out->edges[2 * (size_t)out->edge_count + 1] = he[i].hi;
        out->edge_count++;
        if (j - i == 2) {
            /* The hinge's first triangle is the one that comes first in the mesh. */
            const half_edge *e0 = &he[i], *e1 = &he[i + 1];
            if (e1->triangle < e0->triangle)
                e0 = &he[i + 1], e1 = &he[i];
            const uint32_t *t0 = &m->triangles[3 * (size_t)e0->triangle];
            const uint32_t *t1 = &m->triangles[3 * (size_t)e1->triangle];
            sc_hinge h = {t0[e0->corner], t0[(e0->corner + 1) % 3], t0[(e0->corner + 2) % 3],
                          third_vertex(t1, e0->lo, e0->hi)};
            out->hinges[out->hinge_count++] = h;
        }
        i = j;
    }
    free(he);
    return true;
}

void sc_mesh_topology_free(sc_mesh_topology *t)
{
    free(t->edges);
    free(t->hinges);
    memset(t, 0, sizeof *t);
}

/* Area-weighted vertex normals for export: each triangle adds its unnormalised normal (twice its
 * area times the unit normal) to its three vertices, and the sums are normalised. Accumulated in
 * double so that the result does not depend on how many triangles meet at a vertex.
 */
#include "scene_internal.h"

#include <math.h>
#include <stdlib.h>

void sc_vertex_normals(const drape_vec3 *x, uint32_t n, const uint32_t *tri, uint32_t count,
                       drape_vec3 *out)
{
    double *sum = calloc((size_t)n * 3 + 1, sizeof *sum);
    if (!sum) {
        for (uint32_t i = 0; i < n; ++i)
            out[i] = (drape_vec3){0.0f, 0.0f, 0.0f};
        return;
    }
    for (uint32_t t = 0; t < count; ++t) {
        const uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
        double e1[3] = {(double)x[b].x - x[a].x, (double)x[b].y - x[a].y, (double)x[b].z - x[a].z};
        double e2[3] = {(double)x[c].x - x[a].x, (double)x[c].y - x[a].y, (double)x[c].z - x[a].z};
        double nrm[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                         e1[0] * e2[1] - e1[1] * e2[0]};
        const uint32_t v[3] = {a, b, c};
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d)
                sum[3 * (size_t)v[k] + d] += nrm[d];
    }
    for (uint32_t i = 0; i < n; ++i) {
        const double *s = &sum[3 * (size_t)i];
        double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        out[i] = len > 0.0 && isfinite(len)
                     ? (drape_vec3){(float)(s[0] / len), (float)(s[1] / len), (float)(s[2] / len)}
                     : (drape_vec3){0.0f, 0.0f, 0.0f};
    }
    free(sum);
}

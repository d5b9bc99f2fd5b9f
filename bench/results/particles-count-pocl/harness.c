/* A one-off measuring harness, not built by CMake: dr_particle_candidates (kernels/drape_shared.h,
 * compiled as C) over 65 536 equal balls (radius 1.5 cm) on a jittered lattice of pitch 3.3 cm,
 * a stand-in for the benchmark (the settled pile is not reproduced), with the hashed grid built as
 * particle_scatter builds it; prints the best of `reps` passes and a hash of every count and list,
 * so that two versions of the header can be timed and checked for the same candidates in the same
 * order. See README.md and mk.sh. Usage: harness N REPS. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "drape_shared.h"
static uint32_t rs = 12345u;
static float rnd(void)
{
    rs = rs * 1664525u + 1013904223u;
    return (float)(rs >> 8) / 16777216.0f;
}
int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 65536u,
             reps = argc > 2 ? (unsigned)atoi(argv[2]) : 5u;
    float r = 0.015f, pitch = 0.033f, cell = 2.0f * r * (1.0f + DR_NBR_MARGIN), inv = 1.0f / cell;
    unsigned side = 1;
    while (side * side * side < n)
        side++;
    unsigned nx = 64 < side ? 64 : side; /* a box 64 wide, taller */
    unsigned buckets = 64;
    while (buckets < 2u * n)
        buckets *= 2;
    unsigned mask = buckets - 1;
    dr_vec4 *anchor = malloc(n * sizeof *anchor), *shape = malloc(n * sizeof *shape),
            *ga = malloc(n * sizeof *ga);
    unsigned *group = malloc(n * 4), *gg = malloc(n * 4), *cellb = malloc(n * 4),
             *start = calloc(buckets + 2, 4), *sorted = malloc(n * 4);
    unsigned *list = malloc((size_t)n * DR_NBR_CAP * 4), *ncand = malloc(n * 4),
             *nbr = malloc(n * 4);
    for (unsigned i = 0; i < n; ++i) {
        unsigned a = i % nx, b = (i / nx) % nx, c = i / (nx * nx);
        anchor[i] = DR_V4(a * pitch + (rnd() - 0.5f) * 0.012f, c * pitch + (rnd() - 0.5f) * 0.012f,
                          b * pitch + (rnd() - 0.5f) * 0.012f, 0.0f);
        shape[i] = DR_V4(0, 0, 0, r);
        group[i] = DR_GROUP_SELF | 1u;
        cellb[i] = dr_particle_bucket(anchor[i], inv, mask);
        start[cellb[i] + 1]++;
    }
    for (unsigned k = 0; k < buckets; ++k)
        start[k + 1] += start[k];
    unsigned *at = malloc((buckets + 1) * 4);
    memcpy(at, start, (buckets + 1) * 4);
    for (unsigned i = 0; i < n; ++i) {
        unsigned k = at[cellb[i]]++;
        sorted[k] = i;
        ga[k] = DR_V4(anchor[i].x, anchor[i].y, anchor[i].z, r);
        gg[k] = group[i];
    }
    start[buckets + 1] = start[buckets];
    double best = 1e30;
    unsigned long long sum = 0, tot = 0;
    for (unsigned rep = 0; rep < reps; ++rep) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (unsigned i = 0; i < n; ++i) {
            unsigned f;
            ncand[i] = dr_particle_candidates(i, i, ga, gg, anchor, shape, group, start, sorted,
                                              inv, mask, list, &f);
            nbr[i] = f;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
        if (ms < best)
            best = ms;
    }
    for (unsigned i = 0; i < n; ++i) {
        sum = sum * 31 + ncand[i] * 7 + nbr[i];
        tot += ncand[i];
        for (unsigned k = 0; k < ncand[i] && k < DR_NBR_CAP; ++k)
            sum = sum * 131 + list[(size_t)i * DR_NBR_CAP + k];
    }
    printf("best %.2f ms  cand/particle %.2f  hash %llx\n", best, (double)tot / n, sum);
    return 0;
}

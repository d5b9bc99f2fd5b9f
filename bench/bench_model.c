/* The cost model of drape-bench (see bench_model.h): constraint counts, bytes per projection and
 * memory estimates. Kept apart from the timing code so that the model is one short file to read. */
#include "bench_model.h"

uint64_t bench_cloth_constraints(uint32_t n)
{
    const uint64_t m = n;
    if (m < 2)
        return 0;
    return 2 * m * (m - 1) + 2 * (m - 1) * (m - 1) + 2 * m * (m - 2);
}

double bench_project_bytes(uint64_t constraints, uint64_t particles, int iterations, int substeps)
{
    const double per_iteration = (double)constraints * BENCH_BYTES_PER_DISTANCE +
                                 (double)particles * BENCH_BYTES_PER_CONTACT_PASS;
    return per_iteration * iterations * substeps;
}

uint64_t bench_cloth_device_bytes(uint32_t n)
{
    const uint64_t particles = (uint64_t)n * n, constraints = bench_cloth_constraints(n);
    /* 128 B per particle, 20 B per constraint (opencl_step.c), 4 B per particle or constraint of
     * diagnostics scratch, and a quarter again for the reductions' buffers and the driver. */
    const uint64_t exact = particles * 128 + constraints * 20 + constraints * 4;
    return exact + exact / 4;
}

uint64_t bench_cloth_host_bytes(uint32_t n)
{
    const uint64_t particles = (uint64_t)n * n, constraints = bench_cloth_constraints(n);
    /* x, v, p, a, a1, the contacts' push and friction (6 x 16 B) and contacts (32 B) per particle;
     * per constraint the creation-order arrays (8 + 4 x 3 + 1 B), the solver set (8 + 4 x 4 B) and
     * the colouring's work (~32 B). */
    return particles * 128 + constraints * (21 + 24 + 32);
}

/* The cost model of drape-bench: how many constraints a benchmark cloth has, how many bytes one
 * projection moves, and how much memory a case needs before it is created.
 *
 * The numbers are written down here, once, so that the effective bandwidth the benchmark reports
 * can be checked by hand (bench/README.md, "Performance model"). They follow docs/design.md: a
 * distance projection with float4 positions moves its two indices, its parameters and both
 * positions, read and written.
 */
#ifndef BENCH_MODEL_H
#define BENCH_MODEL_H

#include <stdint.h>

/* Bytes one PBD distance projection moves in kernels/project.cl (solve_distance,
 * solve_distance_x16, solve_fused) and in the CPU reference. The solver works on displacements: a
 * particle's predicted position is x + d, x fixed during the substep, and a projection corrects d
 * along x_a - x_b (drape_shared.h, dr_distance_step).
 *   indices a, b                          2 x 4 B   read
 *   rest, material index                  2 x 4 B   read
 *   start positions x[a], x[b]            2 x 16 B  read
 *   displacements d[a], d[b]              2 x 16 B  read, and written back: 2 x 16 B
 * = 112 B. The material (k', compliance: 8 B) is one of a handful per solver set, shared by the
 * constraints that have it (dr_material), so it stays in cache and is not counted; when each
 * constraint carried its own k' and compliance the same projection moved 116 B. The first
 * estimate, ~76 B (indices, rest, two positions read and written), predates the displacement form.
 * An XPBD constraint also reads and writes its multiplier lambda (120 B); a PBD one never touches
 * it. */
#define BENCH_BYTES_PER_DISTANCE 112u
#define BENCH_BYTES_PER_DISTANCE_XPBD 120u

/* Bytes one particle moves in the contact pass that ends every iteration (project_contacts): its
 * contact record (32 B: point, normal). Particles in contact also read x and d and write d (48 B);
 * the model leaves those out, as it does not know how many there are, so it undercounts a little.
 */
#define BENCH_BYTES_PER_CONTACT_PASS 32u

/* Constraints of an n x n cloth with structural, shear and skip-one bending springs:
 * 2n(n-1) + 2(n-1)^2 + 2n(n-2). 256 x 256: 390 658; 1024 x 1024: 6 281 218. */
uint64_t bench_cloth_constraints(uint32_t n);

/* Bytes the project phase of one step moves under the model above, for `constraints` distance
 * constraints and `particles` particles (contact pass once per iteration). */
double bench_project_bytes(uint64_t constraints, uint64_t particles, int iterations, int substeps);

/* A generous estimate of the device memory (bytes) an n x n cloth needs on the OpenCL backend
 * (host/opencl/opencl_step.c: 112 B per particle, 20 B per distance constraint, plus scratch for
 * the diagnostics and the reductions), used to skip sizes a device cannot hold before trying them.
 */
uint64_t bench_cloth_device_bytes(uint32_t n);

/* The same for the host: the world's arrays in creation and colour order, and the colouring. */
uint64_t bench_cloth_host_bytes(uint32_t n);

#endif /* BENCH_MODEL_H */

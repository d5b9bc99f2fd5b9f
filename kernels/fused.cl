/* The whole projection of a substep in one launch, one work-group per independent group of
 * particles, for small cloths (solve_fused, solve_fused_local; the design below, at DR_FUSED_ARGS,
 * and docs/opencl-variants.md). A file of its own, apart from the per-colour kernels of
 * kernels/project.cl, because its body, every constraint type's core inlined colour by colour,
 * takes PoCL most of a minute to compile (the per-colour kernels: about a second), and the host
 * builds it only for worlds that may take it (host/opencl/opencl_step.c, prepare_fusion). */
#include "drape_shared.h"

/* One constraint set of solve_fused: its buffers (the second: rest lengths, attachment targets,
 * tether lengths or six rest volumes) and its range table (colors x (groups + 1) entries:
 * work-group g's constraints of colour c are the slots [ranges[c (groups + 1) + g], ranges[c
 * (groups + 1) + g + 1]), host/partition.c). */
#define DR_FUSED_SET(p, second_type, second)                                                       \
    __global const uint *p##idx, __global const second_type *p##second,                            \
        __global const uint *p##material, __global const dr_material *p##materials,                \
        __global float *p##lambda, __global const uint *p##ranges, uint p##colors, int p##xpbd

/* This work-group's constraints of colour col of a set: for (c = DR_FUSED_FROM ...; c < ..._TO). */
#define DR_FUSED_FROM(p, col) (p##ranges[(col) * (groups + 1) + g] + lid)
#define DR_FUSED_TO(p, col) p##ranges[(col) * (groups + 1) + g + 1]

/* Zeroes this work-group's XPBD multipliers of a set (the per-colour path fills them all). */
#define DR_FUSED_ZERO(p)                                                                           \
    do {                                                                                           \
        if (p##xpbd)                                                                               \
            for (uint col = 0; col < p##colors; ++col)                                             \
                for (uint c = DR_FUSED_FROM(p, col); c < DR_FUSED_TO(p, col); c += size)           \
                    p##lambda[c] = 0.0f;                                                           \
    } while (0)

/* One pass over a set, colour by colour: constraint c of n particles, whose indices are
 * p##idx[n c ...], projected by `call`, a core's call on xs_, ds_ and &l_ (DR_GATHER, DR_KEEP:
 * displacements through LOAD and STORE), which may use c and m, the constraint's material; a
 * barrier (FENCE) after each colour. */
#define DR_FUSED_PASS(p, n, FENCE, LOAD, STORE, call)                                              \
    do {                                                                                           \
        for (uint col = 0; col < p##colors; ++col) {                                               \
            for (uint c = DR_FUSED_FROM(p, col); c < DR_FUSED_TO(p, col); c += size) {             \
                uint ix[n];                                                                        \
                for (int k = 0; k < (n); ++k)                                                      \
                    ix[k] = p##idx[(n)*c + k];                                                     \
                const dr_material m = p##materials[p##material[c]];                                \
                DR_GATHER(n, ix, x, LOAD, m.compliance, &p##lambda[c]);                            \
                DR_KEEP(call, n, ix, STORE, m.compliance, &p##lambda[c]);                          \
            }                                                                                      \
            barrier(FENCE);                                                                        \
        }                                                                                          \
    } while (0)

/* The whole projection of a substep in one launch, one work-group per independent group of
 * particles (a cloth, or several small ones: host/partition.c), for cloths small enough that
 * launches, not arithmetic, bound the step (the approach of NvCloth and of Kim et al., "Long Range
 * Attachments", 2012: one cloth per work-group): the group's XPBD multipliers zeroed, then
 * `iterations` times every constraint type colour by colour (in drape_constraint_type order:
 * distance, dihedral, attachment, tether, volume) and the contacts of the group's particles
 * [first[g], first[g + 1]), with a barrier after each colour, so that each group sees the
 * Gauss-Seidel order and every operation of the per-colour launches: bitwise the same results, one
 * launch instead of iterations x (colours + 1). No constraint reaches outside its group, so groups
 * need no barrier between them. Launched over `groups` work-groups. The host takes it only for
 * worlds whose constraint types are all among these five. The body is written once over the
 * displacements' accessors (LOAD, STORE) and the barriers' FENCE: solve_fused keeps them in global
 * memory, solve_fused_local in the work-group's local memory (docs/opencl-variants.md).
 */
#define DR_FUSED_ARGS                                                                              \
    __global const float4 *x, __global float4 *d, __global const dr_contact *contacts,             \
        __global const dr_collider *colliders, uint collider_count, float t, float h,              \
        float margin, __global const float *inflate, __global float4 *held,                        \
        __global const uint *first, float inv_h2, float sag, int iterations, uint groups,          \
        DR_FUSED_SET(s_, float, rest), DR_FUSED_SET(b_, float, rest),                              \
        DR_FUSED_SET(a_, float4, target), DR_FUSED_SET(t_, float, rest),                           \
        DR_FUSED_SET(v_, float, rest)
/* A core's first arguments (the gathered particles) and a constraint's stiffness, compliance and
 * the substep's 1 / h^2, as the cores take them. */
#define DR_XD xs_, ds_
#define DR_KC m.kprime, m.compliance, inv_h2
#define DR_FUSED_BODY(FENCE, LOAD, STORE)                                                          \
    do {                                                                                           \
        DR_FUSED_ZERO(s_);                                                                         \
        DR_FUSED_ZERO(b_);                                                                         \
        DR_FUSED_ZERO(a_);                                                                         \
        DR_FUSED_ZERO(t_);                                                                         \
        DR_FUSED_ZERO(v_);                                                                         \
        barrier(CLK_GLOBAL_MEM_FENCE);                                                             \
        for (int it = 0; it < iterations; ++it) {                                                  \
            DR_FUSED_PASS(s_, 2, FENCE, LOAD, STORE,                                               \
                          dr_distance_core(DR_XD, s_rest[c], DR_KC, sag, &l_));                    \
            DR_FUSED_PASS(b_, 4, FENCE, LOAD, STORE,                                               \
                          dr_dihedral_core(DR_XD, b_rest[c], DR_KC, &l_));                         \
            DR_FUSED_PASS(a_, 1, FENCE, LOAD, STORE,                                               \
                          dr_attachment_core(DR_XD, a_target[c], DR_KC, &l_));                     \
            DR_FUSED_PASS(t_, 2, FENCE, LOAD, STORE,                                               \
                          dr_tether_core(DR_XD, t_rest[c], DR_KC, sag, &l_));                      \
            DR_FUSED_PASS(v_, 4, FENCE, LOAD, STORE,                                               \
                          dr_volume_core(DR_XD, v_rest[c], DR_KC, &l_));                           \
            if (collider_count) {                                                                  \
                for (uint i = first[g] + lid; i < first[g + 1]; i += size)                         \
                    DR_CONTACT_PASS(LOAD, STORE, i);                                               \
                barrier(FENCE);                                                                    \
            }                                                                                      \
        }                                                                                          \
    } while (0)

__kernel void solve_fused(DR_FUSED_ARGS)
{
    const uint lid = get_local_id(0), size = get_local_size(0), g = get_group_id(0);
    DR_FUSED_BODY(CLK_GLOBAL_MEM_FENCE, DR_LOAD_D, DR_STORE_D);
}

/* The work-group's displacements in local memory: the xyz of particle i at ld[3 (i - base)], 12
 * bytes a particle so that a 64 x 64 cloth fits the 48 kB of an NVIDIA work-group; the inverse
 * mass w from global d, which no one writes during the projection (every write keeps w). */
#define DR_LOAD_LOCAL(i) ((float4)(vload3((i)-base, ld), d[i].w))
#define DR_STORE_LOCAL(i, v) vstore3((v).xyz, (i)-base, ld)

/* solve_fused with the group's displacements in local memory for the whole projection: loaded at
 * the start, the barriers between colours on local memory only, written back at the end. The same
 * values in the same order: bitwise solve_fused's results. ld holds 3 floats per particle of the
 * largest group; the host takes it only where that fits the device's local memory. */
__kernel void solve_fused_local(DR_FUSED_ARGS, __local float *ld)
{
    const uint lid = get_local_id(0), size = get_local_size(0), g = get_group_id(0);
    const uint base = first[g], end = first[g + 1];
    for (uint i = base + lid; i < end; i += size)
        vstore3(d[i].xyz, i - base, ld);
    barrier(CLK_LOCAL_MEM_FENCE);
    DR_FUSED_BODY(CLK_LOCAL_MEM_FENCE, DR_LOAD_LOCAL, DR_STORE_LOCAL);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = base + lid; i < end; i += size)
        d[i] = (float4)(vload3(i - base, ld), d[i].w);
}

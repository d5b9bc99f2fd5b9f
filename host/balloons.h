/* Balloons' host state (host/balloons.c), shared with their OpenCL half
 * (host/opencl/balloons_opencl.c). */
#ifndef DRAPE_HOST_BALLOONS_H
#define DRAPE_HOST_BALLOONS_H

#include "world_internal.h"

#include "../kernels/drape_balloon.h"

/* One closed mesh under pressure. Its vertices are numbered locally (0 .. vertex_count - 1, in
 * increasing particle order); the adjacency is over local vertices, the triangles name particles.
 */
typedef struct dr_balloon {
    uint32_t triangle_count, vertex_count;
    uint32_t *triangles; /* 3 * triangle_count particle indices, outward */
    uint32_t *vertices;  /* vertex_count particle indices, increasing */
    uint32_t *offsets;   /* vertex_count + 1, into incident */
    uint32_t *incident;  /* 3 * triangle_count triangle ids */
    float rest_volume;   /* V0, m^3 */
    float pressure;      /* k_pressure */
    float stiffness, compliance;
    double born;        /* the world's time when it was added, s: its inflation starts there */
    dr_vec4 state;      /* the CPU reference's (lambda, its last step, V (m^3), 0) */
    dr_vec4 *gradients; /* the CPU reference's, grad V at the substep's start (m^2) per vertex */
} dr_balloon;

typedef struct dr_balloons {
    uint32_t count, capacity;
    dr_balloon *items;
    dr_wide partial[2 * DR_SUM_LANES]; /* the CPU reference's lane sums */
    uint64_t version;                  /* changes whenever a balloon is added */
} dr_balloons;

/* The volume (m^3) that balloon b is held at in the substep that starts at the world's time t (s):
 * its pressure times V0, reached from V0 by doubling (or halving) at most every
 * DR_BALLOON_DOUBLING seconds since it was added. The host works it out for both backends. */
float dr_balloon_target(const dr_balloon *b, double t);

#if DRAPE_HAVE_OPENCL
/* The device half (host/opencl/balloons_opencl.c): every balloon projected once, on the device's x
 * and d; start_substep zeroes the multipliers first. *state is made on first use. */
struct dr_balloons_cl;
struct dr_cl_context;
struct _cl_mem;
drape_result dr_balloons_cl_project(struct dr_cl_context *ctx, struct dr_balloons_cl **state,
                                    const drape_world *w, struct _cl_mem *x, struct _cl_mem *d,
                                    float h, bool start_substep, int phase);
void dr_balloons_cl_destroy(struct dr_cl_context *ctx, struct dr_balloons_cl *state);
#endif

#endif

/* The aerodynamics' host state (host/aero.c), shared with its OpenCL half
 * (host/opencl/aero_opencl.c). */
#ifndef DRAPE_HOST_AERO_H
#define DRAPE_HOST_AERO_H

#include "world_internal.h"

#include "../kernels/drape_aero.h"

typedef struct dr_aero {
    drape_aero_def def;
    uint32_t count, capacity; /* triangles */
    uint32_t *triangles;      /* 3 * count particle indices */
    uint32_t vertex_count;    /* particles the adjacency covers */
    uint32_t *offsets;        /* vertex_count + 1, into incident */
    uint32_t *incident;       /* 3 * count triangle ids */
    dr_vec4 *forces;          /* the CPU reference's force per triangle (N) */
    uint64_t version; /* changes whenever triangles or adjacency do: the device re-uploads */
} dr_aero;

/* The kernels' parameters: coeff = (C_D, C_L, rho, turbulence), flow = (wind, 1 / gust length). */
void dr_aero_params(const drape_world *w, dr_vec4 *coeff, dr_vec4 *flow);

#if DRAPE_HAVE_OPENCL
/* The device half (host/opencl/aero_opencl.c): lift and drag into the device's velocities v for a
 * substep of h, from positions x; *state is made on first use and freed by dr_aero_cl_destroy. */
struct dr_aero_cl;
struct dr_cl_context;
struct _cl_mem;
drape_result dr_aero_cl_predict(struct dr_cl_context *ctx, struct dr_aero_cl **state,
                                const drape_world *w, struct _cl_mem *x, struct _cl_mem *v, float h,
                                int phase);
void dr_aero_cl_destroy(struct dr_cl_context *ctx, struct dr_aero_cl *state);
#endif

#endif

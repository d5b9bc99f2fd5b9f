/* Balloons: the pressure constraint (kernels/drape_balloon.h). Once per balloon and substep every
 * vertex's gradient at the substep's start (from its neighbours); then three launches per balloon
 * and iteration: the lanes' partial sums, the multiplier step (one work-item), and the move of
 * every vertex. The particle `origin` is the balloon's first: its position at the substep's start
 * is the origin of the volume.
 */
#include "drape_balloon.h"

__kernel void balloon_gradients(__global float4 *g, __global const float4 *x,
                                __global const uint *triangles, __global const uint *offsets,
                                __global const uint *incident, __global const uint *vertices,
                                uint origin, uint count)
{
    uint v = get_global_id(0);
    if (v >= count)
        return;
    g[v] = dr_balloon_gradient(x, triangles, incident, offsets[v], offsets[v + 1], vertices[v],
                               x[origin]);
}

__kernel void balloon_lanes(__global dr_wide *partial, __global const float4 *x,
                            __global const float4 *d, __global const uint *triangles,
                            uint triangle_count, __global const float4 *g, uint vertex_count,
                            uint origin)
{
    uint lane = get_global_id(0);
    if (lane >= DR_SUM_LANES)
        return;
    dr_wide sums[2];
    dr_balloon_lane(x, d, triangles, triangle_count, g, vertex_count, x[origin], lane, sums);
    partial[2 * lane] = sums[0];
    partial[2 * lane + 1] = sums[1];
}

__kernel void balloon_step(__global float4 *state, __global const dr_wide *partial, float target,
                           float kprime, float compliance, float inv_h2)
{
    if (get_global_id(0) != 0)
        return;
    state[0] = dr_balloon_step(partial, target, kprime, compliance, inv_h2, state[0]);
}

__kernel void balloon_apply(__global float4 *d, __global const float4 *g,
                            __global const uint *vertices, __global const float4 *state, uint count)
{
    uint v = get_global_id(0);
    if (v >= count)
        return;
    uint i = vertices[v];
    d[i] = dr_balloon_apply(d[i], g[v], state[0].y);
}

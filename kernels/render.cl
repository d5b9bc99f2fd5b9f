/* The viewer's vertex data: each particle's position (w = 0) and unit area-weighted normal, written
 * into two float4 buffers, which on a device with cl_khr_gl_sharing are the viewer's own OpenGL
 * vertex buffers (host/render.c acquires them around this launch). One work-item per particle, each
 * gathering over its incident triangles (dr_vertex_normal in kernels/drape_shared.h, which the CPU
 * path runs too), so no two work-items write one vertex. */
#include "drape_shared.h"

__kernel void render_vertices(__global float4 *positions, __global float4 *normals,
                              __global const float4 *x, __global const uint *triangles,
                              __global const uint *offsets, __global const uint *incident, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    positions[i] = dr_render_position(x[i]);
    normals[i] = dr_vertex_normal(x, triangles, incident, offsets[i], offsets[i + 1]);
}

/* The mass-spring mode on the device (after the Taichi mass-spring cloth demo): Hooke springs with
 * damping along each spring, integrated by semi-implicit Euler or velocity Verlet
 * (host/cpu/mass_spring.c holds the same loop on the CPU). Spring forces scatter into the force
 * array colour by colour: springs of one colour share no movable particle, so the adds do not race;
 * pinned particles, which springs of one colour may share, get no force. */
#include "drape_shared.h"

__kernel void clear_forces(__global float4 *force, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        force[i] = (float4)(0.0f);
}

/* Particle i's position: x, or x + d where the forces are taken at the end of the substep. */
static float4 position(__global const float4 *x, __global const float4 *d, int use_d, uint i)
{
    return use_d ? dr_add3(x[i], d[i]) : x[i];
}

__kernel void spring_forces(__global float4 *force, __global const float4 *x,
                            __global const float4 *d, int use_d, __global const float4 *vel,
                            __global const uint *idx, __global const float *rest,
                            __global const uint *material, __global const dr_material *materials,
                            float default_stiffness, float damping, uint offset, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k, a = idx[2 * c], b = idx[2 * c + 1];
    float4 pa = position(x, d, use_d, a), pb = position(x, d, use_d, b);
    float4 f = dr_spring_force(
        pa, pb, vel[a], vel[b], rest[c],
        dr_spring_constant(materials[material[c]].compliance, default_stiffness), damping);
    if (pa.w > 0.0f)
        force[a] = dr_add3(force[a], f);
    if (pb.w > 0.0f)
        force[b] = dr_sub3(force[b], f);
}

__kernel void attachment_forces(__global float4 *force, __global const float4 *x,
                                __global const float4 *d, int use_d, __global const float4 *vel,
                                __global const uint *idx, __global const float4 *target,
                                __global const uint *material,
                                __global const dr_material *materials, float default_stiffness,
                                float damping, uint offset, uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint c = offset + k, a = idx[c];
    float4 pa = position(x, d, use_d, a);
    if (!(pa.w > 0.0f)) /* pinned: attachments of one colour may share it, and it gets no force */
        return;
    float4 f = dr_spring_force(
        pa, target[c], vel[a], (float4)(0.0f), 0.0f,
        dr_spring_constant(materials[material[c]].compliance, default_stiffness), damping);
    force[a] = dr_add3(force[a], f);
}

/* force -> acceleration, in place. x carries the inverse masses. */
__kernel void spring_accel(__global float4 *acc, __global const float4 *x,
                           __global const float4 *vel, float4 gravity, float4 wind, float drag,
                           uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    acc[i] = dr_mass_spring_accel(acc[i], x[i].w, vel[i], gravity, wind, drag);
}

__kernel void euler_integrate(__global float4 *d, __global float4 *v, __global const float4 *x,
                              __global const float4 *acc, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 vi = v[i];
    d[i] = dr_euler_step(x[i], &vi, acc[i], h);
    v[i] = vi;
}

/* Velocity Verlet, first half: d = h v + h^2/2 a0, and v becomes v + h a0. */
__kernel void verlet_begin(__global float4 *d, __global float4 *v, __global const float4 *x,
                           __global const float4 *acc, float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 vi = v[i];
    d[i] = dr_verlet_begin(x[i], &vi, acc[i], h);
    v[i] = vi;
}

/* Second half, with a1 = a(x + d, v + h a0): v = v + h a0 + h/2 (a1 - a0). */
__kernel void verlet_end(__global float4 *v, __global const float4 *a0, __global const float4 *a1,
                         float h, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_verlet_end(v[i], a0[i], a1[i], h);
}

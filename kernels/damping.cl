/* Momentum-preserving damping on the device (Müller et al. 2007, section 3.5).
 *
 * damp_moments computes each particle's row of mass moments (kernels/drape_shared.h) about the
 * position of particle `origin` and sums the rows of its work group in local memory, in a fixed
 * tree order (every component the same); CLBlast's GEMV then sums the work groups' rows (the global
 * reduction); damp_solve, a single work-item, turns the sums into the rigid motion; damp_apply
 * pulls each velocity towards it. Nothing leaves the device. The sums are doubles where the device
 * has them, as on the CPU, so that the summation order barely matters: both backends round the same
 * double sums to the same floats, which keeps them in parity on folding cloth, where a one-ulp
 * difference would grow. */
#include "drape_shared.h"

#if (DR_WG_SIZE & (DR_WG_SIZE - 1)) != 0
#error "damp_moments needs a power-of-two work-group size"
#endif

__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
damp_moments(__global dr_wide *partials, __global const float4 *x, __global const float4 *v,
             uint origin, uint n)
{
    /* the work group's rows, component c of work-item l at part[c * DR_WG_SIZE + l]: one tree
     * for all the components at once, so that a CPU device, which runs each stretch between
     * barriers as a loop over the work group, takes log2(DR_WG_SIZE) + 1 of them rather than
     * DR_DAMP_ROW times as many (20 KiB of local memory at 128 work-items) */
    __local dr_wide part[DR_DAMP_ROW * DR_WG_SIZE];
    uint i = get_global_id(0), l = get_local_id(0);
    float row[DR_DAMP_ROW];
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        row[c] = 0.0f;
    if (i < n)
        dr_damp_moments(x[i], v[i], x[origin], row);
    for (int c = 0; c < DR_DAMP_ROW; ++c)
        part[c * DR_WG_SIZE + l] = (dr_wide)row[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = DR_WG_SIZE / 2; s > 0; s >>= 1) {
        if (l < s)
            for (int c = 0; c < DR_DAMP_ROW; ++c)
                part[c * DR_WG_SIZE + l] += part[c * DR_WG_SIZE + l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint c = l; c < DR_DAMP_ROW; c += DR_WG_SIZE)
        partials[get_group_id(0) * DR_DAMP_ROW + c] = part[c * DR_WG_SIZE];
}

/* rigid[0..2] = centre of mass, its velocity, omega. */
__kernel void damp_solve(__global float4 *rigid, __global const dr_wide *sums,
                         __global const float4 *x, uint origin)
{
    if (get_global_id(0) != 0)
        return;
    dr_wide s[DR_DAMP_ROW];
    for (int k = 0; k < DR_DAMP_ROW; ++k)
        s[k] = sums[k];
    float4 out[3];
    dr_rigid_motion(s, x[origin], out);
    rigid[0] = out[0];
    rigid[1] = out[1];
    rigid[2] = out[2];
}

__kernel void damp_apply(__global float4 *v, __global const float4 *x, __global const float4 *rigid,
                         float k, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    v[i] = dr_damp_velocity(v[i], x[i], rigid[0], rigid[1], rigid[2], k);
}

/* The tearing check on the device (host/opencl/tear_opencl.c): one work-item per breakable link,
 * which lowers check[slot] to its index (atomic minimum; DR_NO_PARTICLE: none) when the link is
 * longer than its threshold (m: its limit times its rest length, a little less, so that the device
 * never misses a link the host's exact check would break). The slot sits beside the non-finite
 * check, read with it after the step in one read; the host reads the positions back only when it
 * is set: a step that tears nothing moves four bytes more. */
#include "drape_shared.h"

__kernel void tear_watch(__global const float4 *x, __global const uint *pairs,
                         __global const float *threshold, uint count, __global uint *check,
                         uint slot)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    if (dr_len3(dr_sub3(x[pairs[2 * k]], x[pairs[2 * k + 1]])) > threshold[k])
        atomic_min(&check[slot], k);
}

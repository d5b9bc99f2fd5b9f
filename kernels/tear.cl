/* The tearing check on the device (host/opencl/tear_opencl.c): one work-item per breakable link,
 * which raises *flag when the link is longer than its threshold (m: its limit times its rest
 * length, a little less, so that the device never misses a link the host's exact check would
 * break). The host reads the flag, one uint, after the step and reads the positions back only when
 * it is set: a step that tears nothing moves four bytes. */
#include "drape_shared.h"

__kernel void tear_watch(__global const float4 *x, __global const uint *pairs,
                         __global const float *threshold, uint count, __global uint *flag)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    if (dr_len3(dr_sub3(x[pairs[2 * k]], x[pairs[2 * k + 1]])) > threshold[k])
        atomic_or(flag, 1u);
}

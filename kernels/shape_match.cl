/* Shape-matched clusters, one launch per colour of clusters: a work-item per cluster, which loops
 * over its members (dr_shape_match in drape_shared.h). Slot s of the colour order is cluster id[s];
 * its rotation, the warm start of the next fit, is kept by cluster id. */
#include "drape_shared.h"

__kernel void shape_match(__global const float4 *x, __global float4 *d,
                          __global const uint *members, __global const float4 *rest,
                          __global const uint *range, __global const float *kprime,
                          __global const uint *id, __global float4 *rotation, uint offset,
                          uint count)
{
    uint k = get_global_id(0);
    if (k >= count)
        return;
    uint s = offset + k;
    dr_shape_match(x, d, members, rest, range[2 * s], range[2 * s + 1], kprime[s],
                   &rotation[id[s]]);
}

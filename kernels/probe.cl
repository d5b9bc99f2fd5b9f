/* Probe kernels: the smallest real users of the OpenCL chain, and the copy-bandwidth probe.
 *
 * copy_float4 streams n float4 from src to dst. Benchmarks time it to measure the device's copy
 * bandwidth, against which the solver's effective bandwidth is reported (docs/design.md,
 * "Performance model"). scale3_float4 scales xyz and keeps w through drape_shared.h, so the tests
 * see the whole chain work: embedding, the spliced shared header, the tunables header (DR_WG_SIZE),
 * build, the program cache and dr_cl_launch_1d. The global size is rounded up to whole work groups,
 * so each work item checks its index against n.
 */
#include "drape_shared.h"

__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
copy_float4(__global const float4 *restrict src, __global float4 *restrict dst, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}

/* dst = (src.xyz * s, src.w): a particle's position scaled about the origin, inverse mass kept. */
__kernel __attribute__((reqd_work_group_size(DR_WG_SIZE, 1, 1))) void
scale3_float4(__global const float4 *restrict src, __global float4 *restrict dst, uint n, float s)
{
    uint i = get_global_id(0);
    if (i < n)
        dst[i] = dr_scale3(src[i], s);
}

/* The ceiling: a copy-bandwidth probe of an OpenCL device, measured in the same run as the solver.
 *
 * kernels/probe.cl's copy_float4 streams one buffer into another through drape_opencl, timed with
 * profiling events (device time, no host clock). Bandwidth counts both directions: 2 x bytes /
 * time, the way clpeak and STREAM's copy count it. The solver's effective bandwidth is reported as
 * a fraction of this figure.
 */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct bench_probe {
    char selector[64]; /* the device selector it was run with */
    char device[320];  /* the device in words */
    bool ok;
    char error[256]; /* why not, when !ok */
    uint64_t bytes;  /* per buffer */
    int repetitions;
    double gbs_median; /* GB/s (1e9 B/s), median over repetitions */
    double gbs_max;
} bench_probe;

/* Measures the device named by `selector` with two buffers of `mib` MiB (less if the device cannot
 * hold them), `repetitions` timed copies after one warm-up copy. Never fails the run: on failure
 * out->ok is false and out->error says why. */
void bench_probe_run(const char *selector, uint32_t mib, int repetitions, bench_probe *out);

#endif /* BENCH_PROBE_H */

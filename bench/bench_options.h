/* The command line of drape-bench: what to sweep and where to write it. */
#ifndef BENCH_OPTIONS_H
#define BENCH_OPTIONS_H

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

#define BENCH_MAX_LIST 16

typedef struct bench_options {
    uint32_t sizes[BENCH_MAX_LIST]; /* cloth n for n x n particles */
    int size_count;
    int iterations[BENCH_MAX_LIST];
    int iteration_count;
    int substeps[BENCH_MAX_LIST];
    int substep_count;
    bool cpu;    /* run the CPU reference */
    bool opencl; /* run OpenCL devices: those named by --device, else every device */
    const char *devices[BENCH_MAX_LIST]; /* --device selectors (index or part of a name) */
    int device_count;
    double target_ms;   /* wall time of one repetition; the step count is calibrated to it */
    int repetitions;    /* timed repetitions per case (median and spread over them) */
    double warmup_ms;   /* untimed stepping before calibration */
    uint32_t probe_mib; /* size of each buffer of the copy-bandwidth probe, MiB; 0: no probe */
    bool quick;         /* the small sweep the test suite runs */
    drape_distance_kernel kernels[BENCH_MAX_LIST]; /* OpenCL kernel variants (--kernels); AUTO */
    int kernel_count;
    uint32_t cloths; /* --scene many-cloths: cloths per world (--count); 0: the cloth on a sphere */
    uint32_t queue;  /* --queue: steps per drape_world_step_n call of the pipelined pass; 1: none */
    bool sizes_set, iterations_set, substeps_set; /* given on the command line */
    const char *json_path, *csv_path;             /* NULL: not written */
} bench_options;

/* Fills *out from argv. Returns 0 to run, 1 when --help was printed (exit 0), 2 on a bad command
 * line (a message on stderr; exit 2). */
int bench_parse_options(int argc, char **argv, bench_options *out);

void bench_print_help(const char *program);

#endif /* BENCH_OPTIONS_H */

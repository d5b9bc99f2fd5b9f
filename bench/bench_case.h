/* One benchmark case: a cloth of n x n particles dropped on a sphere (or, in the many-cloths scene,
 * `cloths` such cloths side by side over a ground plane, in one world), stepped on one backend with
 * given iterations and substeps; warmed up, calibrated to a target time, timed over repetitions. */
#ifndef BENCH_CASE_H
#define BENCH_CASE_H

#include "bench_stats.h"

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct bench_case_def {
    drape_backend backend; /* CPU or OPENCL */
    const char *device;    /* OpenCL device selector; NULL on the CPU */
    uint32_t size;         /* n */
    int iterations, substeps;
    double target_ms, warmup_ms;
    int repetitions;
    uint64_t memory_available; /* bytes of device (OpenCL) or host (CPU) memory; 0: unknown */
    uint32_t cloths; /* 0: the cloth on a sphere; N >= 1: the many-cloths scene, N cloths */
    drape_distance_kernel kernel; /* OpenCL: the projection kernel asked for; default AUTO */
    uint32_t queue; /* steps queued per call of the pipelined pass (drape_world_step_n); <= 1:
                       none */
} bench_case_def;

typedef struct bench_result {
    bench_case_def def;
    char backend[8];  /* "cpu" or "opencl" */
    char device[320]; /* the device in words, as drape_world_device says */
    char status[200]; /* "ok", or why the case was skipped or failed */
    char kernel[16];  /* the projection kernel the world ran (drape_distance_kernel_name); "-"
                         on the CPU */
    bool ok;
    bool skipped; /* not run: too large for the memory (not a failure) */
    uint64_t particles, constraints;
    uint32_t colors;
    double setup_ms; /* world creation, cloth, colouring and the first step (upload, build) */
    int warmup_steps, steps_per_rep;
    bench_summary wall_ms; /* wall ms per step over the repetitions, profiling off, one step per
                              call (drape_world_step) */
    double device_ms;      /* median of predict + collide + project + update */
    double predict_ms, collide_ms, project_ms, update_ms; /* medians per step */
    double launches_per_step;         /* OpenCL commands enqueued per step; 0 on the CPU */
    double projections_per_step;      /* constraints x iterations x substeps */
    double projections_per_s;         /* per wall second (median) */
    double project_projections_per_s; /* per second of the project phase */
    double project_bytes_per_step;    /* bench_model.h */
    double effective_gbs;             /* project bytes / project-phase time, GB/s */
    double copy_gbs;                  /* the device's copy probe (median), 0: none */
    double copy_fraction;             /* effective_gbs / copy_gbs, 0: none */
    double residual;                  /* distance residual RMS (m) after the last step */
    double simulated_s;               /* simulated time when the residual was taken */
    uint64_t device_bytes;            /* bytes in OpenCL buffers; 0 on the CPU */
    double speedup;                   /* CPU reference ms / this ms, same run; 0: none */
    double load;                      /* the machine's 1-minute load average at the start */
    /* many-cloths, the world of `cloths` cloths: the one-cloth world of the same backend and run,
     * its ms and launches per step, and its ms times `cloths` over this case's; 0: none */
    double one_cloth_ms, one_cloth_launches, batch_speedup;
    /* the pipelined pass: def.queue steps per drape_world_step_n call, no host wait between them;
     * wall ms per step over the repetitions and projections per wall second; 0: not run */
    bench_summary queued_ms;
    double queued_projections_per_s;
    double profiled_ms; /* wall ms per step of the profiled pass (events on), for its overhead */
    int profiled_steps; /* steps per repetition of the profiled pass */
} bench_result;

/* Runs one case into *out (never fails the run: out->ok and out->status tell). */
void bench_case_run(const bench_case_def *def, bench_result *out);

#endif /* BENCH_CASE_H */

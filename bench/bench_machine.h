/* What the benchmark ran on, recorded beside the figures: the CPU, its cores, the load of the
 * machine before and after the run (a busy machine explains slow figures), and the OpenCL devices.
 */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#include <drape/drape.h>
#include <stdint.h>

#define BENCH_MAX_DEVICES 16

typedef struct bench_machine {
    char cpu[128];         /* model name from /proc/cpuinfo, "unknown" elsewhere */
    int cores;             /* online logical CPUs */
    uint64_t memory;       /* bytes of physical memory, 0 if unknown */
    double load_before[3]; /* 1, 5, 15 min load averages; -1 if unknown */
    double load_after[3];
    char started[32]; /* UTC, ISO 8601 */
    drape_device_info devices[BENCH_MAX_DEVICES];
    uint32_t device_count; /* devices listed (at most BENCH_MAX_DEVICES) */
} bench_machine;

/* Fills everything but load_after. Listing no OpenCL device is not an error. */
void bench_machine_describe(bench_machine *out);

/* Reads the load averages into load[3] (-1 each if unknown). */
void bench_machine_load(double load[3]);

#endif /* BENCH_MACHINE_H */

/* Timing and summary statistics for drape-bench: a monotonic clock, and the median and spread of
 * a few repetitions (clpeak style: warm up, calibrate, repeat, report the median). */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

/* Milliseconds on CLOCK_MONOTONIC, from an arbitrary origin. */
double bench_now_ms(void);

/* Summary of n samples: median, smallest, largest, and the spread (largest - smallest) / median. */
typedef struct bench_summary {
    double median, min, max, spread;
    size_t n;
} bench_summary;

/* Summarises values[0 .. n-1] (reordered in place). n == 0 gives all zeros. */
bench_summary bench_summarize(double *values, size_t n);

/* The median of values[0 .. n-1] (reordered in place); 0 for n == 0. */
double bench_median(double *values, size_t n);

#endif /* BENCH_STATS_H */

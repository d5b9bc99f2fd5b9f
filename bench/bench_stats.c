/* The benchmark's clock and statistics (bench_stats.h). CLOCK_MONOTONIC, because wall-clock time
 * jumps; medians, because one slow repetition on a shared machine should not move the figure. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench_stats.h"

#include <stdlib.h>
#include <time.h>

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *values, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

bench_summary bench_summarize(double *values, size_t n)
{
    bench_summary s = {0.0, 0.0, 0.0, 0.0, n};
    if (n == 0)
        return s;
    s.median = bench_median(values, n); /* sorts */
    s.min = values[0];
    s.max = values[n - 1];
    s.spread = s.median > 0.0 ? (s.max - s.min) / s.median : 0.0;
    return s;
}

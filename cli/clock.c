/* Wall-clock time for the command's timings and the progress bar: CLOCK_MONOTONIC, in seconds. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <time.h>

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

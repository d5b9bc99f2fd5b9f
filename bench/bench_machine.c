/* The machine description of a benchmark run (bench_machine.h), from Linux's /proc where it exists
 * and drape_list_devices for the OpenCL devices. */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "bench_machine.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void quiet_log(drape_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *colon = strchr(line, ':');
        if (!colon)
            break;
        colon += 1 + (colon[1] == ' ');
        snprintf(out, size, "%s", colon);
        out[strcspn(out, "\n")] = '\0';
        break;
    }
    fclose(f);
}

void bench_machine_load(double load[3])
{
    load[0] = load[1] = load[2] = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
        load[0] = load[1] = load[2] = -1.0;
    fclose(f);
}

void bench_machine_describe(bench_machine *out)
{
    memset(out, 0, sizeof *out);
    cpu_model(out->cpu, sizeof out->cpu);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    out->cores = cores > 0 ? (int)cores : 0;
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        out->memory = (uint64_t)pages * (uint64_t)page;
#endif
    bench_machine_load(out->load_before);
    out->load_after[0] = out->load_after[1] = out->load_after[2] = -1.0;
    time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc))
        strftime(out->started, sizeof out->started, "%Y-%m-%dT%H:%M:%SZ", &utc);
    uint32_t count = 0;
    if (drape_list_devices(out->devices, BENCH_MAX_DEVICES, &count, quiet_log, NULL) == DRAPE_OK)
        out->device_count = count < BENCH_MAX_DEVICES ? count : BENCH_MAX_DEVICES;
}

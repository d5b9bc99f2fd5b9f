/* Memory before it is spent: what a world will need once it holds more particles and constraints,
 * and what this process can still allocate. A builder compares the two before it allocates
 * anything, so that a cloth far too large for the machine fails at once with the size it asked
 * for, instead of being killed minutes later by the system's out-of-memory killer (Linux grants
 * allocations lazily, so malloc alone would not fail).
 *
 * What the process can allocate is the smaller of the memory the system has available
 * (/proc/meminfo: MemAvailable plus SwapFree) and what the address-space limit (RLIMIT_AS, as
 * `prlimit --as` or `ulimit -v` set it) leaves above the process's current size (/proc/self/statm).
 * Where neither can be read, nothing is refused; nor is an addition of less than 64 MiB. On a CPU
 * OpenCL device (PoCL) the device's buffers are host memory as well, and count as a second copy.
 */
#define _DEFAULT_SOURCE /* getrlimit, sysconf */
#include "world_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* A "Key:   123 kB" line of /proc/meminfo, in bytes; false when absent. */
static bool meminfo_bytes(const char *text, const char *key, uint64_t *out)
{
    const char *at = strstr(text, key);
    unsigned long long kb;
    if (!at || sscanf(at + strlen(key), " %llu", &kb) != 1)
        return false;
    *out = (uint64_t)kb * 1024u;
    return true;
}

uint64_t drape_host_memory_available(void)
{
    uint64_t available = UINT64_MAX;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char text[4096];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        uint64_t mem, swap = 0;
        if (meminfo_bytes(text, "MemAvailable:", &mem)) {
            meminfo_bytes(text, "SwapFree:", &swap);
            available = mem + swap;
        }
    }
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        uint64_t used = 0;
        unsigned long long pages;
        FILE *statm = fopen("/proc/self/statm", "r");
        if (statm) {
            long page = sysconf(_SC_PAGESIZE);
            if (fscanf(statm, "%llu", &pages) == 1 && page > 0)
                used = (uint64_t)pages * (uint64_t)page;
            fclose(statm);
        }
        uint64_t left = (uint64_t)limit.rlim_cur > used ? (uint64_t)limit.rlim_cur - used : 0;
        if (left < available)
            available = left;
    }
    return available;
}

drape_result dr_check_memory(const drape_world *w, const char *fn, const char *what,
                             uint64_t particles, uint64_t distances, uint64_t dihedrals)
{
    return dr_check_memory_extra(w, fn, what, particles, distances, dihedrals, 0);
}

drape_result dr_check_memory_extra(const drape_world *w, const char *fn, const char *what,
                                   uint64_t particles, uint64_t distances, uint64_t dihedrals,
                                   uint64_t extra)
{
    uint64_t need = dr_world_bytes_for(w, particles, distances, dihedrals);
    /* On a CPU device the OpenCL buffers, a second copy of the state, take host memory too; the
     * extra is there once (the particle contacts' grid lives on the host or on the device). */
    if (w->cl && dr_opencl_uses_host_memory(w->cl))
        need *= 2;
    need += extra;
    /* Small additions are not worth asking the system about (a scene of 40,000 ropes would read
     * /proc/meminfo 40,000 times): an allocation of a few MiB that fails still fails cleanly. */
    if (need - dr_world_bytes_for(w, 0, 0, 0) < ((uint64_t)64 << 20))
        return DRAPE_OK;
    const uint64_t have = drape_host_memory_available();
    if (need <= have)
        return DRAPE_OK;
    return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                   "%s: %s needs about %llu bytes (%.1f GiB) of host memory, more than the %llu "
                   "bytes (%.1f GiB) this process can still allocate",
                   fn, what, (unsigned long long)need, (double)need / 1073741824.0,
                   (unsigned long long)have, (double)have / 1073741824.0);
}

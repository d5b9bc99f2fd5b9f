/* The OpenCL backend of a build without it (-DDRAPE_OPENCL=OFF, for machines without OpenCL or
 * CLBlast): the world runs on the CPU reference, DRAPE_BACKEND_AUTO falls back to it, and asking
 * for OpenCL or for the device list fails with DRAPE_ERROR_UNSUPPORTED and a message that says why.
 * A world never holds a backend here (world->cl stays NULL), so the calls that need one are never
 * reached; they fail the same way rather than assume it. */
#include "world_internal.h"

#include <stdio.h>

static const char no_opencl[] = "this drape was built without OpenCL (DRAPE_OPENCL=OFF); only the "
                                "CPU reference backend is available";

drape_result dr_opencl_create(drape_world *world, dr_opencl **out)
{
    *out = NULL;
    return dr_fail(&world->def, DRAPE_ERROR_UNSUPPORTED, "%s", no_opencl);
}

void dr_opencl_destroy(dr_opencl *cl) { (void)cl; }

void dr_opencl_set_log(dr_opencl *cl, drape_log_fn log, void *user)
{
    (void)cl;
    (void)log;
    (void)user;
}

bool dr_opencl_uses_host_memory(const dr_opencl *cl)
{
    (void)cl;
    return false;
}

const char *dr_opencl_device_name(const dr_opencl *cl, char *buf, size_t size)
{
    (void)cl;
    if (size)
        buf[0] = '\0';
    return buf;
}

drape_result dr_opencl_configure(drape_world *world)
{
    (void)world;
    return DRAPE_OK;
}

drape_result dr_opencl_set_profiling(dr_opencl *cl, bool on)
{
    (void)cl;
    (void)on;
    return DRAPE_OK;
}

drape_distance_kernel dr_opencl_distance_kernel(const dr_opencl *cl)
{
    (void)cl;
    return DRAPE_DISTANCE_KERNEL_AUTO;
}

drape_result dr_opencl_step(drape_world *world, uint32_t steps)
{
    (void)world;
    (void)steps;
    return DRAPE_ERROR_UNSUPPORTED;
}

drape_result dr_opencl_pull(drape_world *world)
{
    (void)world;
    return DRAPE_ERROR_UNSUPPORTED;
}

drape_result dr_opencl_profile(const dr_opencl *cl, drape_profile *out)
{
    (void)cl;
    (void)out;
    return DRAPE_ERROR_UNSUPPORTED;
}

void dr_opencl_reset_profile(dr_opencl *cl) { (void)cl; }

uint64_t dr_opencl_particle_bytes(const dr_opencl *cl)
{
    (void)cl;
    return 0;
}

drape_result dr_opencl_count_contacts(dr_opencl *cl, uint32_t n, uint64_t *sum)
{
    (void)cl;
    (void)n;
    *sum = 0;
    return DRAPE_ERROR_UNSUPPORTED;
}

drape_result dr_opencl_diagnostics(dr_opencl *cl, drape_diagnostics *out)
{
    (void)cl;
    (void)out;
    return DRAPE_ERROR_UNSUPPORTED;
}

drape_result drape_choose_device(const char *selector, drape_device_info *out, drape_log_fn log,
                                 void *log_user)
{
    (void)selector;
    (void)out;
    char message[160];
    snprintf(message, sizeof message, "drape_choose_device: %s", no_opencl);
    (log ? log : drape_log_stderr)(DRAPE_LOG_ERROR, message, log_user);
    return DRAPE_ERROR_UNSUPPORTED;
}

drape_result drape_list_devices(drape_device_info *out, uint32_t capacity, uint32_t *count,
                                drape_log_fn log, void *log_user)
{
    (void)out;
    (void)capacity;
    if (count)
        *count = 0;
    char message[160];
    snprintf(message, sizeof message, "drape_list_devices: %s", no_opencl);
    (log ? log : drape_log_stderr)(DRAPE_LOG_ERROR, message, log_user);
    return DRAPE_ERROR_UNSUPPORTED;
}

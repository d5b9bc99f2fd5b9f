/* drape_list_devices and drape_choose_device: the OpenCL devices this machine offers and the one a
 * world would take, for `drape devices`, the viewer and the benchmarks. A thin public face on
 * host/opencl's discovery and choice, which do the checked OpenCL calls. */
#include "world_internal.h"

#include "dr_cl.h"

#include <string.h>

static void copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void copy_info(const dr_cl_device_info *d, drape_device_info *o)
{
    memset(o, 0, sizeof *o);
    o->index = d->index;
    copy_text(o->platform, sizeof o->platform, d->platform);
    copy_text(o->name, sizeof o->name, d->name);
    copy_text(o->type, sizeof o->type, dr_cl_device_type_name(d->type));
    copy_text(o->driver, sizeof o->driver, d->driver);
    copy_text(o->vendor, sizeof o->vendor, d->platform_vendor);
    o->global_memory = d->global_mem;
    o->compute_units = d->compute_units;
}

drape_result drape_list_devices(drape_device_info *out, uint32_t capacity, uint32_t *count,
                                drape_log_fn log, void *log_user)
{
    dr_cl_logger logger = {.log = log ? log : drape_log_stderr, .user = log_user};
    if (count)
        *count = 0;
    if (!count || (capacity > 0 && !out)) {
        dr_cl_logf(&logger, DRAPE_LOG_ERROR, "drape_list_devices: %s is NULL",
                   count ? "out" : "count");
        return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    dr_cl_device_list list;
    drape_result r = dr_cl_device_list_create(&logger, &list);
    if (r != DRAPE_OK)
        return r;
    for (uint32_t i = 0; i < list.count && i < capacity; ++i)
        copy_info(&list.devices[i], &out[i]);
    *count = list.count;
    dr_cl_device_list_destroy(&list);
    return DRAPE_OK;
}

drape_result drape_choose_device(const char *selector, drape_device_info *out, drape_log_fn log,
                                 void *log_user)
{
    dr_cl_logger logger = {.log = log ? log : drape_log_stderr, .user = log_user};
    if (!out) {
        dr_cl_logf(&logger, DRAPE_LOG_ERROR, "drape_choose_device: out is NULL");
        return DRAPE_ERROR_INVALID_ARGUMENT;
    }
    dr_cl_device_list list;
    drape_result r = dr_cl_device_list_create(&logger, &list);
    if (r != DRAPE_OK)
        return r;
    uint32_t index = 0;
    r = dr_cl_device_choose_for_world(&logger, &list, selector, &index);
    if (r == DRAPE_OK)
        copy_info(&list.devices[index], out);
    dr_cl_device_list_destroy(&list);
    return r;
}

/* OpenCL device discovery and choice.
 *
 * Discovery walks every platform and every device, in the order the ICD loader reports them, and
 * numbers the devices 0, 1, ... across platforms; that number is what DRAPE_DEVICE=<index> names.
 * The default choice is the first GPU, else the first device of any type. A selector that
 * is not a number is matched, without regard to case, as a substring of the device name, the
 * platform name or the platform vendor, so "nvidia", "pocl" (PoCL's vendor is "The pocl project"),
 * "portable" or "h200" all work. A selector that names nothing is an error whose message lists the
 * devices there are, so that the user sees what to type instead.
 *
 * "No platform" (the ICD loader finds no driver: CL_PLATFORM_NOT_FOUND_KHR, or zero platforms) and
 * "platforms but no device" are DRAPE_ERROR_UNSUPPORTED with a clear message; the world then falls
 * back to the CPU reference with a warning.
 */
#include "dr_cl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define DR_CL_PLATFORM_NOT_FOUND_KHR (-1001)

/* clGetDeviceInfo and clGetPlatformInfo behind one signature, for dr_cl_info_string. */
typedef cl_int (*dr_cl_info_fn)(const void *object, cl_uint param, size_t size, void *value,
                                size_t *size_ret);

static cl_int dr_cl_device_info_fn(const void *object, cl_uint param, size_t size, void *value,
                                   size_t *size_ret)
{
    return clGetDeviceInfo((cl_device_id)object, param, size, value, size_ret);
}

static cl_int dr_cl_platform_info_fn(const void *object, cl_uint param, size_t size, void *value,
                                     size_t *size_ret)
{
    return clGetPlatformInfo((cl_platform_id)object, param, size, value, size_ret);
}

/* Reads a string property into a fixed buffer, cutting it if it is longer; `call` names the OpenCL
 * function in messages. */
static drape_result dr_cl_info_string(dr_cl_logger *logger, const char *call, dr_cl_info_fn get,
                                      const void *object, cl_uint param, char *out, size_t size)
{
    size_t needed = 0;
    cl_int code = get(object, param, 0, NULL, &needed);
    if (code != CL_SUCCESS)
        return dr_cl_fail(logger, call, code);
    char *tmp = malloc(needed + 1);
    if (!tmp) {
        dr_cl_logf(logger, DRAPE_LOG_ERROR, "out of host memory reading an OpenCL property");
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    code = get(object, param, needed, tmp, NULL);
    if (code != CL_SUCCESS) {
        free(tmp);
        return dr_cl_fail(logger, call, code);
    }
    tmp[needed] = '\0';
    snprintf(out, size, "%s", tmp);
    free(tmp);
    return DRAPE_OK;
}

static drape_result dr_cl_device_string(dr_cl_logger *logger, cl_device_id device,
                                        cl_device_info param, char *out, size_t size)
{
    return dr_cl_info_string(logger, "clGetDeviceInfo", dr_cl_device_info_fn, device, param, out,
                             size);
}

static drape_result dr_cl_platform_string(dr_cl_logger *logger, cl_platform_id platform,
                                          cl_platform_info param, char *out, size_t size)
{
    return dr_cl_info_string(logger, "clGetPlatformInfo", dr_cl_platform_info_fn, platform, param,
                             out, size);
}

static drape_result dr_cl_device_query(dr_cl_logger *logger, cl_platform_id platform,
                                       cl_device_id device, dr_cl_device_info *info)
{
    drape_result r;
    memset(info, 0, sizeof *info);
    info->platform_id = platform;
    info->device_id = device;
    if ((r = dr_cl_platform_string(logger, platform, CL_PLATFORM_NAME, info->platform,
                                   sizeof info->platform)) != DRAPE_OK ||
        (r = dr_cl_platform_string(logger, platform, CL_PLATFORM_VENDOR, info->platform_vendor,
                                   sizeof info->platform_vendor)) != DRAPE_OK ||
        (r = dr_cl_platform_string(logger, platform, CL_PLATFORM_VERSION, info->platform_version,
                                   sizeof info->platform_version)) != DRAPE_OK ||
        (r = dr_cl_device_string(logger, device, CL_DEVICE_NAME, info->name, sizeof info->name)) !=
            DRAPE_OK ||
        (r = dr_cl_device_string(logger, device, CL_DEVICE_VENDOR, info->vendor,
                                 sizeof info->vendor)) != DRAPE_OK ||
        (r = dr_cl_device_string(logger, device, CL_DEVICE_VERSION, info->version,
                                 sizeof info->version)) != DRAPE_OK ||
        (r = dr_cl_device_string(logger, device, CL_DRIVER_VERSION, info->driver,
                                 sizeof info->driver)) != DRAPE_OK)
        return r;

    cl_ulong global_mem = 0, max_alloc = 0;
    cl_uint units = 0;
    cl_device_fp_config fp = 0;
    DR_CL_CHECK(logger,
                clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL));
    DR_CL_CHECK(logger, clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem,
                                        &global_mem, NULL));
    DR_CL_CHECK(logger, clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                                        &max_alloc, NULL));
    DR_CL_CHECK(logger,
                clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    DR_CL_CHECK(logger, clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                        sizeof info->max_work_group, &info->max_work_group, NULL));
    DR_CL_CHECK(logger, clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL));
    info->global_mem = global_mem;
    info->max_alloc = max_alloc;
    info->compute_units = units;
    info->correctly_rounded_divide_sqrt = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    cl_device_fp_config fp64 = 0;
    DR_CL_CHECK(logger,
                clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL));
    info->fp64 = fp64 != 0;
    return DRAPE_OK;
}

/* Some drivers (NVIDIA's) reserve tens of GiB of address space when they load, and the ICD loader
 * skips a driver that fails to load: under `ulimit -v` "no platform" can mean "no room". */
static void address_space_note(char *note, size_t size)
{
    struct rlimit limit;
    note[0] = '\0';
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        snprintf(note, size,
                 ", or a driver could not load under this process's address-space limit of %llu "
                 "bytes (ulimit -v)",
                 (unsigned long long)limit.rlim_cur);
}

drape_result dr_cl_device_list_create(dr_cl_logger *logger, dr_cl_device_list *out)
{
    out->devices = NULL;
    out->count = 0;

    cl_uint platform_count = 0;
    cl_int code = clGetPlatformIDs(0, NULL, &platform_count);
    if (code == DR_CL_PLATFORM_NOT_FOUND_KHR || (code == CL_SUCCESS && platform_count == 0)) {
        char note[160];
        address_space_note(note, sizeof note);
        dr_cl_logf(logger, DRAPE_LOG_ERROR,
                   "no OpenCL platform found: no OpenCL driver is installed or registered with "
                   "the ICD loader (see /etc/OpenCL/vendors or OCL_ICD_VENDORS)%s",
                   note);
        logger->last_cl_error = DR_CL_PLATFORM_NOT_FOUND_KHR;
        return DRAPE_ERROR_UNSUPPORTED;
    }
    if (code != CL_SUCCESS)
        return dr_cl_fail(logger, "clGetPlatformIDs", code);

    drape_result result = DRAPE_OK;
    cl_platform_id *platforms = calloc(platform_count, sizeof *platforms);
    cl_device_id *ids = NULL;
    if (!platforms) {
        dr_cl_logf(logger, DRAPE_LOG_ERROR, "out of host memory listing OpenCL platforms");
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    DR_CL_CHECK_GOTO(logger, clGetPlatformIDs(platform_count, platforms, NULL), result, done);

    for (cl_uint p = 0; p < platform_count; ++p) {
        cl_uint device_count = 0;
        code = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &device_count);
        if (code == CL_DEVICE_NOT_FOUND || device_count == 0)
            continue; /* a platform without devices: nothing to list */
        DR_CL_CHECK_GOTO(logger, code, result, done);

        free(ids);
        ids = calloc(device_count, sizeof *ids);
        dr_cl_device_info *grown =
            realloc(out->devices, (out->count + device_count) * sizeof *out->devices);
        if (!ids || !grown) {
            if (grown)
                out->devices = grown;
            dr_cl_logf(logger, DRAPE_LOG_ERROR, "out of host memory listing OpenCL devices");
            result = DRAPE_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        out->devices = grown;
        DR_CL_CHECK_GOTO(logger,
                         clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, device_count, ids, NULL),
                         result, done);
        for (cl_uint d = 0; d < device_count; ++d) {
            dr_cl_device_info *info = &out->devices[out->count];
            if ((result = dr_cl_device_query(logger, platforms[p], ids[d], info)) != DRAPE_OK)
                goto done;
            info->index = out->count++;
        }
    }
    if (out->count == 0) {
        dr_cl_logf(logger, DRAPE_LOG_ERROR,
                   "no OpenCL device found: %u OpenCL platform(s), none with a device",
                   (unsigned)platform_count);
        logger->last_cl_error = CL_DEVICE_NOT_FOUND;
        result = DRAPE_ERROR_UNSUPPORTED;
    }

done:
    free(ids);
    free(platforms);
    if (result != DRAPE_OK)
        dr_cl_device_list_destroy(out);
    return result;
}

void dr_cl_device_list_destroy(dr_cl_device_list *list)
{
    free(list->devices);
    list->devices = NULL;
    list->count = 0;
}

const char *dr_cl_device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (type & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    if (type & CL_DEVICE_TYPE_CUSTOM)
        return "custom";
    return "other";
}

void dr_cl_device_describe(const dr_cl_device_info *device, char *out, size_t size)
{
    int len = snprintf(out, size, "#%u %s (%s; %s; %u compute units; %.1f GiB; driver %s)",
                       (unsigned)device->index, device->name, device->platform,
                       dr_cl_device_type_name(device->type), (unsigned)device->compute_units,
                       (double)device->global_mem / (1024.0 * 1024.0 * 1024.0), device->driver);
    if (len < 0 && size > 0)
        out[0] = '\0';
    /* a longer description is cut to `size`, which is all a caller has room for */
}

/* Case-insensitive substring test; an empty needle matches nothing. */
static bool dr_cl_contains(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return false;
    for (; *haystack; ++haystack) {
        size_t i = 0;
        while (i < n && haystack[i] &&
               tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return true;
    }
    return false;
}

static bool dr_cl_all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

drape_result dr_cl_device_choose(dr_cl_logger *logger, const dr_cl_device_list *list,
                                 const char *selector, const char *origin, uint32_t *out_index)
{
    if (list->count == 0) {
        dr_cl_logf(logger, DRAPE_LOG_ERROR, "no OpenCL device to choose from");
        return DRAPE_ERROR_UNSUPPORTED;
    }
    if (!selector || !*selector) {
        *out_index = 0;
        for (uint32_t i = 0; i < list->count; ++i)
            if (list->devices[i].type & CL_DEVICE_TYPE_GPU) {
                *out_index = i;
                break;
            }
        return DRAPE_OK;
    }
    if (dr_cl_all_digits(selector)) {
        unsigned long index = strtoul(selector, NULL, 10);
        if (index < list->count) {
            *out_index = (uint32_t)index;
            return DRAPE_OK;
        }
    } else {
        for (uint32_t i = 0; i < list->count; ++i)
            if (dr_cl_contains(list->devices[i].name, selector) ||
                dr_cl_contains(list->devices[i].platform, selector) ||
                dr_cl_contains(list->devices[i].platform_vendor, selector)) {
                *out_index = i;
                return DRAPE_OK;
            }
    }

    /* names nothing: say so and list what there is */
    char message[1024];
    int used = snprintf(message, sizeof message,
                        "no OpenCL device matches \"%s\"%s%s%s (give an index or part of a device "
                        "or platform name); the devices are:",
                        selector, origin ? " (from " : "", origin ? origin : "", origin ? ")" : "");
    for (uint32_t i = 0; i < list->count && used > 0 && (size_t)used < sizeof message; ++i) {
        char line[320];
        dr_cl_device_describe(&list->devices[i], line, sizeof line);
        used +=
            snprintf(message + used, sizeof message - (size_t)used, "%s %s", i ? ";" : "", line);
    }
    dr_cl_logf(logger, DRAPE_LOG_ERROR, "%s", message);
    return origin ? DRAPE_ERROR_ENVIRONMENT : DRAPE_ERROR_INVALID_ARGUMENT;
}

drape_result dr_cl_device_choose_for_world(dr_cl_logger *logger, const dr_cl_device_list *list,
                                           const char *selector, uint32_t *out_index)
{
    const char *origin = NULL;
    if (!selector || !*selector) {
        selector = getenv("DRAPE_DEVICE");
        origin = "DRAPE_DEVICE";
    }
    return dr_cl_device_choose(logger, list, selector, origin, out_index);
}

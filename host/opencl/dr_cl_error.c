/* OpenCL error names, the failure path of the check macros, and logging for the OpenCL backend.
 *
 * Every OpenCL call of the backend goes through DR_CL_CHECK / DR_CL_CHECK_ERR (dr_cl.h), which call
 * dr_cl_fail on a non-zero code: one message "clCreateBuffer failed:
 * CL_MEM_OBJECT_ALLOCATION_FAILURE
 * (-4)" to the world's log callback, kept in the logger for the caller, and a drape_result. The
 * name table is by number, not by the CL_* macros, so that it does not depend on which OpenCL
 * headers are installed (the 2.x/3.0 codes and the common extension codes are included).
 */
#include "dr_cl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct dr_cl_error_entry {
    cl_int code;
    const char *name;
} dr_cl_error_entry;

static const dr_cl_error_entry dr_cl_errors[] = {
    {0, "CL_SUCCESS"},
    {-1, "CL_DEVICE_NOT_FOUND"},
    {-2, "CL_DEVICE_NOT_AVAILABLE"},
    {-3, "CL_COMPILER_NOT_AVAILABLE"},
    {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {-5, "CL_OUT_OF_RESOURCES"},
    {-6, "CL_OUT_OF_HOST_MEMORY"},
    {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
    {-8, "CL_MEM_COPY_OVERLAP"},
    {-9, "CL_IMAGE_FORMAT_MISMATCH"},
    {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
    {-11, "CL_BUILD_PROGRAM_FAILURE"},
    {-12, "CL_MAP_FAILURE"},
    {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
    {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
    {-15, "CL_COMPILE_PROGRAM_FAILURE"},
    {-16, "CL_LINKER_NOT_AVAILABLE"},
    {-17, "CL_LINK_PROGRAM_FAILURE"},
    {-18, "CL_DEVICE_PARTITION_FAILED"},
    {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
    {-30, "CL_INVALID_VALUE"},
    {-31, "CL_INVALID_DEVICE_TYPE"},
    {-32, "CL_INVALID_PLATFORM"},
    {-33, "CL_INVALID_DEVICE"},
    {-34, "CL_INVALID_CONTEXT"},
    {-35, "CL_INVALID_QUEUE_PROPERTIES"},
    {-36, "CL_INVALID_COMMAND_QUEUE"},
    {-37, "CL_INVALID_HOST_PTR"},
    {-38, "CL_INVALID_MEM_OBJECT"},
    {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
    {-40, "CL_INVALID_IMAGE_SIZE"},
    {-41, "CL_INVALID_SAMPLER"},
    {-42, "CL_INVALID_BINARY"},
    {-43, "CL_INVALID_BUILD_OPTIONS"},
    {-44, "CL_INVALID_PROGRAM"},
    {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
    {-46, "CL_INVALID_KERNEL_NAME"},
    {-47, "CL_INVALID_KERNEL_DEFINITION"},
    {-48, "CL_INVALID_KERNEL"},
    {-49, "CL_INVALID_ARG_INDEX"},
    {-50, "CL_INVALID_ARG_VALUE"},
    {-51, "CL_INVALID_ARG_SIZE"},
    {-52, "CL_INVALID_KERNEL_ARGS"},
    {-53, "CL_INVALID_WORK_DIMENSION"},
    {-54, "CL_INVALID_WORK_GROUP_SIZE"},
    {-55, "CL_INVALID_WORK_ITEM_SIZE"},
    {-56, "CL_INVALID_GLOBAL_OFFSET"},
    {-57, "CL_INVALID_EVENT_WAIT_LIST"},
    {-58, "CL_INVALID_EVENT"},
    {-59, "CL_INVALID_OPERATION"},
    {-60, "CL_INVALID_GL_OBJECT"},
    {-61, "CL_INVALID_BUFFER_SIZE"},
    {-62, "CL_INVALID_MIP_LEVEL"},
    {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
    {-64, "CL_INVALID_PROPERTY"},
    {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
    {-66, "CL_INVALID_COMPILER_OPTIONS"},
    {-67, "CL_INVALID_LINKER_OPTIONS"},
    {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
    {-69, "CL_INVALID_PIPE_SIZE"},
    {-70, "CL_INVALID_DEVICE_QUEUE"},
    {-71, "CL_INVALID_SPEC_ID"},
    {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
    {-1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
    {-1002, "CL_INVALID_D3D10_DEVICE_KHR"},
    {-1003, "CL_INVALID_D3D10_RESOURCE_KHR"},
    {-1004, "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR"},
    {-1005, "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR"},
    {-1057, "CL_DEVICE_PARTITION_FAILED_EXT"},
    {-1058, "CL_INVALID_PARTITION_COUNT_EXT"},
    {-1059, "CL_INVALID_PARTITION_NAME_EXT"},
    {-1092, "CL_EGL_RESOURCE_NOT_ACQUIRED_KHR"},
    {-1093, "CL_INVALID_EGL_OBJECT_KHR"},
    {-1094, "CL_INVALID_ACCELERATOR_INTEL"},
    {-1095, "CL_INVALID_ACCELERATOR_TYPE_INTEL"},
    {-1096, "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL"},
    {-1097, "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL"},
    {-1098, "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL"},
    {-1099, "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL"},
    {-1100, "CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL"},
    {-1101, "CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL"},
    {-1108, "CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM"},
    {-1121, "CL_CONTEXT_TERMINATED_KHR"},
    {-1138, "CL_INVALID_COMMAND_BUFFER_KHR"},
    {-1139, "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR"},
    {-1140, "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR"},
    {-1141, "CL_INVALID_MUTABLE_COMMAND_KHR"},
    {-1142, "CL_INVALID_SEMAPHORE_KHR"},
    {-9999, "CL_NV_ILLEGAL_MEMORY_ACCESS"},
};

const char *dr_cl_error_name(cl_int code)
{
    for (size_t i = 0; i < sizeof dr_cl_errors / sizeof dr_cl_errors[0]; ++i)
        if (dr_cl_errors[i].code == code)
            return dr_cl_errors[i].name;
    return "CL_UNKNOWN_ERROR";
}

drape_result dr_cl_result_of(cl_int code)
{
    switch (code) {
    case CL_SUCCESS:
        return DRAPE_OK;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_INVALID_BUFFER_SIZE:
        return DRAPE_ERROR_OUT_OF_MEMORY;
    case CL_DEVICE_NOT_FOUND:
    case -1001: /* CL_PLATFORM_NOT_FOUND_KHR */
        return DRAPE_ERROR_UNSUPPORTED;
    default:
        return DRAPE_ERROR_BACKEND;
    }
}

static void dr_cl_log_stderr(drape_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == DRAPE_LOG_INFO)
        return;
    fprintf(stderr, "drape: %s: %s\n", level == DRAPE_LOG_ERROR ? "error" : "warning", message);
}

void dr_cl_log(dr_cl_logger *logger, drape_log_level level, const char *message)
{
    if (level == DRAPE_LOG_ERROR) {
        size_t n = strlen(message);
        if (n >= sizeof logger->last_error)
            n = sizeof logger->last_error - 1;
        memcpy(logger->last_error, message, n);
        logger->last_error[n] = '\0';
    }
    drape_log_fn log = logger->log ? logger->log : dr_cl_log_stderr;
    log(level, message, logger->user);
}

void dr_cl_logf(dr_cl_logger *logger, drape_log_level level, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    dr_cl_log(logger, level, message);
}

static drape_result dr_cl_fail_with(dr_cl_logger *logger, const char *call, cl_int code,
                                    const char *detail)
{
    /* the name of the function: the identifier at the start of the call's text */
    while (*call == ' ' || *call == '(')
        ++call;
    int n = (int)strcspn(call, "( \t\n");
    logger->last_cl_error = code;
    dr_cl_logf(logger, DRAPE_LOG_ERROR, "%.*s failed: %s (%d)%s%s", n, call, dr_cl_error_name(code),
               (int)code, detail[0] ? ": " : "", detail);
    return dr_cl_result_of(code);
}

drape_result dr_cl_fail(dr_cl_logger *logger, const char *call, cl_int code)
{
    return dr_cl_fail_with(logger, call, code, "");
}

drape_result dr_cl_failf(dr_cl_logger *logger, const char *call, cl_int code, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return dr_cl_fail_with(logger, call, code, detail);
}

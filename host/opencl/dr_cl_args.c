/* Kernel arguments set in one call: dr_cl_set_args(ctx, kernel, 0, 3, DR_CL_ARG(a), DR_CL_ARG(b),
 * DR_CL_ARG(n)) instead of one checked clSetKernelArg per argument. A failure names the argument's
 * index and the kernel's function name. */
#include "dr_cl_internal.h"

#include <string.h>

drape_result dr_cl_set_args_v(dr_cl_context *ctx, cl_kernel kernel, cl_uint first, cl_uint count,
                              va_list args)
{
    cl_int code = CL_SUCCESS;
    cl_uint i = first;
    for (; i < first + count && code == CL_SUCCESS; ++i) {
        size_t size = va_arg(args, size_t);
        const void *value = va_arg(args, const void *);
        code = clSetKernelArg(kernel, i, size, value);
    }
    if (code == CL_SUCCESS)
        return DRAPE_OK;
    char name[128] = "?";
    if (clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL) != CL_SUCCESS)
        strcpy(name, "?");
    return dr_cl_failf(&ctx->logger, "clSetKernelArg", code, "argument %u of kernel %s", i - 1,
                       name);
}

drape_result dr_cl_set_args(dr_cl_context *ctx, cl_kernel kernel, cl_uint first, cl_uint count, ...)
{
    va_list args;
    va_start(args, count);
    drape_result r = dr_cl_set_args_v(ctx, kernel, first, count, args);
    va_end(args);
    return r;
}

/* Kernel arguments set from a list of (size, pointer) pairs, each call checked (host/cl_args.h). */
#include "cl_args.h"

drape_result dr_cl_set_args_v(dr_cl_context *ctx, cl_kernel kernel, const char *name,
                              cl_uint first, cl_uint count, va_list ap)
{
    cl_int code = CL_SUCCESS;
    cl_uint i = first;
    for (; i < first + count && code == CL_SUCCESS; ++i) {
        size_t size = va_arg(ap, size_t);
        const void *value = va_arg(ap, const void *);
        code = clSetKernelArg(kernel, i, size, value);
    }
    if (code == CL_SUCCESS)
        return DRAPE_OK;
    return dr_cl_failf(&ctx->logger, "clSetKernelArg", code, "argument %u of kernel %s", i - 1,
                       name);
}

drape_result dr_cl_set_args(dr_cl_context *ctx, cl_kernel kernel, const char *name, cl_uint first,
                            cl_uint count, ...)
{
    va_list ap;
    va_start(ap, count);
    drape_result r = dr_cl_set_args_v(ctx, kernel, name, first, count, ap);
    va_end(ap);
    return r;
}

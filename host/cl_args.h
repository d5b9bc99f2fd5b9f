/* Kernel arguments from (size, pointer) pairs, every clSetKernelArg checked and a failure naming the
 * argument and the kernel (host/cl_args.c). DR_ARG(value) makes a pair. OpenCL builds only. */
#ifndef DRAPE_HOST_CL_ARGS_H
#define DRAPE_HOST_CL_ARGS_H

#include "opencl/dr_cl.h"

#include <stdarg.h>

#define DR_ARG(value) sizeof(value), (const void *)&(value)

/* Sets arguments first .. first + count - 1 of `kernel` (named `name` in messages). */
drape_result dr_cl_set_args(dr_cl_context *ctx, cl_kernel kernel, const char *name, cl_uint first,
                            cl_uint count, ...);
drape_result dr_cl_set_args_v(dr_cl_context *ctx, cl_kernel kernel, const char *name,
                              cl_uint first, cl_uint count, va_list ap);

#endif

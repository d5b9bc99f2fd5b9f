/* The OpenCL sources compiled into the library: the tables that cmake/embed.cmake generates at
 * build time (drape_kernels.c in the build directory) from the .cl and .h files of kernels/.
 *
 * Kernels stay real .cl files in kernels/, readable and editable as OpenCL C; only the build copies
 * them into the binary, so no kernel path is needed at run time. dr_cl_program.c assembles a
 * program's source from one kernel file, splicing the embedded headers in place of its
 * `#include "name"` lines. Both tables end with an entry whose name is NULL.
 */
#ifndef DR_CL_EMBEDDED_H
#define DR_CL_EMBEDDED_H

#include <stddef.h>

typedef struct dr_cl_embedded_file {
    const char *name;   /* file name without directory, e.g. "probe.cl" or "drape_shared.h" */
    const char *source; /* the file's bytes, NUL-terminated */
    size_t size;        /* bytes, without the terminating NUL */
} dr_cl_embedded_file;

extern const dr_cl_embedded_file dr_cl_kernel_files[];   /* every kernels/NAME.cl */
extern const dr_cl_embedded_file dr_cl_kernel_headers[]; /* every kernels/NAME.h */

#endif /* DR_CL_EMBEDDED_H */

/* Whether an OpenGL context and an OpenCL device come from the same vendor's driver. OpenCL-OpenGL
 * sharing only works within one driver, and handing a GLX context from one vendor's library to
 * another vendor's OpenCL (an NVIDIA OpenCL with Mesa's GLX under Xvfb, say) can fail inside the
 * driver rather than with an error code; so the viewer checks the vendors first and asks OpenCL to
 * share only when they agree. Pure string matching, so that it is tested without a GPU. */
#ifndef VIZ_GL_VENDOR_H
#define VIZ_GL_VENDOR_H

#include <drape/drape.h>
#include <stdbool.h>
#include <stddef.h>

/* gl_vendor and gl_renderer as glGetString gives them; the device as drape_choose_device gives it.
 * False with the reason in `why` (e.g. "OpenGL is Mesa's, the OpenCL device is The pocl project's")
 * when they differ or either is unknown. */
bool viz_gl_vendor_matches(const char *gl_vendor, const char *gl_renderer,
                           const drape_device_info *device, char *why, size_t why_size);

#endif

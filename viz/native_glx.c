/* GLX handles of a GLFW window (native_glx.h), through glfw3native.h, and the pin on the libraries.
 * GLFW_INCLUDE_NONE comes from the build, as for every file of the viewer. */
#define _GNU_SOURCE /* RTLD_NOLOAD, RTLD_NODELETE, dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>

#define GLFW_EXPOSE_NATIVE_X11
#define GLFW_EXPOSE_NATIVE_GLX
#include "native_glx.h"

#include <GLFW/glfw3native.h>

void viz_native_glx(GLFWwindow *window, void **context, void **display)
{
    GLXContext glx = glfwGetGLXContext(window);
    Display *x11 = glfwGetX11Display();
    *context = glx && x11 ? (void *)glx : NULL;
    *display = glx && x11 ? (void *)x11 : NULL;
}

static int pin(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    /* NOLOAD: only what is already loaded; NODELETE: never unmapped. The reference is kept on
     * purpose: it lives as long as the process. */
    if (info->dlpi_name && info->dlpi_name[0])
        (void)dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

void viz_native_pin_libraries(void) { dl_iterate_phdr(pin, NULL); }

/* GLX handles of a GLFW window (native_glx.h), through glfw3native.h. GLFW_INCLUDE_NONE comes from
 * the build, as for every file of the viewer. */
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

/* The GLX handles of a GLFW window, for creating an OpenCL context that shares its OpenGL context
 * (drape_world_def.gl_context / gl_display). Kept apart from the GL loader: GLX's headers declare
 * OpenGL themselves and would clash with glad's. */
#ifndef VIZ_NATIVE_GLX_H
#define VIZ_NATIVE_GLX_H

#include <GLFW/glfw3.h>

/* The window's GLXContext and the X Display, or NULLs where GLFW does not use GLX. */
void viz_native_glx(GLFWwindow *window, void **context, void **display);

/* Keeps every shared library loaded so far mapped until the process exits. Called once the GL
 * context exists, it pins the GL stack (libGL, the vendor library, Mesa's DRI driver), which
 * glfwTerminate and the context's teardown would otherwise dlclose under their own still-live
 * allocations; LeakSanitizer (the sanitizer build) reports those as leaks it cannot name. */
void viz_native_pin_libraries(void);

#endif

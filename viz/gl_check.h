/* Checked OpenGL calls. GL reports errors through glGetError, after the fact, so every call goes
 * through GL_CHECK(call), which runs it and then drains glGetError, printing one line per error
 * that names the call, the error and the place: drape-view: glBufferSubData(GL_ARRAY_BUFFER, 0,
 * bytes, data) failed: GL_INVALID_VALUE (cloth_view.c:120) Errors are counted (viz_gl_errors): like
 * glGetError's own flag the count belongs to the process's one GL context; the frame loop stops
 * with a non-zero exit once it is not zero. Calls that return a value are followed by
 * GL_CHECK_AFTER("glCreateShader"). */
#ifndef VIZ_GL_CHECK_H
#define VIZ_GL_CHECK_H

#include <glad/gl.h>

/* Drains glGetError after `call` ran; true when there was no error. */
int viz_gl_check(const char *call, const char *file, int line);
/* The name of a GL error code, "GL_INVALID_ENUM"...; "GL error 0x...." for unknown ones. */
const char *viz_gl_error_name(GLenum code);
/* Errors reported so far. */
unsigned viz_gl_errors(void);

#define GL_CHECK(call)                                                                             \
    do {                                                                                           \
        call;                                                                                      \
        viz_gl_check(#call, __FILE__, __LINE__);                                                   \
    } while (0)

/* After a call that returns a value:  GLuint s = glCreateShader(kind);
 * GL_CHECK_AFTER("glCreateShader"); */
#define GL_CHECK_AFTER(name) viz_gl_check((name), __FILE__, __LINE__)

#endif

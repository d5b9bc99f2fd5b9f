/* Checked OpenGL calls (gl_check.h): glGetError drained after each call, one message per error. */
#include "gl_check.h"

#include <stdio.h>
#include <string.h>

static unsigned error_count; /* mirrors glGetError's per-context flag: one GL context per process */

const char *viz_gl_error_name(GLenum code)
{
    switch (code) {
    case GL_INVALID_ENUM:
        return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
        return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
        return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
        return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
        return "GL_OUT_OF_MEMORY";
    default:
        return "unknown GL error";
    }
}

int viz_gl_check(const char *call, const char *file, int line)
{
    int ok = 1;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    /* A lost context keeps returning errors: stop after a few. */
    for (int k = 0; k < 8; ++k) {
        GLenum code = glGetError();
        if (code == GL_NO_ERROR)
            break;
        fprintf(stderr, "drape-view: %s failed: %s (0x%04x) (%s:%d)\n", call,
                viz_gl_error_name(code), (unsigned)code, base, line);
        ++error_count;
        ok = 0;
    }
    return ok;
}

unsigned viz_gl_errors(void) { return error_count; }

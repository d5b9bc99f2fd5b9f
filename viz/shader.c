/* GLSL programs (shader.h). Sources are assembled from three strings handed to glShaderSource: the
 * version line, common.glsl and the file; "#line 1" before the file keeps the driver's messages on
 * the file's own line numbers (the source-string number in them is 2). */
#include "shader.h"

#include "gl_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *find(const char *name)
{
    for (const viz_shader_file *f = viz_shader_files; f->name; ++f)
        if (!strcmp(f->name, name))
            return f->text;
    return NULL;
}

static void print_log(GLuint object, int is_program, const char *what)
{
    GLint length = 0;
    if (is_program)
        GL_CHECK(glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length));
    else
        GL_CHECK(glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length));
    char *log = malloc(length > 0 ? (size_t)length : 1);
    if (!log)
        return;
    log[0] = '\0';
    if (is_program)
        GL_CHECK(glGetProgramInfoLog(object, length, NULL, log));
    else
        GL_CHECK(glGetShaderInfoLog(object, length, NULL, log));
    fprintf(stderr, "drape-view: %s:\n%s\n", what, log);
    free(log);
}

static GLuint compile(GLenum kind, const char *file)
{
    const char *text = find(file), *common = find("common.glsl");
    if (!text || !common) {
        fprintf(stderr, "drape-view: no embedded shader '%s'\n", text ? "common.glsl" : file);
        return 0;
    }
    const char *parts[4] = {"#version 330 core\n", common, "\n#line 1\n", text};
    GLuint shader = glCreateShader(kind);
    GL_CHECK_AFTER("glCreateShader");
    if (!shader)
        return 0;
    GL_CHECK(glShaderSource(shader, 4, parts, NULL));
    GL_CHECK(glCompileShader(shader));
    GLint ok = GL_FALSE;
    GL_CHECK(glGetShaderiv(shader, GL_COMPILE_STATUS, &ok));
    if (!ok) {
        char what[128];
        snprintf(what, sizeof what, "glCompileShader failed for shaders/%s", file);
        print_log(shader, 0, what);
        GL_CHECK(glDeleteShader(shader));
        return 0;
    }
    return shader;
}

GLuint viz_program_create(const char *vertex_file, const char *fragment_file)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vertex_file);
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, fragment_file) : 0;
    if (!fs) {
        if (vs)
            GL_CHECK(glDeleteShader(vs));
        return 0;
    }
    GLuint program = glCreateProgram();
    GL_CHECK_AFTER("glCreateProgram");
    if (program) {
        GL_CHECK(glAttachShader(program, vs));
        GL_CHECK(glAttachShader(program, fs));
        GL_CHECK(glLinkProgram(program));
        GLint ok = GL_FALSE;
        GL_CHECK(glGetProgramiv(program, GL_LINK_STATUS, &ok));
        if (!ok) {
            char what[160];
            snprintf(what, sizeof what, "glLinkProgram failed for shaders/%s + shaders/%s",
                     vertex_file, fragment_file);
            print_log(program, 1, what);
            GL_CHECK(glDeleteProgram(program));
            program = 0;
        }
    }
    GL_CHECK(glDeleteShader(vs));
    GL_CHECK(glDeleteShader(fs));
    return program;
}

GLint viz_uniform(GLuint program, const char *name)
{
    GLint location = glGetUniformLocation(program, name);
    GL_CHECK_AFTER("glGetUniformLocation");
    if (location < 0)
        fprintf(stderr, "drape-view: warning: the program has no active uniform '%s'\n", name);
    return location;
}

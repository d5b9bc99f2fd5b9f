/* GLSL programs from the shaders embedded at build time (viz/shaders/, viz/embed_shaders.cmake).
 * Every program's source is "#version 330 core", then shaders/common.glsl (lighting and the strain
 * colour scale), then the file itself; a compile or link failure prints the driver's log with the
 * file's name. */
#ifndef VIZ_SHADER_H
#define VIZ_SHADER_H

#include <glad/gl.h>

typedef struct viz_shader_file {
    const char *name; /* "cloth.vert" */
    const char *text;
} viz_shader_file;

/* Generated: every file of viz/shaders/, ended by {NULL, NULL}. */
extern const viz_shader_file viz_shader_files[];

/* Compiles and links the program of two embedded files; 0 (and a message) on failure. */
GLuint viz_program_create(const char *vertex_file, const char *fragment_file);

/* glGetUniformLocation, with a message when the program has no such active uniform. */
GLint viz_uniform(GLuint program, const char *name);

#endif

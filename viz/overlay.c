/* The overlay (overlay.h).
 *
 * The font atlas is one row of the 95 glyphs of viz/font_6x13.c as an R8 coverage texture with
 * nearest filtering, so that glyphs stay crisp at integer scales. Every quad is two triangles of a
 * single dynamic vertex buffer, re-filled each frame (a few thousand vertices at most);
 * overlay.frag picks per vertex between a solid colour, a glyph and the strain colour scale. Drawn
 * last, with blending on and depth testing off.
 */
#include "overlay.h"

#include "font.h"
#include "gl_check.h"
#include "shader.h"
#include "vecmath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLOATS = 9, MODE_SOLID = 0, MODE_GLYPH = 1, MODE_SCALE = 2 };
enum { ATLAS_WIDTH = VIZ_FONT_GLYPHS * VIZ_FONT_WIDTH };

bool viz_overlay_init(viz_overlay *o)
{
    memset(o, 0, sizeof *o);
    o->program = viz_program_create("overlay.vert", "overlay.frag");
    if (!o->program)
        return false;
    o->u_projection = viz_uniform(o->program, "projection");
    GLint font = viz_uniform(o->program, "font");
    GL_CHECK(glUseProgram(o->program));
    GL_CHECK(glUniform1i(font, 0));
    GL_CHECK(glUseProgram(0));

    unsigned char *atlas = calloc((size_t)ATLAS_WIDTH * VIZ_FONT_HEIGHT, 1);
    if (!atlas) {
        fprintf(stderr, "drape-view: no memory for the font atlas\n");
        return false;
    }
    for (int g = 0; g < VIZ_FONT_GLYPHS; ++g)
        for (int r = 0; r < VIZ_FONT_HEIGHT; ++r)
            for (int c = 0; c < VIZ_FONT_WIDTH; ++c)
                if (viz_font_glyphs[g][r] & (0x80 >> c))
                    atlas[(size_t)r * ATLAS_WIDTH + (size_t)g * VIZ_FONT_WIDTH + (size_t)c] = 255;
    GL_CHECK(glGenTextures(1, &o->font_texture));
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, o->font_texture));
    GL_CHECK(glPixelStorei(GL_UNPACK_ALIGNMENT, 1));
    GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS_WIDTH, VIZ_FONT_HEIGHT, 0, GL_RED,
                          GL_UNSIGNED_BYTE, atlas));
    GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, 0));
    free(atlas);

    GL_CHECK(glGenVertexArrays(1, &o->vao));
    GL_CHECK(glGenBuffers(1, &o->vbo));
    GL_CHECK(glBindVertexArray(o->vao));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, o->vbo));
    const GLsizei stride = FLOATS * sizeof(float);
    static const struct {
        GLint size;
        int offset;
    } attributes[] = {{2, 0}, {2, 2}, {4, 4}, {1, 8}};
    for (GLuint a = 0; a < 4; ++a) {
        GL_CHECK(glVertexAttribPointer(a, attributes[a].size, GL_FLOAT, GL_FALSE, stride,
                                       (const void *)(attributes[a].offset * sizeof(float))));
        GL_CHECK(glEnableVertexAttribArray(a));
    }
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return viz_gl_errors() == 0;
}

void viz_overlay_destroy(viz_overlay *o)
{
    if (o->vao)
        GL_CHECK(glDeleteVertexArrays(1, &o->vao));
    GL_CHECK(glDeleteBuffers(1, &o->vbo));
    GL_CHECK(glDeleteTextures(1, &o->font_texture));
    GL_CHECK(glDeleteProgram(o->program));
    free(o->vertices);
    memset(o, 0, sizeof *o);
}

void viz_overlay_begin(viz_overlay *o, int width, int height, int scale)
{
    o->count = 0;
    o->width = width;
    o->height = height;
    o->scale = scale > 0 ? scale : 1;
}

float viz_overlay_char_width(const viz_overlay *o) { return (float)(VIZ_FONT_WIDTH * o->scale); }
float viz_overlay_line_height(const viz_overlay *o)
{
    return (float)((VIZ_FONT_HEIGHT + 2) * o->scale);
}

/* Appends a quad: corners (x0, y0) - (x1, y1), texture (u0, v0) - (u1, v1). */
static void quad(viz_overlay *o, float x0, float y0, float x1, float y1, float u0, float v0,
                 float u1, float v1, const float rgba[4], int mode)
{
    if (o->count + 6 > o->capacity) {
        size_t capacity = o->capacity ? 2 * o->capacity : 1536;
        float *grown = realloc(o->vertices, capacity * FLOATS * sizeof *grown);
        if (!grown)
            return; /* the overlay loses some quads; nothing else depends on it */
        o->vertices = grown;
        o->capacity = capacity;
    }
    const float corners[6][4] = {{x0, y0, u0, v0}, {x1, y0, u1, v0}, {x0, y1, u0, v1},
                                 {x0, y1, u0, v1}, {x1, y0, u1, v0}, {x1, y1, u1, v1}};
    for (int k = 0; k < 6; ++k) {
        float *out = o->vertices + (o->count++) * FLOATS;
        const float vertex[FLOATS] = {corners[k][0], corners[k][1], corners[k][2],
                                      corners[k][3], rgba[0],       rgba[1],
                                      rgba[2],       rgba[3],       (float)mode};
        memcpy(out, vertex, sizeof vertex);
    }
}

void viz_overlay_rect(viz_overlay *o, float x, float y, float w, float h, const float rgba[4])
{
    quad(o, x, y, x + w, y + h, 0.0f, 0.0f, 0.0f, 0.0f, rgba, MODE_SOLID);
}

float viz_overlay_text(viz_overlay *o, float x, float y, const char *text, const float rgba[4])
{
    const float cw = viz_overlay_char_width(o), ch = (float)(VIZ_FONT_HEIGHT * o->scale);
    float px = x, widest = 0.0f;
    for (const char *c = text; *c; ++c) {
        if (*c == '\n') {
            y += viz_overlay_line_height(o);
            px = x;
            continue;
        }
        int g = (unsigned char)*c - VIZ_FONT_FIRST;
        if (g < 0 || g >= VIZ_FONT_GLYPHS)
            g = '?' - VIZ_FONT_FIRST;
        if (g != 0) {
            const float u0 = (float)(g * VIZ_FONT_WIDTH) / ATLAS_WIDTH;
            const float u1 = (float)((g + 1) * VIZ_FONT_WIDTH) / ATLAS_WIDTH;
            quad(o, px, y, px + cw, y + ch, u0, 0.0f, u1, 1.0f, rgba, MODE_GLYPH);
        }
        px += cw;
        if (px - x > widest)
            widest = px - x;
    }
    return widest;
}

void viz_overlay_panel(viz_overlay *o, float x, float y, const char *const *lines, int count)
{
    static const float background[4] = {0.0f, 0.0f, 0.0f, 0.55f};
    static const float white[4] = {0.95f, 0.95f, 0.95f, 1.0f};
    const float pad = 4.0f * (float)o->scale, lh = viz_overlay_line_height(o);
    size_t widest = 0;
    for (int i = 0; i < count; ++i)
        if (strlen(lines[i]) > widest)
            widest = strlen(lines[i]);
    viz_overlay_rect(o, x, y, (float)widest * viz_overlay_char_width(o) + 2.0f * pad,
                     (float)count * lh + 2.0f * pad, background);
    for (int i = 0; i < count; ++i)
        viz_overlay_text(o, x + pad, y + pad + (float)i * lh, lines[i], white);
}

void viz_overlay_legend(viz_overlay *o, float strain_scale)
{
    static const float background[4] = {0.0f, 0.0f, 0.0f, 0.55f};
    static const float white[4] = {0.95f, 0.95f, 0.95f, 1.0f};
    const float s = (float)o->scale, lh = viz_overlay_line_height(o),
                cw = viz_overlay_char_width(o);
    const float bar_w = 16.0f * s, bar_h = 160.0f * s, pad = 6.0f * s;
    const float label_w = 8.0f * cw;
    const float w = bar_w + label_w + 3.0f * pad, h = bar_h + lh + 3.0f * pad;
    const float x = (float)o->width - w - 8.0f * s, y = 8.0f * s;
    viz_overlay_rect(o, x, y, w, h, background);
    viz_overlay_text(o, x + pad, y + pad, "strain", white);
    const float bx = x + pad, by = y + 2.0f * pad + lh;
    quad(o, bx, by, bx + bar_w, by + bar_h, 0.0f, 0.0f, 1.0f, 1.0f, white, MODE_SCALE);
    const float percent = 100.0f * strain_scale;
    char labels[3][16];
    snprintf(labels[0], sizeof labels[0], "+%g%%", (double)percent);
    snprintf(labels[1], sizeof labels[1], "0");
    snprintf(labels[2], sizeof labels[2], "-%g%%", (double)percent);
    const float ch = (float)VIZ_FONT_HEIGHT * s;
    for (int i = 0; i < 3; ++i)
        viz_overlay_text(o, bx + bar_w + pad, by + bar_h * 0.5f * (float)i - 0.5f * ch, labels[i],
                         white);
}

void viz_overlay_end(viz_overlay *o)
{
    if (o->count == 0)
        return;
    GL_CHECK(glDisable(GL_DEPTH_TEST));
    GL_CHECK(glEnable(GL_BLEND));
    GL_CHECK(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
    GL_CHECK(glUseProgram(o->program));
    viz_mat4 projection = viz_mat4_pixels((float)o->width, (float)o->height);
    GL_CHECK(glUniformMatrix4fv(o->u_projection, 1, GL_FALSE, projection.m));
    GL_CHECK(glActiveTexture(GL_TEXTURE0));
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, o->font_texture));
    GL_CHECK(glBindVertexArray(o->vao));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, o->vbo));
    GL_CHECK(glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(o->count * FLOATS * sizeof(float)),
                          o->vertices, GL_STREAM_DRAW));
    GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, (GLsizei)o->count));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, 0));
    GL_CHECK(glUseProgram(0));
    GL_CHECK(glDisable(GL_BLEND));
    GL_CHECK(glEnable(GL_DEPTH_TEST));
}

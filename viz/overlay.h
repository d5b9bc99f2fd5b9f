/* The overlay: text in the built-in bitmap font on translucent panels, and the stress legend (the
 * strain colour bar with its labels). Quads are collected in pixels (y down) between begin and end,
 * then drawn in one call over the scene. */
#ifndef VIZ_OVERLAY_H
#define VIZ_OVERLAY_H

#include <glad/gl.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct viz_overlay {
    GLuint program, vao, vbo, font_texture;
    GLint u_projection;
    float *vertices;        /* 9 floats per vertex: x, y, u, v, r, g, b, a, mode */
    size_t count, capacity; /* vertices */
    int width, height;      /* pixels of the frame being built */
    int scale;              /* pixels per font pixel */
} viz_overlay;

bool viz_overlay_init(viz_overlay *o);
void viz_overlay_destroy(viz_overlay *o);

/* Starts a frame of width x height pixels; the font is drawn `scale` times its size. */
void viz_overlay_begin(viz_overlay *o, int width, int height, int scale);
/* A filled rectangle; colour components in [0, 1]. */
void viz_overlay_rect(viz_overlay *o, float x, float y, float w, float h, const float rgba[4]);
/* Text from (x, y) (its top left), '\n' starting a new line; returns the text's width in pixels. */
float viz_overlay_text(viz_overlay *o, float x, float y, const char *text, const float rgba[4]);
/* Lines of text on a translucent panel whose top left corner is at (x, y). */
void viz_overlay_panel(viz_overlay *o, float x, float y, const char *const *lines, int count);
/* The strain legend: a vertical colour bar from -scale (bottom) to +scale (top), at the right edge.
 */
void viz_overlay_legend(viz_overlay *o, float strain_scale);
/* Draws what was collected. */
void viz_overlay_end(viz_overlay *o);

/* Pixels of one character cell (width, line height) at the current scale. */
float viz_overlay_char_width(const viz_overlay *o);
float viz_overlay_line_height(const viz_overlay *o);

#endif

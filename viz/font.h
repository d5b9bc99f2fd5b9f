/* The viewer's built-in bitmap font (viz/font_6x13.c): fixed-width glyphs for printable ASCII, so
 * that the overlay needs no font library or font file at run time. */
#ifndef VIZ_FONT_H
#define VIZ_FONT_H

#define VIZ_FONT_FIRST 32  /* the first character in the table (space) */
#define VIZ_FONT_GLYPHS 95 /* characters 32 .. 126 */
#define VIZ_FONT_WIDTH 6   /* pixels */
#define VIZ_FONT_HEIGHT 13 /* pixels; also the line height */

/* Row r of character c is viz_font_glyphs[c - VIZ_FONT_FIRST][r], leftmost pixel in bit 7. */
extern const unsigned char viz_font_glyphs[VIZ_FONT_GLYPHS][VIZ_FONT_HEIGHT];

#endif

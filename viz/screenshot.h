/* Screenshots: the framebuffer's pixels, top row first, and a PNG of them. */
#ifndef VIZ_SCREENSHOT_H
#define VIZ_SCREENSHOT_H

#include <stdbool.h>
#include <stdint.h>

/* Reads the current framebuffer (width x height) into rgb (width * height * 3 bytes), top row
 * first. False (with a message) on a GL error or when out of memory. */
bool viz_read_pixels(int width, int height, uint8_t *rgb);
/* Writes a PNG of the current framebuffer. */
bool viz_screenshot(const char *path, int width, int height);

#endif

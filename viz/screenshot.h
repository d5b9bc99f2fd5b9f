/* Screenshots: the back buffer of the frame just drawn, read with glReadPixels and written as PNG. */
#ifndef VIZ_SCREENSHOT_H
#define VIZ_SCREENSHOT_H

#include <stdbool.h>

/* Reads width x height pixels of the current framebuffer and writes them to `path`. */
bool viz_screenshot(const char *path, int width, int height);

#endif

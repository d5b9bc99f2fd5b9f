/* Screenshots (screenshot.h). GL's rows run bottom to top and PNG's top to bottom, so the pixels
 * are flipped into a second buffer. */
#include "screenshot.h"

#include "gl_check.h"
#include "png.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool viz_read_pixels(int width, int height, uint8_t *rgb)
{
    const size_t stride = (size_t)width * 3;
    uint8_t *pixels = malloc(stride * (size_t)height + 1);
    if (!pixels) {
        fprintf(stderr, "drape-view: no memory for a %d x %d picture\n", width, height);
        return false;
    }
    GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    GL_CHECK(glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels));
    for (int y = 0; y < height; ++y)
        memcpy(rgb + (size_t)y * stride, pixels + (size_t)(height - 1 - y) * stride, stride);
    free(pixels);
    return viz_gl_errors() == 0;
}

bool viz_screenshot(const char *path, int width, int height)
{
    const size_t stride = (size_t)width * 3;
    uint8_t *rgb = malloc(stride * (size_t)height + 1);
    if (!rgb) {
        fprintf(stderr, "drape-view: no memory for a %d x %d screenshot\n", width, height);
        return false;
    }
    char error[512];
    bool ok = viz_read_pixels(width, height, rgb);
    if (ok && !viz_png_write(path, rgb, width, height, stride, error, sizeof error)) {
        fprintf(stderr, "drape-view: cannot write the screenshot: %s\n", error);
        ok = false;
    }
    free(rgb);
    return ok;
}

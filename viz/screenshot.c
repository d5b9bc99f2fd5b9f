/* Screenshots (screenshot.h). GL's rows run bottom to top and PNG's top to bottom, so the pixels
 * are flipped into a second buffer before writing. */
#include "screenshot.h"

#include "gl_check.h"
#include "png.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool viz_screenshot(const char *path, int width, int height)
{
    const size_t stride = (size_t)width * 3;
    uint8_t *pixels = malloc(stride * (size_t)height);
    uint8_t *flipped = malloc(stride * (size_t)height);
    if (!pixels || !flipped) {
        free(pixels);
        free(flipped);
        fprintf(stderr, "drape-view: no memory for a %d x %d screenshot\n", width, height);
        return false;
    }
    GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    GL_CHECK(glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels));
    for (int y = 0; y < height; ++y)
        memcpy(flipped + (size_t)y * stride, pixels + (size_t)(height - 1 - y) * stride, stride);
    char error[512];
    bool ok = viz_gl_errors() == 0 &&
              viz_png_write(path, flipped, width, height, stride, error, sizeof error);
    if (!ok && viz_gl_errors() == 0)
        fprintf(stderr, "drape-view: cannot write the screenshot: %s\n", error);
    free(pixels);
    free(flipped);
    return ok;
}

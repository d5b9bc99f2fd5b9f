/* GL and CL vendors (gl_vendor.h). Each driver family is known by words in the strings its
 * libraries report: GL_VENDOR and GL_RENDERER on one side, the OpenCL platform's vendor and name on
 * the other. Mesa's OpenCL (rusticl, Clover) shares with Mesa's OpenGL; PoCL has no OpenGL driver.
 */
#include "gl_vendor.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct family {
    const char *name;
    const char *gl[4]; /* words in GL_VENDOR or GL_RENDERER */
    const char *cl[4]; /* words in the platform's vendor or name */
} family;

static const family families[] = {
    {"NVIDIA", {"nvidia"}, {"nvidia"}},
    {"AMD",
     {"amd", "ati technologies", "advanced micro devices"},
     {"amd", "advanced micro devices"}},
    {"Intel", {"intel"}, {"intel"}},
    {"Mesa", {"mesa", "llvmpipe", "x.org", "collabora"}, {"mesa", "rusticl", "clover"}},
    {"Apple", {"apple"}, {"apple"}},
};

static bool contains(const char *haystack, const char *word)
{
    const size_t n = strlen(word);
    for (const char *h = haystack; h && *h; ++h) {
        size_t k = 0;
        while (k < n && h[k] && tolower((unsigned char)h[k]) == word[k])
            ++k;
        if (k == n)
            return true;
    }
    return false;
}

static bool any(const char *const *words, const char *a, const char *b)
{
    for (int k = 0; k < 4 && words[k]; ++k)
        if (contains(a, words[k]) || contains(b, words[k]))
            return true;
    return false;
}

/* The family whose words one side's strings contain (the first match), or NULL. */
static const family *family_of(bool gl, const char *a, const char *b)
{
    for (size_t i = 0; i < sizeof families / sizeof *families; ++i)
        if (any(gl ? families[i].gl : families[i].cl, a, b))
            return &families[i];
    return NULL;
}

bool viz_gl_vendor_matches(const char *gl_vendor, const char *gl_renderer,
                           const drape_device_info *device, char *why, size_t why_size)
{
    /* Mesa drivers name the hardware's maker in GL_VENDOR ("AMD", "Intel") but Mesa in the
     * version and renderer; a Mesa renderer makes it Mesa's. */
    const family *g = contains(gl_renderer, "llvmpipe") || contains(gl_renderer, "mesa")
                          ? &families[3]
                          : family_of(true, gl_vendor, gl_renderer);
    const family *c = family_of(false, device->vendor, device->platform);
    if (g && c && g == c) {
        snprintf(why, why_size, "OpenGL and OpenCL are both %s's", g->name);
        return true;
    }
    snprintf(why, why_size, "OpenGL is %s's (%s), the OpenCL device is %s's (%s)",
             g ? g->name : "an unknown vendor", gl_vendor ? gl_vendor : "?",
             c ? c->name : "an unknown vendor", device->vendor);
    return false;
}

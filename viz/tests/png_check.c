/* Checks on the viewer's PNG screenshots, for the viz.* tests.
 *
 *   png_check image FILE MIN MAX   the image is not blank, and the cloth (its warm orange/red
 * pixels) covers a fraction of it in [MIN, MAX] png_check differ A B MIN       at least a fraction
 * MIN of the pixels differ between A and B png_check same A B MAX         at most a fraction MAX of
 * the pixels differ png_check hue FILE R G B MIN   at least a fraction MIN of the pixels have the
 * hue of the colour (R, G, B in [0, 1]), within 12 degrees, and are saturated (an object's colour,
 * however it is lit) png_check notblank FILE MIN    at least a fraction MIN of the pixels differ
 * from the most common colour (the background) png_check writer DIR           the PNG writer:
 * checksums against known values, and images of several sizes (one over 64 KiB, several deflate
 * blocks) written and read back
 *
 * The reader handles what viz/png.c writes, strictly: 8-bit RGB, no interlace, a zlib stream of
 * stored deflate blocks, filter type 0; every CRC and the Adler-32 are verified. Exit status 0 when
 * the check holds, 1 when it does not, 2 for a bad command line or an unreadable file. */
#include "png.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct image {
    int width, height;
    uint8_t *rgb; /* width * height * 3, top row first */
} image;

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *grown = realloc(data, cap);
            if (!grown)
                break;
            data = grown;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *size = n;
    return data;
}

/* Reads a PNG as viz/png.c writes it; false with a message otherwise. */
static bool read_png(const char *path, image *out)
{
    memset(out, 0, sizeof *out);
    size_t size = 0;
    uint8_t *data = read_all(path, &size);
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const char *why = NULL;
    uint8_t *z = NULL;
    size_t zsize = 0;
    if (!data || size < 8 || memcmp(data, signature, 8)) {
        why = "not a PNG file";
        goto fail;
    }
    z = malloc(size);
    size_t at = 8;
    bool ended = false;
    while (!ended) {
        if (at + 12 > size) {
            why = "truncated chunk";
            goto fail;
        }
        uint32_t len = get32(data + at);
        if (len > size - at - 12) {
            why = "chunk longer than the file";
            goto fail;
        }
        const uint8_t *type = data + at + 4, *body = data + at + 8;
        if (viz_crc32(0, type, len + 4) != get32(body + len)) {
            why = "chunk CRC mismatch";
            goto fail;
        }
        if (!memcmp(type, "IHDR", 4)) {
            if (len != 13 || body[8] != 8 || body[9] != 2 || body[12] != 0) {
                why = "not 8-bit RGB without interlace";
                goto fail;
            }
            out->width = (int)get32(body);
            out->height = (int)get32(body + 4);
        } else if (!memcmp(type, "IDAT", 4)) {
            memcpy(z + zsize, body, len);
            zsize += len;
        } else if (!memcmp(type, "IEND", 4)) {
            ended = true;
        }
        at += 12 + len;
    }
    if (out->width <= 0 || out->height <= 0 || zsize < 6 || (z[0] * 256 + z[1]) % 31 != 0 ||
        (z[0] & 0x0f) != 8) {
        why = "bad header or zlib stream";
        goto fail;
    }
    const size_t row = 1 + (size_t)out->width * 3, raw_size = row * (size_t)out->height;
    uint8_t *raw = malloc(raw_size);
    size_t got = 0, zat = 2;
    bool final = false;
    while (!final) {
        if (zat + 5 > zsize || (z[zat] & 6) != 0) {
            free(raw);
            why = "a deflate block that is not stored";
            goto fail;
        }
        final = z[zat] & 1;
        size_t n = z[zat + 1] | (size_t)z[zat + 2] << 8;
        size_t nn = z[zat + 3] | (size_t)z[zat + 4] << 8;
        zat += 5;
        if ((n ^ 0xffff) != nn || zat + n > zsize || got + n > raw_size) {
            free(raw);
            why = "bad stored block";
            goto fail;
        }
        memcpy(raw + got, z + zat, n);
        got += n;
        zat += n;
    }
    if (got != raw_size || zat + 4 > zsize || get32(z + zat) != viz_adler32(1, raw, raw_size)) {
        free(raw);
        why = "wrong data size or Adler-32";
        goto fail;
    }
    out->rgb = malloc((size_t)out->width * out->height * 3);
    for (int y = 0; y < out->height; ++y) {
        if (raw[y * row] != 0) {
            free(raw);
            why = "a filter other than none";
            goto fail;
        }
        memcpy(out->rgb + (size_t)y * out->width * 3, raw + y * row + 1, row - 1);
    }
    free(raw);
    free(z);
    free(data);
    return true;
fail:
    fprintf(stderr, "png_check: %s: %s\n", path, why ? why : "unreadable");
    free(z);
    free(data);
    free(out->rgb);
    out->rgb = NULL;
    return false;
}

/* The cloth's colours: front (0.92, 0.45, 0.13) and back (0.72, 0.22, 0.10), lit, are red-dominant;
 * colliders, ground and background are grey or blue. */
static bool is_cloth(const uint8_t *p)
{
    return p[0] > 40 && p[0] > p[1] + p[1] / 4 && p[0] > 2 * p[2];
}

static int check_image(const char *path, double min, double max)
{
    image im;
    if (!read_png(path, &im))
        return 2;
    const size_t n = (size_t)im.width * im.height;
    size_t cloth = 0, differ = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t *p = im.rgb + 3 * i;
        cloth += is_cloth(p);
        differ += memcmp(p, im.rgb, 3) != 0;
    }
    const double fraction = (double)cloth / (double)n;
    printf("%s: %d x %d, %.1f%% of the pixels differ from the first, cloth covers %.2f%%\n", path,
           im.width, im.height, 100.0 * differ / n, 100.0 * fraction);
    free(im.rgb);
    if (differ < n / 100) {
        fprintf(stderr, "png_check: %s is blank\n", path);
        return 1;
    }
    if (fraction < min || fraction > max) {
        fprintf(stderr, "png_check: %s: cloth covers %.2f%%, expected %.2f%% .. %.2f%%\n", path,
                100.0 * fraction, 100.0 * min, 100.0 * max);
        return 1;
    }
    return 0;
}

/* Hue in degrees [0, 360) and saturation (max - min) / max of an RGB colour, channels in [0, 1]. */
static void hue_saturation(double r, double g, double b, double *hue, double *saturation)
{
    const double hi = fmax(r, fmax(g, b)), lo = fmin(r, fmin(g, b)), c = hi - lo;
    *saturation = hi > 0.0 ? c / hi : 0.0;
    double h = 0.0;
    if (c > 0.0)
        h = hi == r ? fmod((g - b) / c, 6.0) : hi == g ? (b - r) / c + 2.0 : (r - g) / c + 4.0;
    h *= 60.0;
    *hue = h < 0.0 ? h + 360.0 : h;
}

static int check_hue(const char *path, double r, double g, double b, double min)
{
    image im;
    if (!read_png(path, &im))
        return 2;
    double want, want_s;
    hue_saturation(r, g, b, &want, &want_s);
    const size_t n = (size_t)im.width * im.height;
    size_t hits = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t *p = im.rgb + 3 * i;
        double h, s;
        hue_saturation(p[0] / 255.0, p[1] / 255.0, p[2] / 255.0, &h, &s);
        const double d = fabs(h - want), around = d > 180.0 ? 360.0 - d : d;
        hits += s > 0.4 && fmax(p[0], fmax(p[1], p[2])) > 40 && around <= 12.0;
    }
    free(im.rgb);
    const double fraction = (double)hits / (double)n;
    printf("%s: %.3f%% of the pixels have hue %.0f (colour %.2f %.2f %.2f)\n", path,
           100.0 * fraction, want, r, g, b);
    if (fraction < min) {
        fprintf(stderr, "png_check: %s: colour %.2f %.2f %.2f covers %.3f%%, expected >= %.3f%%\n",
                path, r, g, b, 100.0 * fraction, 100.0 * min);
        return 1;
    }
    return 0;
}

static int compare_pixels(const void *a, const void *b) { return memcmp(a, b, 3); }

static int check_notblank(const char *path, double min)
{
    image im;
    if (!read_png(path, &im))
        return 2;
    const size_t n = (size_t)im.width * im.height;
    uint8_t *sorted = malloc(3 * n + 1);
    if (!sorted) {
        free(im.rgb);
        return 2;
    }
    memcpy(sorted, im.rgb, 3 * n);
    qsort(sorted, n, 3, compare_pixels);
    size_t best = 0, run = 0;
    for (size_t i = 0; i < n; ++i) {
        run = i > 0 && !memcmp(sorted + 3 * i, sorted + 3 * (i - 1), 3) ? run + 1 : 1;
        best = run > best ? run : best;
    }
    free(sorted);
    free(im.rgb);
    const double fraction = 1.0 - (double)best / (double)n;
    printf("%s: %.2f%% of the pixels differ from the most common colour\n", path, 100.0 * fraction);
    if (fraction < min) {
        fprintf(stderr,
                "png_check: %s is blank: %.2f%% of the pixels are not the background, "
                "expected >= %.2f%%\n",
                path, 100.0 * fraction, 100.0 * min);
        return 1;
    }
    return 0;
}

/* The fraction of pixels that differ by more than 8 in some channel; -1 when unreadable. */
static double difference(const char *a, const char *b)
{
    image x, y;
    if (!read_png(a, &x))
        return -1.0;
    if (!read_png(b, &y)) {
        free(x.rgb);
        return -1.0;
    }
    double result = -1.0;
    if (x.width != y.width || x.height != y.height) {
        fprintf(stderr, "png_check: %s and %s differ in size\n", a, b);
    } else {
        const size_t n = (size_t)x.width * x.height;
        size_t d = 0;
        for (size_t i = 0; i < 3 * n; i += 3)
            for (int c = 0; c < 3; ++c)
                if (abs((int)x.rgb[i + c] - (int)y.rgb[i + c]) > 8) {
                    ++d;
                    break;
                }
        result = (double)d / (double)n;
        printf("%s vs %s: %.2f%% of the pixels differ\n", a, b, 100.0 * result);
    }
    free(x.rgb);
    free(y.rgb);
    return result;
}

static int check_writer(const char *dir)
{
    static const uint8_t digits[] = "123456789", wiki[] = "Wikipedia";
    if (viz_crc32(0, digits, 9) != 0xCBF43926u || viz_adler32(1, wiki, 9) != 0x11E60398u) {
        fprintf(stderr, "png_check: CRC-32 or Adler-32 gives the wrong value\n");
        return 1;
    }
    static const int sizes[][2] = {{1, 1}, {7, 3}, {300, 250}, {1, 40000}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
        const int w = sizes[s][0], h = sizes[s][1];
        uint8_t *rgb = malloc((size_t)w * h * 3);
        for (size_t i = 0; i < (size_t)w * h * 3; ++i)
            rgb[i] = (uint8_t)(i * 2654435761u >> 13);
        char path[1024], error[256];
        snprintf(path, sizeof path, "%s/writer_%dx%d.png", dir, w, h);
        image back;
        if (!viz_png_write(path, rgb, w, h, (size_t)w * 3, error, sizeof error)) {
            fprintf(stderr, "png_check: %s\n", error);
            return 1;
        }
        if (!read_png(path, &back))
            return 1;
        const bool same =
            back.width == w && back.height == h && !memcmp(back.rgb, rgb, (size_t)w * h * 3);
        free(back.rgb);
        free(rgb);
        if (!same) {
            fprintf(stderr, "png_check: %s does not read back as written\n", path);
            return 1;
        }
        printf("%s: written and read back\n", path);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "image"))
        return check_image(argv[2], atof(argv[3]), atof(argv[4]));
    if (argc == 5 && (!strcmp(argv[1], "differ") || !strcmp(argv[1], "same"))) {
        double d = difference(argv[2], argv[3]), limit = atof(argv[4]);
        if (d < 0.0)
            return 2;
        bool ok = !strcmp(argv[1], "differ") ? d >= limit : d <= limit;
        if (!ok)
            fprintf(stderr, "png_check: %.2f%% of the pixels differ; expected %s %.2f%%\n",
                    100.0 * d, !strcmp(argv[1], "differ") ? "at least" : "at most", 100.0 * limit);
        return ok ? 0 : 1;
    }
    if (argc == 3 && !strcmp(argv[1], "writer"))
        return check_writer(argv[2]);
    if (argc == 7 && !strcmp(argv[1], "hue"))
        return check_hue(argv[2], atof(argv[3]), atof(argv[4]), atof(argv[5]), atof(argv[6]));
    if (argc == 4 && !strcmp(argv[1], "notblank"))
        return check_notblank(argv[2], atof(argv[3]));
    fprintf(stderr, "usage: png_check image FILE MIN MAX | differ A B MIN | same A B MAX | "
                    "hue FILE R G B MIN | notblank FILE MIN | writer DIR\n");
    return 2;
}

/* The PNG writer (png.h): signature, IHDR, one IDAT holding a zlib stream of stored deflate blocks,
 * IEND (PNG spec, RFC 1950 zlib, RFC 1951 deflate section 3.2.4).
 *
 * Every scanline is filter type 0 (none) followed by its RGB bytes. The zlib stream is the header
 * 0x78 0x01, blocks of at most 65535 bytes each with BTYPE 00 (LEN, ~LEN, raw bytes; BFINAL on the
 * last), and the Adler-32 of the uncompressed data, big-endian. Chunks carry a CRC-32 of their type
 * and data. The whole IDAT is assembled in memory (a 1920 x 1080 screenshot is about 6 MB).
 */
#include "png.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t viz_crc32(uint32_t previous, const uint8_t *data, size_t size)
{
    uint32_t c = ~previous;
    for (size_t i = 0; i < size; ++i) {
        c ^= data[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

uint32_t viz_adler32(uint32_t previous, const uint8_t *data, size_t size)
{
    uint32_t a = previous & 0xffffu, b = previous >> 16;
    while (size) {
        size_t n = size < 5552 ? size : 5552; /* the longest run before b can overflow */
        for (size_t i = 0; i < n; ++i) {
            a += data[i];
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
        data += n;
        size -= n;
    }
    return (b << 16) | a;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8),
    p[3] = (uint8_t)v;
}

/* Writes one chunk: length, type, data, CRC of type and data. */
static bool write_chunk(FILE *f, const char type[4], const uint8_t *data, size_t size)
{
    uint8_t head[8], tail[4];
    put32(head, (uint32_t)size);
    memcpy(head + 4, type, 4);
    uint32_t crc = viz_crc32(viz_crc32(0, head + 4, 4), data, size);
    put32(tail, crc);
    return fwrite(head, 1, 8, f) == 8 && (size == 0 || fwrite(data, 1, size, f) == size) &&
           fwrite(tail, 1, 4, f) == 4;
}

bool viz_png_write(const char *path, const uint8_t *rgb, int width, int height, size_t stride,
                   char *error, size_t error_size)
{
    if (width <= 0 || height <= 0 || (size_t)width > (SIZE_MAX - 1) / 3) {
        snprintf(error, error_size, "%s: bad image size %d x %d", path, width, height);
        return false;
    }
    const size_t row = 1 + (size_t)width * 3, raw = row * (size_t)height;
    const size_t blocks = raw / 65535 + 1;
    const size_t zsize = 2 + raw + 5 * blocks + 4;
    uint8_t *z = malloc(zsize);
    if (!z) {
        snprintf(error, error_size, "%s: no memory for a %d x %d image", path, width, height);
        return false;
    }
    /* zlib header: deflate, 32 KiB window (CMF 0x78), no dictionary, fastest (FLG 0x01). */
    size_t at = 0;
    z[at++] = 0x78;
    z[at++] = 0x01;
    uint32_t adler = 1;
    size_t done = 0; /* bytes of the raw scanline stream emitted */
    do {
        size_t n = raw - done < 65535 ? raw - done : 65535;
        z[at++] = (uint8_t)(done + n == raw ? 1 : 0); /* BFINAL, BTYPE 00 */
        z[at++] = (uint8_t)(n & 0xff);
        z[at++] = (uint8_t)(n >> 8);
        z[at++] = (uint8_t)(~n & 0xff);
        z[at++] = (uint8_t)((~n >> 8) & 0xff);
        for (size_t k = 0; k < n; ++k) { /* the raw stream: per row a 0 filter byte, then pixels */
            size_t pos = done + k, y = pos / row, x = pos % row;
            z[at + k] = x == 0 ? 0 : rgb[y * stride + x - 1];
        }
        adler = viz_adler32(adler, z + at, n);
        at += n;
        done += n;
    } while (done < raw);
    put32(z + at, adler);
    at += 4;

    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(error, error_size, "%s: %s", path, strerror(errno));
        free(z);
        return false;
    }
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t ihdr[13];
    put32(ihdr, (uint32_t)width);
    put32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    bool ok = fwrite(signature, 1, 8, f) == 8 && write_chunk(f, "IHDR", ihdr, sizeof ihdr) &&
              write_chunk(f, "IDAT", z, at) && write_chunk(f, "IEND", NULL, 0);
    free(z);
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(error, error_size, "%s: write failed: %s", path, strerror(errno));
    return ok;
}

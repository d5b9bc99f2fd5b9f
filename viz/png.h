/* A PNG writer with no dependency: 8-bit RGB, deflate in stored (uncompressed) blocks, so that the
 * viewer's screenshots need no zlib. The files are about width * height * 3 bytes. */
#ifndef VIZ_PNG_H
#define VIZ_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes `rgb` (height rows of width * 3 bytes, `stride` bytes apart, top row first) to `path`.
 * On failure returns false and puts the reason into `error` (errno text, "path: why"). */
bool viz_png_write(const char *path, const uint8_t *rgb, int width, int height, size_t stride,
                   char *error, size_t error_size);

/* The checksums PNG and zlib use, exposed for tests: CRC-32 (ISO 3309, as in PNG chunks) and
 * Adler-32 (RFC 1950), each continued from `previous` (start with 0 and 1 respectively). */
uint32_t viz_crc32(uint32_t previous, const uint8_t *data, size_t size);
uint32_t viz_adler32(uint32_t previous, const uint8_t *data, size_t size);

#endif

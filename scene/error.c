/* Errors of scene loading and output: one formatted message in the caller's drape_scene_error, the
 * status that says what kind of failure it is, and the library's result when one is behind it.
 * Parse errors carry a line and column, which come from the byte offset where cJSON stopped. A
 * message quotes at most a short escaped excerpt of an input (sc_excerpt), so that an error on a
 * file that is no scene or mesh at all (a password file named as a mesh) does not show its
 * contents.
 */
#include "scene_internal.h"

#include <stdio.h>
#include <string.h>

drape_scene_status sc_vfail(drape_scene_error *err, drape_scene_status status, drape_result result,
                            const char *fmt, va_list ap)
{
    if (err) {
        err->status = status;
        err->result = result;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    }
    return status;
}

drape_scene_error *sc_error_reset(drape_scene_error *err, drape_scene_error *local)
{
    if (!err)
        err = local;
    err->status = DRAPE_SCENE_OK;
    err->result = DRAPE_OK;
    err->message[0] = '\0';
    return err;
}

drape_scene_status sc_fail(drape_scene_error *err, drape_scene_status status, drape_result result,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_vfail(err, status, result, fmt, ap);
    va_end(ap);
    return status;
}

void sc_line_column(const char *data, size_t size, size_t offset, uint32_t *line, uint32_t *column)
{
    uint32_t l = 1, c = 1;
    for (size_t i = 0; i < offset && i < size; ++i) {
        if (data[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

const char *sc_excerpt(const char *text, size_t length, char *buf, size_t size)
{
    size_t used = 0, k = 0;
    for (; k < length && k < SC_EXCERPT_MAX; ++k) {
        const unsigned char c = (unsigned char)text[k];
        char piece[5];
        if (c >= 0x20 && c < 0x7f && c != '\'')
            piece[0] = (char)c, piece[1] = '\0';
        else
            snprintf(piece, sizeof piece, "\\x%02x", c);
        size_t n = strlen(piece);
        if (used + n + 4 > size)
            break;
        memcpy(buf + used, piece, n);
        used += n;
    }
    if (k < length && used + 4 <= size)
        memcpy(buf + used, "...", 3), used += 3;
    buf[used] = '\0';
    return buf;
}

drape_scene_status sc_status_of(drape_result result)
{
    switch (result) {
    case DRAPE_OK:
        return DRAPE_SCENE_OK;
    case DRAPE_ERROR_INVALID_ARGUMENT:
    case DRAPE_ERROR_OUT_OF_RANGE:
        return DRAPE_SCENE_BAD_INPUT;
    default:
        return DRAPE_SCENE_WORLD_FAILED;
    }
}

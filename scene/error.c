/* Errors of scene loading and output: one formatted message in the caller's drape_scene_error, the
 * status that says what kind of failure it is, and the library's result when one is behind it.
 * Parse errors carry a line and column, which come from the byte offset where cJSON stopped.
 */
#include "scene_internal.h"

#include <stdio.h>

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

/* Results and log messages. Every failure in drape is reported twice: as a drape_result that the
 * caller can branch on, and as one sentence through the world's log callback that names the
 * function, the argument and what is wrong, so that a user reading a log knows what to fix. */
#include "world_internal.h"

#include <stdio.h>

const char *drape_result_string(drape_result result)
{
    switch (result) {
    case DRAPE_OK:
        return "ok";
    case DRAPE_ERROR_INVALID_ARGUMENT:
        return "invalid argument";
    case DRAPE_ERROR_OUT_OF_RANGE:
        return "index out of range";
    case DRAPE_ERROR_OUT_OF_MEMORY:
        return "out of memory";
    case DRAPE_ERROR_BACKEND:
        return "backend failure";
    case DRAPE_ERROR_UNSUPPORTED:
        return "unsupported";
    case DRAPE_ERROR_NON_FINITE:
        return "non-finite state";
    case DRAPE_ERROR_ENVIRONMENT:
        return "environment variable refused";
    }
    return "unknown result";
}

void drape_log_stderr(drape_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == DRAPE_LOG_INFO)
        return;
    fprintf(stderr, "drape: %s: %s\n", level == DRAPE_LOG_ERROR ? "error" : "warning", message);
}

static void dr_vlog(const drape_world_def *def, drape_log_level level, const char *fmt, va_list ap)
{
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    drape_log_fn log = def && def->log ? def->log : drape_log_stderr;
    log(level, message, def ? def->log_user : NULL);
}

void dr_log(const drape_world_def *def, drape_log_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dr_vlog(def, level, fmt, ap);
    va_end(ap);
}

drape_result dr_fail(const drape_world_def *def, drape_result result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dr_vlog(def, DRAPE_LOG_ERROR, fmt, ap);
    va_end(ap);
    return result;
}

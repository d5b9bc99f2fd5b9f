/* The def cookie: every drape_default_*_def() stamps its def, and every call that takes a def
 * refuses one without the stamp, so that a def the caller zero-initialised or filled field by
 * field (whose fields left at 0 mean something else than the defaults: a stiffness of 0, a hard
 * XPBD compliance, a zero-sized cloth) is an error that says so, not a silently different object
 * (after Box2D's b2_secretCookie).
 */
#include "world_internal.h"

drape_result dr_check_def(const drape_world_def *log, const void *def, uint32_t cookie,
                          const char *fn, const char *kind)
{
    if (!def)
        return dr_fail(log, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def is NULL", fn);
    if (cookie != DR_DEF_COOKIE)
        return dr_fail(log, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: the def was not made by drape_default_%s_def() (its cookie is %#x): "
                       "start from that and change the fields you need",
                       fn, kind, cookie);
    return DRAPE_OK;
}

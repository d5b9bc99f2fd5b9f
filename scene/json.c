/* Strict reading of cJSON values. Every check fails with one message that names the file, the JSON
 * path of the value ("$.colliders[2].radius") and what was expected and found, so that the parsers
 * of the sections say only what they accept. An object's keys are checked against the keys its
 * section knows: unknown and repeated keys are errors, never silently ignored.
 *
 * The path lives in the reader (no global state); entering a key or an index returns a mark that
 * leaving restores. A path longer than the buffer keeps its start and ends in "...".
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const sc_range sc_any = {-FLT_MAX, FLT_MAX, false, false};
const sc_range sc_positive = {0.0, FLT_MAX, true, false};
const sc_range sc_nonneg = {0.0, FLT_MAX, false, false};
const sc_range sc_unit = {0.0, 1.0, false, false};
const sc_range sc_poisson = {-1.0, 0.5, true, true};
const sc_range sc_coord = {-DRAPE_MAX_MAGNITUDE, DRAPE_MAX_MAGNITUDE, false, false};
const sc_range sc_length = {0.0, DRAPE_MAX_MAGNITUDE, false, false};

void sc_json_init(sc_json *j, const char *file, drape_scene_error *err)
{
    j->file = file;
    j->err = err;
    snprintf(j->path, sizeof j->path, "$");
    j->path_length = 1;
}

/* Appends text to the path, keeping "..." at the end when it does not fit. */
static size_t append(sc_json *j, const char *text)
{
    size_t mark = j->path_length;
    size_t n = strlen(text), room = sizeof j->path - 1 - j->path_length;
    if (n <= room) {
        memcpy(j->path + j->path_length, text, n + 1);
        j->path_length += n;
    } else if (sizeof j->path > 4) {
        memcpy(j->path + sizeof j->path - 4, "...", 4);
        j->path_length = sizeof j->path - 1;
    }
    return mark;
}

size_t sc_json_enter_key(sc_json *j, const char *key)
{
    char part[80];
    snprintf(part, sizeof part, ".%s", key);
    return append(j, part);
}

size_t sc_json_enter_index(sc_json *j, size_t index)
{
    char part[32];
    snprintf(part, sizeof part, "[%zu]", index);
    return append(j, part);
}

size_t sc_json_enter_quoted(sc_json *j, const char *key)
{
    char part[128];
    snprintf(part, sizeof part, "[\"%s\"]", key);
    return append(j, part);
}

void sc_json_leave(sc_json *j, size_t mark)
{
    j->path_length = mark;
    j->path[mark] = '\0';
}

static bool vfail(sc_json *j, drape_scene_status status, drape_result result, const char *fmt,
                  va_list ap)
{
    char what[768];
    vsnprintf(what, sizeof what, fmt, ap);
    sc_fail(j->err, status, result, "%s: %s: %s", j->file, j->path, what);
    return false;
}

bool sc_json_fail(sc_json *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, fmt, ap);
    va_end(ap);
    return false;
}

bool sc_json_fail_status(sc_json *j, drape_scene_status status, drape_result result,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j, status, result, fmt, ap);
    va_end(ap);
    return false;
}

bool sc_json_fail_at(sc_json *j, const char *key, const char *fmt, ...)
{
    size_t mark = sc_json_enter_key(j, key);
    va_list ap;
    va_start(ap, fmt);
    vfail(j, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, fmt, ap);
    va_end(ap);
    sc_json_leave(j, mark);
    return false;
}

/* "a string", "3.5", "true", ... for messages: what was found. */
static const char *describe(const cJSON *v, char *buf, size_t size)
{
    if (cJSON_IsNumber(v))
        snprintf(buf, size, "%.17g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, size, "a string");
    else if (cJSON_IsBool(v))
        snprintf(buf, size, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v))
        snprintf(buf, size, "null");
    else if (cJSON_IsArray(v))
        snprintf(buf, size, "an array of %d", cJSON_GetArraySize(v));
    else if (cJSON_IsObject(v))
        snprintf(buf, size, "an object");
    else
        snprintf(buf, size, "something else");
    return buf;
}

static bool expected(sc_json *j, const cJSON *v, const char *what)
{
    char found[64];
    return sc_json_fail(j, "must be %s, got %s", what, describe(v, found, sizeof found));
}

/* A key for messages: printable ASCII, truncated. */
static const char *shown_key(const char *key, char *buf, size_t size)
{
    size_t n = 0;
    for (const char *c = key; *c && n + 4 < size; ++c)
        buf[n++] = (*c >= 0x20 && *c < 0x7f) ? *c : '?';
    if (key[n])
        buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n] = '\0';
    return buf;
}

bool sc_json_object(sc_json *j, const cJSON *value, const char *const *allowed)
{
    if (!cJSON_IsObject(value))
        return expected(j, value, "an object");
    for (const cJSON *m = value->child; m; m = m->next) {
        char key[64], list[512];
        bool known = false;
        for (const char *const *a = allowed; *a && !known; ++a)
            known = strcmp(*a, m->string) == 0;
        if (!known) {
            size_t used = 0;
            list[0] = '\0';
            for (const char *const *a = allowed; *a && used < sizeof list; ++a)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                         a == allowed ? "" : ", ", *a);
            return sc_json_fail(j, "unknown key '%s' (known keys: %s)",
                                shown_key(m->string, key, sizeof key), list);
        }
        for (const cJSON *o = value->child; o != m; o = o->next)
            if (strcmp(o->string, m->string) == 0)
                return sc_json_fail(j, "key '%s' appears twice",
                                    shown_key(m->string, key, sizeof key));
    }
    return true;
}

bool sc_json_array(sc_json *j, const cJSON *value, size_t *count)
{
    if (!cJSON_IsArray(value))
        return expected(j, value, "an array");
    size_t n = 0;
    for (const cJSON *c = value->child; c; c = c->next)
        n++;
    *count = n;
    return true;
}

const cJSON *sc_json_member(const cJSON *object, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

bool sc_json_require(sc_json *j, const cJSON *object, const char *key)
{
    return sc_json_member(object, key) != NULL || sc_json_fail(j, "missing key '%s'", key);
}

/* "> 0", "in [0, 1]", ... */
static void describe_range(sc_range r, char *buf, size_t size)
{
    bool low = r.min > -FLT_MAX, high = r.max < FLT_MAX;
    if (low && high)
        snprintf(buf, size, "in %c%g, %g%c", r.min_open ? '(' : '[', r.min, r.max,
                 r.max_open ? ')' : ']');
    else if (low)
        snprintf(buf, size, "%s %g", r.min_open ? ">" : ">=", r.min);
    else if (high)
        snprintf(buf, size, "%s %g", r.max_open ? "<" : "<=", r.max);
    else
        snprintf(buf, size, "a finite number");
}

/* Whether text for v reads back as a bound of r (as describe_range shows it) that v is not. */
static bool reads_as_other_bound(const char *text, double v, sc_range r)
{
    const double read = strtod(text, NULL);
    const double bounds[2] = {r.min, r.max};
    for (int k = 0; k < 2; ++k) {
        char shown[32];
        snprintf(shown, sizeof shown, "%g", bounds[k]);
        if (v != bounds[k] && (read == bounds[k] || read == strtod(shown, NULL)))
            return true;
    }
    return false;
}

/* A value out of its range, for "got ...": 9 digits, or as many more as it takes not to look like
 * the bound it is past (1000000000.0000001, not 1e+09, against a bound of 1e+09). */
static const char *shown_value(double v, sc_range r, char *buf, size_t size)
{
    for (int digits = 9;; ++digits) {
        snprintf(buf, size, "%.*g", digits, v);
        if (digits == 17 || !reads_as_other_bound(buf, v, r))
            return buf;
    }
}

bool sc_json_double(sc_json *j, const cJSON *value, sc_range r, double *out)
{
    if (!cJSON_IsNumber(value))
        return expected(j, value, "a number");
    double v = value->valuedouble;
    bool ok = isfinite(v) && (r.min_open ? v > r.min : v >= r.min) &&
              (r.max_open ? v < r.max : v <= r.max);
    if (!ok) {
        char range[96];
        describe_range(r, range, sizeof range);
        if (!isfinite(v)) /* a literal past the double range, such as 1e400, reads as inf */
            return sc_json_fail(j, "must be a finite number%s%s, got %.9g (too large for a double)",
                                r.min > -FLT_MAX || r.max < FLT_MAX ? " " : "",
                                r.min > -FLT_MAX || r.max < FLT_MAX ? range : "", v);
        char shown[32];
        if (r.min > -FLT_MAX || r.max < FLT_MAX)
            return sc_json_fail(j, "must be %s, got %s", range,
                                shown_value(v, r, shown, sizeof shown));
        return sc_json_fail(j, "must be a finite number that fits a float, got %.9g", v);
    }
    *out = v;
    return true;
}

bool sc_json_float(sc_json *j, const cJSON *value, sc_range r, float *out)
{
    double v = 0.0;
    if (!sc_json_double(j, value, r, &v))
        return false;
    /* Checked in double, used in float: a value that a float cannot hold as a normal number would
     * change meaning (a mass of 1e-50 becomes 0, a pin; 1e-39 has no finite inverse). */
    const float f = (float)v;
    if (v != 0.0 && !(fabsf(f) >= FLT_MIN))
        return sc_json_fail(j, "%.9g " SC_TOO_SMALL_FOR_FLOAT, v, (double)FLT_MIN);
    *out = f;
    return true;
}

bool sc_json_u32(sc_json *j, const cJSON *value, uint32_t min, uint32_t max, uint32_t *out)
{
    if (!cJSON_IsNumber(value))
        return expected(j, value, "an integer");
    double v = value->valuedouble;
    if (!(v >= (double)min && v <= (double)max) || v != floor(v)) {
        if (max == UINT32_MAX)
            return sc_json_fail(j, "must be an integer >= %u, got %.17g", min, v);
        return sc_json_fail(j, "must be an integer in [%u, %u], got %.17g", min, max, v);
    }
    *out = (uint32_t)v;
    return true;
}

bool sc_json_bool(sc_json *j, const cJSON *value, bool *out)
{
    if (!cJSON_IsBool(value))
        return expected(j, value, "true or false");
    *out = cJSON_IsTrue(value);
    return true;
}

bool sc_json_string(sc_json *j, const cJSON *value, const char **out)
{
    if (!cJSON_IsString(value) || !value->valuestring)
        return expected(j, value, "a string");
    *out = value->valuestring;
    return true;
}

bool sc_json_vec3(sc_json *j, const cJSON *value, sc_range r, drape_vec3 *out)
{
    if (!cJSON_IsArray(value) || cJSON_GetArraySize(value) != 3)
        return expected(j, value, "an array of 3 numbers [x, y, z]");
    float c[3];
    const cJSON *e = value->child;
    for (size_t k = 0; k < 3; ++k, e = e->next) {
        size_t mark = sc_json_enter_index(j, k);
        bool ok = sc_json_float(j, e, r, &c[k]);
        sc_json_leave(j, mark);
        if (!ok)
            return false;
    }
    *out = (drape_vec3){c[0], c[1], c[2]};
    return true;
}

bool sc_json_enum(sc_json *j, const cJSON *value, const char *const *names, int *out)
{
    const char *s = NULL;
    if (!sc_json_string(j, value, &s))
        return false;
    char list[256];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; names[i]; ++i) {
        if (strcmp(names[i], s) == 0) {
            *out = i;
            return true;
        }
        if (used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "",
                                     names[i]);
    }
    char shown[64];
    return sc_json_fail(j, "must be one of %s, got \"%s\"", list,
                        shown_key(s, shown, sizeof shown));
}

/* ---- members: absent is fine and keeps the default ---- */

/* Reads member `key` with a value reader, the key on the path while it reads. */
#define SC_MEMBER(j, object, key, call)                                                            \
    do {                                                                                           \
        const cJSON *value = sc_json_member(object, key);                                          \
        if (!value)                                                                                \
            return true;                                                                           \
        size_t mark = sc_json_enter_key(j, key);                                                   \
        bool ok = (call);                                                                          \
        sc_json_leave(j, mark);                                                                    \
        return ok;                                                                                 \
    } while (0)

bool sc_json_get_float(sc_json *j, const cJSON *object, const char *key, sc_range range, float *out)
{
    SC_MEMBER(j, object, key, sc_json_float(j, value, range, out));
}

bool sc_json_get_u32(sc_json *j, const cJSON *object, const char *key, uint32_t min, uint32_t max,
                     uint32_t *out)
{
    SC_MEMBER(j, object, key, sc_json_u32(j, value, min, max, out));
}

bool sc_json_get_bool(sc_json *j, const cJSON *object, const char *key, bool *out)
{
    SC_MEMBER(j, object, key, sc_json_bool(j, value, out));
}

bool sc_json_get_string(sc_json *j, const cJSON *object, const char *key, const char **out)
{
    SC_MEMBER(j, object, key, sc_json_string(j, value, out));
}

bool sc_json_get_vec3(sc_json *j, const cJSON *object, const char *key, sc_range range,
                      drape_vec3 *out)
{
    SC_MEMBER(j, object, key, sc_json_vec3(j, value, range, out));
}

bool sc_json_get_enum(sc_json *j, const cJSON *object, const char *key, const char *const *names,
                      int *out)
{
    SC_MEMBER(j, object, key, sc_json_enum(j, value, names, out));
}

bool sc_json_get_stiffness(sc_json *j, const cJSON *object, float *stiffness, float *compliance,
                           drape_stiffness_model *model)
{
    if (sc_json_member(object, "stiffness") && sc_json_member(object, "compliance"))
        return sc_json_fail(j, "give \"stiffness\" (PBD) or \"compliance\" (XPBD), not both");
    if (!sc_json_get_float(j, object, "stiffness", sc_unit, stiffness) ||
        !sc_json_get_float(j, object, "compliance", sc_nonneg, compliance))
        return false;
    if (sc_json_member(object, "compliance"))
        *stiffness = 1.0f, *model = DRAPE_STIFFNESS_XPBD;
    else if (sc_json_member(object, "stiffness"))
        *compliance = 0.0f, *model = DRAPE_STIFFNESS_PBD;
    return true;
}

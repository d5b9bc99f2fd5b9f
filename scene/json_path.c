/* JSON paths into a cJSON tree, the way sweep files (docs/sweep-format.md) name the scene fields
 * they vary: "$" for the whole document, then ".key" steps into objects and "[index]" steps into
 * arrays, e.g. "$.cloths[0].stretch.compliance". This is the dot-and-bracket subset of JSONPath
 * (Goessner 2007) with no wildcards or filters: one path names one value.
 *
 * Setting replaces the member or element the path names, or adds the last key to an object that
 * lacks it (so "$.cloths[0].mass" works whether or not the base scene states a mass). Every step
 * before the last must exist: a misspelt key in the middle is an error that names the part of the
 * path that does exist, never a new branch that the scene parser would then reject elsewhere.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One step of a path: a key (not NUL-terminated) or an index. */
typedef struct step {
    const char *key; /* NULL for an index */
    size_t key_length;
    size_t index;
    const char *end; /* where the next step starts */
} step;

static bool key_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-'; }

/* Reads the step at p (p points at '.' or '['); false with why. */
static bool read_step(const char *path, const char *p, step *out, char *why, size_t why_size)
{
    if (*p == '.') {
        const char *k = p + 1, *e = k;
        while (key_char(*e))
            ++e;
        if (e == k) {
            snprintf(why, why_size, "'%s': expected a key after '.' at character %zu", path,
                     (size_t)(k - path) + 1);
            return false;
        }
        *out = (step){.key = k, .key_length = (size_t)(e - k), .index = 0, .end = e};
        return true;
    }
    if (*p == '[') {
        const char *d = p + 1, *e = d;
        size_t index = 0;
        while (isdigit((unsigned char)*e) && e - d < 9)
            index = 10 * index + (size_t)(*e++ - '0');
        if (e == d || *e != ']') {
            snprintf(why, why_size,
                     "'%s': expected an index of up to 9 digits and ']' at "
                     "character %zu",
                     path, (size_t)(d - path) + 1);
            return false;
        }
        *out = (step){.key = NULL, .key_length = 0, .index = index, .end = e + 1};
        return true;
    }
    snprintf(why, why_size, "'%s': expected '.' or '[' at character %zu", path,
             (size_t)(p - path) + 1);
    return false;
}

bool sc_json_path_check(const char *path, char *why, size_t why_size)
{
    if (!path || path[0] != '$') {
        snprintf(why, why_size, "'%s': a path starts with '$' (e.g. \"$.solver.dt\")",
                 path ? path : "");
        return false;
    }
    if (path[1] == '\0') {
        snprintf(why, why_size, "'$' names the whole scene; name a field in it");
        return false;
    }
    for (const char *p = path + 1; *p;) {
        step s;
        if (!read_step(path, p, &s, why, why_size))
            return false;
        p = s.end;
    }
    return true;
}

/* The member of an object with a key of `length` bytes, or NULL. */
static cJSON *member(cJSON *object, const char *key, size_t length)
{
    for (cJSON *m = object->child; m; m = m->next)
        if (m->string && strlen(m->string) == length && !memcmp(m->string, key, length))
            return m;
    return NULL;
}

static const char *kind(const cJSON *v)
{
    return cJSON_IsObject(v)   ? "an object"
           : cJSON_IsArray(v)  ? "an array"
           : cJSON_IsString(v) ? "a string"
           : cJSON_IsNumber(v) ? "a number"
           : cJSON_IsBool(v)   ? "a boolean"
                               : "null";
}

bool sc_json_path_set(cJSON *root, const char *path, const cJSON *value, char *why, size_t why_size)
{
    if (!sc_json_path_check(path, why, why_size))
        return false;
    cJSON *at = root;
    for (const char *p = path + 1; *p;) {
        step s;
        read_step(path, p, &s, why, why_size); /* checked above */
        const int done = (int)(p - path);      /* the part of the path that exists */
        bool last = *s.end == '\0';
        cJSON *next = NULL;
        if (s.key) {
            if (!cJSON_IsObject(at)) {
                snprintf(why, why_size, "%.*s is %s, not an object", done, path, kind(at));
                return false;
            }
            next = member(at, s.key, s.key_length);
            if (!next && !last) {
                snprintf(why, why_size, "%.*s has no key '%.*s'", done, path, (int)s.key_length,
                         s.key);
                return false;
            }
        } else {
            if (!cJSON_IsArray(at)) {
                snprintf(why, why_size, "%.*s is %s, not an array", done, path, kind(at));
                return false;
            }
            int n = cJSON_GetArraySize(at);
            if (s.index >= (size_t)n) {
                snprintf(why, why_size, "%.*s has %d element%s, no [%zu]", done, path, n,
                         n == 1 ? "" : "s", s.index);
                return false;
            }
            next = cJSON_GetArrayItem(at, (int)s.index);
        }
        if (last) {
            /* The copy of a member carries its key: drop it, the destination names it. */
            cJSON *copy = cJSON_Duplicate(value, true);
            if (copy && copy->string && !(copy->type & cJSON_StringIsConst))
                cJSON_free(copy->string);
            if (copy)
                copy->string = NULL;
            char *key = s.key ? malloc(s.key_length + 1) : NULL;
            if (key) {
                memcpy(key, s.key, s.key_length);
                key[s.key_length] = '\0';
            }
            bool ok = copy != NULL && (!s.key || key);
            if (ok && !s.key)
                ok = cJSON_ReplaceItemInArray(at, (int)s.index, copy);
            else if (ok && next)
                ok = cJSON_ReplaceItemInObjectCaseSensitive(at, key, copy);
            else if (ok)
                ok = cJSON_AddItemToObject(at, key, copy);
            free(key);
            if (!ok) {
                cJSON_Delete(copy);
                snprintf(why, why_size, "no memory to set %s", path);
            }
            return ok;
        }
        at = next;
        p = s.end;
    }
    return false; /* not reached: the path has at least one step */
}

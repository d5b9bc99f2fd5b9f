/* What every section parser shares: walking an array with the index on the path, turning a failed
 * library call into a message with the path, and particle references.
 *
 * A particle reference is either a number, the particle's index in the world (particles are
 * numbered in the order the sections add them: "particles", "cloths", "ropes", "meshes"), or a
 * string that names a particle of a named object: "chain[19]" for a rope or mesh, "flag[0,3]" for
 * cloth grid particle (i, j). Negative indices count from the end: "chain[-1]" is the last.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool sc_parse_each(sc_parser *p, const cJSON *array,
                   bool (*each)(sc_parser *p, const cJSON *item, size_t index))
{
    size_t count;
    if (!array)
        return true;
    if (!sc_json_array(&p->json, array, &count))
        return false;
    size_t i = 0;
    for (const cJSON *item = array->child; item; item = item->next, ++i) {
        size_t mark = sc_json_enter_index(&p->json, i);
        bool ok = each(p, item, i);
        sc_json_leave(&p->json, mark);
        if (!ok)
            return false;
    }
    return true;
}

bool sc_parse_check(sc_parser *p, drape_result r)
{
    if (r == DRAPE_OK)
        return true;
    return sc_json_fail_status(&p->json, sc_status_of(r), r, "%s", sc_scene_last_error(p->scene));
}

/* Reads an optionally negative decimal integer at *at; false when there is none or it is huge. */
static bool read_int(const char **at, long long *out)
{
    const char *c = *at;
    bool negative = *c == '-';
    if (negative)
        ++c;
    if (!isdigit((unsigned char)*c))
        return false;
    long long v = 0;
    for (; isdigit((unsigned char)*c); ++c) {
        if (v > 1000000000000LL)
            return false;
        v = 10 * v + (*c - '0');
    }
    *out = negative ? -v : v;
    *at = c;
    return true;
}

/* k in [-count, count) -> [0, count); false when out of range. */
static bool wrap(long long k, uint32_t count, uint32_t *out)
{
    if (k < -(long long)count || k >= (long long)count)
        return false;
    *out = (uint32_t)(k < 0 ? k + count : k);
    return true;
}

static bool parse_named_ref(sc_parser *p, const char *text, uint32_t *out)
{
    static const char syntax[] =
        "a particle reference is an index or \"name[k]\" (\"name[i,j]\" for a cloth)";
    const char *open = strchr(text, '[');
    long long k[2] = {0, 0};
    int n = 0;
    const char *c = open ? open + 1 : NULL;
    bool ok = open && open != text && read_int(&c, &k[n++]);
    if (ok && *c == ',')
        ++c, ok = read_int(&c, &k[n++]);
    if (!ok || c[0] != ']' || c[1] != '\0')
        return sc_json_fail(&p->json, "%s, got \"%.64s\"", syntax, text);
    const sc_object *o = sc_scene_find_object(p->scene, text, (size_t)(open - text));
    if (!o)
        return sc_json_fail(&p->json,
                            "no cloth, rope, mesh, soft box, tet mesh or balloon is named '%.*s'",
                            (int)(open - text > 64 ? 64 : open - text), text);
    if (o->kind == SC_OBJECT_CLOTH) {
        uint32_t i, j;
        if (n != 2)
            return sc_json_fail(&p->json, "'%s' is a cloth: name its particles as \"%s[i,j]\"",
                                o->name, o->name);
        if (!wrap(k[0], o->nx, &i) || !wrap(k[1], o->ny, &j))
            return sc_json_fail(&p->json,
                                "particle (%lld, %lld) is out of range for cloth '%s' "
                                "(%u x %u particles)",
                                k[0], k[1], o->name, o->nx, o->ny);
        *out = o->first + j * o->nx + i;
        return true;
    }
    uint32_t i;
    if (n != 1)
        return sc_json_fail(&p->json, "'%s' is not a cloth: name its particles as \"%s[k]\"",
                            o->name, o->name);
    if (!wrap(k[0], o->count, &i))
        return sc_json_fail(&p->json, "particle %lld is out of range for '%s' (%u particles)", k[0],
                            o->name, o->count);
    *out = o->first + i;
    return true;
}

bool sc_parse_particle_ref(sc_parser *p, const cJSON *value, uint32_t *out)
{
    if (cJSON_IsString(value) && value->valuestring)
        return parse_named_ref(p, value->valuestring, out);
    if (cJSON_IsNumber(value))
        return sc_json_u32(&p->json, value, 0, UINT32_MAX, out);
    return sc_json_fail(&p->json, "must be a particle index or a \"name[k]\" reference");
}

/* The scene's object names, hashed: particle references ("rope[3]") and the check that a new name
 * is free look a name up once each, and a scene with tens of thousands of named ropes must not pay
 * a scan of every object for each (a 40,000-rope scene took 37 s in `drape info` with a linear
 * search). Open addressing with linear probing over object indices, FNV-1a hashes, the table kept
 * at most half full and doubled as objects are added.
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX

static uint64_t hash(const char *name, size_t length)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < length; ++i)
        h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
    return h;
}

static bool same(const sc_object *o, const char *name, size_t length)
{
    return strlen(o->name) == length && memcmp(o->name, name, length) == 0;
}

const sc_object *sc_scene_find_object(const drape_scene *s, const char *name, size_t length)
{
    const sc_name_index *x = &s->names;
    if (!x->slots)
        return NULL;
    for (size_t i = hash(name, length) & (x->capacity - 1);; i = (i + 1) & (x->capacity - 1)) {
        const uint32_t k = x->slots[i];
        if (k == EMPTY)
            return NULL;
        if (same(&s->objects[k], name, length))
            return &s->objects[k];
    }
}

bool sc_name_index_add(drape_scene *s, uint32_t object)
{
    sc_name_index *x = &s->names;
    if (2 * ((size_t)x->count + 1) > x->capacity) {
        size_t capacity = x->capacity ? 2 * x->capacity : 64;
        uint32_t *slots = malloc(capacity * sizeof *slots);
        if (!slots)
            return false;
        for (size_t i = 0; i < capacity; ++i)
            slots[i] = EMPTY;
        for (size_t i = 0; i < x->capacity; ++i) {
            const uint32_t k = x->slots[i];
            if (k == EMPTY)
                continue;
            const char *n = s->objects[k].name;
            size_t j = hash(n, strlen(n)) & (capacity - 1);
            while (slots[j] != EMPTY)
                j = (j + 1) & (capacity - 1);
            slots[j] = k;
        }
        free(x->slots);
        x->slots = slots;
        x->capacity = capacity;
    }
    const char *n = s->objects[object].name;
    size_t j = hash(n, strlen(n)) & (x->capacity - 1);
    while (x->slots[j] != EMPTY)
        j = (j + 1) & (x->capacity - 1);
    x->slots[j] = object;
    x->count++;
    return true;
}

void sc_name_index_free(sc_name_index *x)
{
    free(x->slots);
    memset(x, 0, sizeof *x);
}

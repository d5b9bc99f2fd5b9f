/* What `drape info` reports about a scene: particles (and how many are pinned), constraints by type
 * and distances by kind, each type's colouring and its lower bound, colliders by type, and memory:
 * the world's own count of its host arrays, and of its OpenCL buffers (made at the first step).
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

drape_result drape_scene_get_info(const drape_scene *s, drape_scene_info *out)
{
    if (!s || !s->world || !out)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    const drape_world *w = s->world;
    float *m = NULL;
    drape_result r = sc_read_state(w, &out->particles, NULL, NULL, &m);
    if (r != DRAPE_OK)
        return r;
    for (uint32_t i = 0; i < out->particles; ++i)
        out->pinned += m[i] == 0.0f;
    free(m);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT && r == DRAPE_OK; ++t) {
        out->constraints[t] = drape_world_constraint_count(w, (drape_constraint_type)t);
        r = drape_world_get_coloring(w, (drape_constraint_type)t, &out->coloring[t]);
    }
    if (r != DRAPE_OK)
        return r;
    for (int k = 0; k < 3; ++k)
        out->distances_by_kind[k] = drape_world_distance_count(w, (drape_distance_kind)k);
    memcpy(out->colliders_by_type, s->colliders_by_type, sizeof out->colliders_by_type);
    out->moving_colliders = s->moving_colliders;
    out->triangles = s->triangle_count;
    out->scripted_targets = s->target_count;
    out->host_bytes = drape_world_host_bytes(w);
    drape_profile profile;
    if (drape_world_get_profile(w, &profile) == DRAPE_OK)
        out->device_bytes = profile.device_bytes;
    return DRAPE_OK;
}

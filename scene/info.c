/* What `drape info` reports about a scene: particles (and how many are pinned), constraints by type
 * and distances by kind, each type's colouring and its lower bound, colliders by type, and memory.
 *
 * The host memory is an estimate from the world's layout (host/world_internal.h): per particle
 * five float4 arrays (x, v, p and two accelerations) and a contact of two float4, 112 bytes; per
 * constraint its creation-order arrays plus its colour-order copy: 49 bytes per distance, 64 per
 * dihedral, 73 per attachment; 64 bytes per collider. The device bytes are exact (the OpenCL
 * backend's count), but buffers are made at the first step.
 */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    BYTES_PER_PARTICLE = 112,
    BYTES_PER_DISTANCE = 49,
    BYTES_PER_DIHEDRAL = 64,
    BYTES_PER_ATTACHMENT = 73,
    BYTES_PER_COLLIDER = 64,
};

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
    memcpy(out->distances_by_kind, s->distances_by_kind, sizeof out->distances_by_kind);
    memcpy(out->colliders_by_type, s->colliders_by_type, sizeof out->colliders_by_type);
    out->moving_colliders = s->moving_colliders;
    out->triangles = s->triangle_count;
    out->scripted_targets = s->target_count;
    out->host_bytes = (uint64_t)BYTES_PER_PARTICLE * out->particles +
                      (uint64_t)BYTES_PER_DISTANCE * out->constraints[DRAPE_CONSTRAINT_DISTANCE] +
                      (uint64_t)BYTES_PER_DIHEDRAL * out->constraints[DRAPE_CONSTRAINT_DIHEDRAL] +
                      (uint64_t)BYTES_PER_ATTACHMENT *
                          out->constraints[DRAPE_CONSTRAINT_ATTACHMENT] +
                      (uint64_t)BYTES_PER_COLLIDER * drape_world_collider_count(w);
    drape_profile profile;
    if (drape_world_get_profile(w, &profile) == DRAPE_OK)
        out->device_bytes = profile.device_bytes;
    return DRAPE_OK;
}

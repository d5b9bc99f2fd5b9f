/* The viewer's scenes: a cloth and its colliders, described at a given resolution and built with
 * the library's builders. "cloth-sphere" is the project's default scene (the `drape` command's):
 * a 1 m square cloth of 0.1 kg dropped from 0.6 m onto a sphere of radius 0.3 m above the ground;
 * "cloth-capsule" drops it across a capsule. The description is kept so that the viewer can draw
 * the colliders and rebuild the scene (reset, resolution, solver mode). */
#ifndef VIZ_SCENES_H
#define VIZ_SCENES_H

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

#define VIZ_MAX_COLLIDERS 8

typedef struct viz_scene {
    const char *name;
    drape_cloth_def cloth;
    drape_collider_def colliders[VIZ_MAX_COLLIDERS];
    uint32_t collider_count;
    float damping; /* the world's PBD damping */
} viz_scene;

/* The resolution of the default scene, particles along each edge (the `drape` command's). */
#define VIZ_DEFAULT_RESOLUTION 48

/* Describes scene `name` (NULL: the default) with an n x n cloth; false for an unknown name. */
bool viz_scene_describe(const char *name, uint32_t n, viz_scene *out);
/* The names there are, for messages: "cloth-sphere, cloth-capsule". */
const char *viz_scene_names(void);

#endif

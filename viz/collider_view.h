/* The colliders on screen, from the scene's collider defs: spheres and capsules as lit meshes,
 * planes as large squares with the ground grid on them. Moving colliders are drawn where they are
 * at the world's time. */
#ifndef VIZ_COLLIDER_VIEW_H
#define VIZ_COLLIDER_VIEW_H

#include <drape/scene.h>
#include "view_params.h"

#include <glad/gl.h>
#include <stdbool.h>

typedef struct viz_mesh {
    GLuint vao, vbo, ebo;
    GLsizei index_count;
} viz_mesh;

typedef struct viz_collider_view {
    GLuint mesh_program, grid_program;
    GLint u_mesh[4], u_grid[8];
    viz_mesh sphere;          /* unit sphere, placed by a model matrix */
    drape_collider_def *defs; /* the scene's colliders */
    viz_mesh *capsules;       /* per collider: its capsule mesh in world coordinates at t0 */
    uint32_t count;
    GLuint quad_vao, quad_vbo; /* [-1, 1]^2 for planes */
} viz_collider_view;

bool viz_collider_view_init(viz_collider_view *v);
void viz_collider_view_destroy(viz_collider_view *v);
/* Reads the scene's colliders and builds the capsules' meshes; call when the scene changes. */
bool viz_collider_view_set_scene(viz_collider_view *v, const drape_scene *scene);
/* Draws every collider at time `time` (s). */
void viz_collider_view_draw(const viz_collider_view *v, double time, const viz_view_params *p);

#endif

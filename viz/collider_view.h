/* The colliders on screen: spheres and capsules as lit meshes, planes as large squares with the
 * ground grid on them. Moving colliders are drawn where they are at the world's time. */
#ifndef VIZ_COLLIDER_VIEW_H
#define VIZ_COLLIDER_VIEW_H

#include "scenes.h"
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
    viz_mesh sphere;                      /* unit sphere, placed by a model matrix */
    viz_mesh capsules[VIZ_MAX_COLLIDERS]; /* per capsule collider, in world coordinates at t0 */
    GLuint quad_vao, quad_vbo;            /* [-1, 1]^2 for planes */
} viz_collider_view;

bool viz_collider_view_init(viz_collider_view *v);
void viz_collider_view_destroy(viz_collider_view *v);
/* Builds the meshes of the scene's capsules; call when the scene changes. */
bool viz_collider_view_set_scene(viz_collider_view *v, const viz_scene *scene);
/* Draws every collider of `scene` at time `time` (s). */
void viz_collider_view_draw(const viz_collider_view *v, const viz_scene *scene, double time,
                            const viz_view_params *p);

#endif

/* The world's particles on screen: GL buffers of positions and normals that the solver writes, the
 * surfaces' triangles (cloths, meshes), the particles on no surface as spheres and the lines
 * between them (ropes), each object in its own colour, and the skeleton and stress views over them
 * all.
 *
 * Interop. With an OpenCL world that shares the GL context (drape_world_has_gl_sharing), the two
 * vertex buffers are bound to the world (drape_world_bind_gl_buffers) and each update is
 * glFinish + drape_world_update_gl_buffers: OpenCL acquires them, its kernel writes positions and
 * normals, it releases them, and the data never leaves the device. Otherwise (PoCL, the CPU
 * backend, or any sharing call failing) each update reads positions and normals back with
 * drape_world_get_render_data (normals computed by the device's kernel, or by the same maths on the
 * CPU) and uploads them with glBufferSubData. */
#ifndef VIZ_CLOTH_VIEW_H
#define VIZ_CLOTH_VIEW_H

#include "sim.h"
#include "view_params.h"

#include <glad/gl.h>
#include <stdbool.h>

typedef enum viz_interop {
    VIZ_INTEROP_NONE = 0,     /* no world attached */
    VIZ_INTEROP_SHARED = 1,   /* OpenCL writes the GL buffers (cl_khr_gl_sharing) */
    VIZ_INTEROP_READBACK = 2, /* read back from the world, uploaded with glBufferSubData */
} viz_interop;

typedef struct viz_cloth_view {
    GLuint cloth_program, edges_program, points_program, spheres_program;
    GLint u_cloth[4], u_edges[5], u_points[3],
        u_spheres[3]; /* uniform locations, see cloth_view.c */
    GLuint vao, sphere_vao, empty_vao;
    GLuint positions, normals, colors, elements, sphere_elements; /* buffers */
    GLuint buffers[5]; /* texture buffers' storage: offsets, neighbours, neighbour rest, edges, edge
                          rest */
    GLuint textures[7]; /* positions, the five above, colours: as texture buffers */
    uint32_t particle_count, triangle_count, edge_count, free_edge_count, sphere_count;
    viz_interop interop;
    char interop_reason[288];             /* why the read-back path, for the overlay and the log */
    float *host_positions, *host_normals; /* the read-back path's staging */
} viz_cloth_view;

/* Compiles the programs; false (with a message) on failure. */
bool viz_cloth_view_init(viz_cloth_view *v);
void viz_cloth_view_destroy(viz_cloth_view *v);

/* Makes the buffers for the sim's new world and picks the interop path; call after every
 * viz_sim_build. Prints the path. */
bool viz_cloth_view_attach(viz_cloth_view *v, viz_sim *sim);
/* Writes the world's current positions and normals into the GL buffers. */
bool viz_cloth_view_update(viz_cloth_view *v, viz_sim *sim);
void viz_cloth_view_draw(const viz_cloth_view *v, const viz_view_params *p);

/* "OpenCL-OpenGL sharing" or "read-back + glBufferSubData". */
const char *viz_interop_name(viz_interop interop);

#endif

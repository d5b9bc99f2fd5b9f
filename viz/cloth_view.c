/* The world's particles on screen (cloth_view.h).
 *
 * Buffers: positions and normals (vec4 per particle, written by the solver each frame), colours
 * (vec4 per particle: the object's colour and the sphere radius), the triangles' element buffer,
 * the spheres' element buffer (particles on no triangle, drawn as points), and texture buffers for
 * the stress, skeleton and rope views: the positions buffer itself as an RGBA32F texture, the
 * per-particle neighbour lists with rest lengths (cloth.vert averages strain over them), the lines
 * with rest lengths (edges.vert, drawn with no attributes; ropes' lines come first) and the
 * colours. Everything but positions and normals is uploaded once per world.
 *
 * Texture units: 0 positions, 1 neighbour offsets, 2 neighbours, 3 neighbour rest lengths, 4 edges,
 * 5 edge rest lengths, 6 colours.
 */
#include "cloth_view.h"

#include "gl_check.h"
#include "shader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CLOTH_VP, CLOTH_EYE, CLOTH_STRESS, CLOTH_SCALE, CLOTH_UNIFORMS };
enum { EDGES_VP, EDGES_STRESS, EDGES_SCALE, EDGES_COLOR, EDGES_PARTICLE_COLORS, EDGES_UNIFORMS };
enum { POINTS_VP, POINTS_SIZE, POINTS_GRABBED, POINTS_UNIFORMS };
enum { SPHERES_VP, SPHERES_SCALE, SPHERES_GRABBED, SPHERES_UNIFORMS };
_Static_assert(CLOTH_UNIFORMS == sizeof((viz_cloth_view *)0)->u_cloth / sizeof(GLint) &&
                   EDGES_UNIFORMS == sizeof((viz_cloth_view *)0)->u_edges / sizeof(GLint) &&
                   POINTS_UNIFORMS == sizeof((viz_cloth_view *)0)->u_points / sizeof(GLint) &&
                   SPHERES_UNIFORMS == sizeof((viz_cloth_view *)0)->u_spheres / sizeof(GLint),
               "uniform tables and their enums agree");
enum {
    T_POSITIONS,
    T_OFFSETS,
    T_NEIGHBOURS,
    T_NEIGHBOUR_REST,
    T_EDGES,
    T_EDGE_REST,
    T_COLORS,
    T_COUNT
};
_Static_assert(T_COUNT == sizeof((viz_cloth_view *)0)->textures / sizeof(GLuint),
               "one texture per unit");

const char *viz_interop_name(viz_interop interop)
{
    switch (interop) {
    case VIZ_INTEROP_SHARED:
        return "OpenCL-OpenGL sharing";
    case VIZ_INTEROP_READBACK:
        return "read-back + glBufferSubData";
    default:
        return "none";
    }
}

static void bind_sampler(GLuint program, const char *name, GLint unit)
{
    GLint location = viz_uniform(program, name);
    GL_CHECK(glUseProgram(program));
    GL_CHECK(glUniform1i(location, unit));
}

bool viz_cloth_view_init(viz_cloth_view *v)
{
    memset(v, 0, sizeof *v);
    v->cloth_program = viz_program_create("cloth.vert", "cloth.frag");
    v->edges_program = viz_program_create("edges.vert", "flat.frag");
    v->points_program = viz_program_create("points.vert", "points.frag");
    v->spheres_program = viz_program_create("spheres.vert", "spheres.frag");
    if (!v->cloth_program || !v->edges_program || !v->points_program || !v->spheres_program)
        return false;
    GLuint c = v->cloth_program, e = v->edges_program, p = v->points_program;
    GLuint sp = v->spheres_program;
    v->u_cloth[CLOTH_VP] = viz_uniform(c, "view_projection");
    v->u_cloth[CLOTH_EYE] = viz_uniform(c, "eye");
    v->u_cloth[CLOTH_STRESS] = viz_uniform(c, "stress");
    v->u_cloth[CLOTH_SCALE] = viz_uniform(c, "strain_scale");
    bind_sampler(c, "positions", T_POSITIONS);
    bind_sampler(c, "neighbour_offsets", T_OFFSETS);
    bind_sampler(c, "neighbours", T_NEIGHBOURS);
    bind_sampler(c, "rest_lengths", T_NEIGHBOUR_REST);
    v->u_edges[EDGES_VP] = viz_uniform(e, "view_projection");
    v->u_edges[EDGES_STRESS] = viz_uniform(e, "stress");
    v->u_edges[EDGES_SCALE] = viz_uniform(e, "strain_scale");
    v->u_edges[EDGES_COLOR] = viz_uniform(e, "edge_color");
    v->u_edges[EDGES_PARTICLE_COLORS] = viz_uniform(e, "particle_colors");
    bind_sampler(e, "positions", T_POSITIONS);
    bind_sampler(e, "edges", T_EDGES);
    bind_sampler(e, "edge_rest", T_EDGE_REST);
    bind_sampler(e, "colors", T_COLORS);
    v->u_spheres[SPHERES_VP] = viz_uniform(sp, "view_projection");
    v->u_spheres[SPHERES_SCALE] = viz_uniform(sp, "pixel_scale");
    v->u_spheres[SPHERES_GRABBED] = viz_uniform(sp, "grabbed");
    v->u_points[POINTS_VP] = viz_uniform(p, "view_projection");
    v->u_points[POINTS_SIZE] = viz_uniform(p, "point_size");
    v->u_points[POINTS_GRABBED] = viz_uniform(p, "grabbed");
    GL_CHECK(glUseProgram(0));
    GL_CHECK(glGenVertexArrays(1, &v->vao));
    GL_CHECK(glGenVertexArrays(1, &v->sphere_vao));
    GL_CHECK(glGenVertexArrays(1, &v->empty_vao));
    return viz_gl_errors() == 0;
}

/* Deletes the per-world buffers and textures. */
static void release_buffers(viz_cloth_view *v)
{
    GLuint vertex[5] = {v->positions, v->normals, v->colors, v->elements, v->sphere_elements};
    GL_CHECK(glDeleteTextures(T_COUNT, v->textures));
    GL_CHECK(glDeleteBuffers(5, v->buffers));
    GL_CHECK(glDeleteBuffers(5, vertex));
    memset(v->textures, 0, sizeof v->textures);
    memset(v->buffers, 0, sizeof v->buffers);
    v->positions = v->normals = v->colors = v->elements = v->sphere_elements = 0;
    free(v->host_positions);
    free(v->host_normals);
    v->host_positions = v->host_normals = NULL;
    v->interop = VIZ_INTEROP_NONE;
}

void viz_cloth_view_destroy(viz_cloth_view *v)
{
    release_buffers(v);
    GL_CHECK(glDeleteVertexArrays(1, &v->vao));
    GL_CHECK(glDeleteVertexArrays(1, &v->sphere_vao));
    GL_CHECK(glDeleteVertexArrays(1, &v->empty_vao));
    GL_CHECK(glDeleteProgram(v->cloth_program));
    GL_CHECK(glDeleteProgram(v->edges_program));
    GL_CHECK(glDeleteProgram(v->points_program));
    GL_CHECK(glDeleteProgram(v->spheres_program));
    memset(v, 0, sizeof *v);
}

/* A buffer of `bytes` bytes from `data` seen as a texture buffer of `format` on texture `texture`.
 */
static void texture_buffer(GLuint *buffer, GLuint *texture, GLenum format, size_t bytes,
                           const void *data)
{
    if (*buffer == 0) {
        GL_CHECK(glGenBuffers(1, buffer));
        GL_CHECK(glBindBuffer(GL_TEXTURE_BUFFER, *buffer));
        GL_CHECK(glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(bytes ? bytes : 4),
                              bytes ? data : NULL, GL_STATIC_DRAW));
    }
    GL_CHECK(glGenTextures(1, texture));
    GL_CHECK(glBindTexture(GL_TEXTURE_BUFFER, *texture));
    GL_CHECK(glTexBuffer(GL_TEXTURE_BUFFER, format, *buffer));
    GL_CHECK(glBindTexture(GL_TEXTURE_BUFFER, 0));
    GL_CHECK(glBindBuffer(GL_TEXTURE_BUFFER, 0));
}

static GLuint vertex_buffer(size_t bytes, const void *data)
{
    GLuint b = 0;
    GL_CHECK(glGenBuffers(1, &b));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, b));
    GL_CHECK(glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(bytes ? bytes : 16), data,
                          data ? GL_STATIC_DRAW : GL_DYNAMIC_DRAW));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return b;
}

static void use_readback(viz_cloth_view *v, const char *reason)
{
    v->interop = VIZ_INTEROP_READBACK;
    snprintf(v->interop_reason, sizeof v->interop_reason, "%s", reason);
}

bool viz_cloth_view_attach(viz_cloth_view *v, viz_sim *sim)
{
    release_buffers(v);
    const viz_topology *t = &sim->topology;
    const size_t n = t->particle_count, vec4 = 4 * sizeof(float);
    v->particle_count = t->particle_count;
    v->triangle_count = t->triangle_count;
    v->edge_count = t->edge_count;
    v->free_edge_count = t->free_edge_count;
    v->sphere_count = t->sphere_count;

    /* Every buffer gets its storage here, before OpenCL may share it. */
    v->positions = vertex_buffer(n * vec4, NULL);
    v->normals = vertex_buffer(n * vec4, NULL);
    v->colors = vertex_buffer(n * vec4, t->colors);
    /* the spheres' buffer holds every particle: after a tear there may be more (a split particle
     * that gave all its triangles to its copy; viz_topology_spheres) */
    const struct {
        GLuint vao, *elements;
        const uint32_t *indices;
        size_t count, room;
    } vaos[2] = {
        {v->vao, &v->elements, t->triangles, 3 * (size_t)t->triangle_count,
         3 * (size_t)t->triangle_count},
        {v->sphere_vao, &v->sphere_elements, t->spheres, t->sphere_count, n},
    };
    for (int k = 0; k < 2; ++k) {
        GL_CHECK(glBindVertexArray(vaos[k].vao));
        GL_CHECK(glGenBuffers(1, vaos[k].elements));
        GL_CHECK(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, *vaos[k].elements));
        GL_CHECK(glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                              (GLsizeiptr)(vaos[k].room ? vaos[k].room * sizeof(uint32_t) : 4),
                              NULL, GL_STATIC_DRAW));
        if (vaos[k].count)
            GL_CHECK(glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0,
                                     (GLsizeiptr)(vaos[k].count * sizeof(uint32_t)),
                                     vaos[k].indices));
        const GLuint attributes[3] = {v->positions, v->normals, v->colors};
        for (GLuint a = 0; a < 3; ++a) {
            GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, attributes[a]));
            GL_CHECK(glVertexAttribPointer(a, 4, GL_FLOAT, GL_FALSE, 0, NULL));
            GL_CHECK(glEnableVertexAttribArray(a));
        }
    }
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));

    GLuint positions_buffer = v->positions;
    texture_buffer(&positions_buffer, &v->textures[T_POSITIONS], GL_RGBA32F, 0, NULL);
    texture_buffer(&v->buffers[0], &v->textures[T_OFFSETS], GL_R32UI, (n + 1) * sizeof(uint32_t),
                   t->neighbour_offsets);
    texture_buffer(&v->buffers[1], &v->textures[T_NEIGHBOURS], GL_R32UI,
                   2 * t->edge_count * sizeof(uint32_t), t->neighbours);
    texture_buffer(&v->buffers[2], &v->textures[T_NEIGHBOUR_REST], GL_R32F,
                   2 * t->edge_count * sizeof(float), t->neighbour_rest);
    texture_buffer(&v->buffers[3], &v->textures[T_EDGES], GL_RG32UI,
                   2 * t->edge_count * sizeof(uint32_t), t->edges);
    texture_buffer(&v->buffers[4], &v->textures[T_EDGE_REST], GL_R32F,
                   t->edge_count * sizeof(float), t->edge_rest);
    GLuint colors_buffer = v->colors;
    texture_buffer(&colors_buffer, &v->textures[T_COLORS], GL_RGBA32F, 0, NULL);
    if (viz_gl_errors())
        return false;

    if (drape_world_backend(sim->world) != DRAPE_BACKEND_OPENCL) {
        use_readback(v, "the CPU backend");
    } else if (!drape_world_has_gl_sharing(sim->world)) {
        use_readback(v, sim->gl_context ? "the OpenCL device cannot share the OpenGL context"
                                        : sim->no_sharing);
    } else {
        GL_CHECK(glFinish());
        if (drape_world_bind_gl_buffers(sim->world, v->positions, v->normals) == DRAPE_OK) {
            v->interop = VIZ_INTEROP_SHARED;
            v->interop_reason[0] = '\0';
        } else {
            use_readback(v, "drape_world_bind_gl_buffers failed");
        }
    }
    if (v->interop == VIZ_INTEROP_READBACK) {
        v->host_positions = malloc(n * vec4 + 1);
        v->host_normals = malloc(n * vec4 + 1);
        if (!v->host_positions || !v->host_normals) {
            fprintf(stderr, "drape-view: no memory for %zu particles' render data\n", n);
            return false;
        }
    }
    return true;
}

bool viz_cloth_view_update(viz_cloth_view *v, viz_sim *sim)
{
    if (sim->triangles_changed && v->triangle_count == sim->topology.triangle_count) {
        GL_CHECK(glBindVertexArray(v->vao)); /* the element buffer is the vertex array's */
        GL_CHECK(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, v->elements));
        GL_CHECK(glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0,
                                 (GLsizeiptr)(3 * (size_t)v->triangle_count * sizeof(uint32_t)),
                                 sim->topology.triangles));
        /* the spheres and the colours too (viz_topology_spheres; the spheres' buffer has room
         * for every particle) */
        GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, v->colors));
        GL_CHECK(glBufferSubData(GL_ARRAY_BUFFER, 0,
                                 (GLsizeiptr)(4 * (size_t)v->particle_count * sizeof(float)),
                                 sim->topology.colors));
        GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
        v->sphere_count = sim->topology.sphere_count;
        GL_CHECK(glBindVertexArray(v->sphere_vao));
        GL_CHECK(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, v->sphere_elements));
        if (v->sphere_count)
            GL_CHECK(glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0,
                                     (GLsizeiptr)(v->sphere_count * sizeof(uint32_t)),
                                     sim->topology.spheres));
        GL_CHECK(glBindVertexArray(0));
        sim->triangles_changed = false;
    }
    const GLsizeiptr bytes = (GLsizeiptr)v->particle_count * 4 * (GLsizeiptr)sizeof(float);
    if (v->interop == VIZ_INTEROP_SHARED) {
        GL_CHECK(glFinish()); /* GL must be done with the buffers before OpenCL acquires them */
        if (drape_world_update_gl_buffers(sim->world) == DRAPE_OK)
            return true;
        fprintf(stderr, "drape-view: drape_world_update_gl_buffers failed; falling back to "
                        "read-back + glBufferSubData\n");
        use_readback(v, "drape_world_update_gl_buffers failed");
        v->host_positions = malloc((size_t)bytes + 1);
        v->host_normals = malloc((size_t)bytes + 1);
        if (!v->host_positions || !v->host_normals)
            return false;
    }
    if (drape_world_get_render_data(sim->world, 0, v->particle_count, v->host_positions,
                                    v->host_normals) != DRAPE_OK) {
        fprintf(stderr, "drape-view: drape_world_get_render_data failed (see above)\n");
        return false;
    }
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, v->positions));
    GL_CHECK(glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, v->host_positions));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, v->normals));
    GL_CHECK(glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, v->host_normals));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return viz_gl_errors() == 0;
}

static void bind_textures(const viz_cloth_view *v, const int *units, int count)
{
    for (int k = 0; k < count; ++k) {
        GL_CHECK(glActiveTexture(GL_TEXTURE0 + (GLenum)units[k]));
        GL_CHECK(glBindTexture(GL_TEXTURE_BUFFER, v->textures[units[k]]));
    }
    GL_CHECK(glActiveTexture(GL_TEXTURE0));
}

/* The lines [0, count) in the edges program: the skeleton's in one colour, or the ropes' in their
 * particles' colours. */
static void draw_lines(const viz_cloth_view *v, const viz_view_params *p, uint32_t count,
                       bool particle_colors)
{
    static const int units[] = {T_POSITIONS, T_EDGES, T_EDGE_REST, T_COLORS};
    bind_textures(v, units, 4);
    GL_CHECK(glUseProgram(v->edges_program));
    GL_CHECK(glUniformMatrix4fv(v->u_edges[EDGES_VP], 1, GL_FALSE, p->view_projection.m));
    GL_CHECK(glUniform1i(v->u_edges[EDGES_STRESS], p->stress));
    GL_CHECK(glUniform1f(v->u_edges[EDGES_SCALE], p->strain_scale));
    GL_CHECK(glUniform3f(v->u_edges[EDGES_COLOR], 0.35f, 0.75f, 0.95f));
    GL_CHECK(glUniform1i(v->u_edges[EDGES_PARTICLE_COLORS], particle_colors));
    GL_CHECK(glBindVertexArray(v->empty_vao));
    GL_CHECK(glDrawArrays(GL_LINES, 0, (GLsizei)(2 * count)));
}

void viz_cloth_view_draw(const viz_cloth_view *v, const viz_view_params *p)
{
    if (v->interop == VIZ_INTEROP_NONE)
        return;
    if (!p->skeleton) {
        static const int units[] = {T_POSITIONS, T_OFFSETS, T_NEIGHBOURS, T_NEIGHBOUR_REST};
        bind_textures(v, units, 4);
        GL_CHECK(glUseProgram(v->cloth_program));
        GL_CHECK(glUniformMatrix4fv(v->u_cloth[CLOTH_VP], 1, GL_FALSE, p->view_projection.m));
        GL_CHECK(glUniform3f(v->u_cloth[CLOTH_EYE], p->eye.x, p->eye.y, p->eye.z));
        GL_CHECK(glUniform1i(v->u_cloth[CLOTH_STRESS], p->stress));
        GL_CHECK(glUniform1f(v->u_cloth[CLOTH_SCALE], p->strain_scale));
        GL_CHECK(glBindVertexArray(v->vao));
        GL_CHECK(
            glDrawElements(GL_TRIANGLES, (GLsizei)(3 * v->triangle_count), GL_UNSIGNED_INT, NULL));
        if (v->free_edge_count)
            draw_lines(v, p, v->free_edge_count, true);
        if (v->sphere_count) {
            GL_CHECK(glUseProgram(v->spheres_program));
            GL_CHECK(
                glUniformMatrix4fv(v->u_spheres[SPHERES_VP], 1, GL_FALSE, p->view_projection.m));
            GL_CHECK(glUniform1f(v->u_spheres[SPHERES_SCALE], p->pixel_scale));
            GL_CHECK(glUniform1i(v->u_spheres[SPHERES_GRABBED], p->grabbed));
            GL_CHECK(glBindVertexArray(v->sphere_vao));
            GL_CHECK(glDrawElements(GL_POINTS, (GLsizei)v->sphere_count, GL_UNSIGNED_INT, NULL));
        }
    } else {
        draw_lines(v, p, v->edge_count, false);
        GL_CHECK(glUseProgram(v->points_program));
        GL_CHECK(glUniformMatrix4fv(v->u_points[POINTS_VP], 1, GL_FALSE, p->view_projection.m));
        GL_CHECK(glUniform1f(v->u_points[POINTS_SIZE], p->point_size));
        GL_CHECK(glUniform1i(v->u_points[POINTS_GRABBED], p->grabbed));
        GL_CHECK(glBindVertexArray(v->vao));
        GL_CHECK(glDrawArrays(GL_POINTS, 0, (GLsizei)v->particle_count));
    }
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glUseProgram(0));
}

/* The colliders on screen (collider_view.h).
 *
 * Meshes are position + normal (6 floats) per vertex with 32-bit indices, made on the CPU: a UV
 * sphere of radius 1 (scaled and moved by the model matrix), and per capsule two hemispheres joined
 * by a cylinder along its segment, in world coordinates (a model matrix of one uniform scale could
 * not stretch a unit capsule). A collider's motion, position + velocity * (t - t0), is a
 * translation in the model matrix. Planes are a 40 m square in the plane's own (u, v) frame;
 * grid.frag draws the grid lines.
 */
#include "collider_view.h"

#include "gl_check.h"
#include "shader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MESH_VP, MESH_MODEL, MESH_EYE, MESH_ALBEDO };
enum { GRID_VP, GRID_ORIGIN, GRID_U, GRID_V, GRID_HALF, GRID_EYE, GRID_NORMAL, GRID_ALBEDO };

static const float pi = 3.14159265358979f;
enum { SLICES = 48, STACKS = 24 }; /* around, and pole to pole */

static viz_vec3 v3(drape_vec3 a) { return viz_v3(a.x, a.y, a.z); }

/* Uploads a mesh of `vertices` (6 floats each) and triangles. */
static bool mesh_upload(viz_mesh *m, const float *vertices, size_t vertex_count,
                        const uint32_t *indices, size_t index_count)
{
    GL_CHECK(glGenVertexArrays(1, &m->vao));
    GL_CHECK(glGenBuffers(1, &m->vbo));
    GL_CHECK(glGenBuffers(1, &m->ebo));
    GL_CHECK(glBindVertexArray(m->vao));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, m->vbo));
    GL_CHECK(glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(vertex_count * 6 * sizeof(float)), vertices,
                          GL_STATIC_DRAW));
    GL_CHECK(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ebo));
    GL_CHECK(glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(index_count * sizeof(uint32_t)),
                          indices, GL_STATIC_DRAW));
    GL_CHECK(glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), NULL));
    GL_CHECK(glEnableVertexAttribArray(0));
    GL_CHECK(glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                                   (const void *)(3 * sizeof(float))));
    GL_CHECK(glEnableVertexAttribArray(1));
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    m->index_count = (GLsizei)index_count;
    return viz_gl_errors() == 0;
}

static void mesh_delete(viz_mesh *m)
{
    if (m->vao)
        GL_CHECK(glDeleteVertexArrays(1, &m->vao));
    GLuint buffers[2] = {m->vbo, m->ebo};
    GL_CHECK(glDeleteBuffers(2, buffers));
    memset(m, 0, sizeof *m);
}

/* A capsule from a to b of radius r (a sphere when a == b): rings from the pole at a to the pole at
 * b, the first half centred on a, the second on b, so that the band between is the cylinder. */
static bool capsule_mesh(viz_mesh *m, viz_vec3 a, viz_vec3 b, float r)
{
    viz_vec3 axis = viz_sub(b, a);
    axis = viz_length(axis) > 1e-6f ? viz_normalize(axis) : viz_v3(0.0f, 1.0f, 0.0f);
    viz_vec3 helper = fabsf(axis.y) < 0.9f ? viz_v3(0.0f, 1.0f, 0.0f) : viz_v3(1.0f, 0.0f, 0.0f);
    viz_vec3 u = viz_normalize(viz_cross(axis, helper)), w = viz_cross(axis, u);
    const int rings = STACKS + 2; /* the equator twice, once per end */
    const size_t nv = (size_t)rings * (SLICES + 1), ni = (size_t)(rings - 1) * SLICES * 6;
    float *vertices = malloc(nv * 6 * sizeof *vertices);
    uint32_t *indices = malloc(ni * sizeof *indices);
    if (!vertices || !indices) {
        free(vertices);
        free(indices);
        fprintf(stderr, "drape-view: no memory for a collider mesh\n");
        return false;
    }
    float *out = vertices;
    for (int ring = 0; ring < rings; ++ring) {
        const bool second = ring > STACKS / 2;
        const int k = second ? ring - 1 : ring; /* latitude step, 0 .. STACKS */
        const float phi = -0.5f * pi + pi * (float)k / (float)STACKS;
        const viz_vec3 centre = second ? b : a;
        for (int s = 0; s <= SLICES; ++s) {
            const float theta = 2.0f * pi * (float)s / (float)SLICES;
            viz_vec3 around = viz_add(viz_scale(u, cosf(theta)), viz_scale(w, sinf(theta)));
            viz_vec3 n = viz_add(viz_scale(around, cosf(phi)), viz_scale(axis, sinf(phi)));
            viz_vec3 p = viz_add(centre, viz_scale(n, r));
            const float vertex[6] = {p.x, p.y, p.z, n.x, n.y, n.z};
            memcpy(out, vertex, sizeof vertex);
            out += 6;
        }
    }
    uint32_t *idx = indices;
    for (int ring = 0; ring + 1 < rings; ++ring)
        for (int s = 0; s < SLICES; ++s) {
            uint32_t p0 = (uint32_t)(ring * (SLICES + 1) + s), p1 = p0 + SLICES + 1;
            const uint32_t quad[6] = {p0, p0 + 1, p1, p1, p0 + 1, p1 + 1};
            memcpy(idx, quad, sizeof quad);
            idx += 6;
        }
    bool ok = mesh_upload(m, vertices, nv, indices, ni);
    free(vertices);
    free(indices);
    return ok;
}

bool viz_collider_view_init(viz_collider_view *v)
{
    memset(v, 0, sizeof *v);
    v->mesh_program = viz_program_create("mesh.vert", "mesh.frag");
    v->grid_program = viz_program_create("grid.vert", "grid.frag");
    if (!v->mesh_program || !v->grid_program)
        return false;
    static const char *const mesh_names[] = {"view_projection", "model", "eye", "albedo"};
    static const char *const grid_names[] = {"view_projection", "origin", "u_axis", "v_axis",
                                             "half_size",       "eye",    "normal", "albedo"};
    for (int i = 0; i < 4; ++i)
        v->u_mesh[i] = viz_uniform(v->mesh_program, mesh_names[i]);
    for (int i = 0; i < 8; ++i)
        v->u_grid[i] = viz_uniform(v->grid_program, grid_names[i]);
    if (!capsule_mesh(&v->sphere, viz_v3(0.0f, 0.0f, 0.0f), viz_v3(0.0f, 0.0f, 0.0f), 1.0f))
        return false;
    static const float quad[8] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};
    GL_CHECK(glGenVertexArrays(1, &v->quad_vao));
    GL_CHECK(glGenBuffers(1, &v->quad_vbo));
    GL_CHECK(glBindVertexArray(v->quad_vao));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, v->quad_vbo));
    GL_CHECK(glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW));
    GL_CHECK(glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL));
    GL_CHECK(glEnableVertexAttribArray(0));
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return viz_gl_errors() == 0;
}

static void clear_scene(viz_collider_view *v)
{
    for (uint32_t i = 0; i < v->count; ++i)
        mesh_delete(&v->capsules[i]);
    free(v->capsules);
    free(v->defs);
    v->capsules = NULL;
    v->defs = NULL;
    v->count = 0;
}

void viz_collider_view_destroy(viz_collider_view *v)
{
    mesh_delete(&v->sphere);
    clear_scene(v);
    if (v->quad_vao)
        GL_CHECK(glDeleteVertexArrays(1, &v->quad_vao));
    GL_CHECK(glDeleteBuffers(1, &v->quad_vbo));
    GL_CHECK(glDeleteProgram(v->mesh_program));
    GL_CHECK(glDeleteProgram(v->grid_program));
    memset(v, 0, sizeof *v);
}

bool viz_collider_view_set_scene(viz_collider_view *v, const drape_scene *scene)
{
    clear_scene(v);
    const uint32_t n = drape_scene_collider_count(scene);
    v->defs = calloc((size_t)n + 1, sizeof *v->defs);
    v->capsules = calloc((size_t)n + 1, sizeof *v->capsules);
    if (!v->defs || !v->capsules) {
        fprintf(stderr, "drape-view: no memory for %u colliders\n", n);
        return false;
    }
    v->count = n;
    for (uint32_t i = 0; i < n; ++i) {
        drape_collider_def *c = &v->defs[i];
        if (!drape_scene_get_collider(scene, i, c))
            return false;
        if (c->type == DRAPE_COLLIDER_CAPSULE &&
            !capsule_mesh(&v->capsules[i], v3(c->position), v3(c->end), c->radius))
            return false;
    }
    return true;
}

static void draw_plane(const viz_collider_view *v, const drape_collider_def *c, viz_vec3 offset,
                       const viz_view_params *p)
{
    viz_vec3 n = viz_normalize(v3(c->normal));
    viz_vec3 helper = fabsf(n.z) < 0.9f ? viz_v3(0.0f, 0.0f, 1.0f) : viz_v3(1.0f, 0.0f, 0.0f);
    viz_vec3 u = viz_normalize(viz_cross(helper, n)), w = viz_cross(n, u);
    viz_vec3 o = viz_add(v3(c->position), offset);
    /* An eye inside the solid half-space (behind a box's wall) would see only the plane: skip it,
     * so that the walls nearest the eye do not hide what they enclose. */
    viz_vec3 to_eye = {p->eye.x - o.x, p->eye.y - o.y, p->eye.z - o.z};
    if (to_eye.x * n.x + to_eye.y * n.y + to_eye.z * n.z < 0.0f)
        return;
    GL_CHECK(glUseProgram(v->grid_program));
    GL_CHECK(glUniformMatrix4fv(v->u_grid[GRID_VP], 1, GL_FALSE, p->view_projection.m));
    GL_CHECK(glUniform3f(v->u_grid[GRID_ORIGIN], o.x, o.y, o.z));
    GL_CHECK(glUniform3f(v->u_grid[GRID_U], u.x, u.y, u.z));
    GL_CHECK(glUniform3f(v->u_grid[GRID_V], w.x, w.y, w.z));
    GL_CHECK(glUniform1f(v->u_grid[GRID_HALF], 20.0f));
    GL_CHECK(glUniform3f(v->u_grid[GRID_EYE], p->eye.x, p->eye.y, p->eye.z));
    GL_CHECK(glUniform3f(v->u_grid[GRID_NORMAL], n.x, n.y, n.z));
    GL_CHECK(glUniform3f(v->u_grid[GRID_ALBEDO], 0.30f, 0.32f, 0.36f));
    GL_CHECK(glBindVertexArray(v->quad_vao));
    GL_CHECK(glDrawArrays(GL_TRIANGLE_STRIP, 0, 4));
}

static void draw_mesh(const viz_collider_view *v, const viz_mesh *m, viz_mat4 model,
                      const viz_view_params *p)
{
    GL_CHECK(glUseProgram(v->mesh_program));
    GL_CHECK(glUniformMatrix4fv(v->u_mesh[MESH_VP], 1, GL_FALSE, p->view_projection.m));
    GL_CHECK(glUniformMatrix4fv(v->u_mesh[MESH_MODEL], 1, GL_FALSE, model.m));
    GL_CHECK(glUniform3f(v->u_mesh[MESH_EYE], p->eye.x, p->eye.y, p->eye.z));
    GL_CHECK(glUniform3f(v->u_mesh[MESH_ALBEDO], 0.50f, 0.56f, 0.66f));
    GL_CHECK(glBindVertexArray(m->vao));
    GL_CHECK(glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL));
}

void viz_collider_view_draw(const viz_collider_view *v, double time, const viz_view_params *p)
{
    for (uint32_t i = 0; i < v->count; ++i) {
        const drape_collider_def *c = &v->defs[i];
        viz_vec3 offset = viz_scale(v3(c->velocity), (float)time);
        viz_mat4 model = viz_mat4_identity();
        model.m[12] = offset.x, model.m[13] = offset.y, model.m[14] = offset.z;
        switch (c->type) {
        case DRAPE_COLLIDER_PLANE:
            draw_plane(v, c, offset, p);
            break;
        case DRAPE_COLLIDER_SPHERE:
            model.m[0] = model.m[5] = model.m[10] = c->radius;
            model.m[12] += c->position.x, model.m[13] += c->position.y,
                model.m[14] += c->position.z;
            draw_mesh(v, &v->sphere, model, p);
            break;
        case DRAPE_COLLIDER_CAPSULE:
            draw_mesh(v, &v->capsules[i], model, p);
            break;
        }
    }
    GL_CHECK(glBindVertexArray(0));
    GL_CHECK(glUseProgram(0));
}

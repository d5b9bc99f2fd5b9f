/* The Rendering API: triangles over the particles, per-vertex normals, and OpenGL buffers that the
 * OpenCL backend writes directly.
 *
 * Normals are area-weighted vertex normals (the sum of the incident triangles' cross products,
 * normalised). Each vertex gathers over its own incident triangles: drape_world_set_triangles
 * builds that adjacency once (CSR: offsets per particle into a list of triangle ids), so the kernel
 * needs no atomics and the CPU and the device sum in the same order with the same code
 * (dr_vertex_normal in kernels/drape_shared.h).
 *
 * Three ways out, one kernel (kernels/render.cl, render_vertices):
 *   - CPU backend: drape_world_get_render_data runs the shared maths over the host arrays.
 *   - OpenCL backend without GL sharing (PoCL; another GPU than the one drawing): the kernel writes
 *     two buffers of this file's own, read back by drape_world_get_render_data; the caller uploads.
 *   - OpenCL backend with cl_khr_gl_sharing (world def's gl_context): the viewer's vertex buffers
 *     become cl_mem through clCreateFromGLBuffer; drape_world_update_gl_buffers acquires them, runs
 *     the kernel into them and releases them. Nothing crosses to the host.
 *
 * The state lives in world->render, made on first use and freed by drape_world_destroy before the
 * backend (its cl_mem belong to the backend's context). A build without OpenCL (DRAPE_HAVE_OPENCL
 * 0) keeps the first way alone.
 */
#include "world_internal.h"

#if DRAPE_HAVE_OPENCL
#include "opencl/dr_cl.h"

#include <CL/cl_gl.h>
#endif
#include <stdlib.h>
#include <string.h>

typedef struct dr_render {
    uint32_t triangle_count;
    uint32_t *triangles;   /* 3 * triangle_count particle indices */
    uint32_t max_index;    /* the largest index in triangles (0 when there are none) */
    uint32_t vertex_count; /* particles the adjacency covers; rebuilt when the world grows */
    uint32_t *offsets;     /* vertex_count + 1: vertex v's triangles are incident[offsets[v] ..] */
    uint32_t *incident;    /* 3 * triangle_count triangle ids */
    bool device_stale;     /* triangles or adjacency changed since they were uploaded */

#if DRAPE_HAVE_OPENCL /* the OpenCL backend */
    cl_kernel kernel;
    cl_mem d_triangles, d_offsets, d_incident;
    cl_mem d_positions, d_normals;   /* the read-back path's outputs */
    size_t d_vertices;               /* particles d_positions and d_normals hold */
    cl_mem gl_positions, gl_normals; /* the viewer's GL buffers, shared */
#endif
} dr_render;

#if DRAPE_HAVE_OPENCL
static dr_cl_context *cl_ctx(const drape_world *w) { return dr_opencl_context(w->cl); }

static void release_gl(dr_render *r)
{
    if (r->gl_positions)
        clReleaseMemObject(r->gl_positions);
    if (r->gl_normals)
        clReleaseMemObject(r->gl_normals);
    r->gl_positions = r->gl_normals = NULL;
}
#endif

void dr_render_destroy(drape_world *w)
{
    dr_render *r = w->render;
    if (!r)
        return;
#if DRAPE_HAVE_OPENCL
    if (w->cl) {
        dr_cl_context *ctx = cl_ctx(w);
        release_gl(r);
        dr_cl_buffer_release(ctx, &r->d_triangles);
        dr_cl_buffer_release(ctx, &r->d_offsets);
        dr_cl_buffer_release(ctx, &r->d_incident);
        dr_cl_buffer_release(ctx, &r->d_positions);
        dr_cl_buffer_release(ctx, &r->d_normals);
        if (r->kernel)
            clReleaseKernel(r->kernel);
    }
#endif
    free(r->triangles);
    free(r->offsets);
    free(r->incident);
    free(r);
    w->render = NULL;
}

static drape_result get_render(drape_world *w, const char *fn, dr_render **out)
{
    if (!w->render) {
        w->render = calloc(1, sizeof *w->render);
        if (!w->render)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for the renderer",
                           fn);
        w->render->device_stale = true;
    }
    *out = w->render;
    return DRAPE_OK;
}

/* Builds the per-vertex triangle lists over the world's current particles (counting sort). */
static drape_result build_adjacency(drape_world *w, dr_render *r, const char *fn)
{
    const uint32_t n = w->particle_count, t = r->triangle_count;
    uint32_t *offsets, *incident;
    if (!dr_triangle_adjacency(r->triangles, t, n, &offsets, &incident))
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "%s: no memory for the adjacency of %u triangles", fn, t);
    free(r->offsets);
    free(r->incident);
    r->offsets = offsets;
    r->incident = incident;
    r->vertex_count = n;
    r->device_stale = true;
    return DRAPE_OK;
}

drape_result drape_world_set_triangles(drape_world *w, const uint32_t *indices, uint32_t count)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_triangles";
    if (count && !indices)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: indices is NULL", fn);
    if ((uint64_t)count * 3 > UINT32_MAX)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: count = %u is too large", fn,
                       count);
    uint32_t max_index = 0;
    for (size_t k = 0; k < (size_t)3 * count; ++k) {
        if (indices[k] >= w->particle_count)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                           "%s: indices[%zu] = %u, but the world has %u particles", fn, k,
                           indices[k], w->particle_count);
        if (indices[k] > max_index)
            max_index = indices[k];
    }
    dr_render *r = NULL;
    drape_result res = get_render(w, fn, &r);
    if (res != DRAPE_OK)
        return res;
    uint32_t *copy = malloc((size_t)3 * count * sizeof *copy + 1);
    if (!copy)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u triangles", fn,
                       count);
    if (count)
        memcpy(copy, indices, (size_t)3 * count * sizeof *copy);
    uint32_t *old = r->triangles, old_count = r->triangle_count, old_max = r->max_index;
    r->triangles = copy;
    r->triangle_count = count;
    r->max_index = max_index;
    res = build_adjacency(w, r, fn);
    if (res != DRAPE_OK) { /* leave the world as it was */
        r->triangles = old;
        r->triangle_count = old_count;
        r->max_index = old_max;
        free(copy);
        return res;
    }
    free(old);
    return DRAPE_OK;
}

uint32_t drape_world_get_triangles(const drape_world *w, uint32_t *out)
{
    const dr_render *r = w ? w->render : NULL;
    if (!r)
        return 0;
    if (out && r->triangle_count)
        memcpy(out, r->triangles, (size_t)3 * r->triangle_count * sizeof *out);
    return r->triangle_count;
}

/* Where the link from the split particle to o went: 1 to the copy, -1 it stayed with v, 0 no live
 * link (a quad's other diagonal). */
static int link_side(const drape_world *w, uint32_t v, uint32_t copy, uint32_t o)
{
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t id = 0; id < s->count; ++id) {
        const uint32_t a = s->idx[2 * (size_t)id], b = s->idx[2 * (size_t)id + 1];
        if (!s->removed[id] && (a == o || b == o) && (a == copy || b == copy))
            return 1;
        if (!s->removed[id] && (a == o || b == o) && (a == v || b == v))
            return -1;
    }
    return 0;
}

void dr_render_split(drape_world *w, uint32_t v, uint32_t copy, dr_vec4 e)
{
    dr_render *r = w->render;
    bool changed = false;
    for (uint32_t t = 0; r && t < r->triangle_count; ++t) {
        uint32_t *tri = &r->triangles[3 * (size_t)t];
        const int k = tri[0] == v ? 0 : tri[1] == v ? 1 : tri[2] == v ? 2 : -1;
        if (k < 0)
            continue;
        const uint32_t a = tri[(k + 1) % 3], b = tri[(k + 2) % 3];
        const int sa = link_side(w, v, copy, a), sb = link_side(w, v, copy, b);
        bool to_copy;
        if (sa * sb < 0) { /* its two edges at v went apart: the tear runs through it */
            tri[0] = tri[1] = tri[2] = a; /* hidden (no area, no normal) */
            changed = true;
            continue;
        } else if (sa + sb != 0) {
            to_copy = sa + sb > 0;
        } else { /* no link along either edge: by the side of the plane its other corners are on */
            const dr_vec4 mid = dr_scale3(dr_add3(w->x[a], w->x[b]), 0.5f);
            to_copy = dr_dot3(dr_sub3(mid, w->x[v]), e) > 0.0f;
        }
        if (to_copy) {
            tri[k] = copy;
            changed = true;
        }
    }
    if (changed) {
        r->max_index = copy > r->max_index ? copy : r->max_index;
        r->vertex_count = 0; /* the adjacency is rebuilt before the next use (prepare) */
    }
}

/* The renderer, its adjacency covering every particle of the world. */
static drape_result prepare(drape_world *w, const char *fn, dr_render **out)
{
    drape_result res = get_render(w, fn, out);
    if (res == DRAPE_OK && (*out)->vertex_count != w->particle_count)
        res = build_adjacency(w, *out, fn);
    return res;
}

/* ---- OpenCL ------------------------------------------------------------------------------------
 */
#if DRAPE_HAVE_OPENCL

/* Uploads the triangles and adjacency if they changed; creates the kernel on first use. */
static drape_result device_prepare(drape_world *w, dr_render *r)
{
    dr_cl_context *ctx = cl_ctx(w);
    drape_result res = DRAPE_OK;
    if (!r->kernel)
        res = dr_cl_kernel_create(ctx, "render.cl", "render_vertices", &r->kernel);
    if (res == DRAPE_OK && r->device_stale) {
        const size_t tri_bytes = (size_t)3 * r->triangle_count * sizeof(uint32_t);
        res =
            dr_cl_buffer_replace(ctx, &r->d_triangles, tri_bytes, "render triangles", r->triangles);
        if (res == DRAPE_OK)
            res = dr_cl_buffer_replace(ctx, &r->d_offsets,
                                       ((size_t)r->vertex_count + 1) * sizeof(uint32_t),
                                       "render adjacency offsets", r->offsets);
        if (res == DRAPE_OK)
            res = dr_cl_buffer_replace(ctx, &r->d_incident, tri_bytes, "render adjacency",
                                       r->incident);
        if (res == DRAPE_OK)
            r->device_stale = false;
    }
    return res;
}

/* Enqueues render_vertices over every particle into `positions` and `normals`. */
static drape_result launch(drape_world *w, dr_render *r, cl_mem positions, cl_mem normals)
{
    dr_cl_context *ctx = cl_ctx(w);
    cl_mem x = NULL;
    drape_result res = dr_opencl_positions(w, &x);
    if (res != DRAPE_OK)
        return res;
    const cl_uint n = w->particle_count;
    const struct {
        size_t size;
        const void *value;
    } args[] = {
        {sizeof positions, &positions},
        {sizeof normals, &normals},
        {sizeof x, &x},
        {sizeof r->d_triangles, &r->d_triangles},
        {sizeof r->d_offsets, &r->d_offsets},
        {sizeof r->d_incident, &r->d_incident},
        {sizeof n, &n},
    };
    for (cl_uint i = 0; i < sizeof args / sizeof *args; ++i) {
        cl_int code = clSetKernelArg(r->kernel, i, args[i].size, args[i].value);
        if (code != CL_SUCCESS)
            return dr_cl_failf(&ctx->logger, "clSetKernelArg", code,
                               "argument %u of kernel render_vertices", i);
    }
    return dr_cl_launch_1d(ctx, r->kernel, n, -1);
}

static drape_result device_render_data(drape_world *w, dr_render *r, uint32_t first, uint32_t count,
                                       float *positions, float *normals)
{
    dr_cl_context *ctx = cl_ctx(w);
    const size_t n = w->particle_count, bytes = n * 4 * sizeof(float);
    drape_result res = device_prepare(w, r);
    if (res == DRAPE_OK && r->d_vertices != n) {
        r->d_vertices = 0;
        res = dr_cl_buffer_replace(ctx, &r->d_positions, bytes, "render positions", NULL);
        if (res == DRAPE_OK)
            res = dr_cl_buffer_replace(ctx, &r->d_normals, bytes, "render normals", NULL);
        if (res == DRAPE_OK)
            r->d_vertices = n;
    }
    if (res == DRAPE_OK)
        res = launch(w, r, r->d_positions, r->d_normals);
    const size_t offset = (size_t)first * 4 * sizeof(float),
                 part = (size_t)count * 4 * sizeof(float);
    if (res == DRAPE_OK)
        res = dr_cl_buffer_read(ctx, r->d_positions, offset, part, positions);
    if (res == DRAPE_OK)
        res = dr_cl_buffer_read(ctx, r->d_normals, offset, part, normals);
    return res;
}
#endif

/* ---- the API -----------------------------------------------------------------------------------
 */

drape_result drape_world_get_render_data(drape_world *w, uint32_t first, uint32_t count,
                                         float *positions, float *normals)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_render_data";
    if ((!positions || !normals) && count > 0)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                       positions ? "normals" : "positions");
    drape_result range = dr_check_particle_range(w, first, count, fn);
    if (range != DRAPE_OK)
        return range;
    if (count == 0)
        return DRAPE_OK;
    dr_render *r = NULL;
    drape_result res = prepare(w, fn, &r);
    if (res != DRAPE_OK)
        return res;
#if DRAPE_HAVE_OPENCL
    if (w->cl) {
        res = device_render_data(w, r, first, count, positions, normals);
        return res == DRAPE_OK
                   ? DRAPE_OK
                   : dr_fail(&w->def, res, "%s: the OpenCL backend failed (see above)", fn);
    }
#endif
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t i = first + k;
        dr_vec4 p = dr_render_position(w->x[i]);
        dr_vec4 nrm =
            dr_vertex_normal(w->x, r->triangles, r->incident, r->offsets[i], r->offsets[i + 1]);
        memcpy(positions + 4 * (size_t)k, &p, sizeof p);
        memcpy(normals + 4 * (size_t)k, &nrm, sizeof nrm);
    }
    return DRAPE_OK;
}

bool drape_world_has_gl_sharing(const drape_world *w)
{
#if DRAPE_HAVE_OPENCL
    return w && w->cl && dr_opencl_context(w->cl)->gl_sharing;
#else
    (void)w;
    return false;
#endif
}

drape_result drape_world_bind_gl_buffers(drape_world *w, uint32_t positions_vbo,
                                         uint32_t normals_vbo)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_bind_gl_buffers";
    if (!drape_world_has_gl_sharing(w))
        return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                       "%s: this world cannot share OpenGL buffers (it needs the OpenCL backend "
                       "made with def.backend.gl_context on a device with cl_khr_gl_sharing)",
                       fn);
    if (!positions_vbo || !normals_vbo || positions_vbo == normals_vbo)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: positions_vbo = %u and normals_vbo = %u must be two buffer objects", fn,
                       positions_vbo, normals_vbo);
#if DRAPE_HAVE_OPENCL
    dr_render *r = NULL;
    drape_result res = get_render(w, fn, &r);
    if (res != DRAPE_OK)
        return res;
    release_gl(r);
    dr_cl_context *ctx = cl_ctx(w);
    cl_int code;
    cl_mem pos = clCreateFromGLBuffer(ctx->context, CL_MEM_WRITE_ONLY, positions_vbo, &code);
    DR_CL_CHECK_ERR(&ctx->logger, clCreateFromGLBuffer, code);
    cl_mem nrm = clCreateFromGLBuffer(ctx->context, CL_MEM_WRITE_ONLY, normals_vbo, &code);
    if (code != CL_SUCCESS) {
        clReleaseMemObject(pos);
        return dr_cl_fail(&ctx->logger, "clCreateFromGLBuffer", code);
    }
    r->gl_positions = pos;
    r->gl_normals = nrm;
    return DRAPE_OK;
#else
    return DRAPE_ERROR_UNSUPPORTED; /* not reached: there is no sharing without OpenCL */
#endif
}

#if DRAPE_HAVE_OPENCL
/* Checks that a shared GL buffer holds 16 bytes per particle. */
static drape_result check_size(drape_world *w, cl_mem buffer, const char *what)
{
    dr_cl_context *ctx = cl_ctx(w);
    size_t size = 0;
    DR_CL_CHECK(&ctx->logger, clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL));
    const size_t need = (size_t)w->particle_count * 4 * sizeof(float);
    if (size < need)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "drape_world_update_gl_buffers: the %s buffer holds %zu bytes; %u particles "
                       "need %zu",
                       what, size, w->particle_count, need);
    return DRAPE_OK;
}
#endif

drape_result drape_world_update_gl_buffers(drape_world *w)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_update_gl_buffers";
#if DRAPE_HAVE_OPENCL
    if (!w->render || !w->render->gl_positions)
        return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                       "%s: no GL buffers are bound (drape_world_bind_gl_buffers)", fn);
    if (w->particle_count == 0)
        return DRAPE_OK;
    dr_render *r = NULL;
    drape_result res = prepare(w, fn, &r);
    if (res == DRAPE_OK)
        res = check_size(w, r->gl_positions, "positions");
    if (res == DRAPE_OK)
        res = check_size(w, r->gl_normals, "normals");
    if (res == DRAPE_OK)
        res = device_prepare(w, r);
    if (res != DRAPE_OK)
        return res;
    dr_cl_context *ctx = cl_ctx(w);
    cl_mem shared[2] = {r->gl_positions, r->gl_normals};
    DR_CL_CHECK(&ctx->logger, clEnqueueAcquireGLObjects(ctx->queue, 2, shared, 0, NULL, NULL));
    res = launch(w, r, r->gl_positions, r->gl_normals);
    /* Release even when the launch failed: the GL objects must go back to OpenGL. */
    cl_int code = clEnqueueReleaseGLObjects(ctx->queue, 2, shared, 0, NULL, NULL);
    if (code != CL_SUCCESS && res == DRAPE_OK)
        res = dr_cl_fail(&ctx->logger, "clEnqueueReleaseGLObjects", code);
    if (res == DRAPE_OK)
        res = dr_cl_finish(ctx);
    return res == DRAPE_OK ? DRAPE_OK
                           : dr_fail(&w->def, res, "%s: the OpenCL backend failed (see above)", fn);
#else
    return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                   "%s: no GL buffers are bound (drape_world_bind_gl_buffers)", fn);
#endif
}

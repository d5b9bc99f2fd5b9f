/* Wavefront OBJ reader for triangle meshes. It reads vertices (`v`) and faces (`f`), splits quads
 * along their first diagonal (v0-v2) and skips what a triangle mesh does not need (normals, texture
 * coordinates, groups, objects, smoothing groups, materials). Everything else is an error that
 * names the file and line: an unknown statement, an index that names no vertex defined so far, a
 * face with more than four vertices or a repeated vertex, a coordinate that is not a finite float.
 *
 * It works on a buffer with an explicit size that need not end in NUL (the fuzzer's input), so
 * every token is copied before strtod/strtol see it.
 */
#include "scene_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OBJ_MAX_VERTICES (1u << 28)
#define OBJ_TOKEN_MAX 64

typedef struct obj_reader {
    const char *name;
    const char *line, *end; /* the current line, without its newline */
    uint32_t line_number;
    drape_mesh mesh;
    uint32_t vertex_capacity, triangle_capacity, face_line_capacity;
    drape_scene_error *err;
} obj_reader;

/* A token of the current line: [begin, end). */
typedef struct obj_token {
    const char *begin, *end;
} obj_token;

static bool fail(obj_reader *r, const char *fmt, ...) SC_PRINTF(2, 3);

static bool fail(obj_reader *r, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    sc_fail(r->err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s:%u: %s", r->name, r->line_number, what);
    return false;
}

/* A short escaped excerpt of a token for messages (sc_excerpt). */
static const char *printable(obj_token t, char *buf, size_t size)
{
    return sc_excerpt(t.begin, (size_t)(t.end - t.begin), buf, size);
}

/* The next whitespace-separated token after *at on the current line; false at its end. */
static bool next_token(const obj_reader *r, const char **at, obj_token *out)
{
    const char *c = *at;
    while (c < r->end && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' || *c == '\v'))
        ++c;
    if (c >= r->end)
        return false;
    out->begin = c;
    while (c < r->end && !(*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' || *c == '\v'))
        ++c;
    out->end = c;
    *at = c;
    return true;
}

static bool token_is(obj_token t, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(t.end - t.begin) == n && memcmp(t.begin, word, n) == 0;
}

static bool parse_coordinate(obj_reader *r, obj_token t, float *out)
{
    char buf[OBJ_TOKEN_MAX + 1], shown[4 * SC_EXCERPT_MAX + 4];
    size_t n = (size_t)(t.end - t.begin);
    if (n > OBJ_TOKEN_MAX)
        return fail(r, "coordinate '%s' is too long", printable(t, shown, sizeof shown));
    memcpy(buf, t.begin, n);
    buf[n] = '\0';
    char *stop = NULL;
    double v = strtod(buf, &stop);
    if (stop == buf || *stop != '\0')
        return fail(r, "coordinate '%s' is not a number", printable(t, shown, sizeof shown));
    if (!isfinite(v) || fabs(v) > FLT_MAX)
        return fail(r, "coordinate '%s' is not a finite number", printable(t, shown, sizeof shown));
    *out = (float)v;
    return true;
}

static bool read_vertex(obj_reader *r, const char *at)
{
    float c[6];
    int n = 0;
    obj_token t;
    while (next_token(r, &at, &t)) {
        if (n == 6)
            return fail(r, "a vertex has 3 coordinates (4 with w, 6 with a colour), got more");
        if (!parse_coordinate(r, t, &c[n]))
            return false;
        n++;
    }
    if (n != 3 && n != 4 && n != 6)
        return fail(r, "a vertex has 3 coordinates (4 with w, 6 with a colour), got %d", n);
    if (r->mesh.vertex_count == OBJ_MAX_VERTICES)
        return fail(r, "more than %u vertices", OBJ_MAX_VERTICES);
    drape_vec3 *v =
        sc_grow(r->mesh.vertices, &r->vertex_capacity, r->mesh.vertex_count + 1, sizeof *v);
    if (!v)
        return fail(r, "no memory for another vertex");
    r->mesh.vertices = v;
    r->mesh.vertices[r->mesh.vertex_count++] = (drape_vec3){c[0], c[1], c[2]};
    return true;
}

/* The vertex index of a face corner "v", "v/vt", "v/vt/vn" or "v//vn", 0-based. */
static bool parse_corner(obj_reader *r, obj_token t, uint32_t *out)
{
    char buf[OBJ_TOKEN_MAX + 1], shown[4 * SC_EXCERPT_MAX + 4];
    size_t n = (size_t)(t.end - t.begin);
    if (n > OBJ_TOKEN_MAX)
        return fail(r, "face corner '%s' is too long", printable(t, shown, sizeof shown));
    memcpy(buf, t.begin, n);
    buf[n] = '\0';
    int slashes = 0;
    for (size_t i = 0; i < n; ++i) {
        if (buf[i] == '/')
            slashes++;
        else if (!isdigit((unsigned char)buf[i]) && buf[i] != '-')
            slashes = 3;
    }
    errno = 0;
    char *stop = NULL;
    long long v = strtoll(buf, &stop, 10);
    if (slashes > 2 || stop == buf || (*stop != '\0' && *stop != '/') || errno == ERANGE)
        return fail(r, "face corner '%s' is not a vertex index (v, v/vt, v/vt/vn or v//vn)",
                    printable(t, shown, sizeof shown));
    long long count = r->mesh.vertex_count;
    long long index = v > 0 ? v - 1 : count + v; /* negative: relative to the last vertex */
    if (v == 0 || index < 0 || index >= count)
        return fail(r,
                    "vertex index %lld names no vertex (%lld defined so far; indices start at 1)",
                    v, count);
    *out = (uint32_t)index;
    return true;
}

static bool add_triangle(obj_reader *r, uint32_t a, uint32_t b, uint32_t c)
{
    drape_mesh *m = &r->mesh;
    uint32_t need = m->triangle_count + 1;
    if (need > 2 * OBJ_MAX_VERTICES)
        return fail(r, "more than %u triangles", 2 * OBJ_MAX_VERTICES);
    uint32_t *tri = sc_grow(m->triangles, &r->triangle_capacity, need, 3 * sizeof *tri);
    if (tri)
        m->triangles = tri;
    uint32_t *lines =
        tri ? sc_grow(m->face_lines, &r->face_line_capacity, need, sizeof *lines) : NULL;
    if (lines)
        m->face_lines = lines;
    if (!lines)
        return fail(r, "no memory for another face");
    uint32_t *t = &m->triangles[3 * (size_t)m->triangle_count];
    t[0] = a, t[1] = b, t[2] = c;
    m->face_lines[m->triangle_count++] = r->line_number;
    return true;
}

static bool read_face(obj_reader *r, const char *at)
{
    uint32_t v[5];
    int n = 0;
    obj_token t;
    while (next_token(r, &at, &t)) {
        if (n == 4)
            return fail(r, "a face with more than 4 vertices: only triangles and quads are "
                           "supported (triangulate the mesh first)");
        if (!parse_corner(r, t, &v[n]))
            return false;
        for (int k = 0; k < n; ++k)
            if (v[k] == v[n])
                return fail(r, "the face uses vertex %u twice", v[n] + 1);
        n++;
    }
    if (n < 3)
        return fail(r, "a face needs 3 or 4 vertices, got %d", n);
    if (!add_triangle(r, v[0], v[1], v[2]))
        return false;
    return n == 3 || add_triangle(r, v[0], v[2], v[3]);
}

/* One line: a statement and its arguments; comments and blank lines do nothing. */
static bool read_line(obj_reader *r)
{
    const char *hash = memchr(r->line, '#', (size_t)(r->end - r->line));
    if (hash)
        r->end = hash;
    const char *at = r->line;
    obj_token keyword;
    if (!next_token(r, &at, &keyword))
        return true;
    if (token_is(keyword, "v"))
        return read_vertex(r, at);
    if (token_is(keyword, "f"))
        return read_face(r, at);
    static const char *const skipped[] = {"vn", "vt", "vp", "o", "g", "s", "usemtl", "mtllib"};
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; ++i)
        if (token_is(keyword, skipped[i]))
            return true;
    char shown[4 * SC_EXCERPT_MAX + 4];
    return fail(r, "unsupported statement '%s' (a triangle mesh has v and f)",
                printable(keyword, shown, sizeof shown));
}

drape_scene_status drape_mesh_read_obj_buffer(const char *data, size_t size, const char *name,
                                              drape_mesh *out, drape_scene_error *err)
{
    drape_scene_error local;
    obj_reader r = {.name = name ? name : "(obj)", .err = err ? err : &local};
    if (!out)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: no mesh to read into", r.name);
    memset(out, 0, sizeof *out);
    if (!data && size) /* it read as an empty mesh */
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: the data is NULL with a size of %zu bytes", r.name, size);
    const char *end = data ? data + size : data;
    /* a UTF-8 byte order mark, which Windows editors write, as the scene reader skips it */
    if (data && size >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        data += 3;
    bool ok = true;
    for (const char *line = data; ok && line && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        r.line = line;
        r.end = nl ? nl : end;
        r.line_number++;
        ok = read_line(&r);
        line = nl ? nl + 1 : end;
    }
    if (!ok) {
        drape_mesh_free(&r.mesh);
        return r.err->status;
    }
    *out = r.mesh;
    return DRAPE_SCENE_OK;
}

drape_scene_status drape_mesh_read_obj(const char *path, drape_mesh *out, drape_scene_error *err)
{
    char *data;
    size_t size;
    if (out)
        memset(out, 0, sizeof *out);
    drape_scene_status s = sc_read_file(path, &data, &size, err);
    if (s != DRAPE_SCENE_OK)
        return s;
    s = drape_mesh_read_obj_buffer(data, size, path, out, err);
    free(data);
    return s;
}

void drape_mesh_free(drape_mesh *mesh)
{
    if (!mesh)
        return;
    free(mesh->vertices);
    free(mesh->triangles);
    free(mesh->face_lines);
    memset(mesh, 0, sizeof *mesh);
}

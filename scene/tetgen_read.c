/* TetGen's tetrahedral mesh files: a .node file (vertices) and an .ele file (tetrahedra), as
 * TetGen 1.5 writes them (https://wias-berlin.de/software/tetgen/fformats.html):
 *
 *   .node   <points> <dimension = 3> <attributes> <boundary markers 0 or 1>
 *           then per point: <index> <x> <y> <z> [attributes] [boundary marker]
 *   .ele    <tetrahedra> <nodes per tetrahedron = 4 or 10> <region attribute 0 or 1>
 *           then per tetrahedron: <index> <n1> <n2> <n3> <n4> [6 more nodes] [attribute]
 *
 * '#' starts a comment; blank lines are skipped. Indices start at 0 or 1, whichever the first point
 * uses, and must then run consecutively. Only the four corners of a 10-node tetrahedron are kept.
 * Everything that does not fit is an error naming the file and line: a header or a record with
 * fields missing, extra or not numbers, a coordinate that is not finite, an index out of order, a
 * tetrahedron naming a point that does not exist or one point twice, one that is inverted (TetGen
 * orients n2 - n1, n3 - n1, n4 - n1 right-handed) or flat (volume below 1e-6 of its longest edge
 * cubed), and a file that ends before the records its header announced. Like the OBJ reader it
 * works on buffers with an explicit size that need not end in NUL.
 */
#include "scene_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TG_MAX_POINTS (1u << 26)
#define TG_MAX_TETS (1u << 27)
#define TG_MAX_FIELDS 16
#define TG_TOKEN_MAX 64
#define TG_MIN_VOLUME_RATIO 1e-6

typedef struct tg_file {
    const char *name;
    const char *at, *end; /* the rest of the buffer */
    uint32_t line;        /* the line the last record came from */
    drape_scene_error *err;
} tg_file;

static bool tg_fail(tg_file *f, const char *fmt, ...) SC_PRINTF(2, 3);

static bool tg_fail(tg_file *f, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    sc_fail(f->err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s:%u: %s", f->name, f->line, what);
    return false;
}

/* The fields of the next line that has any (comments and blank lines skipped), each copied with a
 * NUL into tokens; *count of them. False at the end of the file. */
static bool next_record(tg_file *f, char tokens[TG_MAX_FIELDS][TG_TOKEN_MAX], int *count,
                        bool *too_many)
{
    *too_many = false;
    while (f->at < f->end) {
        const char *line = f->at, *eol = memchr(line, '\n', (size_t)(f->end - line));
        if (!eol)
            eol = f->end;
        f->at = eol < f->end ? eol + 1 : f->end;
        f->line++;
        const char *hash = memchr(line, '#', (size_t)(eol - line));
        if (hash)
            eol = hash;
        *count = 0;
        for (const char *c = line; c < eol;) {
            while (c < eol &&
                   (*c == ' ' || *c == '\t' || *c == '\r' || *c == ',' || *c == '\f' || *c == '\v'))
                ++c;
            if (c >= eol)
                break;
            const char *b = c;
            while (c < eol && !(*c == ' ' || *c == '\t' || *c == '\r' || *c == ',' || *c == '\f' ||
                                *c == '\v'))
                ++c;
            if (*count == TG_MAX_FIELDS) {
                *too_many = true;
                continue;
            }
            size_t n = (size_t)(c - b) < TG_TOKEN_MAX - 1 ? (size_t)(c - b) : TG_TOKEN_MAX - 1;
            memcpy(tokens[*count], b, n);
            tokens[*count][n] = '\0';
            ++*count;
        }
        if (*count > 0 || *too_many)
            return true;
    }
    return false;
}

/* Room for `count` records of `size` bytes, or NULL after an out-of-memory error naming them. */
static void *alloc_records(tg_file *f, uint32_t count, size_t size, const char *what)
{
    void *p = malloc((size_t)count * size);
    if (!p)
        sc_fail(f->err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                "%s: no memory for %u %s", f->name, count, what);
    return p;
}

/* Record i of the `count` records (`what`, one of them `one`) the header announced, with exactly
 * `fields` fields (`layout` names them, or is ""); false after an error naming the line. */
static bool next_item(tg_file *f, char t[TG_MAX_FIELDS][TG_TOKEN_MAX], uint32_t i, uint32_t count,
                      const char *what, const char *one, int fields, const char *layout)
{
    int n;
    bool too_many;
    if (!next_record(f, t, &n, &too_many))
        return tg_fail(f, "the file ends after %u of the %u %s its header announces", i, count,
                       what);
    if (n != fields || too_many)
        return tg_fail(f, "%s has %d fields, expected %d%s", one, n, fields, layout);
    return true;
}

static bool parse_u32(const char *t, uint32_t *out)
{
    if (!*t || *t == '-' || *t == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(t, &end, 10);
    if (*end || errno || v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_float(const char *t, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (!*t || *end || !isfinite(v) || fabs(v) > 1e9)
        return false;
    *out = (float)v;
    return true;
}

/* A header of `want` fields or more (the rest optional, default 0): out[0 .. want_max - 1]. */
static bool read_header(tg_file *f, const char *what, int min, int max, uint32_t *out)
{
    char t[TG_MAX_FIELDS][TG_TOKEN_MAX];
    int n;
    bool too_many;
    if (!next_record(f, t, &n, &too_many))
        return tg_fail(f, "the file is empty: expected the %s header", what);
    if (n < min || n > max || too_many)
        return tg_fail(f, "the %s header has %d fields, expected %d to %d", what, n, min, max);
    for (int i = 0; i < max; ++i) {
        out[i] = 0;
        if (i < n && !parse_u32(t[i], &out[i]))
            return tg_fail(f, "field %d of the %s header, '%s', is not a count", i + 1, what, t[i]);
    }
    return true;
}

static bool read_nodes(tg_file *f, drape_tetgen_mesh *m, uint32_t *first_index)
{
    uint32_t h[4];
    if (!read_header(f, ".node", 1, 4, h))
        return false;
    if (h[1] == 0)
        h[1] = 3;
    if (h[0] < 4 || h[0] > TG_MAX_POINTS)
        return tg_fail(f, "%u points: a tetrahedral mesh needs 4 to %u", h[0], TG_MAX_POINTS);
    if (h[1] != 3)
        return tg_fail(f, "dimension %u: only 3-dimensional meshes are read", h[1]);
    if (h[3] > 1)
        return tg_fail(f, "the boundary-marker flag is %u, expected 0 or 1", h[3]);
    if (h[2] > TG_MAX_FIELDS - 5)
        return tg_fail(f, "%u attributes per point: at most %d are read", h[2], TG_MAX_FIELDS - 5);
    const int fields = 4 + (int)h[2] + (int)h[3];
    char layout[64];
    snprintf(layout, sizeof layout, " (index, x, y, z%s%s)", h[2] ? ", attributes" : "",
             h[3] ? ", marker" : "");
    if (!(m->vertices = alloc_records(f, h[0], sizeof *m->vertices, "points")))
        return false;
    for (uint32_t i = 0; i < h[0]; ++i) {
        char t[TG_MAX_FIELDS][TG_TOKEN_MAX];
        if (!next_item(f, t, i, h[0], "points", "a point", fields, layout))
            return false;
        uint32_t index;
        if (!parse_u32(t[0], &index))
            return tg_fail(f, "the point index '%s' is not an index", t[0]);
        if (i == 0 && index > 1)
            return tg_fail(f, "the first point's index is %u: indices start at 0 or 1", index);
        if (i == 0)
            *first_index = index;
        if (index != *first_index + i)
            return tg_fail(f, "point index %u is out of order: expected %u", index,
                           *first_index + i);
        float c[3];
        for (int k = 0; k < 3; ++k)
            if (!parse_float(t[1 + k], &c[k]))
                return tg_fail(f,
                               "coordinate %c of point %u, '%s', is not a finite number "
                               "within 1e9",
                               "xyz"[k], index, t[1 + k]);
        m->vertices[i] = (drape_vec3){c[0], c[1], c[2]};
    }
    m->vertex_count = h[0];
    return true;
}

/* 6 V of the tetrahedron, in double, and its longest edge. */
static double volume6(const drape_vec3 *v, const uint32_t q[4], double *longest)
{
    double p[4][3];
    for (int k = 0; k < 4; ++k)
        p[k][0] = v[q[k]].x, p[k][1] = v[q[k]].y, p[k][2] = v[q[k]].z;
    *longest = 0.0;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            double dx = p[a][0] - p[b][0], dy = p[a][1] - p[b][1], dz = p[a][2] - p[b][2];
            *longest = fmax(*longest, sqrt(dx * dx + dy * dy + dz * dz));
        }
    double e[3][3];
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c)
            e[k][c] = p[k + 1][c] - p[0][c];
    return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
           e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
           e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

static bool read_tets(tg_file *f, drape_tetgen_mesh *m, uint32_t first_index)
{
    uint32_t h[3];
    if (!read_header(f, ".ele", 1, 3, h))
        return false;
    if (h[1] == 0)
        h[1] = 4;
    if (h[0] < 1 || h[0] > TG_MAX_TETS)
        return tg_fail(f, "%u tetrahedra: expected 1 to %u", h[0], TG_MAX_TETS);
    if (h[1] != 4 && h[1] != 10)
        return tg_fail(f, "%u nodes per tetrahedron: expected 4 or 10", h[1]);
    if (h[2] > 1)
        return tg_fail(f, "the region-attribute flag is %u, expected 0 or 1", h[2]);
    const int fields = 1 + (int)h[1] + (int)h[2];
    if (!(m->tets = alloc_records(f, h[0], 4 * sizeof *m->tets, "tetrahedra")))
        return false;
    for (uint32_t i = 0; i < h[0]; ++i) {
        char t[TG_MAX_FIELDS][TG_TOKEN_MAX];
        if (!next_item(f, t, i, h[0], "tetrahedra", "a tetrahedron", fields, ""))
            return false;
        uint32_t index, *q = &m->tets[4 * (size_t)i];
        if (!parse_u32(t[0], &index) || index != first_index + i)
            return tg_fail(f, "tetrahedron index '%s' is out of order: expected %u", t[0],
                           first_index + i);
        for (int k = 0; k < (int)h[1]; ++k) {
            uint32_t node;
            if (!parse_u32(t[1 + k], &node) || node < first_index ||
                node - first_index >= m->vertex_count)
                return tg_fail(f,
                               "node %d of tetrahedron %u, '%s', is out of range: the points "
                               "are %u to %u",
                               k + 1, index, t[1 + k], first_index,
                               first_index + m->vertex_count - 1);
            if (k < 4)
                q[k] = node - first_index;
        }
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b)
                if (q[a] == q[b])
                    return tg_fail(f, "tetrahedron %u names point %u twice", index,
                                   q[a] + first_index);
        double longest, v6 = volume6(m->vertices, q, &longest);
        if (!(fabs(v6) > 6.0 * TG_MIN_VOLUME_RATIO * longest * longest * longest))
            return tg_fail(f,
                           "tetrahedron %u is degenerate: its volume %g m^3 is below %g of its "
                           "longest edge (%g m) cubed",
                           index, v6 / 6.0, TG_MIN_VOLUME_RATIO, longest);
        if (v6 < 0.0)
            return tg_fail(f,
                           "tetrahedron %u is inverted (volume %g m^3): TetGen orients n2 - n1, "
                           "n3 - n1, n4 - n1 right-handed",
                           index, v6 / 6.0);
    }
    m->tet_count = h[0];
    return true;
}

drape_scene_status drape_tetgen_read_buffers(const char *node, size_t node_size,
                                             const char *node_name, const char *ele,
                                             size_t ele_size, const char *ele_name,
                                             drape_tetgen_mesh *out, drape_scene_error *err)
{
    drape_tetgen_mesh m = {0};
    if (out)
        memset(out, 0, sizeof *out);
    if (!out || (!node && node_size) || (!ele && ele_size))
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_ERROR_INVALID_ARGUMENT,
                       "drape_tetgen_read_buffers: %s is NULL", out ? "a buffer" : "out");
    tg_file nf = {node_name ? node_name : "(node)", node, node + node_size, 0, err};
    tg_file ef = {ele_name ? ele_name : "(ele)", ele, ele + ele_size, 0, err};
    uint32_t first = 0;
    if (!read_nodes(&nf, &m, &first) || !read_tets(&ef, &m, first)) {
        drape_tetgen_mesh_free(&m);
        return err ? err->status : DRAPE_SCENE_BAD_INPUT;
    }
    *out = m;
    return DRAPE_SCENE_OK;
}

drape_scene_status drape_tetgen_read(const char *node_path, const char *ele_path,
                                     drape_tetgen_mesh *out, drape_scene_error *err)
{
    char *node = NULL, *ele = NULL;
    size_t node_size = 0, ele_size = 0;
    if (out)
        memset(out, 0, sizeof *out);
    drape_scene_status s = sc_read_file(node_path, &node, &node_size, err);
    if (s == DRAPE_SCENE_OK)
        s = sc_read_file(ele_path, &ele, &ele_size, err);
    if (s == DRAPE_SCENE_OK)
        s = drape_tetgen_read_buffers(node, node_size, node_path, ele, ele_size, ele_path, out,
                                      err);
    free(node);
    free(ele);
    return s;
}

void drape_tetgen_mesh_free(drape_tetgen_mesh *m)
{
    if (!m)
        return;
    free(m->vertices);
    free(m->tets);
    memset(m, 0, sizeof *m);
}

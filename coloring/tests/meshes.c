/* Mesh and constraint fixtures for the colouring tests and benchmark (see meshes.h). */
#include "meshes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *pointer)
{
    if (pointer == NULL) {
        fprintf(stderr, "meshes: out of memory\n");
        abort();
    }
    return pointer;
}

uint64_t test_rng_next(test_rng *rng)
{
    uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint32_t test_rng_below(test_rng *rng, uint32_t range)
{
    return (uint32_t)((test_rng_next(rng) >> 32) * range >> 32);
}

double test_rng_unit(test_rng *rng) { return (double)(test_rng_next(rng) >> 11) * 0x1.0p-53; }

void cset_init(cset *set, uint32_t arity) { *set = (cset){NULL, arity, 0, 0}; }

void cset_add(cset *set, const uint32_t *particles)
{
    if (set->count == set->capacity) {
        set->capacity = set->capacity ? set->capacity * 2u : 64u;
        set->indices = checked(
            realloc(set->indices, (size_t)set->capacity * set->arity * sizeof *set->indices));
    }
    memcpy(set->indices + (size_t)set->count * set->arity, particles,
           set->arity * sizeof *particles);
    set->count++;
}

void cset_free(cset *set)
{
    free(set->indices);
    *set = (cset){NULL, 0, 0, 0};
}

static void add_pair(cset *out, uint32_t a, uint32_t b)
{
    uint32_t pair[2] = {a, b};
    cset_add(out, pair);
}

/* The six spring directions of a grid: particle (i, j) to (i + di1, j + dj1), offset by (di0, dj0).
 */
typedef struct spring_direction {
    unsigned family;
    uint32_t di0, dj0, di1, dj1;
} spring_direction;

static const spring_direction directions[6] = {
    {GRID_STRUCTURAL, 0, 0, 1, 0}, {GRID_STRUCTURAL, 0, 0, 0, 1}, {GRID_SHEAR, 0, 0, 1, 1},
    {GRID_SHEAR, 1, 0, 0, 1},      {GRID_BEND, 0, 0, 2, 0},       {GRID_BEND, 0, 0, 0, 2},
};

/* Adds the spring of direction d at cell (i, j) when both of its particles exist. */
static void add_spring(cset *out, uint32_t nx, uint32_t ny, uint32_t i, uint32_t j,
                       const spring_direction *d)
{
    uint32_t reach_i = d->di0 > d->di1 ? d->di0 : d->di1;
    uint32_t reach_j = d->dj0 > d->dj1 ? d->dj0 : d->dj1;
    if (i + reach_i >= nx || j + reach_j >= ny)
        return;
    add_pair(out, (j + d->dj0) * nx + i + d->di0, (j + d->dj1) * nx + i + d->di1);
}

void grid_springs(cset *out, uint32_t nx, uint32_t ny, unsigned families)
{
    cset_init(out, 2);
    for (int k = 0; k < 6; ++k) {
        if (!(families & directions[k].family))
            continue;
        for (uint32_t j = 0; j < ny; ++j) {
            for (uint32_t i = 0; i < nx; ++i)
                add_spring(out, nx, ny, i, j, &directions[k]);
        }
    }
}

void grid_springs_interleaved(cset *out, uint32_t nx, uint32_t ny, unsigned families)
{
    cset_init(out, 2);
    for (uint32_t j = 0; j < ny; ++j) {
        for (uint32_t i = 0; i < nx; ++i) {
            for (int k = 0; k < 6; ++k) {
                if (families & directions[k].family)
                    add_spring(out, nx, ny, i, j, &directions[k]);
            }
        }
    }
}

enum { EDGE_DIAGONAL, EDGE_VERTICAL, EDGE_HORIZONTAL };

/* The dihedral across the interior edge of direction `edge` that starts at (i, j), if there is
 * one. Triangles of quad (i, j): (a, b, c) and (a, c, d), a = (i,j), b = (i+1,j), c = (i+1,j+1),
 * d = (i,j+1); wing0 sees edge0 -> edge1 counter-clockwise. */
static void grid_dihedral(cset *out, uint32_t nx, uint32_t ny, uint32_t i, uint32_t j, int edge)
{
    uint32_t p = j * nx + i;
    if (edge == EDGE_DIAGONAL && i + 1 < nx && j + 1 < ny) {
        uint32_t q[4] = {p, p + nx + 1, p + nx, p + 1};
        cset_add(out, q);
    } else if (edge == EDGE_VERTICAL && j + 1 < ny && i > 0 && i + 1 < nx) {
        uint32_t q[4] = {p, p + nx, p - 1, p + nx + 1};
        cset_add(out, q);
    } else if (edge == EDGE_HORIZONTAL && i + 1 < nx && j > 0 && j + 1 < ny) {
        uint32_t q[4] = {p, p + 1, p + nx + 1, p - nx};
        cset_add(out, q);
    }
}

void grid_dihedrals(cset *out, uint32_t nx, uint32_t ny)
{
    int passes[3] = {EDGE_DIAGONAL, EDGE_VERTICAL, EDGE_HORIZONTAL};
    if (nx < ny) {
        passes[1] = EDGE_HORIZONTAL;
        passes[2] = EDGE_VERTICAL;
    }
    cset_init(out, 4);
    for (int k = 0; k < 3; ++k) {
        for (uint32_t j = 0; j < ny; ++j) {
            for (uint32_t i = 0; i < nx; ++i)
                grid_dihedral(out, nx, ny, i, j, passes[k]);
        }
    }
}

void tri_mesh_free(tri_mesh *mesh)
{
    free(mesh->triangles);
    *mesh = (tri_mesh){0, NULL, 0};
}

static void add_triangle(tri_mesh *mesh, uint32_t a, uint32_t b, uint32_t c)
{
    /* Callers reserve room for every triangle up front. */
    uint32_t *t = mesh->triangles + 3u * mesh->count++;
    t[0] = a;
    t[1] = b;
    t[2] = c;
}

/* The triangles of a grid of quads. rng NULL: every quad split along (i,j)-(i+1,j+1), nothing
 * removed; otherwise a random diagonal per quad and each triangle dropped with probability hole. */
static void quad_grid(tri_mesh *out, uint32_t nx, uint32_t ny, double hole, test_rng *rng)
{
    out->particle_count = nx * ny;
    out->count = 0;
    out->triangles = checked(malloc((size_t)(nx - 1) * (ny - 1) * 2u * 3u * sizeof(uint32_t)));
    for (uint32_t j = 0; j + 1 < ny; ++j) {
        for (uint32_t i = 0; i + 1 < nx; ++i) {
            uint32_t a = j * nx + i, b = a + 1, c = a + nx + 1, d = a + nx;
            int flip = rng != NULL && (test_rng_next(rng) & 1u);
            uint32_t tri[2][3] = {{a, b, c}, {a, c, d}};
            if (flip) {
                uint32_t other[2][3] = {{a, b, d}, {b, c, d}};
                memcpy(tri, other, sizeof tri);
            }
            for (int t = 0; t < 2; ++t) {
                if (rng != NULL && test_rng_unit(rng) < hole)
                    continue;
                add_triangle(out, tri[t][0], tri[t][1], tri[t][2]);
            }
        }
    }
}

void grid_triangles(tri_mesh *out, uint32_t nx, uint32_t ny) { quad_grid(out, nx, ny, 0.0, NULL); }

void irregular_triangles(tri_mesh *out, uint32_t nx, uint32_t ny, double hole, test_rng *rng)
{
    quad_grid(out, nx, ny, hole, rng);
}

void disc_triangles(tri_mesh *out, uint32_t rings, uint32_t spokes)
{
    uint32_t particles = 1, triangles = 0;
    for (uint32_t r = 1; r <= rings; ++r) {
        particles += r * spokes;
        triangles += (2u * r - 1u) * spokes; /* (r-1)*spokes + r*spokes; the fan has spokes */
    }
    out->particle_count = particles;
    out->count = 0;
    out->triangles = checked(malloc((size_t)triangles * 3u * sizeof(uint32_t)));
    uint32_t inner = 0, inner_n = 1; /* first index and size of the inner ring */
    for (uint32_t r = 1; r <= rings; ++r) {
        uint32_t outer = inner + inner_n, outer_n = r * spokes;
        if (inner_n == 1) {
            for (uint32_t k = 0; k < outer_n; ++k) {
                add_triangle(out, inner, outer + k, outer + (k + 1u) % outer_n);
            }
        } else {
            /* Walk both rings by angle: advance the one whose next particle comes first. */
            uint32_t a = 0, b = 0;
            while (a < inner_n || b < outer_n) {
                int advance_outer =
                    b < outer_n &&
                    (a == inner_n || (uint64_t)(b + 1u) * inner_n <= (uint64_t)(a + 1u) * outer_n);
                if (advance_outer) {
                    add_triangle(out, inner + a % inner_n, outer + b, outer + (b + 1u) % outer_n);
                    ++b;
                } else {
                    add_triangle(out, inner + a % inner_n, outer + b % outer_n,
                                 inner + (a + 1u) % inner_n);
                    ++a;
                }
            }
        }
        inner = outer;
        inner_n = outer_n;
    }
}

/* A directed edge lo -> hi (forward) or hi -> lo of a triangle, with the third vertex. */
typedef struct half_edge {
    uint32_t lo, hi, opposite, forward;
} half_edge;

static int compare_half_edges(const void *x, const void *y)
{
    const half_edge *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->forward != b->forward)
        return a->forward > b->forward ? -1 : 1;
    return 0;
}

/* The half-edges of a mesh sorted by edge, forward before backward. */
static half_edge *sorted_half_edges(const tri_mesh *mesh)
{
    half_edge *h = checked(malloc(((size_t)mesh->count * 3u + 1u) * sizeof *h));
    for (uint32_t t = 0; t < mesh->count; ++t) {
        const uint32_t *v = mesh->triangles + 3u * t;
        for (uint32_t k = 0; k < 3; ++k) {
            uint32_t from = v[k], to = v[(k + 1u) % 3u], opposite = v[(k + 2u) % 3u];
            h[3u * t + k] =
                from < to ? (half_edge){from, to, opposite, 1} : (half_edge){to, from, opposite, 0};
        }
    }
    qsort(h, (size_t)mesh->count * 3u, sizeof *h, compare_half_edges);
    return h;
}

void mesh_edges(cset *out, const tri_mesh *mesh)
{
    cset_init(out, 2);
    half_edge *h = sorted_half_edges(mesh);
    size_t n = (size_t)mesh->count * 3u;
    for (size_t k = 0; k < n; ++k) {
        if (k > 0 && h[k].lo == h[k - 1].lo && h[k].hi == h[k - 1].hi)
            continue;
        add_pair(out, h[k].lo, h[k].hi);
    }
    free(h);
}

void mesh_dihedrals(cset *out, const tri_mesh *mesh)
{
    cset_init(out, 4);
    half_edge *h = sorted_half_edges(mesh);
    size_t n = (size_t)mesh->count * 3u;
    for (size_t k = 0; k + 1 < n; ++k) {
        const half_edge *a = &h[k], *b = &h[k + 1];
        if (a->lo != b->lo || a->hi != b->hi || !a->forward || b->forward)
            continue;
        uint32_t quad[4] = {a->lo, a->hi, a->opposite, b->opposite};
        cset_add(out, quad);
    }
    free(h);
}

void random_constraints(cset *out, uint32_t particle_count, uint32_t count, uint32_t arity,
                        test_rng *rng)
{
    cset_init(out, arity);
    uint32_t slots[8];
    for (uint32_t c = 0; c < count; ++c) {
        uint32_t used = 1u + test_rng_below(rng, arity);
        for (uint32_t s = 0; s < arity; ++s)
            slots[s] = DRAPE_NO_PARTICLE;
        for (uint32_t k = 0; k < used; ++k) {
            uint32_t s;
            do {
                s = test_rng_below(rng, arity);
            } while (slots[s] != DRAPE_NO_PARTICLE);
            slots[s] = test_rng_below(rng, particle_count);
        }
        cset_add(out, slots);
    }
}

uint8_t *movable_all(uint32_t particle_count)
{
    uint8_t *movable = checked(malloc((size_t)particle_count + 1u));
    memset(movable, 1, (size_t)particle_count + 1u);
    return movable;
}

void pin_cloth(uint8_t *movable, uint32_t nx, uint32_t ny, uint32_t pins)
{
    uint32_t last_row = (ny - 1u) * nx;
    if (pins & DRAPE_PIN_CORNER_00)
        movable[0] = 0;
    if (pins & DRAPE_PIN_CORNER_10)
        movable[nx - 1u] = 0;
    if (pins & DRAPE_PIN_CORNER_01)
        movable[last_row] = 0;
    if (pins & DRAPE_PIN_CORNER_11)
        movable[last_row + nx - 1u] = 0;
    for (uint32_t i = 0; i < nx; ++i) {
        if (pins & DRAPE_PIN_ROW_FIRST)
            movable[i] = 0;
        if (pins & DRAPE_PIN_ROW_LAST)
            movable[last_row + i] = 0;
    }
    for (uint32_t j = 0; j < ny; ++j) {
        if (pins & DRAPE_PIN_COLUMN_FIRST)
            movable[j * nx] = 0;
        if (pins & DRAPE_PIN_COLUMN_LAST)
            movable[j * nx + nx - 1u] = 0;
    }
}

void pin_random(uint8_t *movable, uint32_t particle_count, double probability, test_rng *rng)
{
    for (uint32_t p = 0; p < particle_count; ++p) {
        if (test_rng_unit(rng) < probability)
            movable[p] = 0;
    }
}

const drape_color_order color_orders[COLOR_ORDER_COUNT] = {
    DRAPE_COLOR_ORDER_NATURAL, DRAPE_COLOR_ORDER_LARGEST_FIRST, DRAPE_COLOR_ORDER_RANDOM};

drape_color_input color_input(const cset *set, const uint8_t *movable, uint32_t particle_count,
                              drape_color_order order, uint64_t seed, bool balance)
{
    return (drape_color_input){set->indices,   set->arity, set->count, movable,
                               particle_count, order,      seed,       balance};
}

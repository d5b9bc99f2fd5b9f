/* Cloth grids: first-fit in natural order reaches the lower bound (4 colours for structural
 * springs, 8 with shear, 12 with skip-one bending, 12 for dihedral bending) when the constraints
 * come in the cloth builder's order (drape_coloring.h), pinned or not. */
#include "check.h"
#include "meshes.h"
#include "drape_test.h"
#include "test_list.h"

typedef struct grid_size {
    uint32_t nx, ny;
} grid_size;

/* Sizes with an interior (>= 5 particles each way, so some particle has the full 12 springs). */
static const grid_size sizes[] = {{5, 5},   {6, 5},    {5, 9},   {7, 7},   {8, 13},
                                  {16, 16}, {33, 17},  {17, 33}, {64, 64}, {100, 7},
                                  {7, 100}, {129, 64}, {5, 300}, {300, 5}, {128, 128}};
#define SIZE_COUNT (sizeof sizes / sizeof sizes[0])

/* Every pin flag alone and the combinations a hanging or framed cloth uses. */
static const uint32_t pin_sets[] = {
    DRAPE_PIN_CORNER_00,
    DRAPE_PIN_CORNER_10,
    DRAPE_PIN_CORNER_01,
    DRAPE_PIN_CORNER_11,
    DRAPE_PIN_ROW_FIRST,
    DRAPE_PIN_ROW_LAST,
    DRAPE_PIN_COLUMN_FIRST,
    DRAPE_PIN_COLUMN_LAST,
    DRAPE_PIN_CORNER_01 | DRAPE_PIN_CORNER_11,
    DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10 | DRAPE_PIN_CORNER_01 | DRAPE_PIN_CORNER_11,
    DRAPE_PIN_ROW_FIRST | DRAPE_PIN_COLUMN_FIRST,
    DRAPE_PIN_ROW_LAST | DRAPE_PIN_COLUMN_FIRST,
    DRAPE_PIN_ROW_FIRST | DRAPE_PIN_COLUMN_LAST,
    DRAPE_PIN_ROW_FIRST | DRAPE_PIN_ROW_LAST | DRAPE_PIN_COLUMN_FIRST | DRAPE_PIN_COLUMN_LAST,
};
#define PIN_SET_COUNT (sizeof pin_sets / sizeof pin_sets[0])

static const unsigned families[3] = {GRID_STRUCTURAL, GRID_STRUCTURAL | GRID_SHEAR,
                                     GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND};
static const uint32_t family_bound[3] = {4, 8, 12};

/* Colours `set` in natural order with and without balancing; returns the colour count after
 * checking both and that balancing kept it. */
static uint32_t natural_colors(const cset *set, const uint8_t *movable, uint32_t particles)
{
    drape_color_input in =
        color_input(set, movable, particles, DRAPE_COLOR_ORDER_NATURAL, 0, false);
    drape_coloring plain = color_checked(&in);
    in.balance = true;
    drape_coloring balanced = color_checked(&in);
    uint32_t colors = plain.stats.colors;
    ENSURE_EQ(balanced.stats.colors, colors);
    drape_coloring_free(&plain);
    drape_coloring_free(&balanced);
    return colors;
}

/* Lower bound and natural colour count of the springs of one grid with `pins`. */
static void grid_result(uint32_t nx, uint32_t ny, unsigned family, uint32_t pins, uint32_t *bound,
                        uint32_t *colors)
{
    cset set;
    grid_springs(&set, nx, ny, family);
    uint8_t *movable = movable_all(nx * ny);
    pin_cloth(movable, nx, ny, pins);
    drape_color_input in = color_input(&set, movable, nx * ny, DRAPE_COLOR_ORDER_NATURAL, 0, false);
    *bound = reference_lower_bound(&in);
    *colors = natural_colors(&set, movable, nx * ny);
    free(movable);
    cset_free(&set);
}

void test_grid_springs_reach_bound(void)
{
    for (size_t s = 0; s < SIZE_COUNT; ++s) {
        for (int f = 0; f < 3; ++f) {
            uint32_t bound, colors;
            grid_result(sizes[s].nx, sizes[s].ny, families[f], DRAPE_PIN_NONE, &bound, &colors);
            ENSURE_EQ(bound, family_bound[f]);
            ENSURE_EQ(colors, family_bound[f]);
        }
    }
}

void test_grid_springs_pinned_reach_bound(void)
{
    for (size_t s = 0; s < SIZE_COUNT; ++s) {
        if (sizes[s].nx * sizes[s].ny > 5000)
            continue; /* keep the test fast */
        for (size_t p = 0; p < PIN_SET_COUNT; ++p) {
            for (int f = 0; f < 3; ++f) {
                uint32_t bound, colors;
                grid_result(sizes[s].nx, sizes[s].ny, families[f], pin_sets[p], &bound, &colors);
                ENSURE_EQ(colors, bound);
            }
        }
    }
}

/* Grids 2, 3 or 4 particles wide have no particle with every spring; first-fit stays within one
 * colour of their (smaller) bound. */
void test_grid_springs_small(void)
{
    for (uint32_t nx = 2; nx <= 12; ++nx) {
        for (uint32_t ny = 2; ny <= 12; ++ny) {
            if (nx >= 5 && ny >= 5)
                continue;
            for (int f = 0; f < 3; ++f) {
                uint32_t bound, colors;
                grid_result(nx, ny, families[f], DRAPE_PIN_NONE, &bound, &colors);
                ENSURE(colors <= bound + 1u);
            }
        }
    }
}

/* Why the builder adds one family per pass: with all springs of a particle together, bending costs
 * a 13th colour (structural and shear alone still reach their bounds). */
void test_grid_springs_interleaved_order(void)
{
    const uint32_t expected[3] = {4, 8, 13};
    for (int f = 0; f < 3; ++f) {
        cset set;
        grid_springs_interleaved(&set, 64, 64, families[f]);
        uint8_t *movable = movable_all(64 * 64);
        ENSURE_EQ(natural_colors(&set, movable, 64 * 64), expected[f]);
        free(movable);
        cset_free(&set);
    }
}

void test_grid_dihedrals_reach_bound(void)
{
    for (size_t s = 0; s < SIZE_COUNT; ++s) {
        uint32_t nx = sizes[s].nx, ny = sizes[s].ny;
        cset set;
        grid_dihedrals(&set, nx, ny);
        for (size_t p = 0; p <= PIN_SET_COUNT; ++p) {
            if (p > 0 && nx * ny > 5000)
                break;
            uint8_t *movable = movable_all(nx * ny);
            if (p > 0)
                pin_cloth(movable, nx, ny, pin_sets[p - 1]);
            drape_color_input in =
                color_input(&set, movable, nx * ny, DRAPE_COLOR_ORDER_NATURAL, 0, false);
            uint32_t bound = reference_lower_bound(&in);
            if (p == 0)
                ENSURE_EQ(bound, 12);
            ENSURE_EQ(natural_colors(&set, movable, nx * ny), bound);
            free(movable);
        }
        cset_free(&set);
    }
}

/* The same dihedrals sorted by edge (per particle: its edges to (i+1,j), (i,j+1), (i+1,j+1)) take
 * 14 colours; largest-first takes 14 too, random order more. Recorded so that a change shows. */
void test_grid_dihedrals_sorted_order(void)
{
    tri_mesh mesh;
    grid_triangles(&mesh, 64, 64);
    cset set;
    mesh_dihedrals(&set, &mesh);
    ENSURE_EQ(set.count, 63u * 63u + 2u * 62u * 63u);
    uint8_t *movable = movable_all(mesh.particle_count);
    const uint32_t most[3] = {14, 14, 22};
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        drape_color_input in =
            color_input(&set, movable, mesh.particle_count, color_orders[o], 3, true);
        drape_coloring out = color_checked(&in);
        ENSURE_EQ(out.stats.lower_bound, 12);
        ENSURE(out.stats.colors <= most[o]);
        if (o < 2)
            ENSURE_EQ(out.stats.colors, most[o]);
        drape_coloring_free(&out);
    }
    free(movable);
    cset_free(&set);
    tri_mesh_free(&mesh);
}

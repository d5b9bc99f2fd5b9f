/* Colouring time of cloth grids, 64 x 64 to 1024 x 1024 particles.
 *
 * The world recolours itself whenever constraints are added or removed (tearing, contacts), so the
 * colouring must be fast: the target is under 1 s on one core for the 1024 x 1024 cloth with
 * structural, shear and skip-one bending springs (about 6.3 million distance constraints). This
 * times drape_color_constraints on those grids (springs in the cloth builder's order, see
 * drape_coloring.h) and on the dihedral-bending grids, in every order, without and with balancing,
 * and prints colours against the lower bound, the largest/smallest colour ratio and the time. A
 * second table gives the colours of the test meshes (grids, a disc, an irregular mesh) per order.
 *
 * Each case runs once to warm up, then is repeated until 0.5 s have passed (at least 3 runs); the
 * table gives the fastest and the median run, single-threaded, in wall-clock time
 * (CLOCK_MONOTONIC), and the CPU time of the fastest run (CLOCK_PROCESS_CPUTIME_ID), which other
 * processes on a busy machine disturb less.
 * Usage: drape_coloring_bench [largest grid side, 64 .. 1024, default 1024] (--help)
 */
#define _POSIX_C_SOURCE 199309L

#include "cmdline.h"
#include "drape_coloring.h"
#include "meshes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 64

static double clock_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *order_name(drape_color_order order)
{
    switch (order) {
    case DRAPE_COLOR_ORDER_NATURAL:
        return "natural";
    case DRAPE_COLOR_ORDER_LARGEST_FIRST:
        return "largest-first";
    case DRAPE_COLOR_ORDER_RANDOM:
        return "random";
    }
    return "?";
}

/* Times one case and prints its row; returns 0 when the colouring failed. */
static int bench_case(const char *mesh, uint32_t side, const cset *set, const uint8_t *movable,
                      drape_color_order order, bool balance)
{
    drape_color_input in = {set->indices, set->arity, set->count, movable,
                            side * side,  order,      1,          balance};
    drape_coloring out;
    if (drape_color_constraints(&in, &out) != DRAPE_OK)
        return 0; /* warm-up */
    drape_coloring_stats stats = out.stats;
    drape_coloring_free(&out);

    double times[MAX_RUNS], start = now_ms(), best_cpu = 0.0;
    int runs = 0;
    while (runs < MAX_RUNS && (runs < 3 || now_ms() - start < 500.0)) {
        double t0 = now_ms(), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        if (drape_color_constraints(&in, &out) != DRAPE_OK)
            return 0;
        double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        times[runs] = now_ms() - t0;
        if (runs == 0 || cpu < best_cpu)
            best_cpu = cpu;
        ++runs;
        drape_coloring_free(&out);
    }
    qsort(times, (size_t)runs, sizeof times[0], compare_doubles);
    printf("| %-8s | %4u x %-4u | %11u | %-13s | %-3s | %6u | %5u | %9.3f | %9.1f | %9.1f | %9.1f "
           "|\n",
           mesh, side, side, stats.constraints, order_name(order), balance ? "yes" : "no",
           stats.colors, stats.lower_bound, (double)stats.largest / stats.smallest, times[0],
           times[runs / 2], best_cpu);
    fflush(stdout);
    return 1;
}

/* One row of the mesh table: colours in each order and the largest/smallest ratio after balancing.
 */
static void mesh_row(const char *name, const cset *set, const uint8_t *movable, uint32_t particles)
{
    printf("| %-36s | %11u |", name, set->count);
    for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
        drape_coloring plain, balanced;
        drape_color_input in = color_input(set, movable, particles, color_orders[o], 1, false);
        drape_result r1 = drape_color_constraints(&in, &plain);
        in.balance = true;
        drape_result r2 = drape_color_constraints(&in, &balanced);
        if (r1 != DRAPE_OK || r2 != DRAPE_OK) {
            fprintf(stderr, "colouring failed\n");
            exit(EXIT_FAILURE);
        }
        if (o == 0)
            printf(" %5u |", plain.stats.lower_bound);
        printf(" %3u (%.2f) |", plain.stats.colors,
               (double)balanced.stats.largest / balanced.stats.smallest);
        drape_coloring_free(&plain);
        drape_coloring_free(&balanced);
    }
    printf("\n");
}

/* Lower bound and colours of the meshes of the tests, 128 x 128 where they are grids. */
static void mesh_table(void)
{
    printf("\n| mesh                                 | constraints | bound | natural    "
           "| largest-1st | random     |\n");
    printf("|--------------------------------------|-------------|-------|------------"
           "|------------|------------|\n");
    const uint32_t n = 128;
    uint8_t *movable = movable_all(n * n);
    const unsigned families[3] = {GRID_STRUCTURAL, GRID_STRUCTURAL | GRID_SHEAR,
                                  GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND};
    const char *family_names[3] = {"grid structural", "grid structural + shear",
                                   "grid structural + shear + bending"};
    cset set;
    for (int f = 0; f < 3; ++f) {
        grid_springs(&set, n, n, families[f]);
        mesh_row(family_names[f], &set, movable, n * n);
        cset_free(&set);
    }
    grid_springs_interleaved(&set, n, n, families[2]);
    mesh_row("grid all springs, one pass", &set, movable, n * n);
    cset_free(&set);
    grid_dihedrals(&set, n, n);
    mesh_row("grid dihedral, builder order", &set, movable, n * n);
    cset_free(&set);
    tri_mesh mesh;
    grid_triangles(&mesh, n, n);
    mesh_dihedrals(&set, &mesh);
    mesh_row("grid dihedral, sorted by edge", &set, movable, n * n);
    cset_free(&set);
    tri_mesh_free(&mesh);
    free(movable);

    for (int kind = 0; kind < 2; ++kind) {
        test_rng rng = {3};
        if (kind == 0) {
            disc_triangles(&mesh, 40, 6);
        } else {
            irregular_triangles(&mesh, n, n, 0.15, &rng);
        }
        movable = movable_all(mesh.particle_count);
        for (int pinned = 0; pinned < 2; ++pinned) {
            if (pinned && kind == 0) { /* the disc's outer ring, as a drum skin */
                for (uint32_t p = mesh.particle_count - 40u * 6u; p < mesh.particle_count; ++p) {
                    movable[p] = 0;
                }
            } else if (pinned) {
                pin_random(movable, mesh.particle_count, 0.05, &rng);
            }
            char name[64];
            const char *what = kind == 0 ? (pinned ? "disc 40 rings, rim pinned" : "disc 40 rings")
                                         : (pinned ? "irregular, 5% pinned" : "irregular");
            mesh_edges(&set, &mesh);
            snprintf(name, sizeof name, "%s, edges", what);
            mesh_row(name, &set, movable, mesh.particle_count);
            cset_free(&set);
            mesh_dihedrals(&set, &mesh);
            snprintf(name, sizeof name, "%s, dihedral", what);
            mesh_row(name, &set, movable, mesh.particle_count);
            cset_free(&set);
        }
        free(movable);
        tri_mesh_free(&mesh);
    }
}

int main(int argc, char **argv)
{
    unsigned long largest = 1024;
    const int status = cmdline_number_only(
        "drape_coloring_bench", argc, argv,
        "usage: drape_coloring_bench [LARGEST]\n"
        "Times the colouring of cloth grids of 64, 256, 512 and 1024 particles a side, up to\n"
        "LARGEST (64 .. 1024, default 1024), and colours the test meshes; see the comment at\n"
        "the top of bench/coloring_bench.c for the columns.\n",
        "LARGEST", 64, 1024, &largest);
    if (status >= 0)
        return status;
    const uint32_t sides[4] = {64, 256, 512, 1024};
    printf(
        "| mesh     | grid        | constraints | order         | bal | colors | bound |   max/min "
        "| best (ms) | median ms | cpu (ms)  |\n");
    printf(
        "|----------|-------------|-------------|---------------|-----|--------|-------|-----------"
        "|-----------|-----------|-----------|\n");
    for (int kind = 0; kind < 2; ++kind) {
        for (int s = 0; s < 4; ++s) {
            uint32_t side = sides[s];
            if (side > largest)
                continue;
            cset set;
            if (kind == 0) {
                grid_springs(&set, side, side, GRID_STRUCTURAL | GRID_SHEAR | GRID_BEND);
            } else {
                grid_dihedrals(&set, side, side);
            }
            uint8_t *movable = movable_all(side * side);
            for (int o = 0; o < COLOR_ORDER_COUNT; ++o) {
                for (int balance = 0; balance < 2; ++balance) {
                    if (!bench_case(kind == 0 ? "springs" : "dihedral", side, &set, movable,
                                    color_orders[o], balance)) {
                        fprintf(stderr, "colouring failed\n");
                        return EXIT_FAILURE;
                    }
                }
            }
            free(movable);
            cset_free(&set);
        }
    }
    mesh_table();
    return EXIT_SUCCESS;
}

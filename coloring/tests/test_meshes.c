/* Colouring of real meshes that are not regular grids: a triangulated disc (a centre and rings) and
 * an irregular mesh (random diagonals, holes), as distance constraints on the edges and as dihedral
 * bending constraints across interior edges, free and with pins. */
#include "check.h"
#include "meshes.h"
#include "drape_test.h"
#include "test_list.h"

/* Checks the edges and the dihedrals of a mesh in every order, all movable and with `pinned`. */
static void check_mesh(const tri_mesh *mesh, const uint8_t *pinned)
{
    cset edges, dihedrals;
    mesh_edges(&edges, mesh);
    mesh_dihedrals(&dihedrals, mesh);
    uint8_t *movable = movable_all(mesh->particle_count);
    const uint8_t *masks[2] = {movable, pinned};
    for (int m = 0; m < 2; ++m) {
        check_all_orders(color_input(&edges, masks[m], mesh->particle_count, 0, 11, false));
        check_all_orders(color_input(&dihedrals, masks[m], mesh->particle_count, 0, 12, false));
    }
    free(movable);
    cset_free(&edges);
    cset_free(&dihedrals);
}

void test_disc_mesh(void)
{
    tri_mesh disc;
    disc_triangles(&disc, 12, 6);
    ENSURE_EQ(disc.particle_count, 1u + 6u * (12u * 13u / 2u));

    /* Edges: Euler's formula for a disc, V - E + F = 1. */
    cset edges;
    mesh_edges(&edges, &disc);
    ENSURE_EQ(disc.particle_count + disc.count, edges.count + 1u);
    cset_free(&edges);

    /* Pin the outer ring, as a drum skin. */
    uint8_t *pinned = movable_all(disc.particle_count);
    for (uint32_t p = disc.particle_count - 12u * 6u; p < disc.particle_count; ++p)
        pinned[p] = 0;
    check_mesh(&disc, pinned);
    free(pinned);
    tri_mesh_free(&disc);

    /* A fan of many spokes: the centre carries 40 edges, so 40 colours at least. */
    tri_mesh fan;
    disc_triangles(&fan, 3, 40);
    mesh_edges(&edges, &fan);
    uint8_t *movable = movable_all(fan.particle_count);
    drape_color_input in = color_input(&edges, movable, fan.particle_count, 0, 0, false);
    ENSURE_EQ(reference_lower_bound(&in), 40);
    ENSURE_EQ(check_all_orders(in), 40);
    free(movable);
    cset_free(&edges);
    tri_mesh_free(&fan);
}

void test_irregular_mesh(void)
{
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        test_rng rng = {seed};
        uint32_t nx = 8 + test_rng_below(&rng, 40), ny = 8 + test_rng_below(&rng, 40);
        tri_mesh mesh;
        irregular_triangles(&mesh, nx, ny, 0.15, &rng);
        uint8_t *pinned = movable_all(mesh.particle_count);
        pin_random(pinned, mesh.particle_count, 0.1, &rng);
        check_mesh(&mesh, pinned);
        free(pinned);
        tri_mesh_free(&mesh);
    }
}

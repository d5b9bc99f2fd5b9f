/* viz.sim: the viewer's simulation without a window (viz/sim.c, topology.c) on the CPU backend.
 *
 * - Every built-in scene loads through the scene library and its topology is what the world holds:
 *   one line per distance constraint, the scene's triangles, spheres for the particles on no
 *   triangle (the chain's 16 beads) and for the loose particles (the triangle's three; the balls
 *   of balls and brazil-nut, each at its contact radius), colours by object.
 * - A scene file loads by path; --resolution resizes its cloths.
 * - A tearing cloth draws neither its spares nor, once torn, the copies on its triangles as
 * spheres.
 * - Every solver mode builds and stays finite (XPBD puts compliance on every family).
 * - The mouse grab picks the particle under a ray, pulls it to a moving target through an
 *   attachment, and lets go; a ray through a rope's bead grabs that bead. */
#include "sim.h"

#include "drape_test.h"
#include "test_list.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static drape_vec3 position(viz_sim *s, uint32_t i)
{
    drape_vec3 p = {NAN, NAN, NAN};
    drape_world_get_positions(s->world, i, 1, &p);
    return p;
}

static void check_builtins(void)
{
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i) {
        viz_sim s = {.scene_name = drape_scene_builtin_name(i), .backend = DRAPE_BACKEND_CPU};
        EXPECT(viz_sim_build(&s));
        if (!s.world)
            continue;
        const viz_topology *t = &s.topology;
        uint32_t triangles = 0;
        drape_scene_triangles(s.scene, &triangles);
        EXPECT(t->particle_count == drape_world_particle_count(s.world));
        EXPECT(t->edge_count == drape_world_constraint_count(s.world, DRAPE_CONSTRAINT_DISTANCE));
        EXPECT(t->triangle_count == triangles);
        printf("%-15s %5u particles, %5u lines (%u free), %5u triangles, %u spheres\n",
               drape_scene_name(s.scene), t->particle_count, t->edge_count, t->free_edge_count,
               t->triangle_count, t->sphere_count);
        if (!strcmp(drape_scene_name(s.scene), "ik-chain")) {
            EXPECT(t->sphere_count == 16 && t->free_edge_count == t->edge_count);
            float rgb[3];
            viz_object_color(0, rgb);
            EXPECT(!memcmp(&t->colors[0], rgb, sizeof rgb));
            EXPECT(t->colors[3] > 0.005f && t->colors[3] < 0.05f); /* a bead's radius, m */
        } else if (!strcmp(drape_scene_name(s.scene), "triangle-plane")) {
            EXPECT(t->sphere_count == 3 && t->free_edge_count == 0); /* loose, on a triangle */
        } else if (!strcmp(drape_scene_name(s.scene), "balls") ||
                   !strcmp(drape_scene_name(s.scene), "brazil-nut")) {
            EXPECT(t->sphere_count == t->particle_count && t->edge_count == 0); /* loose balls */
            /* each drawn at its contact radius (brazil-nut: 3 cm and 1 cm balls) */
            float *radii = malloc(t->particle_count * sizeof *radii);
            EXPECT(radii &&
                   drape_world_get_radii(s.world, 0, t->particle_count, radii) == DRAPE_OK);
            for (uint32_t p = 0; radii && p < t->particle_count; ++p)
                EXPECT(radii[p] > 0.0f && t->colors[4 * (size_t)p + 3] == radii[p]);
            free(radii);
        } else {
            EXPECT(t->sphere_count == 0 && t->free_edge_count == 0);
        }
        const int steps = t->particle_count > 2000 && t->sphere_count ? 5 : 30; /* many balls */
        for (int k = 0; k < steps; ++k)
            EXPECT(viz_sim_step(&s));
        viz_sim_destroy(&s);
    }
}

static void check_file_and_resolution(void)
{
    viz_sim s = {.scene_name = DRAPE_SCENES_DIR "/flag.json",
                 .resolution = 12,
                 .backend = DRAPE_BACKEND_CPU};
    EXPECT(viz_sim_build(&s));
    EXPECT(s.world && drape_world_particle_count(s.world) == 144);
    EXPECT(s.topology.triangle_count == 2 * 11 * 11);
    viz_sim_destroy(&s);
    viz_sim bad = {.scene_name = "no-such-scene.json", .backend = DRAPE_BACKEND_CPU};
    EXPECT(!viz_sim_build(&bad) && !bad.world);
}

/* The tear scene: its 200 spares (pinned at the cloth's origin until a split uses them) are not
 * drawn, and after the cloth tore in two, no particle on a triangle is drawn as a sphere and every
 * triangle's particles have the cloth's colour. Before, the spares were spheres from the start
 * (one ball at the origin), and stayed spheres of the loose particles' colour once copies on the
 * tear's edge: a column of balls along either piece's torn edge. */
static void check_tear(void)
{
    viz_sim s = {.scene_name = DRAPE_SCENES_DIR "/tear.json", .backend = DRAPE_BACKEND_CPU};
    EXPECT(viz_sim_build(&s));
    if (!s.world)
        return;
    const viz_topology *t = &s.topology;
    EXPECT(t->sphere_count == 0);
    for (int k = 0; k < 90; ++k)
        EXPECT(viz_sim_step(&s));
    const uint32_t splits = drape_world_get_tear_stats(s.world).splits;
    uint8_t *on = calloc(t->particle_count, 1);
    EXPECT(on != NULL);
    float cloth[3];
    viz_object_color(0, cloth);
    uint32_t wrong_colour = 0, spheres_on_triangles = 0;
    for (uint32_t k = 0; on && k < 3 * t->triangle_count; ++k) {
        on[t->triangles[k]] = 1;
        wrong_colour += memcmp(&t->colors[4 * (size_t)t->triangles[k]], cloth, sizeof cloth) != 0;
    }
    for (uint32_t k = 0; on && k < t->sphere_count; ++k)
        spheres_on_triangles += on[t->spheres[k]];
    printf("tear: %u splits after 90 steps, %u spheres (%u on a triangle), %u triangle corners "
           "not of the cloth's colour\n",
           splits, t->sphere_count, spheres_on_triangles, wrong_colour);
    EXPECT(splits > 10 && spheres_on_triangles == 0 && wrong_colour == 0);
    EXPECT(t->sphere_count < 5);
    free(on);
    viz_sim_destroy(&s);
}

static void check_modes(void)
{
    for (int m = 0; m < VIZ_MODE_COUNT; ++m) {
        viz_sim s = {.resolution = 16, .mode = (viz_mode)m, .backend = DRAPE_BACKEND_CPU};
        EXPECT(viz_sim_build(&s));
        EXPECT(s.topology.triangle_count == 2 * 15 * 15 && s.topology.particle_count == 256);
        if (m == VIZ_MODE_XPBD && s.world) {
            drape_distance_def d;
            EXPECT(drape_world_get_distances(s.world, 0, 1, &d) == DRAPE_OK && d.compliance > 0.0f);
        }
        for (int i = 0; i < 60 && s.world; ++i)
            EXPECT(viz_sim_step(&s));
        int finite = 1;
        for (uint32_t i = 0; s.world && i < 256; ++i) {
            drape_vec3 p = position(&s, i);
            finite &= isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && p.y > -0.4f;
        }
        EXPECT(finite);
        printf("%s: 60 steps, all particles finite and above the ground\n", viz_mode_name(s.mode));
        viz_sim_destroy(&s);
    }
}

static void check_grab(void)
{
    viz_sim s = {.resolution = 16, .mode = VIZ_MODE_PBD, .backend = DRAPE_BACKEND_CPU};
    EXPECT(viz_sim_build(&s));
    for (int i = 0; i < 30; ++i)
        viz_sim_step(&s);
    const viz_vec3 down = viz_v3(0.0f, -1.0f, 0.0f);
    /* A ray that misses the cloth grabs nothing. */
    EXPECT(!viz_sim_grab(&s, viz_v3(5.0f, 2.0f, 5.0f), down, down));
    EXPECT(!s.grabbing);
    /* Straight down through the middle: the cloth on top of the sphere. */
    EXPECT(viz_sim_grab(&s, viz_v3(0.01f, 2.0f, 0.01f), down, down));
    EXPECT(s.grabbing);
    EXPECT(drape_world_constraint_count(s.world, DRAPE_CONSTRAINT_ATTACHMENT) == 1);
    drape_vec3 start = position(&s, s.grab_particle);
    EXPECT(fabsf(start.x) < 0.1f && fabsf(start.z) < 0.1f && start.y > 0.25f);
    /* The same ray from 0.4 m higher keeps the depth: the target rises by 0.4 m. */
    viz_sim_drag(&s, viz_v3(0.01f, 2.4f, 0.01f), down, down);
    for (int i = 0; i < 60; ++i)
        viz_sim_step(&s);
    drape_vec3 lifted = position(&s, s.grab_particle);
    printf("grabbed particle %u at y = %.3f m, pulled to y = %.3f m\n", s.grab_particle,
           (double)start.y, (double)lifted.y);
    EXPECT(lifted.y > start.y + 0.3f);
    viz_sim_release(&s);
    EXPECT(!s.grabbing);
    EXPECT(drape_world_constraint_count(s.world, DRAPE_CONSTRAINT_ATTACHMENT) == 0);
    viz_sim_destroy(&s);

    /* A rope's bead: the chain's particle 8 (at x = 8/15 m, y = 1 m at the start). */
    viz_sim chain = {.scene_name = "ik-chain", .backend = DRAPE_BACKEND_CPU};
    EXPECT(viz_sim_build(&chain));
    const float x = 8.0f / 15.0f;
    EXPECT(viz_sim_grab(&chain, viz_v3(x, 2.0f, 0.0f), down, down));
    EXPECT(chain.grabbing && chain.grab_particle == 8);
    viz_sim_destroy(&chain);
}

int suite_sim(void)
{
    check_builtins();
    check_file_and_resolution();
    check_tear();
    check_modes();
    check_grab();
    return test_finish();
}

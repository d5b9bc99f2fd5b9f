/* viz.sim: the viewer's simulation without a window (viz/sim.c, scenes.c, topology.c) on the CPU
 * backend: every solver mode builds and stays finite, and the mouse grab picks the particle under a
 * ray, pulls it to a moving target through an attachment, and lets go. */
#include "sim.h"

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


static drape_vec3 position(viz_sim *s, uint32_t i)
{
    drape_vec3 p = {NAN, NAN, NAN};
    drape_world_get_positions(s->world, i, 1, &p);
    return p;
}

static void check_modes(void)
{
    for (int m = 0; m < VIZ_MODE_COUNT; ++m) {
        viz_sim s = {.resolution = 16, .mode = (viz_mode)m, .backend = DRAPE_BACKEND_CPU};
        CHECK(viz_sim_build(&s));
        CHECK(s.topology.triangle_count == 2 * 15 * 15 && s.topology.particle_count == 256);
        for (int i = 0; i < 60 && s.world; ++i)
            CHECK(viz_sim_step(&s));
        int finite = 1;
        for (uint32_t i = 0; s.world && i < 256; ++i) {
            drape_vec3 p = position(&s, i);
            finite &= isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && p.y > -0.4f;
        }
        CHECK(finite);
        printf("%s: 60 steps, all particles finite and above the ground\n", viz_mode_name(s.mode));
        viz_sim_destroy(&s);
    }
}

static void check_grab(void)
{
    viz_sim s = {.resolution = 16, .mode = VIZ_MODE_PBD, .backend = DRAPE_BACKEND_CPU};
    CHECK(viz_sim_build(&s));
    for (int i = 0; i < 30; ++i)
        viz_sim_step(&s);
    const viz_vec3 down = viz_v3(0.0f, -1.0f, 0.0f);
    /* A ray that misses the cloth grabs nothing. */
    CHECK(!viz_sim_grab(&s, viz_v3(5.0f, 2.0f, 5.0f), down, down));
    CHECK(!s.grabbing);
    /* Straight down through the middle: the cloth on top of the sphere. */
    CHECK(viz_sim_grab(&s, viz_v3(0.01f, 2.0f, 0.01f), down, down));
    CHECK(s.grabbing);
    CHECK(drape_world_constraint_count(s.world, DRAPE_CONSTRAINT_ATTACHMENT) == 1);
    drape_vec3 start = position(&s, s.grab_particle);
    CHECK(fabsf(start.x) < 0.1f && fabsf(start.z) < 0.1f && start.y > 0.25f);
    /* The same ray from 0.4 m higher keeps the depth: the target rises by 0.4 m. */
    viz_sim_drag(&s, viz_v3(0.01f, 2.4f, 0.01f), down, down);
    for (int i = 0; i < 60; ++i)
        viz_sim_step(&s);
    drape_vec3 lifted = position(&s, s.grab_particle);
    printf("grabbed particle %u at y = %.3f m, pulled to y = %.3f m\n", s.grab_particle,
           (double)start.y, (double)lifted.y);
    CHECK(lifted.y > start.y + 0.3f);
    viz_sim_release(&s);
    CHECK(!s.grabbing);
    CHECK(drape_world_constraint_count(s.world, DRAPE_CONSTRAINT_ATTACHMENT) == 0);
    viz_sim_destroy(&s);
}

int main(void)
{
    check_modes();
    check_grab();
    return check_finish("sim");
}

/* viz.settings: the parameter panel's C interface (viz/settings.c), which the Dear ImGui panel
 * calls, without a window.
 *
 * - A panel change of iterations applies to the next step: the world stepped after the change moves
 *   exactly like one given that iteration count through drape_world_set_def, and unlike the world
 *   left alone.
 * - The settings read back what the world holds (def and each family's stiffness), and a family
 *   switched to XPBD compliance reads back as such. */
#include "settings.h"
#include "sim.h"

#include "drape_test.h"
#include "test_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_positions(const drape_world *a, const drape_world *b)
{
    const uint32_t n = drape_world_particle_count(a);
    drape_vec3 *xa = malloc(n * sizeof *xa), *xb = malloc(n * sizeof *xb);
    bool same = xa && xb && n == drape_world_particle_count(b) &&
                drape_world_get_positions(a, 0, n, xa) == DRAPE_OK &&
                drape_world_get_positions(b, 0, n, xb) == DRAPE_OK &&
                !memcmp(xa, xb, n * sizeof *xa);
    free(xa);
    free(xb);
    return same;
}

int suite_settings(void)
{
    viz_sim panel = {.resolution = 16, .backend = DRAPE_BACKEND_CPU};
    viz_sim direct = panel, untouched = panel;
    EXPECT(viz_sim_build(&panel) && viz_sim_build(&direct) && viz_sim_build(&untouched));
    if (!panel.world || !direct.world || !untouched.world)
        return test_finish();
    for (int k = 0; k < 20; ++k)
        EXPECT(viz_sim_step(&panel) && viz_sim_step(&direct) && viz_sim_step(&untouched));

    viz_settings before, after;
    EXPECT(viz_settings_read(panel.world, &before));
    EXPECT(before.iterations == 8 && before.substeps == 4);
    EXPECT(before.family[VIZ_FAMILY_STRETCH].present && !before.family[VIZ_FAMILY_STRETCH].xpbd);
    EXPECT(before.family[VIZ_FAMILY_BEND].present &&
           before.family[VIZ_FAMILY_BEND].stiffness == 0.2f);
    EXPECT(!before.family[VIZ_FAMILY_HINGE].present);
    after = before;
    EXPECT(viz_settings_equal(&before, &after));
    after.iterations = 2; /* what dragging the slider does */
    EXPECT(!viz_settings_equal(&before, &after));
    EXPECT(viz_settings_apply(panel.world, &before, &after));
    drape_world_def def = drape_world_get_def(direct.world);
    def.iterations = 2;
    EXPECT(drape_world_set_def(direct.world, &def) == DRAPE_OK);
    EXPECT(drape_world_get_def(panel.world).iterations == 2);
    EXPECT(viz_sim_step(&panel) && viz_sim_step(&direct) && viz_sim_step(&untouched));
    EXPECT(same_positions(panel.world, direct.world));
    EXPECT(!same_positions(panel.world, untouched.world));
    printf("iterations 8 -> 2 through the panel: the next step matches drape_world_set_def's and "
           "differs from 8 iterations'\n");

    /* a family to XPBD, gravity and wind */
    before = after;
    after.family[VIZ_FAMILY_SHEAR].xpbd = true;
    after.family[VIZ_FAMILY_SHEAR].compliance = 1e-3f;
    after.gravity = (drape_vec3){0.0f, -1.62f, 0.0f};
    after.wind = (drape_vec3){3.0f, 0.0f, 0.0f};
    EXPECT(viz_settings_apply(panel.world, &before, &after));
    viz_settings read;
    EXPECT(viz_settings_read(panel.world, &read));
    EXPECT(read.family[VIZ_FAMILY_SHEAR].xpbd && read.family[VIZ_FAMILY_SHEAR].compliance == 1e-3f);
    EXPECT(!read.family[VIZ_FAMILY_STRETCH].xpbd);
    EXPECT(read.gravity.y == -1.62f && read.wind.x == 3.0f && read.iterations == 2);
    /* a refused value says so and changes nothing */
    before = read;
    after = read;
    after.substeps = 0;
    EXPECT(!viz_settings_apply(panel.world, &before, &after));
    EXPECT(drape_world_get_def(panel.world).substeps == 4);

    viz_sim_destroy(&panel);
    viz_sim_destroy(&direct);
    viz_sim_destroy(&untouched);
    return test_finish();
}

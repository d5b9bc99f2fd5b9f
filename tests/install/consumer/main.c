/* A program outside the drape tree, built against an installed drape (tests/install/check.sh): it
 * checks that the header and the library it links are the same version, drops a cloth pinned at two
 * corners for one simulated second on the CPU reference and checks that it fell and stayed finite.
 */
#include <drape/drape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    if (drape_version() != DRAPE_VERSION) {
        fprintf(stderr, "consumer: header %s (%d) but library %d\n", DRAPE_VERSION_STRING,
                DRAPE_VERSION, drape_version());
        return 1;
    }
    drape_world_def wdef = drape_default_world_def();
    drape_world *world = NULL;
    if (drape_world_create(&wdef, &world) != DRAPE_OK)
        return 1;
    drape_cloth_def cloth = drape_default_cloth_def();
    cloth.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    drape_build_info info;
    if (drape_world_add_cloth(world, &cloth, &info) != DRAPE_OK)
        return 1;
    for (int i = 0; i < 60; ++i)
        if (drape_world_step(world) != DRAPE_OK)
            return 1;
    drape_vec3 *x = malloc(info.particle_count * sizeof *x);
    if (!x ||
        drape_world_get_positions(world, info.first_particle, info.particle_count, x) != DRAPE_OK)
        return 1;
    float lowest = x[0].y;
    for (uint32_t i = 0; i < info.particle_count; ++i) {
        if (!isfinite(x[i].x) || !isfinite(x[i].y) || !isfinite(x[i].z)) {
            fprintf(stderr, "consumer: particle %u is not finite\n", i);
            return 1;
        }
        if (x[i].y < lowest)
            lowest = x[i].y;
    }
    free(x);
    drape_world_destroy(world);
    if (!(lowest < cloth.origin.y - 0.05f)) {
        fprintf(stderr, "consumer: the cloth did not fall (lowest y = %g m)\n", lowest);
        return 1;
    }
    printf("consumer: drape %s, %u particles, lowest y = %.3f m after 1 s\n", DRAPE_VERSION_STRING,
           info.particle_count, lowest);
    return 0;
}

/* The scene library from outside the drape tree (drape::scene, drape-scene.pc): loads a scene from
 * JSON text, which needs the cJSON the installed package names, and steps it. */
#include <drape/scene.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char json[] =
        "{\"version\": 1, \"name\": \"outside\", \"ropes\": [{\"count\": 8}]}";
    drape_scene *scene = NULL;
    drape_scene_error err;
    if (drape_scene_load_buffer(json, strlen(json), "outside.json", NULL, &scene, &err) !=
        DRAPE_SCENE_OK) {
        fprintf(stderr, "scene_consumer: %s\n", err.message);
        return 1;
    }
    for (int i = 0; i < 10; ++i)
        if (drape_scene_step(scene) != DRAPE_OK)
            return 1;
    const uint32_t particles = drape_world_particle_count(drape_scene_world(scene));
    printf("scene_consumer: %s, %u particles, %llu steps\n", drape_scene_name(scene), particles,
           (unsigned long long)drape_scene_steps_done(scene));
    drape_scene_destroy(scene);
    return particles == 8 ? 0 : 1;
}

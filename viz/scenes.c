/* The viewer's scenes (scenes.h). The default matches the `drape` command's cloth-sphere scene, so
 * that what the viewer shows is what the headless runs compute. */
#include "scenes.h"

#include <string.h>

const char *viz_scene_names(void) { return "cloth-sphere, cloth-capsule"; }

bool viz_scene_describe(const char *name, uint32_t n, viz_scene *s)
{
    const bool capsule = name && !strcmp(name, "cloth-capsule");
    if (name && !capsule && strcmp(name, "cloth-sphere"))
        return false;
    memset(s, 0, sizeof *s);
    s->name = capsule ? "cloth-capsule" : "cloth-sphere";
    s->damping = 0.01f;
    s->cloth = drape_default_cloth_def();
    s->cloth.nx = s->cloth.ny = n;
    s->cloth.origin = (drape_vec3){-0.5f, 0.6f, -0.5f};

    drape_collider_def *c = &s->colliders[s->collider_count++];
    *c = drape_default_collider_def();
    if (capsule) {
        c->type = DRAPE_COLLIDER_CAPSULE;
        c->position = (drape_vec3){-0.45f, 0.0f, 0.1f};
        c->end = (drape_vec3){0.45f, 0.05f, -0.1f};
        c->radius = 0.15f;
    } else {
        c->type = DRAPE_COLLIDER_SPHERE;
        c->position = (drape_vec3){0.0f, 0.0f, 0.0f};
        c->radius = 0.3f;
    }
    c = &s->colliders[s->collider_count++];
    *c = drape_default_collider_def(); /* the ground: a plane through y = -0.3 with normal +y */
    c->position = (drape_vec3){0.0f, -0.3f, 0.0f};
    return true;
}

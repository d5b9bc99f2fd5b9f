/* The built-in scenes, built in C through the same calls the scene parser uses. Each is also
 * shipped as scenes/<name>.json, which a test loads and steps next to the built-in to show that the
 * file makes the same world, bit for bit; the files are also embedded (drape_scene_builtin_json),
 * for sweeps that vary a built-in scene by JSON path.
 *
 * What each scene shows is its summary in the table at the end (drape_scene_builtin_summary).
 */
#include "scene_internal.h"

#include <string.h>

typedef struct builtin {
    const char *name;
    const char *summary;
    uint32_t steps;
    drape_result (*build)(drape_scene *scene);
} builtin;

static drape_vec3 v3(float x, float y, float z) { return (drape_vec3){x, y, z}; }

static drape_result add_sphere(drape_scene *s, drape_vec3 centre, float radius, drape_vec3 velocity)
{
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE;
    c.position = centre;
    c.radius = radius;
    c.velocity = velocity;
    return sc_scene_add_collider(s, &c);
}

static drape_result add_ground(drape_scene *s, float height, float restitution)
{
    drape_collider_def c = drape_default_collider_def();
    c.position = v3(0.0f, height, 0.0f);
    c.restitution = restitution;
    return sc_scene_add_collider(s, &c);
}

static drape_result build_cloth_sphere(drape_scene *s)
{
    drape_world_def w = drape_default_world_def();
    w.damping = 0.01f;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 48;
    c.origin = v3(-0.5f, 0.6f, -0.5f);
    drape_result r = sc_scene_create_world(s, w);
    if (r == DRAPE_OK)
        r = sc_scene_add_cloth(s, "cloth", &c);
    if (r == DRAPE_OK)
        r = add_sphere(s, v3(0.0f, 0.0f, 0.0f), 0.3f, v3(0.0f, 0.0f, 0.0f));
    if (r == DRAPE_OK)
        r = add_ground(s, -0.3f, 0.0f);
    return r;
}

static drape_result build_triangle_plane(drape_scene *s)
{
    const drape_vec3 corners[3] = {v3(-0.3f, 1.0f, -0.2f), v3(0.3f, 1.3f, -0.1f),
                                   v3(0.0f, 1.1f, 0.35f)};
    drape_result r = sc_scene_create_world(s, drape_default_world_def());
    for (uint32_t i = 0; i < 3 && r == DRAPE_OK; ++i) {
        drape_particle_def p = drape_default_particle_def();
        p.position = corners[i];
        p.velocity = v3(0.5f, 0.0f, 0.0f);
        r = sc_scene_add_particles(s, &p, 1);
    }
    if (r == DRAPE_OK) { /* a rigid body: one shape-matched cluster of stiffness 1 */
        const uint32_t all[3] = {0, 1, 2};
        drape_shape_match_def m = drape_default_shape_match_def();
        m.particles = all;
        m.count = 3;
        r = drape_world_add_shape_match(drape_scene_world(s), &m, NULL);
    }
    if (r == DRAPE_OK)
        r = add_ground(s, 0.0f, 0.3f);
    if (r == DRAPE_OK)
        r = sc_scene_add_triangle(s, (const uint32_t[3]){0, 1, 2});
    return r;
}

static drape_result build_ik_chain(drape_scene *s)
{
    drape_rope_def rope = drape_default_rope_def();
    rope.count = 16;
    rope.bending = true;
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = rope.count - 1;
    sc_target_path path = sc_default_target_path();
    path.centre = v3(0.6f, 1.0f, 0.0f);
    path.radius = 0.4f; /* the circle starts at the chain's end, (1, 1, 0) */
    path.period = 3.0f;
    drape_result r = sc_scene_create_world(s, drape_default_world_def());
    if (r == DRAPE_OK)
        r = sc_scene_add_rope(s, "chain", &rope);
    if (r == DRAPE_OK)
        r = sc_scene_add_attachment(s, &a, &path);
    return r;
}

static drape_result build_curtain(drape_scene *s)
{
    drape_world_def w = drape_default_world_def();
    w.damping = 0.01f;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 24;
    c.ny = 32;
    c.origin = v3(-0.6f, 1.6f, 0.0f);
    c.u_axis = v3(1.2f, 0.0f, 0.0f);
    c.v_axis = v3(0.0f, -1.4f, 0.0f);
    c.mass = 0.2f;
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.bending = DRAPE_BENDING_DIHEDRAL;
    c.bend_stiffness.stiffness = 0.05f;
    drape_result r = sc_scene_create_world(s, w);
    if (r == DRAPE_OK)
        r = sc_scene_add_cloth(s, "curtain", &c);
    if (r == DRAPE_OK)
        r = add_sphere(s, v3(0.0f, 0.8f, 0.6f), 0.15f, v3(0.0f, 0.0f, -0.4f));
    return r;
}

static drape_result build_flag(drape_scene *s)
{
    drape_world_def w = drape_default_world_def();
    w.wind = v3(9.486833f, 0.0f, 3.1622777f); /* 10 m/s */
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 32;
    c.ny = 20;
    c.origin = v3(0.0f, 2.0f, 0.0f);
    c.u_axis = v3(1.5f, 0.0f, 0.0f);
    c.v_axis = v3(0.0f, -1.0f, 0.0f);
    c.mass = 0.15f;
    c.pins = DRAPE_PIN_COLUMN_FIRST;
    c.bend_stiffness.stiffness = 0.1f;
    drape_result r = sc_scene_create_world(s, w);
    if (r == DRAPE_OK)
        r = sc_scene_add_cloth(s, "flag", &c);
    drape_aero_def a = drape_default_aero_def();
    a.drag = 1.2f;
    a.lift = 0.5f;
    if (r == DRAPE_OK)
        r = drape_world_set_aero(drape_scene_world(s), &a);
    return r;
}

/* Five planes: a floor at y = 0 and four walls, the box |x|, |z| <= half. */
static drape_result add_box(drape_scene *s, float half)
{
    drape_collider_def c[5];
    drape_open_box_colliders(half, c);
    drape_result r = DRAPE_OK;
    for (int i = 0; i < 5 && r == DRAPE_OK; ++i)
        r = sc_scene_add_collider(s, &c[i]);
    return r;
}

static drape_result build_balls(drape_scene *s)
{
    drape_particle_block_def b = drape_default_particle_block_def();
    b.radius = 0.015f;
    b.mass = 0.01f;
    b.size = v3(0.5f, 1.2f, 0.5f);
    b.centre = v3(0.0f, 0.75f, 0.0f);
    b.packing = DRAPE_PACKING_RANDOM;
    b.max_count = 5000;
    drape_result r = sc_scene_create_world(s, drape_default_world_def());
    if (r == DRAPE_OK)
        r = sc_scene_add_particle_block(s, &b);
    if (r == DRAPE_OK)
        r = add_box(s, 0.25f);
    return r;
}

static drape_result build_brazil_nut(drape_scene *s)
{
    drape_particle_block_def small = drape_default_particle_block_def();
    small.radius = 0.01f;
    small.mass = 0.002f;
    small.size = v3(0.3f, 0.5f, 0.3f);
    small.centre = v3(0.0f, 0.45f, 0.0f);
    small.packing = DRAPE_PACKING_RANDOM;
    small.max_count = 2000;
    drape_particle_block_def large = small;
    large.radius = 0.03f;
    large.mass = 0.2f; /* denser than the small balls as well as larger */
    large.size = v3(0.3f, 0.1f, 0.3f);
    large.centre = v3(0.0f, 0.06f, 0.0f);
    large.packing = DRAPE_PACKING_LATTICE;
    large.spacing = 0.08f;
    large.max_count = 0;
    drape_result r = sc_scene_create_world(s, drape_default_world_def());
    if (r == DRAPE_OK)
        r = sc_scene_add_particle_block(s, &large);
    if (r == DRAPE_OK)
        r = sc_scene_add_particle_block(s, &small);
    if (r == DRAPE_OK)
        r = add_box(s, 0.15f);
    return r;
}

static drape_result build_cloth_fold(drape_scene *s)
{
    drape_world_def w = drape_default_world_def();
    w.damping = 0.01f;
    drape_cloth_def c = drape_default_cloth_def();
    c.origin = v3(-0.5f, 1.1f, -0.6f); /* it drifts about 1 m forward as it folds: the fold is
                                        * framed by the viewer's start view */
    c.u_axis = v3(1.0f, 0.0f, 0.0f);
    c.v_axis = v3(0.0f, -1.0f, 0.1f);
    c.velocity = v3(0.0f, 0.0f, 0.6f);
    c.self_collision = true;
    drape_result r = sc_scene_create_world(s, w);
    if (r == DRAPE_OK)
        r = sc_scene_add_cloth(s, "cloth", &c);
    if (r == DRAPE_OK)
        r = add_ground(s, 0.0f, 0.0f);
    return r;
}

static drape_result build_cloth_layers(drape_scene *s)
{
    static const char *const names[4] = {"layer0", "layer1", "layer2", "layer3"};
    drape_world_def w = drape_default_world_def();
    w.damping = 0.01f;
    drape_result r = sc_scene_create_world(s, w);
    for (int k = 0; k < 4 && r == DRAPE_OK; ++k) {
        drape_cloth_def c = drape_default_cloth_def();
        c.nx = c.ny = 24;
        c.origin = v3(-0.5f + 0.05f * (float)k, 0.5f + 0.06f * (float)k, -0.5f);
        c.self_collision = true;
        r = sc_scene_add_cloth(s, names[k], &c);
    }
    if (r == DRAPE_OK)
        r = add_sphere(s, v3(0.0f, 0.0f, 0.0f), 0.3f, v3(0.0f, 0.0f, 0.0f));
    if (r == DRAPE_OK)
        r = add_ground(s, -0.3f, 0.0f);
    return r;
}

static const builtin builtins[] = {
    {"cloth-sphere", "a square cloth dropped on a sphere above the ground", 300,
     build_cloth_sphere},
    {"triangle-plane", "a rigid triangle of three particles falling on a plane", 180,
     build_triangle_plane},
    {"ik-chain", "a chain whose end follows a target moving on a circle: PBD as IK", 360,
     build_ik_chain},
    {"curtain", "a curtain pinned along its top edge, pushed by a moving sphere", 300,
     build_curtain},
    {"flag", "a flag pinned along one side, in wind", 300, build_flag},
    {"balls", "5000 balls poured into a box", 240, build_balls},
    {"brazil-nut", "small light balls and large heavy ones poured into a box together", 240,
     build_brazil_nut},
    {"cloth-fold", "a self-colliding cloth that falls edge-first and folds onto itself", 300,
     build_cloth_fold},
    {"cloth-layers", "four stacked cloths dropped on a sphere, colliding with each other", 300,
     build_cloth_layers},
};

#define BUILTIN_COUNT (sizeof builtins / sizeof builtins[0])

size_t drape_scene_builtin_count(void) { return BUILTIN_COUNT; }

const char *drape_scene_builtin_name(size_t index)
{
    return index < BUILTIN_COUNT ? builtins[index].name : NULL;
}

static const builtin *find(const char *name)
{
    for (size_t i = 0; name && i < BUILTIN_COUNT; ++i)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

const char *drape_scene_builtin_summary(const char *name)
{
    const builtin *b = find(name);
    return b ? b->summary : NULL;
}

const char *drape_scene_builtin_json(const char *name, size_t *size)
{
    const builtin *b = find(name);
    size_t n = b ? strlen(b->name) : 0;
    for (const sc_embedded_file *f = sc_builtin_files; b && f->name; ++f)
        if (!strncmp(f->name, b->name, n) && !strcmp(f->name + n, ".json")) {
            if (size)
                *size = f->size;
            return f->source;
        }
    return NULL;
}

drape_scene_status drape_scene_load_builtin(const char *name, const drape_scene_options *options,
                                            drape_scene **out, drape_scene_error *err)
{
    if (out)
        *out = NULL;
    const builtin *b = find(name);
    if (!b || !out)
        return sc_fail(err, DRAPE_SCENE_BAD_INPUT, DRAPE_OK, "%s: no built-in scene has this name",
                       name ? name : "(null)");
    drape_scene *s = sc_scene_new(b->name, options);
    if (!s)
        return sc_fail(err, DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_OUT_OF_MEMORY,
                       "built-in scene %s: no memory", b->name);
    s->default_steps = b->steps;
    drape_result r = b->build(s);
    if (r != DRAPE_OK) {
        /* A built-in's values are right: a failure is the backend's or memory's. */
        sc_fail(err, DRAPE_SCENE_WORLD_FAILED, r, "built-in scene %s: %s", b->name,
                sc_scene_last_error(s));
        drape_scene_destroy(s);
        return DRAPE_SCENE_WORLD_FAILED;
    }
    sc_scene_finish(s);
    *out = s;
    return DRAPE_SCENE_OK;
}

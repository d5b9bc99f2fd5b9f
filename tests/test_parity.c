/* Parity of the OpenCL backend with the CPU reference, and determinism.
 *
 * Each scene runs 300 steps on both backends from the same inputs. Both backends run the same
 * kernels/drape_shared.h maths in the same colour order, so on a CPU device (PoCL) every position
 * and velocity must agree bitwise, as the README promises. A GPU, which may contract or order
 * differently, is held to 1e-5 relative (of max(1 m, |x|)) instead; a NaN on either side fails
 * both. Then the OpenCL run is repeated and must be bitwise identical, checked through a hash of
 * the positions and velocities. With the device's doubles hidden (the float-sums run) the damped
 * scenes are held to the float bound of docs/opencl-variants.md instead, and the bitwise check is
 * skipped. A dense lattice of 39 304 balls, two steps, does the same for a grid whose prefix
 * scan spans many tiles. Skips (77) without OpenCL.
 *
 * The float-sums run takes only the scenes whose step uses the device's wide sums (dr_wide of
 * kernels/drape_shared.h: the damping's sums and a balloon's pressure; uses_wide_sums() asks the
 * world). Hiding the doubles changes no other kernel's code, so the other scenes would run the
 * kernels the runs with doubles hold bitwise, only compiled again with -DDR_NO_FP64: on a cold
 * kernel cache that compilation, inside PoCL's LLVM and under AddressSanitizer's allocator in the
 * sanitizer build, was most of the run's time and ran past ctest's timeout on a loaded machine.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct scene {
    const char *name;
    bool rerun; /* also check run-to-run determinism (each OpenCL run costs launch overhead) */
    void (*build)(drape_world *world);
    void (*tune)(drape_world_def *def);              /* may be NULL */
    void (*each_step)(drape_world *world, int step); /* may be NULL */
    /* with the device's doubles hidden, compared after FLOAT_SUMS_STEPS steps only: a folding
     * cloth spreads the float sums' last bits (FLOAT_SUMS_STEPS) */
    bool short_float_run;
} scene;

static drape_collider_def sphere_at(float x, float y, float z, float r)
{
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE;
    c.position = tu_v3(x, y, z);
    c.radius = r;
    return c;
}

static drape_collider_def ground(float y)
{
    drape_collider_def c = drape_default_collider_def();
    c.position = tu_v3(0.0f, y, 0.0f);
    return c;
}

/* drape_open_box_colliders: a floor and four walls, the box |x|, |z| <= half. */
static void add_open_box(drape_world *w, float half)
{
    drape_collider_def walls[5];
    drape_open_box_colliders(half, walls);
    for (int i = 0; i < 5; ++i)
        ENSURE(drape_world_add_collider(w, &walls[i], NULL) == DRAPE_OK);
}

static void build_cloth_sphere(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 24;
    c.origin = tu_v3(-0.5f, 0.6f, -0.5f);
    drape_collider_def s = sphere_at(0.0f, 0.0f, 0.0f, 0.3f), g = ground(-0.3f);
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &g, NULL) == DRAPE_OK);
}

static void damped(drape_world_def *def) { def->damping = 0.02f; }

/* A cloth pinned at two corners of one edge, starting level: it swings down and sways, with no
 * collider (the damped run with the device's doubles hidden that lasts; parity). */
static void build_swinging(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 24;
    c.origin = tu_v3(-0.5f, 1.0f, -0.5f);
    c.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
}

/* Particle `to` of w moved to where particle `from` is, with the given mass (kg) and velocity. */
static void set_particle_at(drape_world *w, uint32_t to, uint32_t from, float mass,
                            drape_vec3 velocity)
{
    drape_particle_def p = drape_default_particle_def();
    ENSURE(drape_world_get_positions(w, from, 1, &p.position) == DRAPE_OK);
    p.mass = mass;
    p.velocity = velocity;
    ENSURE(drape_world_set_particle(w, to, &p) == DRAPE_OK);
}

/* The cloth on a sphere with every third particle three times as heavy, so that the two ends of
 * a link differ in inverse mass (w) and the sixteen-lane kernel must keep each particle's own. */
static void build_uneven_cloth(drape_world *w)
{
    build_cloth_sphere(w);
    for (uint32_t i = 0; i < drape_world_particle_count(w); i += 3) /* 3x the default cloth's */
        set_particle_at(w, i, i, 3.0f * 0.1f / (24.0f * 24.0f), tu_v3(0.0f, 0.0f, 0.0f));
}

/* The cloth on a sphere with the first two particles of every row started at one point, the
 * second moving: the links between them have no direction at the start (e = 0), which the
 * projection replaces by the predicted one (dr_distance_shares), in every lane of a block. */
static void build_coincident_cloth(drape_world *w)
{
    build_cloth_sphere(w);
    for (uint32_t row = 0; row < 24; ++row)
        set_particle_at(w, 24 * row + 1, 24 * row, 0.1f / (24.0f * 24.0f), tu_v3(0.5f, 0.2f, 0.1f));
}

/* One substep of 1/60 s: the 4.3 cm links sag 6% of their length per substep and are projected
 * along the current gradient alone, the 8.7 cm skip-one links 3% and along the blend with the
 * start's (dr_distance_step), so that the sixteen-lane kernel meets blocks of either kind and of
 * both. */
static void one_substep(drape_world_def *def) { def->substeps = 1; }

/* A dihedral-bending curtain with XPBD stretch, pinned along its top, in wind, hit by a moving
 * capsule. */
static void build_curtain(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 16, c.ny = 20;
    c.origin = tu_v3(-0.5f, 1.5f, 0.0f);
    c.u_axis = tu_v3(1.0f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -1.2f, 0.0f);
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.bending = DRAPE_BENDING_DIHEDRAL;
    c.stretch = drape_stiffness_xpbd(1e-6f);
    c.bend_stiffness.stiffness = 0.05f;
    drape_collider_def cap = drape_default_collider_def();
    cap.type = DRAPE_COLLIDER_CAPSULE;
    cap.position = tu_v3(-0.3f, 0.8f, 0.6f);
    cap.end = tu_v3(0.3f, 0.8f, 0.6f);
    cap.radius = 0.1f;
    cap.velocity = tu_v3(0.0f, 0.0f, -0.4f);
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &cap, NULL) == DRAPE_OK);
}

static void windy(drape_world_def *def)
{
    def->wind = tu_v3(0.0f, 0.0f, 2.0f);
    def->air_drag = 0.5f;
}

/* A cloth sliding down a tilted plane with friction onto a bouncy ground. */
static void build_slide(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = 16;
    c.origin = tu_v3(-0.25f, 1.0f, -0.25f);
    c.u_axis = tu_v3(0.5f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, 0.0f, 0.5f);
    drape_collider_def slope = drape_default_collider_def();
    slope.normal = tu_v3(0.3f, 1.0f, 0.0f);
    slope.position = tu_v3(0.0f, 0.8f, 0.0f);
    slope.static_friction = 0.2f, slope.kinetic_friction = 0.1f;
    drape_collider_def floor = ground(0.0f);
    floor.restitution = 0.5f;
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &slope, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &floor, NULL) == DRAPE_OK);
}

/* A chain whose end follows a moving target: PBD as inverse kinematics. */
static drape_attachment_id chain_target;

static void build_chain(drape_world *w)
{
    drape_rope_def r = drape_default_rope_def();
    r.count = 20;
    r.bending = true;
    drape_build_info info;
    ENSURE(drape_world_add_rope(w, &r, &info) == DRAPE_OK);
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = info.first_particle + info.particle_count - 1;
    a.target = r.end;
    a.stiffness = 0.5f;
    ENSURE(drape_world_add_attachment(w, &a, &chain_target) == DRAPE_OK);
}

static void move_target(drape_world *w, int step)
{
    float t = (float)step / 60.0f;
    drape_world_set_attachment_target(w, chain_target,
                                      tu_v3(0.6f * cosf(t), 1.0f + 0.4f * sinf(2.0f * t), 0.3f));
}

static void build_rope_on_sphere(drape_world *w)
{
    drape_rope_def r = drape_default_rope_def();
    r.count = 64;
    r.pin_start = false;
    r.start = tu_v3(-0.8f, 0.5f, 0.05f);
    r.end = tu_v3(0.8f, 0.5f, -0.05f);
    drape_collider_def s = sphere_at(0.0f, 0.0f, 0.0f, 0.3f), g = ground(-0.3f);
    ENSURE(drape_world_add_rope(w, &r, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &g, NULL) == DRAPE_OK);
}

static void springs_euler(drape_world_def *def)
{
    def->mode = DRAPE_MODE_MASS_SPRING;
    def->substeps = 8;
}

static void springs_verlet(drape_world_def *def)
{
    springs_euler(def);
    def->integrator = DRAPE_INTEGRATOR_VELOCITY_VERLET;
}

/* A soft curtain held by XPBD tethers, pinned at two corners and the middle of its top, lifted by
 * a rising sphere so that tethers go slack and taut again. */
static void build_tethered(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 14, c.ny = 18;
    c.origin = tu_v3(-0.6f, 1.6f, 0.0f);
    c.u_axis = tu_v3(1.2f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -1.5f, 0.3f);
    c.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10 | DRAPE_PIN_COLUMN_FIRST;
    c.stretch.stiffness = 0.5f;
    c.tether_stiffness = drape_stiffness_xpbd(1e-5f);
    drape_collider_def rising = sphere_at(0.2f, -0.4f, 0.3f, 0.25f);
    rising.velocity = tu_v3(0.0f, 0.5f, 0.0f);
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &rising, NULL) == DRAPE_OK);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER) > 0);
}

/* A jelly cube with XPBD volumes thrown onto a sphere and the ground, spinning. */
static void build_jelly(drape_world *w)
{
    drape_soft_box_def b = drape_default_soft_box_def();
    b.origin = tu_v3(-0.2f, 0.5f, -0.3f);
    b.size = tu_v3(0.4f, 0.3f, 0.5f);
    b.velocity = tu_v3(0.3f, 0.0f, 0.2f);
    b.edges.stiffness = 0.1f;
    b.volume = drape_stiffness_xpbd(1e-9f);
    drape_collider_def s = sphere_at(0.1f, 0.0f, 0.0f, 0.3f), g = ground(-0.3f);
    ENSURE(drape_world_add_soft_box(w, &b, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &g, NULL) == DRAPE_OK);
}

/* A Neo-Hookean box (XPBD stable Neo-Hookean pair per tetrahedron) thrown onto a sphere and the
 * ground, spinning. */
static void build_neo_hookean(drape_world *w)
{
    drape_soft_box_def b = drape_default_soft_box_def();
    b.origin = tu_v3(-0.2f, 0.5f, -0.3f);
    b.size = tu_v3(0.4f, 0.3f, 0.5f);
    b.velocity = tu_v3(0.3f, 0.0f, 0.2f);
    b.youngs_modulus = 2e3f;
    b.poisson_ratio = 0.4f;
    drape_collider_def s = sphere_at(0.1f, 0.0f, 0.0f, 0.3f), g = ground(-0.3f);
    ENSURE(drape_world_add_soft_box(w, &b, NULL) == DRAPE_OK);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_NEO_HOOKEAN) == 6 * 27);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &g, NULL) == DRAPE_OK);
}

/* Shape matching: a rigid box and a soft box, the soft one with a second, overlapping cluster
 * (two colours of clusters), thrown spinning onto a sphere and the ground. */
static void build_shapes(drape_world *w)
{
    drape_build_info info[2];
    for (int k = 0; k < 2; ++k) {
        drape_soft_box_def b = drape_default_soft_box_def();
        b.nx = b.ny = b.nz = 3;
        b.origin = tu_v3(-0.3f + 0.35f * (float)k, 0.5f + 0.3f * (float)k, -0.1f);
        b.size = tu_v3(0.25f, 0.2f, 0.3f);
        b.velocity = tu_v3(0.4f - 0.8f * (float)k, 0.5f, 0.2f);
        b.edges.stiffness = 0.0f;
        b.volume = drape_stiffness_pbd(0.0f);
        ENSURE(drape_world_add_soft_box(w, &b, &info[k]) == DRAPE_OK);
        uint32_t idx[27];
        for (uint32_t i = 0; i < 27; ++i)
            idx[i] = info[k].first_particle + i;
        drape_shape_match_def m = drape_default_shape_match_def();
        m.particles = idx;
        m.count = 27;
        m.stiffness = k == 0 ? 1.0f : 0.4f;
        ENSURE(drape_world_add_shape_match(w, &m, NULL) == DRAPE_OK);
        if (k == 1) { /* a second cluster over the lower half */
            m.count = 18;
            m.stiffness = 0.8f;
            ENSURE(drape_world_add_shape_match(w, &m, NULL) == DRAPE_OK);
        }
    }
    set_particle_at(w, 20, 20, 0.5f / 27.0f, tu_v3(2.0f, 0.0f, 0.0f));
    drape_collider_def s = sphere_at(0.0f, 0.0f, 0.0f, 0.3f), g = ground(-0.3f);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &g, NULL) == DRAPE_OK);
}

/* 612 balls of two radii and masses poured into a box, with particle contacts, friction and the
 * velocity limit: the hashed grid and the gather pass (kernels/particles.cl). */
/* A block of balls of one radius at random places, at most max_count of them. */
static drape_particle_block_def random_block(float radius, drape_vec3 size, drape_vec3 centre,
                                             uint32_t max_count)
{
    drape_particle_block_def b = drape_default_particle_block_def();
    b.radius = radius;
    b.size = size;
    b.centre = centre;
    b.packing = DRAPE_PACKING_RANDOM;
    b.max_count = max_count;
    return b;
}

static void build_balls(drape_world *w)
{
    drape_particle_block_def b =
        random_block(0.02f, tu_v3(0.3f, 0.6f, 0.3f), tu_v3(0.0f, 0.45f, 0.0f), 700);
    b.velocity = tu_v3(0.3f, -1.0f, 0.0f);
    ENSURE(drape_world_add_particle_block(w, &b, NULL) == DRAPE_OK);
    b.radius = 0.03f;
    b.mass = 0.05f;
    b.centre = tu_v3(0.0f, 1.1f, 0.0f);
    b.max_count = 300;
    b.seed = 2;
    ENSURE(drape_world_add_particle_block(w, &b, NULL) == DRAPE_OK);
    add_open_box(w, 0.2f);
}

/* Balls resting in a box and balls thrown down onto them from 2.5 m at 5 m/s, at one substep: the
 * fast balls need about ten substeps a step (host/adaptive_substeps.c), which the OpenCL backend
 * takes from the device's measure after each step and the CPU from its own velocities. */
static void build_thrown_balls(drape_world *w)
{
    drape_particle_block_def b =
        random_block(0.02f, tu_v3(0.3f, 0.1f, 0.3f), tu_v3(0.0f, 0.06f, 0.0f), 150);
    ENSURE(drape_world_add_particle_block(w, &b, NULL) == DRAPE_OK);
    b = random_block(0.015f, tu_v3(0.2f, 0.2f, 0.2f), tu_v3(0.0f, 2.5f, 0.0f), 20);
    b.velocity = tu_v3(0.0f, -5.0f, 0.0f);
    b.seed = 3;
    ENSURE(drape_world_add_particle_block(w, &b, NULL) == DRAPE_OK);
    add_open_box(w, 0.2f);
}

/* The run of build_thrown_balls split its steps: more substeps than one a step by the last. */
static void steps_were_split(drape_world *w, int step)
{
    drape_profile prof;
    if (step == 299) {
        ENSURE(drape_world_get_profile(w, &prof) == DRAPE_OK);
        ENSURE_MSG(prof.substeps > 330u, "thrown balls: %llu substeps in 299 steps",
                   (unsigned long long)prof.substeps);
    }
}

/* The same thrown balls never split until step 5, when drape_world_set_def allows it while the
 * device is ahead of the host: the OpenCL backend must measure the device's velocities first. */
static void unsplit(drape_world_def *def)
{
    def->substeps = 1;
    def->particle_max_substeps = 0;
}

static void split_from_step_5(drape_world *w, int step)
{
    if (step == 5) {
        drape_world_def def = drape_world_get_def(w);
        def.particle_max_substeps = 32;
        ENSURE(drape_world_set_def(w, &def) == DRAPE_OK);
    }
}

/* A Neo-Hookean cube, an icosphere and two shape-matched boxes, all with a contact radius, among
 * balls poured into a box: the bodies' particles in the contacts between particles. */
static void build_soft_among_balls(drape_world *w)
{
    drape_soft_box_def b = drape_default_soft_box_def();
    b.nx = b.ny = b.nz = 4;
    b.origin = tu_v3(-0.2f, 0.05f, -0.1f);
    b.size = tu_v3(0.18f, 0.18f, 0.18f);
    b.youngs_modulus = 2e4f;
    b.contact_radius = 0.035f;
    ENSURE(drape_world_add_soft_box(w, &b, NULL) == DRAPE_OK);
    drape_icosphere_def d = drape_default_icosphere_def();
    d.subdivisions = 1;
    d.centre = tu_v3(0.1f, 0.2f, 0.05f);
    d.radius = 0.1f;
    d.mass = 0.3f;
    d.pressure = 0.0f; /* no balloon: its float sums (DRAPE_OPENCL_FP64=off) would set the balls
                          rolling differently; "balloon on a sphere" holds the pressure */
    d.contact_radius = 0.04f;
    ENSURE(drape_world_add_icosphere(w, &d, NULL, NULL) == DRAPE_OK);
    for (int k = 0; k < 2; ++k) {
        drape_soft_box_def r = drape_default_soft_box_def();
        r.nx = r.ny = r.nz = 2;
        r.origin = tu_v3(-0.1f + 0.12f * (float)k, 0.5f + 0.15f * (float)k, -0.05f);
        r.size = tu_v3(0.1f, 0.1f, 0.1f);
        drape_shape_match_def m = drape_default_shape_match_def();
        m.contact_radius = 0.05f;
        ENSURE(tu_add_matched_box(w, r, m, NULL) == DRAPE_OK);
    }
    drape_particle_block_def p =
        random_block(0.03f, tu_v3(0.36f, 0.3f, 0.36f), tu_v3(0.0f, 0.9f, 0.0f), 150);
    ENSURE(drape_world_add_particle_block(w, &p, NULL) == DRAPE_OK);
    add_open_box(w, 0.2f);
}

/* Four large balls on a layer of small ones, with more small ones poured over them: the large
 * ones list more than DR_NBR_CAP (32) contact candidates and search the grid in every pass
 * (dr_particle_gather's walk), where the small balls around them take their pairs from their own
 * lists: the CPU reference's pair pass and its grid search side by side. */
static void build_crowd(drape_world *w)
{
    drape_particle_block_def b =
        random_block(0.012f, tu_v3(0.36f, 0.08f, 0.36f), tu_v3(0.0f, 0.05f, 0.0f), 400);
    ENSURE(drape_world_add_particle_block(w, &b, NULL) == DRAPE_OK);
    for (int k = 0; k < 4; ++k) {
        drape_particle_def p = drape_default_particle_def();
        p.position = tu_v3(k & 1 ? 0.06f : -0.06f, 0.17f, k & 2 ? 0.06f : -0.06f);
        p.mass = 0.2f;
        p.radius = 0.05f;
        ENSURE(drape_world_add_particles(w, &p, 1, NULL) == DRAPE_OK);
    }
    b.size = tu_v3(0.36f, 0.2f, 0.36f);
    b.centre = tu_v3(0.0f, 0.35f, 0.0f);
    b.seed = 2;
    ENSURE(drape_world_add_particle_block(w, &b, NULL) == DRAPE_OK);
    add_open_box(w, 0.2f);
}

/* The balls bounce off each other a little (restitution between particles). */
static void bouncy(drape_world_def *def) { def->particle_restitution = 0.3f; }

/* Two self-colliding cloths dropped on a sphere, one across the other. */
static void build_cloth_layers(drape_world *w)
{
    for (int k = 0; k < 2; ++k) {
        drape_cloth_def c = drape_default_cloth_def();
        c.nx = c.ny = 16;
        c.origin = tu_v3(-0.5f, 0.45f + 0.05f * (float)k, -0.5f + 0.1f * (float)k);
        c.self_collision = true;
        ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    }
    drape_collider_def s = sphere_at(0.0f, 0.0f, 0.0f, 0.3f);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
}

/* A flag pinned along one side, with lift, drag and seeded gusts (kernels/drape_aero.h). */
static void build_flag(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 20, c.ny = 12;
    c.origin = tu_v3(0.0f, 2.0f, 0.0f);
    c.u_axis = tu_v3(1.5f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -1.0f, 0.0f);
    c.mass = 0.15f;
    c.pins = DRAPE_PIN_COLUMN_FIRST;
    drape_aero_def a = drape_default_aero_def();
    a.drag = 1.2f, a.lift = 0.5f, a.turbulence = 2.0f, a.gust_length = 0.7f, a.seed = 3;
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    ENSURE(drape_world_set_aero(w, &a) == DRAPE_OK);
}

static void gusty(drape_world_def *def) { def->wind = tu_v3(9.0f, 0.0f, 3.0f); }

/* A balloon at pressure 1.5 (XPBD pressure, elastic skin) dropped between a sphere and the ground,
 * spinning. */
static void build_balloon(drape_world *w)
{
    drape_icosphere_def d = drape_default_icosphere_def();
    d.subdivisions = 2;
    d.centre = tu_v3(0.1f, 0.6f, 0.0f);
    d.velocity = tu_v3(0.4f, 0.0f, -0.2f);
    d.pressure = 1.5f;
    d.stretch = drape_stiffness_xpbd(0.1f);
    d.pressure_stiffness = drape_stiffness_xpbd(1e-7f);
    drape_collider_def s = sphere_at(0.0f, 0.0f, 0.0f, 0.3f), g = ground(-0.3f);
    ENSURE(drape_world_add_icosphere(w, &d, NULL, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &s, NULL) == DRAPE_OK);
    ENSURE(drape_world_add_collider(w, &g, NULL) == DRAPE_OK);
}

/* A cloth torn in two: its top row gripped, the halves pulled apart (host/tearing.c), every other
 * particle tethered to its nearest gripped one (tethers sharing movable anchors; those that the
 * tear cuts are removed). */
static drape_attachment_id tear_grips[2][8];
static drape_vec3 tear_home[2][8];

static void build_tear(drape_world *w)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 16, c.ny = 10;
    c.origin = tu_v3(-0.6f, 1.5f, 0.0f);
    c.u_axis = tu_v3(1.2f, 0.0f, 0.0f);
    c.v_axis = tu_v3(0.0f, -0.8f, 0.0f);
    c.tear_strain = 1.3f;
    c.tear_spares = 80;
    ENSURE(drape_world_add_cloth(w, &c, NULL) == DRAPE_OK);
    for (int k = 0; k < 2; ++k)
        for (int q = 0; q < 8; ++q) {
            drape_attachment_def a = drape_default_attachment_def();
            a.particle = (uint32_t)(k ? 15 - q : q);
            ENSURE(drape_world_get_positions(w, a.particle, 1, &a.target) == DRAPE_OK);
            tear_home[k][q] = a.target;
            ENSURE(drape_world_add_attachment(w, &a, &tear_grips[k][q]) == DRAPE_OK);
        }
    const uint32_t top[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    ENSURE(drape_world_add_nearest_tethers(w, 0, 16 * 10, top, 16, drape_stiffness_pbd(1.0f)) ==
           DRAPE_OK);
}

static void pull_apart(drape_world *w, int step)
{
    if (step == 100) { /* by now it tore and the tear cut tethers, on both backends */
        const uint32_t splits = drape_world_get_tear_stats(w).splits,
                       tethers = drape_world_constraint_count(w, DRAPE_CONSTRAINT_TETHER);
        printf("    after 100 steps: %u splits, %u of 144 tethers left\n", splits, tethers);
        ENSURE(splits > 0 && tethers < 144);
    }
    for (int k = 0; k < 2; ++k)
        for (int q = 0; q < 8; ++q) {
            drape_vec3 p = tear_home[k][q];
            p.x += (k ? 0.5f : -0.5f) * (float)(step + 1) / 60.0f;
            drape_world_set_attachment_target(w, tear_grips[k][q], p);
        }
}

/* A cloth with extra links of many materials: along each row, particle i to i + 2 with a stiffness
 * and a compliance of its own (every fifth XPBD), so that consecutive constraints of a colour have
 * different materials and the sixteen-lane kernel takes its gather path, XPBD and PBD lanes mixed.
 */
static void build_materials(drape_world *w)
{
    build_cloth_sphere(w);
    for (uint32_t row = 0, n = 24; row < n; ++row)
        for (uint32_t i = 0; i + 2 < n; ++i) {
            drape_distance_def d = drape_default_distance_def();
            d.a = row * n + i, d.b = row * n + i + 2;
            d.kind = DRAPE_DISTANCE_BEND;
            d.stiffness = 0.2f + 0.1f * (float)((row + i) % 8);
            if ((row * n + i) % 5 == 0) {
                d.model = DRAPE_STIFFNESS_XPBD;
                d.stiffness = 1.0f;
                d.compliance = 1e-7f * (float)(1 + i % 3);
            }
            ENSURE(drape_world_add_distance(w, &d, NULL) == DRAPE_OK);
        }
}

/* Four cloths of different sizes, one XPBD, over a sphere and the ground: the fused projection
 * gives them three work-groups (host/partition.c), each with its own share of every colour. */
static void build_cloth_pieces(drape_world *w) { ENSURE(tu_add_cloth_pieces(w) == DRAPE_OK); }

/* Constraints coloured in a seeded random order: within a colour, the cloths' constraints mixed. */
static void shuffled(drape_world_def *def) { def->color_order = DRAPE_COLOR_ORDER_RANDOM; }

/* Halfway, every bending link becomes one material (the materials rebuilt in place). */
static void unify_bending(drape_world *w, int step)
{
    if (step == 150)
        ENSURE(drape_world_set_stiffness(w, DRAPE_CONSTRAINT_DISTANCE, 1u << DRAPE_DISTANCE_BEND,
                                         drape_stiffness_pbd(0.5f)) == DRAPE_OK);
}

static const scene scenes[] = {
    {"cloth of many materials", false, build_materials, NULL, unify_bending, false},
    {"balls poured into a box", false, build_balls, bouncy, NULL, false},
    {"two self-colliding cloths on a sphere", false, build_cloth_layers, NULL, NULL, false},
    {"cloth on a sphere", false, build_cloth_sphere, NULL, NULL, false},
    {"cloths of four sizes, one work-group each", false, build_cloth_pieces, shuffled, NULL, false},
    {"cloth on a sphere, damped", true, build_cloth_sphere, damped, NULL, true},
    {"cloth swinging from two corners, damped", false, build_swinging, damped, NULL, true},
    {"cloth on a sphere, one substep", false, build_cloth_sphere, one_substep, NULL, false},
    {"cloth of unequal masses, one substep", false, build_uneven_cloth, one_substep, NULL, false},
    {"cloth with coincident links at the start", false, build_coincident_cloth, NULL, NULL, false},
    {"curtain in wind, dihedral, XPBD", true, build_curtain, windy, NULL, false},
    {"cloth sliding with friction", false, build_slide, NULL, NULL, false},
    {"IK chain", false, build_chain, NULL, move_target, false},
    {"mass-spring, semi-implicit Euler", false, build_rope_on_sphere, springs_euler, NULL, false},
    {"mass-spring, velocity Verlet", false, build_cloth_sphere, springs_verlet, NULL, false},
    {"tethered curtain, XPBD tethers", true, build_tethered, windy, NULL, false},
    {"jelly on a sphere, XPBD volumes", false, build_jelly, NULL, NULL, false},
    {"Neo-Hookean box on a sphere", false, build_neo_hookean, NULL, NULL, false},
    {"rigid and soft shape-matched boxes", false, build_shapes, NULL, NULL, false},
    {"flag, lift, drag and gusts", false, build_flag, gusty, NULL, false},
    {"balloon on a sphere, XPBD pressure", false, build_balloon, NULL, NULL, false},
    {"cloth torn in two", false, build_tear, NULL, pull_apart, false},
    {"soft bodies with contact radii among balls", false, build_soft_among_balls, NULL, NULL,
     false},
    {"balls among large ones, grid searches", false, build_crowd, NULL, NULL, false},
    {"balls thrown onto a pile, split steps", false, build_thrown_balls, one_substep,
     steps_were_split, false},
    {"thrown balls, split from step 5", false, build_thrown_balls, unsplit, split_from_step_5,
     false},
};

static drape_world *run(const scene *s, drape_backend backend, int steps)
{
    drape_world_def def = tu_def(NULL);
    def.backend.type = backend;
    def.iterations = 4; /* fewer launches: the test is about agreement, not convergence */
    if (s->tune)
        s->tune(&def);
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    s->build(w);
    for (int i = 0; i < steps; ++i) {
        if (s->each_step)
            s->each_step(w, i);
        if (drape_world_step(w) != DRAPE_OK) {
            drape_world_destroy(w);
            return NULL;
        }
    }
    return w;
}

/* FNV-1a over the bytes of every position and velocity into *out; false when the read-back fails
 * (so that two failed reads never compare equal). */
static bool state_hash(const drape_world *w, uint64_t *out)
{
    tu_state s;
    uint64_t h = 1469598103934665603ull;
    if (!tu_read(w, &s)) {
        tu_state_free(&s);
        return false;
    }
    const unsigned char *parts[2] = {(const unsigned char *)s.x, (const unsigned char *)s.v};
    for (int k = 0; k < 2; ++k)
        for (size_t i = 0; i < s.n * sizeof(drape_vec3); ++i)
            h = (h ^ parts[k][i]) * 1099511628211ull;
    tu_state_free(&s);
    *out = h;
    return true;
}

/* Whether the default device is a CPU (no GPU listed), where the two backends agree bitwise; false
 * (with *ok false) when the devices cannot be listed. */
static bool default_device_is_cpu(bool *ok)
{
    drape_device_info info[16];
    uint32_t count = 0;
    *ok =
        drape_list_devices(info, 16, &count, tu_log_capture, &(tu_log){0}) == DRAPE_OK && count > 0;
    if (!*ok)
        return false;
    for (uint32_t i = 0; i < count && i < 16; ++i)
        if (strcmp(info[i].type, "GPU") == 0)
            return false;
    return true;
}

/* With the device's doubles hidden the damping's sums differ from the reference's in their last
 * bits, and a folding cloth amplifies that: the damped cloth swinging from two corners, which
 * touches nothing, differed by 1e-6 of a metre after 10 steps, 9e-4 after 30 and 1.3e-2 after 60
 * (136 of its 576 particles over 1e-3); the damped cloth on a sphere by 1 cm at step 30, when its
 * landing on the sphere (stick or slip, decided from those bits) had spread it, and 7.6 cm after
 * 300. So the damped cloths (short_float_run) are compared after FLOAT_SUMS_STEPS steps, under the
 * bound of the runs with doubles; the balloon over 300 steps under 1e-3. */
#define FLOAT_SUMS_STEPS 10

/* The largest difference of b from a relative to max(1 m, |a|), in double; NaN when either side
 * holds a NaN or an infinity (fmax would drop a NaN from one side). *over gets how many particles
 * differ by more than `tol`. */
static double worst_relative(const tu_state *a, const tu_state *b, double tol, uint32_t *over)
{
    double worst = 0.0;
    *over = 0;
    for (uint32_t i = 0; i < a->n; ++i) {
        const drape_vec3 p = a->x[i], q = b->x[i];
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z) || !isfinite(q.x) ||
            !isfinite(q.y) || !isfinite(q.z))
            return NAN;
        double scale = sqrt((double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z);
        double d = tu_dist(p, q) / (scale > 1.0 ? scale : 1.0);
        *over += d > tol;
        if (d > worst)
            worst = d;
    }
    return worst;
}

/* Runs s for `steps` steps on both backends and holds them to the parity above; returns the
 * OpenCL world (the caller destroys it). */
static drape_world *compare(const scene *s, int steps, bool cpu_device)
{
    drape_world *cpu = run(s, DRAPE_BACKEND_CPU, steps);
    drape_world *gpu = run(s, DRAPE_BACKEND_OPENCL, steps);
    ENSURE_MSG(cpu && gpu, "%s: a run failed", s->name);
    tu_state a, b;
    ENSURE(tu_read(cpu, &a) && tu_read(gpu, &b));
    ENSURE(a.n == b.n && a.n > 0);
    uint32_t over = 0;
    const double worst = worst_relative(&a, &b, 1e-3, &over);
    printf("  %-36s %5u particles, worst relative difference %.3g (%u over 1e-3)\n", s->name, a.n,
           worst, over);
    if (cpu_device && !tu_float_sums()) { /* the project's promise: bitwise on a CPU device */
        ENSURE_MSG(tu_same_bits(a.x, b.x, a.n * sizeof *a.x), "%s: positions differ", s->name);
        ENSURE_MSG(tu_same_bits(a.v, b.v, a.n * sizeof *a.v), "%s: velocities differ", s->name);
    }
    /* float damping sums (doubles hidden): the bound of docs/opencl-variants.md, over a short
     * run as with doubles (parity); NaN fails */
    ENSURE_LE(worst, tu_float_sums() && steps > FLOAT_SUMS_STEPS ? 1e-3 : 1e-5);
    tu_state_free(&a);
    tu_state_free(&b);
    drape_world_destroy(cpu);
    return gpu;
}

/* Whether a step of s uses the device's wide sums (dr_wide): damping, or a balloon. */
static bool uses_wide_sums(const scene *s)
{
    drape_world_def def = tu_def(NULL);
    def.backend.type = DRAPE_BACKEND_CPU;
    if (s->tune)
        s->tune(&def);
    drape_world *w = tu_world(&def);
    ENSURE(w != NULL);
    s->build(w);
    const bool wide = def.damping > 0.0f || drape_world_balloon_count(w) > 0;
    drape_world_destroy(w);
    return wide;
}

static void parity(void)
{
    bool listed = false;
    const bool cpu_device = default_device_is_cpu(&listed);
    ENSURE(listed);
    int compared = 0;
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; ++k) {
        const scene *s = &scenes[k];
        if (tu_float_sums() && !uses_wide_sums(s)) {
            printf("  %-36s no wide sums: held bitwise by the runs with doubles\n", s->name);
            continue;
        }
        ++compared;
        const int steps = tu_float_sums() && s->short_float_run ? FLOAT_SUMS_STEPS : 300;
        drape_world *gpu = compare(s, steps, cpu_device);
        ENSURE(gpu != NULL);
        if (s->rerun) {
            uint64_t first = 0, second = 0;
            ENSURE(state_hash(gpu, &first));
            drape_world *again = run(s, DRAPE_BACKEND_OPENCL, steps);
            ENSURE(again != NULL);
            ENSURE(state_hash(again, &second));
            ENSURE_MSG(first == second, "%s: a second OpenCL run differs", s->name);
            drape_world_destroy(again);
        }
        drape_world_destroy(gpu);
    }
    ENSURE(compared >= 3); /* the float-sums run too: the damped cloths and the balloon */
}

/* 39 304 balls on a lattice that overlaps by a tenth of a diameter, each touching its six
 * neighbours from the first substep: the grid's table has 2^17 buckets, so its prefix scan runs
 * over a hundred tiles or more and, on a CPU device, the tile sums over several rounds of a
 * work-group (kernels/particles.cl), which the 300-step scenes above, a few thousand buckets, never
 * reach. Two steps: a wrong bucket start loses or repeats contacts at once. Beside it fall
 * particles without a radius, outside the grid, whose displacements the contact passes must leave
 * alone. */
static void build_dense_lattice(drape_world *w)
{
    const int side = 34;
    const float r = 0.01f, pitch = 1.8f * r;
    drape_particle_def *defs = malloc(((size_t)side * side * side + 64) * sizeof *defs);
    ENSURE(defs != NULL);
    uint32_t n = 0;
    for (int y = 0; y < side; ++y)
        for (int z = 0; z < side; ++z)
            for (int x = 0; x < side; ++x) {
                drape_particle_def *p = &defs[n++];
                *p = drape_default_particle_def();
                p->position = tu_v3(pitch * (float)x, 0.05f + pitch * (float)y, pitch * (float)z);
                p->mass = 0.01f;
                p->radius = r;
            }
    for (int k = 0; k < 64;
         ++k) { /* and a column without a radius: no contacts, outside the grid */
        drape_particle_def *p = &defs[n++];
        *p = drape_default_particle_def();
        p->position = tu_v3(-0.1f, 0.05f + 0.01f * (float)k, 0.0f);
    }
    ENSURE(drape_world_add_particles(w, defs, n, NULL) == DRAPE_OK);
    free(defs);
    drape_collider_def floor = ground(0.0f);
    ENSURE(drape_world_add_collider(w, &floor, NULL) == DRAPE_OK);
}

static void parity_large_grid(void)
{
    bool listed = false;
    const bool cpu_device = default_device_is_cpu(&listed);
    ENSURE(listed);
    const scene s = {
        "a dense lattice of 39304 balls", false, build_dense_lattice, NULL, NULL, false};
    if (tu_float_sums()) { /* no damping, no balloon: nothing the float sums change */
        printf("  %-36s no wide sums: held bitwise by the runs with doubles\n", s.name);
        return;
    }
    drape_world *gpu = compare(&s, 2, cpu_device);
    ENSURE(gpu != NULL);
    drape_contact_stats cs = {0};
    ENSURE(drape_world_get_contact_stats(gpu, &cs) == DRAPE_OK);
    printf("  %-36s %5u contacts, %u buckets\n", s.name, cs.contacts, cs.buckets);
    ENSURE(cs.contacts > 3u * 39304u / 2u); /* the lattice's pairs touch: the test is not vacuous */
    drape_world_destroy(gpu);
}

int suite_parity(void)
{
    uint32_t devices = 0;
    if (drape_list_devices(NULL, 0, &devices, tu_log_capture, &(tu_log){0}) != DRAPE_OK ||
        devices == 0) {
        printf("no OpenCL device: skipped\n");
        return 77;
    }
    RUN_TEST(parity);
    RUN_TEST(parity_large_grid);
    return test_finish();
}

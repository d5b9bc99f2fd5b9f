/* Bad input is refused, reported and harmless.
 *
 * Each bad call must return the documented drape_result (INVALID_ARGUMENT for a bad value or NULL,
 * OUT_OF_RANGE for an index that names nothing), send exactly one error message through the log
 * callback the test installed, naming the offending field or argument, and leave the world as it
 * was: the particle, constraint and collider counts are unchanged, and a world that received every
 * bad call steps bit for bit like a twin that received none. Nothing may crash (the suite also runs
 * under AddressSanitizer and UndefinedBehaviorSanitizer).
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2: capturing stderr */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* Checks one bad call: its result, one new error message in `log` containing `needle` (and
 * `needle2` unless empty). Returns from the calling test on failure. */
#define ENSURE_REFUSED(log, expr, expected, needle, needle2)                                       \
    do {                                                                                           \
        int before_ = (log)->errors;                                                               \
        ENSURE_RESULT(expr, expected);                                                             \
        ENSURE_MSG((log)->errors == before_ + 1, "%s: %d error messages, expected 1", #expr,       \
                   (log)->errors - before_);                                                       \
        ENSURE_MSG(tu_log_has(log, needle), "%s: message \"%s\" does not name \"%s\"", #expr,      \
                   (log)->last, needle);                                                           \
        ENSURE_MSG(has_optional(log, needle2), "%s: message \"%s\" does not name \"%s\"", #expr,   \
                   (log)->last, needle2);                                                          \
    } while (0)

static const char *const NO_NEEDLE = "";

static bool has_optional(const tu_log *log, const char *needle)
{
    return needle[0] == '\0' || tu_log_has(log, needle);
}

static void change_backend(drape_world_def *d, void *gl)
{
    (void)gl;
    d->backend.type =
        d->backend.type == DRAPE_BACKEND_CPU ? DRAPE_BACKEND_OPENCL : DRAPE_BACKEND_CPU;
}
static void change_device(drape_world_def *d, void *gl)
{
    (void)gl;
    d->backend.device = "another device";
}
static void change_gl_context(drape_world_def *d, void *gl) { d->backend.gl_context = gl; }
static void change_gl_display(drape_world_def *d, void *gl) { d->backend.gl_display = gl; }
static void change_memory_limit(drape_world_def *d, void *gl)
{
    (void)gl;
    d->backend.device_memory_limit = 1u << 20;
}

static void test_bad_world_defs(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    drape_world *w = (drape_world *)&log; /* must be set to NULL on failure */

    def.dt = 0.0f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "dt",
                   NO_NEEDLE);
    ENSURE(w == NULL);
    def.dt = -1.0f / 60.0f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "dt",
                   NO_NEEDLE);
    def.dt = NAN;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "dt",
                   NO_NEEDLE);
    def = tu_def(&log);
    def.iterations = 0;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "iterations",
                   NO_NEEDLE);
    def.iterations = -3;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "iterations",
                   NO_NEEDLE);
    def = tu_def(&log);
    def.substeps = 0;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "substeps",
                   NO_NEEDLE);
    def = tu_def(&log);
    def.gravity.y = NAN;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "gravity",
                   NO_NEEDLE);
    def = tu_def(&log);
    def.damping = 1.5f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "damping",
                   NO_NEEDLE);
    def = tu_def(&log);
    def.collision_margin = -0.01f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT,
                   "collision_margin", NO_NEEDLE);
    def = tu_def(&log);
    ENSURE_REFUSED(&log, drape_world_create(&def, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "out",
                   NO_NEEDLE);
    /* No def: no callback to send the message to, but the result says it. */
    w = (drape_world *)&log;
    ENSURE_RESULT(drape_world_create(NULL, &w), DRAPE_ERROR_INVALID_ARGUMENT);
    ENSURE(w == NULL);
    /* The good def still works, with no message. */
    def = tu_def(&log);
    ENSURE_OK(drape_world_create(&def, &w));
    ENSURE(w != NULL);
    ENSURE(log.errors == 0);
    /* set_def validates like create and keeps the old settings on failure. */
    drape_world_def bad = def;
    bad.dt = -1.0f;
    ENSURE_REFUSED(&log, drape_world_set_def(w, &bad), DRAPE_ERROR_INVALID_ARGUMENT, "dt",
                   NO_NEEDLE);
    bad = def;
    bad.substeps = 0;
    ENSURE_REFUSED(&log, drape_world_set_def(w, &bad), DRAPE_ERROR_INVALID_ARGUMENT, "substeps",
                   NO_NEEDLE);
    ENSURE_REFUSED(&log, drape_world_set_def(w, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "def",
                   NO_NEEDLE);
    /* What the backend was set up with cannot change: refused, by name, not ignored. */
    int dummy_gl = 0;
    const struct {
        const char *field;
        void (*change)(drape_world_def *, void *);
    } fixed[] = {
        {"def.backend.type cannot change", change_backend},
        {"def.backend.device cannot change", change_device},
        {"def.backend.gl_context cannot change", change_gl_context},
        {"def.backend.gl_display cannot change", change_gl_display},
        {"def.backend.device_memory_limit cannot change", change_memory_limit},
    };
    for (size_t k = 0; k < sizeof fixed / sizeof *fixed; ++k) {
        bad = drape_world_get_def(w);
        fixed[k].change(&bad, &dummy_gl);
        ENSURE_REFUSED(&log, drape_world_set_def(w, &bad), DRAPE_ERROR_UNSUPPORTED,
                       "drape_world_set_def", fixed[k].field);
    }
    bad = drape_world_get_def(w); /* the same selector, NULL for "", is no change */
    bad.backend.device = "";
    bad.damping = 0.25f;
    ENSURE_OK(drape_world_set_def(w, &bad));
    ENSURE(drape_world_get_def(w).damping == 0.25f);
    bad.damping = def.damping;
    ENSURE_OK(drape_world_set_def(w, &bad));
    drape_world_def now = drape_world_get_def(w);
    ENSURE(now.dt == def.dt && now.substeps == def.substeps && now.iterations == def.iterations);
    ENSURE(now.backend.type == def.backend.type && now.backend.gl_context == NULL);
    ENSURE(now.backend.device_memory_limit == 0 && now.backend.cookie == def.backend.cookie);
    /* The backend def is a def of its own: the world's default holds drape_default_backend_def()'s,
     * and a world def whose backend def was not made by it is refused, naming it. */
    const drape_backend_def fresh = drape_default_backend_def(), held = def.backend;
    ENSURE(held.type == fresh.type && held.device == fresh.device && held.cookie == fresh.cookie);
    ENSURE(held.gl_context == NULL && held.gl_display == NULL && held.device_memory_limit == 0);
    bad = def;
    bad.backend = (drape_backend_def){.type = DRAPE_BACKEND_CPU};
    drape_world *other = NULL;
    ENSURE_REFUSED(&log, drape_world_create(&bad, &other), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_create", "drape_default_backend_def()");
    ENSURE(other == NULL);
    ENSURE_REFUSED(&log, drape_world_set_def(w, &bad), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_set_def", "drape_default_backend_def()");
    bad = def;
    bad.backend.type = (drape_backend)9;
    ENSURE_REFUSED(&log, drape_world_create(&bad, &other), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def.backend.type = 9 is not a backend", NO_NEEDLE);
    ENSURE_OK(drape_world_step(w));
    ENSURE_NEAR(drape_world_time(w), def.dt, 1e-6);
    drape_world_destroy(w);
}

/* A small scene: a 4 x 4 cloth (16 particles) with one pin, an extra particle, an attachment and a
 * sphere. */
static drape_world *scene(tu_log *log)
{
    drape_world_def def = tu_def(log);
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 4, cd.ny = 4, cd.pins = DRAPE_PIN_CORNER_00;
    drape_particle_def extra = {{0.0f, 2.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true};
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = 16, a.target = tu_v3(0.0f, 2.0f, 0.0f), a.stiffness = 0.5f;
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE, c.position = tu_v3(0.0f, 0.5f, 0.0f), c.radius = 0.3f;
    if (drape_world_add_cloth(w, &cd, NULL) != DRAPE_OK ||
        drape_world_add_particles(w, &extra, 1, NULL) != DRAPE_OK ||
        drape_world_add_attachment(w, &a, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &c, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

typedef struct counts {
    uint32_t particles, constraints[DRAPE_CONSTRAINT_TYPE_COUNT], colliders;
} counts;

static counts count(const drape_world *w)
{
    counts c;
    c.particles = drape_world_particle_count(w);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        c.constraints[t] = drape_world_constraint_count(w, (drape_constraint_type)t);
    c.colliders = drape_world_collider_count(w);
    return c;
}

static void test_bad_particles_constraints_colliders(void)
{
    tu_log log, twin_log;
    drape_world *w = scene(&log), *twin = scene(&twin_log);
    ENSURE(w && twin);
    ENSURE(tu_step(w, 5) && tu_step(twin, 5));
    const counts c0 = count(w);
    ENSURE(c0.particles == 17 && c0.colliders == 1);
    ENSURE(log.errors == 0);
    const uint32_t n = c0.particles;

    /* Particles: a negative mass, a NaN position, an infinite velocity. A batch with one bad
     * particle adds none. */
    drape_particle_def p[3] = {
        {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true},
        {{0.5f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, -1.0f, 0.0f, 0, true},
        {{1.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true},
    };
    uint32_t first = 12345;
    ENSURE_REFUSED(&log, drape_world_add_particles(w, p, 3, &first), DRAPE_ERROR_INVALID_ARGUMENT,
                   "mass", NO_NEEDLE);
    ENSURE(first == 12345);
    p[1].mass = 1.0f, p[1].position.y = NAN;
    ENSURE_REFUSED(&log, drape_world_add_particles(w, p, 3, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "position", NO_NEEDLE);
    p[1].position.y = 1.0f, p[1].velocity.x = INFINITY;
    ENSURE_REFUSED(&log, drape_world_add_particles(w, p, 3, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "velocity", NO_NEEDLE);
    ENSURE_REFUSED(&log, drape_world_add_particles(w, NULL, 3, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "defs", NO_NEEDLE);
    drape_particle_def bad = {{0.0f, NAN, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, 0.0f, 0, true};
    ENSURE_REFUSED(&log, drape_world_set_particle(w, 3, &bad), DRAPE_ERROR_INVALID_ARGUMENT,
                   "position", NO_NEEDLE);
    bad.position.y = 0.0f, bad.mass = -2.0f;
    ENSURE_REFUSED(&log, drape_world_set_particle(w, 3, &bad), DRAPE_ERROR_INVALID_ARGUMENT, "mass",
                   NO_NEEDLE);
    bad.mass = 1.0f;
    ENSURE_REFUSED(&log, drape_world_set_particle(w, n, &bad), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_set_particle", "index 17 is out of range");
    ENSURE_REFUSED(&log, drape_world_set_particle(w, 3, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "def",
                   NO_NEEDLE);

    /* Distance constraints: an index out of range, a particle tied to itself, a bad stiffness,
     * a NaN rest length, NULL. */
    drape_distance_def d = drape_default_distance_def();
    uint32_t id = 777;
    d.a = 2, d.b = 1000;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, &id), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_add_distance", "def->b = 1000 is out of range");
    ENSURE(id == 777);
    d.a = n, d.b = 2; /* one past the end */
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_add_distance", "def->a = 17 is out of range");
    d.a = 5, d.b = 5;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_distance", "def->a and def->b are both particle 5");
    d.a = 5, d.b = 6, d.stiffness = 1.5f;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "stiffness", NO_NEEDLE);
    d.stiffness = 1.0f, d.rest_length = NAN;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "rest_length", NO_NEEDLE);
    ENSURE_REFUSED(&log, drape_world_add_distance(w, NULL, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def", NO_NEEDLE);

    /* Dihedral: out of range, a repeated particle. Attachment: out of range, NaN target. */
    drape_dihedral_def h = drape_default_dihedral_def();
    h.edge0 = 0, h.edge1 = 1, h.wing0 = 4, h.wing1 = UINT32_MAX;
    ENSURE_REFUSED(&log, drape_world_add_dihedral(w, &h, NULL), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_add_dihedral", "def->wing1 = 4294967295 is out of range");
    h.wing1 = 1;
    ENSURE_REFUSED(&log, drape_world_add_dihedral(w, &h, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_dihedral", "def->edge1 and def->wing1 are both particle 1");
    h.wing1 = 5, h.rest_angle = 4.0f; /* beyond pi */
    ENSURE_REFUSED(&log, drape_world_add_dihedral(w, &h, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "rest_angle", NO_NEEDLE);
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = 99;
    ENSURE_REFUSED(&log, drape_world_add_attachment(w, &a, NULL), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_add_attachment", "def->particle = 99 is out of range");
    a.particle = 3, a.target.z = NAN;
    ENSURE_REFUSED(&log, drape_world_add_attachment(w, &a, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "target", NO_NEEDLE);
    const drape_attachment_id none = {42, 1}, stale = {0, 2}; /* the scene's one is {0, 1} */
    ENSURE_REFUSED(&log, drape_world_set_attachment_target(w, none, tu_v3(0, 0, 0)),
                   DRAPE_ERROR_OUT_OF_RANGE, "drape_world_set_attachment_target",
                   "attachment id 42 (generation 1) does not exist");
    ENSURE_REFUSED(&log, drape_world_remove_attachment(w, none), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_remove_attachment",
                   "attachment id 42 (generation 1) does not exist");
    ENSURE_REFUSED(&log, drape_world_remove_attachment(w, stale), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_remove_attachment",
                   "attachment id 0 (generation 2) does not exist");

    /* Colliders: a negative or zero radius, a zero plane normal, NULL, unknown ids. */
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE, c.radius = -0.5f;
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "radius", NO_NEEDLE);
    c.type = DRAPE_COLLIDER_CAPSULE, c.radius = 0.0f;
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "radius", NO_NEEDLE);
    c = drape_default_collider_def();
    c.normal = tu_v3(0.0f, 0.0f, 0.0f);
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "normal", NO_NEEDLE);
    c = drape_default_collider_def();
    c.restitution = 2.0f;
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "restitution", NO_NEEDLE);
    ENSURE_REFUSED(&log, drape_world_add_collider(w, NULL, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def", NO_NEEDLE);
    c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE, c.radius = -1.0f;
    ENSURE_REFUSED(&log, drape_world_set_collider(w, 0, &c), DRAPE_ERROR_INVALID_ARGUMENT, "radius",
                   NO_NEEDLE);
    c.radius = 1.0f;
    ENSURE_REFUSED(&log, drape_world_set_collider(w, 5, &c), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_set_collider", "collider id 5 is out of range");
    float dist = 0.0f;
    ENSURE_REFUSED(&log, drape_world_collider_distance(w, 1, tu_v3(0, 0, 0), &dist),
                   DRAPE_ERROR_OUT_OF_RANGE, "drape_world_collider_distance",
                   "collider id 1 is out of range");
    ENSURE_REFUSED(&log, drape_world_collider_distance(w, 0, tu_v3(0, 0, 0), NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT, "drape_world_collider_distance",
                   "out_distance is NULL");

    /* Builders: a 1-wide cloth, a 1-particle rope. */
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 1;
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cd, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "nx",
                   NO_NEEDLE);
    drape_rope_def rd = drape_default_rope_def();
    rd.count = 1;
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rd, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "count",
                   NO_NEEDLE);
    rd.count = 8, rd.mass = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rd, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "mass",
                   NO_NEEDLE);
    rd.mass = 0.1f, rd.tether_stiffness.stiffness = 1.5f;
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rd, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->tether_stiffness.stiffness = 1.5", "[0, 1]");
    /* A rope of no length, a cloth of no area (a zero axis, parallel axes). */
    rd = drape_default_rope_def();
    rd.end = rd.start;
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rd, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->start and def->end are the same point", "no length");
    cd = drape_default_cloth_def();
    cd.u_axis = tu_v3(0.0f, 0.0f, 0.0f);
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cd, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->u_axis (0, 0, 0) m", "span no area");
    cd.u_axis = tu_v3(0.0f, 0.0f, 2.0f);
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cd, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->v_axis (0, 0, 1) m", "parallel");

    /* Read-back: NULL out, ranges past the end, a range whose end overflows uint32_t. */
    drape_vec3 out[20];
    float m[20];
    ENSURE_REFUSED(&log, drape_world_get_positions(w, 0, 4, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "out", NO_NEEDLE);
    ENSURE_REFUSED(&log, drape_world_get_positions(w, 10, 8, out), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_get_positions", "particles 10 to 17 (first = 10, count = 8)");
    ENSURE_REFUSED(&log, drape_world_get_positions(w, n + 1, 0, out), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_get_positions", "first = 18 is out of range (the world has 17");
    ENSURE_REFUSED(&log, drape_world_get_positions(w, 1, UINT32_MAX, out), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_get_positions",
                   "particles 1 to 4294967295 (first = 1"); /* was 1..0 */
    ENSURE_REFUSED(&log, drape_world_get_velocities(w, n, 1, out), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_get_velocities", "particles 17 to 17 (first = 17, count = 1)");
    ENSURE_REFUSED(&log, drape_world_get_masses(w, 0, 18, m), DRAPE_ERROR_OUT_OF_RANGE,
                   "drape_world_get_masses", "particles 0 to 17 (first = 0, count = 18)");
    ENSURE_REFUSED(&log, drape_world_get_masses(w, 0, 1, NULL), DRAPE_ERROR_INVALID_ARGUMENT, "out",
                   NO_NEEDLE);
    ENSURE_REFUSED(&log, drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT, "out", NO_NEEDLE);
    /* The edges of the valid range are fine. */
    ENSURE_OK(drape_world_get_positions(w, n, 0, out));
    ENSURE_OK(drape_world_get_positions(w, 0, n, out));

    /* Nothing changed: the counts, and the motion compared with the twin, bit for bit. */
    const counts c1 = count(w);
    ENSURE(c1.particles == c0.particles && c1.colliders == c0.colliders);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        ENSURE(c1.constraints[t] == c0.constraints[t]);
    ENSURE(tu_step(w, 30) && tu_step(twin, 30));
    tu_state s, st;
    ENSURE(tu_read(w, &s) && tu_read(twin, &st));
    ENSURE(tu_same_bits(s.x, st.x, s.n * sizeof *s.x));
    ENSURE(tu_same_bits(s.v, st.v, s.n * sizeof *s.v));
    ENSURE(tu_same_bits(s.m, st.m, s.n * sizeof *s.m));
    /* Still usable: good calls work after the bad ones. */
    d = drape_default_distance_def();
    d.a = 16, d.b = 3;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    ENSURE(tu_step(w, 5));
    ENSURE(twin_log.errors == 0);
    tu_state_free(&s), tu_state_free(&st);
    drape_world_destroy(w), drape_world_destroy(twin);
}

/* A def that no drape_default_*_def() made (zero-initialised, as `= {0}` or a field-by-field fill
 * gives) is refused with a message naming the default to start from, for every def; the same def
 * with the cookie of a default is taken. In the zero distance def, stiffness 0 and compliance 0
 * would have silently meant a hard XPBD constraint. */
static void test_defs_not_from_defaults(void)
{
    tu_log log;
    tu_log_reset(&log);
    drape_world *w = NULL;
    drape_world_def zero_world = {0};
    zero_world.log = tu_log_capture, zero_world.log_user = &log;
    ENSURE_REFUSED(&log, drape_world_create(&zero_world, &w), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_create", "not made by drape_default_world_def()");
    ENSURE(w == NULL);
    w = scene(&log);
    ENSURE(w != NULL);
    const counts before = count(w);
    ENSURE_REFUSED(&log, drape_world_set_def(w, &zero_world), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_set_def", "drape_default_world_def()");
    drape_distance_def d = {0};
    d.a = 1, d.b = 2;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_distance", "drape_default_distance_def()");
    drape_dihedral_def h = {0};
    ENSURE_REFUSED(&log, drape_world_add_dihedral(w, &h, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_dihedral", "drape_default_dihedral_def()");
    drape_attachment_def a = {0};
    ENSURE_REFUSED(&log, drape_world_add_attachment(w, &a, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_attachment", "drape_default_attachment_def()");
    drape_tether_def t = {0};
    ENSURE_REFUSED(&log, drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_tether", "drape_default_tether_def()");
    drape_volume_def v = {0};
    ENSURE_REFUSED(&log, drape_world_add_volume(w, &v, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_volume", "drape_default_volume_def()");
    drape_collider_def c = {0};
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_collider", "drape_default_collider_def()");
    ENSURE_REFUSED(&log, drape_world_set_collider(w, 0, &c), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_set_collider", "drape_default_collider_def()");
    drape_cloth_def cloth = {0};
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_cloth", "drape_default_cloth_def()");
    drape_rope_def rope = {0};
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rope, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_rope", "drape_default_rope_def()");
    drape_soft_box_def box = {0};
    ENSURE_REFUSED(&log, drape_world_add_soft_box(w, &box, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_soft_box", "drape_default_soft_box_def()");
    drape_particle_block_def block = {0};
    ENSURE_REFUSED(&log, drape_world_add_particle_block(w, &block, NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT, "drape_world_add_particle_block",
                   "drape_default_particle_block_def()");
    const counts after = count(w);
    ENSURE(after.particles == before.particles && after.colliders == before.colliders);
    for (int k = 0; k < DRAPE_CONSTRAINT_TYPE_COUNT; ++k)
        ENSURE(after.constraints[k] == before.constraints[k]);
    /* The defs read back carry the cookie: they go straight back in. */
    drape_distance_def back;
    ENSURE_OK(drape_world_get_distances(w, 0, 1, &back));
    ENSURE_OK(drape_world_add_distance(w, &back, NULL));
    d.cookie = drape_default_distance_def().cookie, d.stiffness = 1.0f;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    drape_world_destroy(w);
}

/* The limits of drape.h: finite values the solver cannot compute with in float are refused where
 * they enter, and the edge of each limit is accepted. */
static void test_limits(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    drape_world *w = NULL;
    def.dt = 1e-30f; /* its reporting interval was 0 steps (SIGFPE); h^2 underflows */
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "substep",
                   "1e-09");
    def.dt = 4e-9f; /* 4 substeps of 1e-9 s: the shortest accepted */
    ENSURE_OK(drape_world_create(&def, &w));
    drape_world_destroy(w);
    def = tu_def(&log);
    def.air_drag = 241.0f; /* above 1/h = 240 1/s */
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "air_drag",
                   "1/h");
    def.air_drag = 239.0f;
    ENSURE_OK(drape_world_create(&def, &w));
    drape_world_destroy(w);
    def.air_drag = 240.0f; /* 1/h itself, though dt = 1/60 s rounds up in float */
    ENSURE_OK(drape_world_create(&def, &w));
    drape_world_destroy(w);
    def = tu_def(&log);
    def.gravity.y = 3e38f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "gravity",
                   "1e+09");
    def = tu_def(&log);
    def.wind.x = -2e9f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT, "wind",
                   NO_NEEDLE);
    def = tu_def(&log);
    def.collision_margin = 1e10f;
    ENSURE_REFUSED(&log, drape_world_create(&def, &w), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def.collision_margin = 1e+10 m", "[0, 1e+09]");

    def = tu_def(&log);
    w = tu_world(&def);
    drape_particle_def p = drape_default_particle_def();
    p.mass = 1e-39f; /* a subnormal: 1 / mass is infinite */
    ENSURE_REFUSED(&log, drape_world_add_particles(w, &p, 1, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "mass", "1e-15");
    p.mass = 1e-15f;
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    p.mass = 1.0f;
    p.position.x = 3.4e38f;
    ENSURE_REFUSED(&log, drape_world_add_particles(w, &p, 1, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "position", NO_NEEDLE);
    p.position.x = 0.0f;
    ENSURE_OK(drape_world_add_particles(w, &p, 1, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.compliance = 1e30f, d.model = DRAPE_STIFFNESS_XPBD;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "compliance", NO_NEEDLE);
    /* a rest length or volume past any position's reach: the first step was non-finite, blamed on
     * the prediction */
    d = drape_default_distance_def();
    d.a = 0, d.b = 1, d.rest_length = 1e19f;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_length = 1e+19 m", "[0, 1e+09]");
    d.rest_length = 1e9f;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    /* add_nearest_tethers' own argument is named, not the tether def it hands on */
    const uint32_t anchor = 0;
    ENSURE_REFUSED(
        &log, drape_world_add_nearest_tethers(w, 0, 2, &anchor, 1, drape_stiffness_pbd(2.0f)),
        DRAPE_ERROR_INVALID_ARGUMENT, "drape_world_add_nearest_tethers: stiffness.", NO_NEEDLE);
    drape_cloth_def cloth_pins = drape_default_cloth_def();
    cloth_pins.pins = 1u << 8; /* no flag: it pinned nothing and its tethers had no anchor */
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth_pins, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->pins = 0x100", "not drape_cloth_pin flags");
    drape_collider_def c = drape_default_collider_def();
    c.position.y = 1e38f;
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "position", NO_NEEDLE);
    /* A plane normal whose squared length overflows a float is still a direction. */
    c = drape_default_collider_def();
    c.normal = (drape_vec3){0.0f, 1e20f, 0.0f};
    uint32_t id;
    ENSURE_OK(drape_world_add_collider(w, &c, &id));
    float distance = 0.0f;
    ENSURE_OK(drape_world_collider_distance(w, id, (drape_vec3){0.0f, 2.0f, 0.0f}, &distance));
    ENSURE_MSG(distance == 2.0f, "distance %g to the plane y = 0, expected 2", (double)distance);
    drape_world_destroy(w);

    /* The largest documented cloth is refused before anything is allocated when the machine
     * cannot hold it, with the bytes it needs. */
    w = tu_world(&def);
    drape_cloth_def cloth = drape_default_cloth_def();
    cloth.nx = cloth.ny = 16384;
    if (drape_host_memory_available() < 100ull * 1024 * 1024 * 1024) {
        ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth, NULL), DRAPE_ERROR_OUT_OF_MEMORY,
                       "16384 x 16384 cloth needs about", "bytes");
        ENSURE(drape_world_particle_count(w) == 0);
    }
    /* So is a block of 257 million balls (2^28 sites is the block's own bound), whose grid of
     * contacts would take about 1 kB a ball: it was granted lazily and the process was killed
     * while the balls were filled in. */
    drape_particle_block_def block = drape_default_particle_block_def();
    block.size = (drape_vec3){1.4f, 1.4f, 1.4f};
    block.radius = 0.001f;
    if (drape_host_memory_available() < 200ull * 1024 * 1024 * 1024) {
        ENSURE_REFUSED(&log, drape_world_add_particle_block(w, &block, NULL),
                       DRAPE_ERROR_OUT_OF_MEMORY, "a block of 257259456 balls needs about",
                       "bytes");
        ENSURE(drape_world_particle_count(w) == 0);
    }
    drape_world_destroy(w);
}

/* A builder's message names the one field that is out of range, with its value and unit, not a
 * list of every field it checks. */
static void test_builders_name_the_bad_field(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    drape_world *w = tu_world(&def);
    drape_cloth_def cloth = drape_default_cloth_def();
    cloth.u_axis.x = 1e30f;
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->u_axis = (1e+30, 0, 0) m must be", NO_NEEDLE);
    cloth = drape_default_cloth_def();
    cloth.velocity.z = NAN;
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->velocity = (0, 0, nan) m/s", NO_NEEDLE);
    cloth = drape_default_cloth_def();
    cloth.mass = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->mass = -1 kg must be > 0", NO_NEEDLE);
    drape_rope_def rope = drape_default_rope_def();
    rope.end.y = -3e9f;
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rope, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->end = (1, -3e+09, 0) m", NO_NEEDLE);
    drape_collider_def c = drape_default_collider_def();
    c.velocity.x = INFINITY;
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->velocity = (inf, 0, 0) m/s", NO_NEEDLE);
    c = drape_default_collider_def();
    c.normal.y = NAN;
    ENSURE_REFUSED(&log, drape_world_add_collider(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->normal = (0, nan, 0)", NO_NEEDLE);
    drape_particle_block_def block = drape_default_particle_block_def();
    block.size.y = 2e9f;
    ENSURE_REFUSED(&log, drape_world_add_particle_block(w, &block, NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT, "def->size = (", "2e+09");
    drape_soft_box_def box = drape_default_soft_box_def();
    box.size.z = 0.0f;
    ENSURE_REFUSED(&log, drape_world_add_soft_box(w, &box, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->size = (", "must be > 0 in every component");
    drape_icosphere_def sphere = drape_default_icosphere_def();
    sphere.centre.x = NAN;
    ENSURE_REFUSED(&log, drape_world_add_icosphere(w, &sphere, NULL, NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT, "def->centre = (nan, ", " m must be finite");
    ENSURE(drape_world_particle_count(w) == 0);
    drape_world_destroy(w);
}

/* A builder adds through the same code as the public calls, and an error found there names the
 * builder the user called, never the call it makes inside (drape_world_add_particles,
 * drape_world_add_tet_mesh). */
static void test_builders_name_themselves(void)
{
    tu_log log;
    drape_world_def def = tu_def(&log);
    drape_world *w = tu_world(&def);
    drape_cloth_def cloth = drape_default_cloth_def(); /* each within 1e9 m, the far edge is not */
    cloth.origin.x = 9e8f, cloth.u_axis.x = 9e8f;
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &cloth, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_cloth: particle 4: position (1.01613e+09, ",
                   "must be finite and within 1e+09");
    drape_rope_def rope = drape_default_rope_def(); /* 1e-14 kg over 100: below 1e-15 kg each */
    rope.mass = 1e-14f, rope.count = 100;
    ENSURE_REFUSED(&log, drape_world_add_rope(w, &rope, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_rope: particle 1: mass = ", NO_NEEDLE);
    drape_soft_box_def box = drape_default_soft_box_def();
    box.mass = 1e-14f, box.nx = box.ny = box.nz = 5;
    ENSURE_REFUSED(&log, drape_world_add_soft_box(w, &box, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_soft_box: particle 0: mass = ", NO_NEEDLE);
    box = drape_default_soft_box_def(); /* a Neo-Hookean box is built as a tetrahedral mesh */
    box.youngs_modulus = 1e5f, box.poisson_ratio = 0.7f;
    ENSURE_REFUSED(&log, drape_world_add_soft_box(w, &box, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_soft_box: def->youngs_modulus = ", "def->poisson_ratio = 0.7");
    drape_icosphere_def sphere = drape_default_icosphere_def();
    sphere.mass = 1e-14f;
    ENSURE_REFUSED(&log, drape_world_add_icosphere(w, &sphere, NULL, NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_icosphere: particle 0: mass = ", NO_NEEDLE);
    drape_particle_block_def block = drape_default_particle_block_def();
    block.mass = 1e-20f;
    ENSURE_REFUSED(&log, drape_world_add_particle_block(w, &block, NULL),
                   DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_particle_block: particle 0: mass = ", NO_NEEDLE);
    ENSURE(drape_world_particle_count(w) == 0);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE) == 0);
    drape_world_destroy(w);
}

static void test_result_strings_and_default_log(void)
{
    const drape_result all[] = {DRAPE_OK,
                                DRAPE_ERROR_INVALID_ARGUMENT,
                                DRAPE_ERROR_OUT_OF_RANGE,
                                DRAPE_ERROR_OUT_OF_MEMORY,
                                DRAPE_ERROR_BACKEND,
                                DRAPE_ERROR_UNSUPPORTED,
                                (drape_result)-99};
    for (unsigned i = 0; i < sizeof all / sizeof *all; ++i) {
        const char *s = drape_result_string(all[i]);
        ENSURE(s != NULL && s[0] != '\0');
    }
    /* The default callback is the stderr one: it drops information and writes warnings and
     * errors, each on a line of its own (stderr goes to a temporary file meanwhile). */
    drape_world_def def = drape_default_world_def();
    ENSURE(def.log == drape_log_stderr);
    FILE *capture = tmpfile();
    ENSURE(capture != NULL);
    fflush(stderr);
    const int saved = dup(fileno(stderr));
    ENSURE(saved >= 0 && dup2(fileno(capture), fileno(stderr)) >= 0);
    drape_log_stderr(DRAPE_LOG_INFO, "dropped", NULL);
    drape_log_stderr(DRAPE_LOG_WARNING, "careful", NULL);
    drape_log_stderr(DRAPE_LOG_ERROR, "wrong", NULL);
    fflush(stderr);
    ENSURE(dup2(saved, fileno(stderr)) >= 0);
    close(saved);
    char text[256] = {0};
    rewind(capture);
    size_t got = fread(text, 1, sizeof text - 1, capture);
    fclose(capture);
    ENSURE_MSG(got > 0 && strcmp(text, "drape: warning: careful\ndrape: error: wrong\n") == 0,
               "drape_log_stderr wrote \"%s\"", text);
}

/* Four particles: a right-handed unit corner tetrahedron, also a hinge along 0-1 with its wings 2
 * and 3 at a right angle. */
static bool add_corner(drape_world *w)
{
    drape_particle_def p[4];
    const drape_vec3 at[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int k = 0; k < 4; ++k)
        p[k] = drape_default_particle_def(), p[k].position = at[k];
    return drape_world_add_particles(w, p, 4, NULL) == DRAPE_OK;
}

/* A world logging into *log (reset) holding the corner of add_corner, or NULL. */
static drape_world *corner_world(tu_log *log)
{
    tu_log_reset(log);
    drape_world_def def = tu_def(log);
    drape_world *w = tu_world(&def);
    if (w && !add_corner(w)) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

/* One convention for every rest value that can come from the positions (a distance's rest length,
 * a dihedral's rest angle, a tether's max_length, a volume's and a balloon's rest volume): each
 * default is DRAPE_REST_FROM_POSITIONS and takes the value from the positions; NaN and a negative
 * length (the old "< 0 takes the current one") are refused, the message naming the constant. */
static void test_rest_from_positions_is_one_convention(void)
{
    tu_log log;
    drape_world *w = corner_world(&log);
    ENSURE(w);
    drape_distance_def d = drape_default_distance_def();
    drape_dihedral_def h = drape_default_dihedral_def();
    drape_tether_def t = drape_default_tether_def();
    drape_volume_def v = drape_default_volume_def();
    drape_balloon_def b = drape_default_balloon_def();
    ENSURE(d.rest_length == DRAPE_REST_FROM_POSITIONS && h.rest_angle == DRAPE_REST_FROM_POSITIONS);
    ENSURE(t.max_length == DRAPE_REST_FROM_POSITIONS && v.rest_volume == DRAPE_REST_FROM_POSITIONS);
    ENSURE(b.rest_volume == DRAPE_REST_FROM_POSITIONS);
    d.a = 1, d.b = 2;
    h.edge0 = 0, h.edge1 = 1, h.wing0 = 2, h.wing1 = 3;
    t.particle = 3, t.anchor = 1;
    for (int k = 0; k < 4; ++k)
        v.particles[k] = (uint32_t)k;
    const uint32_t faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    b.triangles = faces, b.triangle_count = 4;
    /* Refused: a negative length or volume, NaN anywhere. */
    d.rest_length = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_length = -1", "DRAPE_REST_FROM_POSITIONS");
    d.rest_length = NAN;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_length = nan", "DRAPE_REST_FROM_POSITIONS");
    h.rest_angle = NAN;
    ENSURE_REFUSED(&log, drape_world_add_dihedral(w, &h, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_angle = nan", "DRAPE_REST_FROM_POSITIONS");
    t.max_length = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->max_length = -1", "DRAPE_REST_FROM_POSITIONS");
    v.rest_volume = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_volume(w, &v, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_volume = -1", "DRAPE_REST_FROM_POSITIONS");
    v.rest_volume = 1e15f; /* a step of this unit tetrahedron was non-finite */
    ENSURE_REFUSED(&log, drape_world_add_volume(w, &v, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_volume = 1e+15", "at most 1e+09");
    b.rest_volume = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_balloon(w, &b, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->rest_volume = -1", "DRAPE_REST_FROM_POSITIONS");
    /* Taken from the positions. */
    d.rest_length = h.rest_angle = t.max_length = DRAPE_REST_FROM_POSITIONS;
    v.rest_volume = b.rest_volume = DRAPE_REST_FROM_POSITIONS;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    ENSURE_OK(drape_world_add_dihedral(w, &h, NULL));
    ENSURE_OK(drape_world_add_tether(w, &t, NULL));
    ENSURE_OK(drape_world_add_volume(w, &v, NULL));
    uint32_t balloon;
    ENSURE_OK(drape_world_add_balloon(w, &b, &balloon));
    drape_distance_def d_out;
    drape_dihedral_def h_out;
    drape_tether_def t_out;
    drape_volume_def v_out;
    drape_balloon_info b_out;
    ENSURE_OK(drape_world_get_distances(w, 0, 1, &d_out));
    ENSURE_OK(drape_world_get_dihedrals(w, 0, 1, &h_out));
    ENSURE_OK(drape_world_get_tether(w, 0, &t_out));
    ENSURE_OK(drape_world_get_volume(w, 0, &v_out));
    ENSURE_OK(drape_world_get_balloon(w, balloon, &b_out));
    ENSURE_NEAR(d_out.rest_length, sqrt(2.0), 1e-6);
    ENSURE_NEAR(fabs(h_out.rest_angle), 0.5 * 3.14159265358979, 1e-6);
    ENSURE_NEAR(t_out.max_length, sqrt(2.0), 1e-6);
    ENSURE_NEAR(v_out.rest_volume, 1.0 / 6.0, 1e-7);
    ENSURE_NEAR(b_out.rest_volume, 1.0 / 6.0, 1e-7);
    /* A value given is kept. */
    d.rest_length = 0.5f, h.rest_angle = -0.25f, t.max_length = 2.0f, v.rest_volume = 0.5f;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    ENSURE_OK(drape_world_add_dihedral(w, &h, NULL));
    ENSURE_OK(drape_world_add_tether(w, &t, NULL));
    ENSURE_OK(drape_world_add_volume(w, &v, NULL));
    ENSURE_OK(drape_world_get_distances(w, 1, 1, &d_out));
    ENSURE_OK(drape_world_get_dihedrals(w, 1, 1, &h_out));
    ENSURE_OK(drape_world_get_tether(w, 1, &t_out));
    ENSURE_OK(drape_world_get_volume(w, 1, &v_out));
    ENSURE(d_out.rest_length == 0.5f && h_out.rest_angle == -0.25f);
    ENSURE(t_out.max_length == 2.0f && v_out.rest_volume == 0.5f);
    drape_world_destroy(w);
}

/* The stiffness model is named, not read from the sign of the compliance: a def that sets the field
 * its model does not read (a compliance with PBD, a stiffness with XPBD), a negative compliance or
 * an unknown model is refused with a message naming the field and the model to choose, for the
 * constraint defs, the builders' families and drape_world_set_stiffness; nothing is added. */
static void test_stiffness_model_mixing_refused(void)
{
    tu_log log;
    drape_world *w = corner_world(&log);
    ENSURE(w);
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1;
    ENSURE(d.model == DRAPE_STIFFNESS_PBD && d.stiffness == 1.0f && d.compliance == 0.0f);
    d.compliance = 1e-6f; /* without the model: once a silent XPBD, now refused */
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->compliance = 1e-06 is set but def->model is DRAPE_STIFFNESS_PBD",
                   "set def->model = DRAPE_STIFFNESS_XPBD");
    d.model = DRAPE_STIFFNESS_XPBD, d.stiffness = 0.5f;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->stiffness = 0.5 is set but def->model is DRAPE_STIFFNESS_XPBD",
                   "set def->model = DRAPE_STIFFNESS_PBD");
    d.stiffness = 1.0f, d.compliance = -1.0f;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->compliance = -1 must be in [0, 1e+09] (XPBD)", NO_NEEDLE);
    d.model = (drape_stiffness_model)7;
    ENSURE_REFUSED(&log, drape_world_add_distance(w, &d, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->model = 7 is not a stiffness model", NO_NEEDLE);
    drape_dihedral_def h = drape_default_dihedral_def();
    h.edge0 = 0, h.edge1 = 1, h.wing0 = 2, h.wing1 = 3, h.compliance = 0.1f;
    ENSURE_REFUSED(&log, drape_world_add_dihedral(w, &h, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_dihedral: def->compliance = 0.1 is set", NO_NEEDLE);
    drape_attachment_def a = drape_default_attachment_def();
    a.model = DRAPE_STIFFNESS_XPBD, a.stiffness = 0.0f;
    ENSURE_REFUSED(&log, drape_world_add_attachment(w, &a, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_attachment: def->stiffness = 0 is set", NO_NEEDLE);
    drape_tether_def t = drape_default_tether_def();
    t.particle = 0, t.anchor = 1, t.compliance = 1e-3f;
    ENSURE_REFUSED(&log, drape_world_add_tether(w, &t, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_tether: def->compliance = 0.001 is set", NO_NEEDLE);
    drape_volume_def v = drape_default_volume_def();
    for (int k = 0; k < 4; ++k)
        v.particles[k] = (uint32_t)k;
    v.compliance = 1e-9f;
    ENSURE_REFUSED(&log, drape_world_add_volume(w, &v, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_volume: def->compliance = 1e-09 is set", NO_NEEDLE);
    drape_balloon_def b = drape_default_balloon_def();
    const uint32_t faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    b.triangles = faces, b.triangle_count = 4, b.compliance = 1e-7f;
    ENSURE_REFUSED(&log, drape_world_add_balloon(w, &b, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "drape_world_add_balloon: def->compliance = 1e-07 is set", NO_NEEDLE);
    drape_cloth_def c = drape_default_cloth_def();
    c.bend_stiffness.compliance = 1e-4f;
    ENSURE_REFUSED(&log, drape_world_add_cloth(w, &c, NULL), DRAPE_ERROR_INVALID_ARGUMENT,
                   "def->bend_stiffness.compliance = 0.0001 is set", NO_NEEDLE);
    drape_stiffness mixed = {0.5f, 1e-3f, DRAPE_STIFFNESS_PBD};
    ENSURE_REFUSED(&log, drape_world_set_stiffness(w, DRAPE_CONSTRAINT_DISTANCE, ~0u, mixed),
                   DRAPE_ERROR_INVALID_ARGUMENT, "stiffness.compliance = 0.001 is set", NO_NEEDLE);
    ENSURE(drape_world_particle_count(w) == 4);
    for (int k = 0; k < DRAPE_CONSTRAINT_TYPE_COUNT; ++k)
        ENSURE(drape_world_constraint_count(w, (drape_constraint_type)k) == 0);
    ENSURE(drape_world_balloon_count(w) == 0);
    drape_world_destroy(w);
}

/* Every drape_world_* function takes a NULL world without a crash: drape_result functions return
 * DRAPE_ERROR_INVALID_ARGUMENT and say "world is NULL" on stderr (there is no world to hold a log
 * callback); counts are 0, the def and the aerodynamics their defaults. */
static void test_null_world(void)
{
    drape_world *w = NULL;
    const drape_result bad = DRAPE_ERROR_INVALID_ARGUMENT;
    drape_world_def wd = drape_default_world_def();
    drape_particle_def p = drape_default_particle_def();
    drape_distance_def dd = drape_default_distance_def();
    drape_dihedral_def hd = drape_default_dihedral_def();
    drape_attachment_def ad = drape_default_attachment_def();
    drape_attachment_id aid = {0};
    drape_tether_def td = drape_default_tether_def();
    drape_volume_def vd = drape_default_volume_def();
    drape_neo_hookean_def nd = drape_default_neo_hookean_def();
    drape_shape_match_def sd = drape_default_shape_match_def();
    drape_collider_def cd = drape_default_collider_def();
    drape_cloth_def cl = drape_default_cloth_def();
    drape_rope_def rd = drape_default_rope_def();
    drape_soft_box_def bd = drape_default_soft_box_def();
    drape_tet_mesh_def md = drape_default_tet_mesh_def();
    drape_particle_block_def pb = drape_default_particle_block_def();
    drape_aero_def ae = drape_default_aero_def();
    drape_balloon_def ba = drape_default_balloon_def();
    drape_icosphere_def id = drape_default_icosphere_def();
    drape_profile prof;
    drape_diagnostics diag;
    drape_contact_stats cs;
    drape_coloring_stats col;
    drape_build_info info;
    drape_balloon_info bi;
    drape_vec3 v3[1];
    float f[3];
    uint32_t u[3] = {0, 1, 2}, out = 7;
    const drape_vec3 zero = {0.0f, 0.0f, 0.0f};
    ENSURE_RESULT(drape_world_set_def(w, &wd), bad);
    ENSURE_RESULT(drape_world_step(w), bad);
    ENSURE_RESULT(drape_world_step_n(w, 2), bad);
    ENSURE_RESULT(drape_world_get_profile(w, &prof), bad);
    ENSURE_RESULT(drape_world_get_diagnostics(w, &diag), bad);
    ENSURE_RESULT(drape_world_set_triangles(w, u, 1), bad);
    ENSURE_RESULT(drape_world_get_render_data(w, 0, 1, f, f), bad);
    ENSURE_RESULT(drape_world_bind_gl_buffers(w, 1, 2), bad);
    ENSURE_RESULT(drape_world_update_gl_buffers(w), bad);
    ENSURE_RESULT(drape_world_add_particles(w, &p, 1, &out), bad);
    ENSURE_RESULT(drape_world_set_particle(w, 0, &p), bad);
    ENSURE_RESULT(drape_world_get_positions(w, 0, 1, v3), bad);
    ENSURE_RESULT(drape_world_get_velocities(w, 0, 1, v3), bad);
    ENSURE_RESULT(drape_world_get_radii(w, 0, 1, f), bad);
    ENSURE_RESULT(drape_world_get_masses(w, 0, 1, f), bad);
    ENSURE_RESULT(drape_world_get_contact_stats(w, &cs), bad);
    ENSURE_RESULT(drape_world_add_distance(w, &dd, &out), bad);
    ENSURE_RESULT(drape_world_add_dihedral(w, &hd, &out), bad);
    ENSURE_RESULT(drape_world_add_attachment(w, &ad, &aid), bad);
    ENSURE_RESULT(drape_world_set_attachment_target(w, aid, zero), bad);
    ENSURE_RESULT(drape_world_remove_attachment(w, aid), bad);
    ENSURE_RESULT(drape_world_add_tether(w, &td, &out), bad);
    ENSURE_RESULT(drape_world_get_tether(w, 0, &td), bad);
    ENSURE_RESULT(drape_world_add_nearest_tethers(w, 0, 1, u, 1, drape_stiffness_pbd(1.0f)), bad);
    ENSURE_RESULT(drape_world_add_volume(w, &vd, &out), bad);
    ENSURE_RESULT(drape_world_get_volume(w, 0, &vd), bad);
    ENSURE_RESULT(drape_world_add_neo_hookean(w, &nd, &out), bad);
    ENSURE_RESULT(drape_world_get_neo_hookean(w, 0, &nd), bad);
    ENSURE_RESULT(drape_world_add_shape_match(w, &sd, &out), bad);
    ENSURE_RESULT(drape_world_get_distances(w, 0, 1, &dd), bad);
    ENSURE_RESULT(drape_world_get_dihedrals(w, 0, 1, &hd), bad);
    ENSURE_RESULT(
        drape_world_set_stiffness(w, DRAPE_CONSTRAINT_DISTANCE, 1u, drape_stiffness_pbd(1.0f)),
        bad);
    ENSURE_RESULT(drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, &col), bad);
    ENSURE_RESULT(drape_world_get_constraint_colors(w, DRAPE_CONSTRAINT_DISTANCE, 0, 1, u), bad);
    ENSURE_RESULT(drape_world_add_collider(w, &cd, &out), bad);
    ENSURE_RESULT(drape_world_set_collider(w, 0, &cd), bad);
    ENSURE_RESULT(drape_world_collider_distance(w, 0, zero, f), bad);
    ENSURE_RESULT(drape_world_add_cloth(w, &cl, &info), bad);
    ENSURE_RESULT(drape_world_add_rope(w, &rd, &info), bad);
    ENSURE_RESULT(drape_world_add_soft_box(w, &bd, &info), bad);
    ENSURE_RESULT(drape_world_add_tet_mesh(w, &md, &info), bad);
    ENSURE_RESULT(drape_world_add_particle_block(w, &pb, &info), bad);
    ENSURE_RESULT(drape_world_set_aero(w, &ae), bad);
    ENSURE_RESULT(drape_world_add_aero_triangles(w, u, 1), bad);
    ENSURE_RESULT(drape_world_add_balloon(w, &ba, &out), bad);
    ENSURE_RESULT(drape_world_get_balloon(w, 0, &bi), bad);
    ENSURE_RESULT(drape_world_get_balloon_triangles(w, 0, u), bad);
    ENSURE_RESULT(drape_world_add_icosphere(w, &id, &info, &out), bad);
    ENSURE_RESULT(drape_world_set_distance_break(w, 0, 2.0f), bad);
    ENSURE(out == 7); /* nothing written */
    ENSURE(drape_world_particle_count(w) == 0 && drape_world_collider_count(w) == 0);
    ENSURE(drape_world_shape_match_count(w) == 0 && drape_world_balloon_count(w) == 0);
    ENSURE(drape_world_aero_triangle_count(w) == 0 && drape_world_get_triangles(w, u) == 0);
    ENSURE(drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE) == 0);
    ENSURE(drape_world_distance_count(w, DRAPE_DISTANCE_STRETCH) == 0);
    ENSURE(drape_world_host_bytes(w) == 0 && drape_world_time(w) == 0.0);
    ENSURE(drape_world_get_tear_stats(w).breaks == 0);
    ENSURE(drape_world_get_def(w).dt == wd.dt &&
           drape_world_get_aero(w).air_density == ae.air_density);
    ENSURE(drape_world_device(w) == NULL && !drape_world_has_gl_sharing(w));
    ENSURE(drape_world_backend(w) == DRAPE_BACKEND_CPU);
    ENSURE(drape_world_distance_kernel(w) == DRAPE_DISTANCE_KERNEL_AUTO);
    drape_world_reset_profile(w);
    drape_world_destroy(w);
}

int suite_bad_input(void)
{
    RUN_TEST(test_bad_world_defs);
    RUN_TEST(test_null_world);
    RUN_TEST(test_bad_particles_constraints_colliders);
    RUN_TEST(test_defs_not_from_defaults);
    RUN_TEST(test_limits);
    RUN_TEST(test_result_strings_and_default_log);
    RUN_TEST(test_builders_name_the_bad_field);
    RUN_TEST(test_builders_name_themselves);
    RUN_TEST(test_stiffness_model_mixing_refused);
    RUN_TEST(test_rest_from_positions_is_one_convention);
    return test_finish();
}

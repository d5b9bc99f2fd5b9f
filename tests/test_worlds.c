/* No global state: two worlds stepped in one process, their steps interleaved, give bit for bit the
 * results each gives alone. The two scenes differ in everything a hidden shared variable could
 * carry between them (settings, particle and constraint counts, colliders, solver mode), and one of
 * the pair is destroyed part way while the other goes on.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

/* Scene A: a 12 x 12 cloth with dihedral bending falling on a sphere, PBD, damping 0.05. */
static drape_world *scene_a(void)
{
    drape_world_def def = tu_def(NULL);
    def.damping = 0.05f;
    def.substeps = 3;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_collider_def c = drape_default_collider_def();
    c.type = DRAPE_COLLIDER_SPHERE, c.position = tu_v3(0.1f, 0.2f, 0.0f), c.radius = 0.4f;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = 12, cd.ny = 12;
    cd.bending = DRAPE_BENDING_DIHEDRAL;
    cd.pins = DRAPE_PIN_CORNER_00;
    if (drape_world_add_collider(w, &c, NULL) != DRAPE_OK ||
        drape_world_add_cloth(w, &cd, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

/* Scene B: a rope with XPBD links swinging past a moving capsule above a plane, with wind and drag,
 * plus a grabbed particle. */
static drape_world *scene_b(void)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, -5.0f, 1.0f);
    def.iterations = 13;
    def.air_drag = 0.3f;
    def.wind = tu_v3(1.0f, 0.0f, -0.5f);
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_rope_def rd = drape_default_rope_def();
    rd.count = 40;
    rd.bending = true;
    rd.stretch = drape_stiffness_xpbd(1e-5f);
    drape_collider_def cap = drape_default_collider_def();
    cap.type = DRAPE_COLLIDER_CAPSULE, cap.position = tu_v3(0.3f, 0.5f, -0.3f);
    cap.end = tu_v3(0.3f, 0.5f, 0.3f), cap.radius = 0.1f, cap.velocity = tu_v3(0.2f, 0.1f, 0.0f);
    drape_collider_def plane = drape_default_collider_def();
    plane.position = tu_v3(0.0f, 0.2f, 0.0f), plane.restitution = 0.5f;
    drape_attachment_def grab = drape_default_attachment_def();
    grab.particle = 20, grab.target = tu_v3(0.6f, 1.2f, 0.1f), grab.stiffness = 0.3f;
    if (drape_world_add_rope(w, &rd, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &cap, NULL) != DRAPE_OK ||
        drape_world_add_collider(w, &plane, NULL) != DRAPE_OK ||
        drape_world_add_attachment(w, &grab, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

/* Scene C: scene A in mass-spring mode with velocity Verlet (changed through drape_world_set_def).
 */
static drape_world *scene_c(void)
{
    drape_world *w = scene_a();
    if (!w)
        return NULL;
    drape_world_def def = drape_world_get_def(w);
    def.mode = DRAPE_MODE_MASS_SPRING;
    def.integrator = DRAPE_INTEGRATOR_VELOCITY_VERLET;
    def.substeps = 16;
    def.spring_stiffness = 200.0f; /* explicit integration: keep h sqrt(k / m) well below 2 */
    if (drape_world_set_def(w, &def) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

enum { STEPS = 90 };

/* Everything a world holds that the API reads back, after each step. */
typedef struct history {
    uint32_t n;
    drape_vec3 *x, *v; /* STEPS * n */
} history;

static bool record(const drape_world *w, history *h, int step)
{
    if (step == 0) {
        h->n = drape_world_particle_count(w);
        h->x = calloc((size_t)STEPS * h->n, sizeof *h->x);
        h->v = calloc((size_t)STEPS * h->n, sizeof *h->v);
        if (!h->x || !h->v)
            return false;
    }
    return drape_world_get_positions(w, 0, h->n, h->x + (size_t)step * h->n) == DRAPE_OK &&
           drape_world_get_velocities(w, 0, h->n, h->v + (size_t)step * h->n) == DRAPE_OK;
}

static void history_free(history *h)
{
    free(h->x);
    free(h->v);
    memset(h, 0, sizeof *h);
}

static bool alone(drape_world *(*make)(void), history *h)
{
    drape_world *w = make();
    if (!w)
        return false;
    bool ok = true;
    for (int s = 0; ok && s < STEPS; ++s)
        ok = drape_world_step(w) == DRAPE_OK && record(w, h, s);
    drape_world_destroy(w);
    return ok;
}

static bool same(const history *a, const history *b)
{
    return a->n == b->n && tu_same_bits(a->x, b->x, (unsigned long)STEPS * a->n * sizeof *a->x) &&
           tu_same_bits(a->v, b->v, (unsigned long)STEPS * a->n * sizeof *a->v);
}

static void test_interleaved_worlds_match_each_alone(void)
{
    history a = {0}, b = {0}, c = {0}, ia = {0}, ib = {0}, ic = {0};
    ENSURE(alone(scene_a, &a) && alone(scene_b, &b) && alone(scene_c, &c));
    ENSURE(a.n == 144 && b.n == 40);
    /* Created interleaved with each other, stepped alternately; B is destroyed two thirds through.
     */
    drape_world *wa = scene_a(), *wb = scene_b(), *wc = scene_c();
    ENSURE(wa && wb && wc);
    for (int s = 0; s < STEPS; ++s) {
        ENSURE_OK(drape_world_step(wa));
        if (wb)
            ENSURE_OK(drape_world_step(wb));
        ENSURE_OK(drape_world_step(wc));
        ENSURE(record(wa, &ia, s) && record(wc, &ic, s));
        if (wb)
            ENSURE(record(wb, &ib, s));
        if (s == 2 * STEPS / 3) {
            /* B goes away part way; A and C must not notice. */
            drape_world_destroy(wb);
            wb = NULL;
        }
    }
    ENSURE(same(&a, &ia));
    ENSURE(same(&c, &ic));
    /* B's interleaved prefix matches B alone. */
    const size_t nb = (size_t)(2 * STEPS / 3 + 1) * b.n;
    ENSURE(tu_same_bits(b.x, ib.x, (unsigned long)(nb * sizeof *b.x)));
    ENSURE(tu_same_bits(b.v, ib.v, (unsigned long)(nb * sizeof *b.v)));
    /* The scenes really are different and really moved. */
    ENSURE(!tu_same_bits(a.x, a.x + (size_t)(STEPS - 1) * a.n, a.n * sizeof *a.x));
    ENSURE(!same(&a, &c));
    drape_world_destroy(wa);
    drape_world_destroy(wc);
    history_free(&a), history_free(&b), history_free(&c);
    history_free(&ia), history_free(&ib), history_free(&ic);
}

/* The same scene built twice, one copy stepped while the other waits, ends the same. */
static void test_same_scene_twice_is_deterministic(void)
{
    drape_world *w1 = scene_b(), *w2 = scene_b();
    ENSURE(w1 && w2);
    ENSURE(tu_step(w1, 60));
    ENSURE(tu_step(w2, 30));
    drape_world *w3 = scene_a(); /* a third world appears in between */
    ENSURE(w3 && tu_step(w3, 10));
    ENSURE(tu_step(w2, 30));
    tu_state s1, s2;
    ENSURE(tu_read(w1, &s1) && tu_read(w2, &s2));
    ENSURE(s1.n == s2.n);
    ENSURE(tu_same_bits(s1.x, s2.x, s1.n * sizeof *s1.x));
    ENSURE(tu_same_bits(s1.v, s2.v, s1.n * sizeof *s1.v));
    ENSURE(drape_world_time(w1) == drape_world_time(w2));
    tu_state_free(&s1), tu_state_free(&s2);
    drape_world_destroy(w1), drape_world_destroy(w2), drape_world_destroy(w3);
}

int suite_worlds(void)
{
    RUN_TEST(test_interleaved_worlds_match_each_alone);
    RUN_TEST(test_same_scene_twice_is_deterministic);
    return test_finish();
}

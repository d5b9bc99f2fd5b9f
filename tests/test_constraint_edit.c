/* Reading and editing constraints after they are made, as a viewer does: the distances read back as
 * the defs that made them (drape_world_get_distances); a family's stiffness set on a built world
 * steps exactly like a world built with it (drape_world_set_stiffness); and a mouse grab or release
 * (one attachment added or removed) recolours the attachments alone, never the cloth, and steps
 * exactly like a world that recoloured everything.
 */
#include "drape_test.h"
#include "test_list.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

/* An n x n cloth pinned at two corners, with `iterations` and `substeps` (0: the defaults). */
static drape_world *cloth_world_with(drape_stiffness stretch, uint32_t n, int iterations,
                                     int substeps)
{
    drape_world_def def = tu_def(NULL);
    if (iterations > 0)
        def.iterations = iterations;
    if (substeps > 0)
        def.substeps = substeps;
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = n;
    c.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    c.stretch = stretch;
    if (drape_world_add_cloth(w, &c, NULL) != DRAPE_OK) {
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

static drape_world *cloth_world(drape_stiffness stretch, uint32_t n)
{
    return cloth_world_with(stretch, n, 0, 0);
}

static bool same_positions(const drape_world *a, const drape_world *b)
{
    tu_state sa, sb;
    bool ok = tu_read(a, &sa) && tu_read(b, &sb) && sa.n == sb.n &&
              tu_same_bits(sa.x, sb.x, sa.n * sizeof *sa.x);
    tu_state_free(&sa);
    tu_state_free(&sb);
    return ok;
}

static void test_get_distances(void)
{
    drape_world_def def = tu_def(NULL);
    drape_world *w = tu_world(&def);
    ENSURE(w);
    drape_particle_def p[3] = {drape_default_particle_def(), drape_default_particle_def(),
                               drape_default_particle_def()};
    p[1].position = tu_v3(0.3f, 0.0f, 0.4f);
    p[2].position = tu_v3(1.0f, 0.0f, 0.0f);
    ENSURE_OK(drape_world_add_particles(w, p, 3, NULL));
    drape_distance_def d = drape_default_distance_def();
    d.a = 0, d.b = 1; /* rest taken from the positions: 0.5 m */
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    d.a = 2, d.b = 1, d.rest_length = 0.25f, d.stiffness = 0.5f;
    d.kind = DRAPE_DISTANCE_BEND;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    d.stiffness = 1.0f, d.compliance = 1e-3f, d.model = DRAPE_STIFFNESS_XPBD;
    ENSURE_OK(drape_world_add_distance(w, &d, NULL));
    drape_distance_def out[3];
    ENSURE_OK(drape_world_get_distances(w, 0, 3, out));
    ENSURE(out[0].a == 0 && out[0].b == 1 && out[0].kind == DRAPE_DISTANCE_STRETCH);
    ENSURE_NEAR(out[0].rest_length, 0.5, 1e-6);
    ENSURE(out[0].stiffness == 1.0f && out[0].compliance == 0.0f);
    ENSURE(out[0].model == DRAPE_STIFFNESS_PBD);
    ENSURE(out[1].a == 2 && out[1].b == 1 && out[1].rest_length == 0.25f);
    ENSURE(out[1].stiffness == 0.5f && out[1].compliance == 0.0f);
    ENSURE(out[1].model == DRAPE_STIFFNESS_PBD && out[1].kind == DRAPE_DISTANCE_BEND);
    ENSURE(out[2].stiffness == 1.0f && out[2].compliance == 1e-3f);
    ENSURE(out[2].model == DRAPE_STIFFNESS_XPBD);
    ENSURE(drape_world_get_distances(w, 2, 2, out) == DRAPE_ERROR_OUT_OF_RANGE);
    ENSURE(drape_world_get_distances(w, 0, 1, NULL) == DRAPE_ERROR_INVALID_ARGUMENT);
    drape_particle_def q = drape_default_particle_def();
    q.position = tu_v3(0.5f, 0.5f, 0.5f);
    ENSURE_OK(drape_world_add_particles(w, &q, 1, NULL));
    drape_dihedral_def h = drape_default_dihedral_def();
    h.edge0 = 0, h.edge1 = 2, h.wing0 = 1, h.wing1 = 3, h.rest_angle = 0.5f, h.compliance = 0.25f;
    h.model = DRAPE_STIFFNESS_XPBD;
    ENSURE_OK(drape_world_add_dihedral(w, &h, NULL));
    drape_dihedral_def hout;
    ENSURE_OK(drape_world_get_dihedrals(w, 0, 1, &hout));
    ENSURE(hout.edge0 == 0 && hout.edge1 == 2 && hout.wing0 == 1 && hout.wing1 == 3);
    ENSURE(hout.rest_angle == 0.5f && hout.stiffness == 1.0f && hout.compliance == 0.25f);
    ENSURE(hout.model == DRAPE_STIFFNESS_XPBD);
    ENSURE(drape_world_get_dihedrals(w, 1, 1, &hout) == DRAPE_ERROR_OUT_OF_RANGE);
    drape_world_destroy(w);
}

/* Softening the stretch of a built cloth to XPBD compliance before it steps steps like the cloth
 * built soft; after it has stepped (the solver's copy edited in place) like a world that rebuilt
 * its solver copy from the edited constraints; the untouched cloth steps differently. */
static void test_set_stiffness(void)
{
    const drape_stiffness hard = drape_stiffness_pbd(1.0f), soft = drape_stiffness_xpbd(1e-3f);
    const uint32_t stretch = 1u << DRAPE_DISTANCE_STRETCH;
    drape_world *built_soft = cloth_world(soft, 12), *before = cloth_world(hard, 12);
    drape_world *after = cloth_world(hard, 12), *rebuilt = cloth_world(hard, 12);
    drape_world *untouched = cloth_world(hard, 12);
    ENSURE(built_soft && before && after && rebuilt && untouched);
    ENSURE_OK(drape_world_set_stiffness(before, DRAPE_CONSTRAINT_DISTANCE, stretch, soft));
    ENSURE(tu_step(built_soft, 30) && tu_step(before, 30));
    ENSURE(same_positions(built_soft, before));

    ENSURE(tu_step(after, 5) && tu_step(rebuilt, 5) && tu_step(untouched, 5));
    ENSURE_OK(drape_world_set_stiffness(after, DRAPE_CONSTRAINT_DISTANCE, stretch, soft));
    ENSURE_OK(drape_world_set_stiffness(rebuilt, DRAPE_CONSTRAINT_DISTANCE, stretch, soft));
    drape_world_def def = drape_world_get_def(rebuilt); /* recolour: rebuild the solver copy */
    def.color_balance = !def.color_balance;
    ENSURE_OK(drape_world_set_def(rebuilt, &def));
    def.color_balance = !def.color_balance;
    ENSURE_OK(drape_world_set_def(rebuilt, &def));
    ENSURE(tu_step(after, 30) && tu_step(rebuilt, 30) && tu_step(untouched, 30));
    ENSURE(same_positions(after, rebuilt));
    ENSURE(!same_positions(untouched, after));
    drape_distance_def d;
    ENSURE_OK(drape_world_get_distances(after, 0, 1, &d));
    ENSURE(d.kind == DRAPE_DISTANCE_STRETCH && d.compliance == soft.compliance);
    ENSURE(drape_world_set_stiffness(after, DRAPE_CONSTRAINT_DISTANCE, 1,
                                     drape_stiffness_pbd(2.0f)) == DRAPE_ERROR_INVALID_ARGUMENT);
    drape_world *worlds[5] = {built_soft, before, after, rebuilt, untouched};
    for (int i = 0; i < 5; ++i)
        drape_world_destroy(worlds[i]);
}

/* Recolours everything (a colouring setting changed and changed back): the solver copy is rebuilt
 * from the constraints and the world's settings. */
static bool recolour_all(drape_world *w)
{
    drape_world_def def = drape_world_get_def(w);
    def.color_balance = !def.color_balance;
    if (drape_world_set_def(w, &def) != DRAPE_OK)
        return false;
    def.color_balance = !def.color_balance;
    return drape_world_set_def(w, &def) == DRAPE_OK;
}

static bool set_solver(drape_world *w, int iterations, int substeps)
{
    drape_world_def def = drape_world_get_def(w);
    def.iterations = iterations;
    def.substeps = substeps;
    return drape_world_set_def(w, &def) == DRAPE_OK;
}

/* drape_world_set_def changing the iterations and substeps of a cloth with PBD stiffness 0.5, whose
 * corrected stiffness k' = 1 - (1 - k)^(1/n) depends on the iteration count: before the first step
 * the world steps like one built with the new settings; after it has stepped, like a twin whose
 * solver copy was rebuilt from scratch after the same change; and unlike a world that kept the old
 * settings. A stiffness set before the change is corrected for the new count too. */
static void test_set_def_refreshes_stiffness(void)
{
    const drape_stiffness half = drape_stiffness_pbd(0.5f);
    drape_world *built = cloth_world_with(half, 12, 3, 5);
    drape_world *changed = cloth_world_with(half, 12, 12, 2);
    ENSURE(built && changed);
    ENSURE(set_solver(changed, 3, 5));
    ENSURE(tu_step(built, 30) && tu_step(changed, 30));
    ENSURE(same_positions(built, changed));
    drape_world_destroy(built);
    drape_world_destroy(changed);

    drape_world *after = cloth_world_with(half, 12, 12, 2);
    drape_world *rebuilt = cloth_world_with(half, 12, 12, 2);
    drape_world *kept = cloth_world_with(half, 12, 12, 2);
    ENSURE(after && rebuilt && kept);
    ENSURE(tu_step(after, 5) && tu_step(rebuilt, 5) && tu_step(kept, 5));
    const uint32_t all = ~0u;
    for (int k = 0; k < 2; ++k) {
        drape_world *w = k ? rebuilt : after;
        ENSURE_OK(drape_world_set_stiffness(w, DRAPE_CONSTRAINT_DISTANCE, all,
                                            drape_stiffness_pbd(0.3f)));
        ENSURE(set_solver(w, 2, 3));
    }
    ENSURE_OK(
        drape_world_set_stiffness(kept, DRAPE_CONSTRAINT_DISTANCE, all, drape_stiffness_pbd(0.3f)));
    ENSURE(recolour_all(rebuilt));
    ENSURE(tu_step(after, 30) && tu_step(rebuilt, 30) && tu_step(kept, 30));
    ENSURE(same_positions(after, rebuilt));
    ENSURE(!same_positions(after, kept));
    /* Only the iteration count changes: the substeps alone would not move k'. */
    ENSURE(set_solver(after, 7, 3) && set_solver(rebuilt, 7, 3) && recolour_all(rebuilt));
    ENSURE(tu_step(after, 20) && tu_step(rebuilt, 20));
    ENSURE(same_positions(after, rebuilt));
    drape_world_destroy(after);
    drape_world_destroy(rebuilt);
    drape_world_destroy(kept);
}

static uint64_t recolored(const drape_world *w)
{
    drape_profile p;
    return drape_world_get_profile(w, &p) == DRAPE_OK ? p.recolored : UINT64_MAX;
}

/* A grab and a release recolour the attachments only. */
static void test_grab_recolours_attachments_only(void)
{
    const drape_stiffness hard = drape_stiffness_pbd(1.0f);
    drape_world *w = cloth_world(hard, 16), *full = cloth_world(hard, 16);
    ENSURE(w && full);
    ENSURE(tu_step(w, 5) && tu_step(full, 5));
    uint64_t constraints = 0; /* the cloth's: distances, and tethers where it is pinned */
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        constraints += drape_world_constraint_count(w, (drape_constraint_type)t);
    drape_world_reset_profile(w);
    drape_world_reset_profile(full);
    drape_attachment_def a = drape_default_attachment_def();
    a.particle = 100;
    a.target = tu_v3(0.0f, 1.5f, 0.0f);
    drape_attachment_id id_w, id_full;
    ENSURE_OK(drape_world_add_attachment(w, &a, &id_w));
    ENSURE_OK(drape_world_add_attachment(full, &a, &id_full));
    /* `full` recolours everything: a colouring setting changed and changed back */
    drape_world_def def = drape_world_get_def(full);
    def.color_balance = !def.color_balance;
    ENSURE_OK(drape_world_set_def(full, &def));
    def.color_balance = !def.color_balance;
    ENSURE_OK(drape_world_set_def(full, &def));
    ENSURE(tu_step(w, 10) && tu_step(full, 10));
    printf("  a grab recoloured %llu constraints (a full recolouring: %llu)\n",
           (unsigned long long)recolored(w), (unsigned long long)recolored(full));
    ENSURE(recolored(w) == 1);
    ENSURE(recolored(full) == 1 + constraints);
    ENSURE(same_positions(w, full));
    /* The release: nothing left to colour, the cloth untouched. */
    drape_world_reset_profile(w);
    ENSURE_OK(drape_world_remove_attachment(w, id_w));
    ENSURE_OK(drape_world_remove_attachment(full, id_full));
    ENSURE(tu_step(w, 10) && tu_step(full, 10));
    ENSURE(recolored(w) == 0);
    ENSURE(same_positions(w, full));
    drape_coloring_stats s;
    ENSURE_OK(drape_world_get_coloring(w, DRAPE_CONSTRAINT_ATTACHMENT, &s));
    ENSURE(s.constraints == 0 && s.colors == 0);
    drape_world_destroy(w);
    drape_world_destroy(full);
}

int suite_constraint_edit(void)
{
    RUN_TEST(test_get_distances);
    RUN_TEST(test_set_stiffness);
    RUN_TEST(test_set_def_refreshes_stiffness);
    RUN_TEST(test_grab_recolours_attachments_only);
    return test_finish();
}

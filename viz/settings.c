/* The panel's settings (settings.h). A family's stiffness is read from its first constraint: the
 * scenes' builders give a whole family one stiffness, and the panel sets a whole family at once. */
#include "settings.h"

#include <string.h>

const char *viz_family_name(viz_family_id id)
{
    static const char *const names[VIZ_FAMILY_COUNT] = {"stretch", "shear", "bend", "hinge"};
    return (unsigned)id < VIZ_FAMILY_COUNT ? names[id] : "?";
}

static viz_family family_of(drape_stiffness_model model, float stiffness, float compliance)
{
    return (viz_family){true, model == DRAPE_STIFFNESS_XPBD, stiffness, compliance};
}

bool viz_settings_read(const drape_world *w, viz_settings *out)
{
    memset(out, 0, sizeof *out);
    const drape_world_def def = drape_world_get_def(w);
    out->iterations = def.iterations;
    out->substeps = def.substeps;
    out->damping = def.damping;
    out->air_drag = def.air_drag;
    out->gravity = def.gravity;
    out->wind = def.wind;
    for (int f = 0; f < VIZ_FAMILY_COUNT; ++f)
        out->family[f] = (viz_family){false, false, 1.0f, 0.0f};
    const uint32_t distances = drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE);
    bool missing = true;
    for (uint32_t id = 0; id < distances && missing; ++id) {
        drape_distance_def d;
        if (drape_world_get_distances(w, id, 1, &d) != DRAPE_OK)
            return false;
        viz_family *f = &out->family[d.kind]; /* kinds and the first three families agree */
        if (!f->present)
            *f = family_of(d.model, d.stiffness, d.compliance);
        missing = !out->family[0].present || !out->family[1].present || !out->family[2].present;
    }
    if (drape_world_constraint_count(w, DRAPE_CONSTRAINT_DIHEDRAL) > 0) {
        drape_dihedral_def h;
        if (drape_world_get_dihedrals(w, 0, 1, &h) != DRAPE_OK)
            return false;
        out->family[VIZ_FAMILY_HINGE] = family_of(h.model, h.stiffness, h.compliance);
    }
    return true;
}

static bool same3(drape_vec3 a, drape_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static bool same_def(const viz_settings *a, const viz_settings *b)
{
    return a->iterations == b->iterations && a->substeps == b->substeps &&
           a->damping == b->damping && a->air_drag == b->air_drag &&
           same3(a->gravity, b->gravity) && same3(a->wind, b->wind);
}

static bool same_family(const viz_family *a, const viz_family *b)
{
    return a->present == b->present && a->xpbd == b->xpbd && a->stiffness == b->stiffness &&
           a->compliance == b->compliance;
}

bool viz_settings_equal(const viz_settings *a, const viz_settings *b)
{
    bool same = same_def(a, b);
    for (int f = 0; f < VIZ_FAMILY_COUNT; ++f)
        same = same && same_family(&a->family[f], &b->family[f]);
    return same;
}

bool viz_settings_apply(drape_world *w, const viz_settings *before, const viz_settings *after)
{
    const viz_settings *a = after, *b = before;
    if (!same_def(a, b)) {
        drape_world_def def = drape_world_get_def(w);
        def.iterations = a->iterations;
        def.substeps = a->substeps;
        def.damping = a->damping;
        def.air_drag = a->air_drag;
        def.gravity = a->gravity;
        def.wind = a->wind;
        if (drape_world_set_def(w, &def) != DRAPE_OK)
            return false;
    }
    for (int f = 0; f < VIZ_FAMILY_COUNT; ++f) {
        const viz_family *fa = &a->family[f], *fb = &b->family[f];
        if (!fa->present || same_family(fa, fb))
            continue;
        const drape_constraint_type type =
            f == VIZ_FAMILY_HINGE ? DRAPE_CONSTRAINT_DIHEDRAL : DRAPE_CONSTRAINT_DISTANCE;
        const drape_stiffness k =
            fa->xpbd ? drape_stiffness_xpbd(fa->compliance) : drape_stiffness_pbd(fa->stiffness);
        if (drape_world_set_stiffness(w, type, 1u << f, k) != DRAPE_OK)
            return false;
    }
    return true;
}

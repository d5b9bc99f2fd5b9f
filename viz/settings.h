/* The solver settings the viewer's panel edits, read from a world and written back to it through
 * its def API (drape_world_get_def / drape_world_set_def) and drape_world_set_stiffness:
 * iterations, substeps, damping, air drag, gravity, wind, and the stiffness of each constraint
 * family. This is the panel's C interface: the Dear ImGui code (panel_imgui.cpp) edits a copy of
 * the settings and hands both copies to viz_settings_apply, which changes only what changed; a
 * change takes effect at the next step. Tests call it without a window. */
#ifndef VIZ_SETTINGS_H
#define VIZ_SETTINGS_H

#include <drape/drape.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum viz_family_id {
    VIZ_FAMILY_STRETCH = 0, /* distance constraints of kind stretch (cloth structure, rope links) */
    VIZ_FAMILY_SHEAR = 1,   /* kind shear */
    VIZ_FAMILY_BEND = 2,    /* kind bend (skip-one springs) */
    VIZ_FAMILY_HINGE = 3,   /* dihedral bending */
    VIZ_FAMILY_COUNT = 4,
} viz_family_id;

typedef struct viz_family {
    bool present;     /* the world has constraints of this family */
    bool xpbd;        /* compliance (XPBD) rather than stiffness (PBD) */
    float stiffness;  /* PBD k in [0, 1] */
    float compliance; /* XPBD, m/N (rad/(N m) for hinges), >= 0 */
} viz_family;

typedef struct viz_settings {
    int iterations, substeps;
    float damping;                       /* PBD momentum-preserving damping, [0, 1] */
    float air_drag;                      /* 1/s */
    drape_vec3 gravity;                  /* m/s^2 */
    drape_vec3 wind;                     /* m/s */
    viz_family family[VIZ_FAMILY_COUNT]; /* as the first constraint of each family has it */
} viz_settings;

const char *viz_family_name(viz_family_id id);

/* The settings in force in `world`; false when the world cannot be read. */
bool viz_settings_read(const drape_world *world, viz_settings *out);
/* Whether two settings say the same (field by field). */
bool viz_settings_equal(const viz_settings *a, const viz_settings *b);
/* Writes what differs between `before` and `after` to the world (families: every constraint of the
 * family). False (the world's log says why) when the world refuses a value. */
bool viz_settings_apply(drape_world *world, const viz_settings *before, const viz_settings *after);

#ifdef __cplusplus
}
#endif
#endif

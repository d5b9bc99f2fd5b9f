/* The simulation the viewer shows: a drape world built from a scene (scenes.h) at a resolution and
 * in a solver mode, rebuilt whole when either changes or on reset, and the mouse grab (an
 * attachment constraint that follows the cursor). */
#ifndef VIZ_SIM_H
#define VIZ_SIM_H

#include "scenes.h"
#include "topology.h"
#include "vecmath.h"

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum viz_mode {
    VIZ_MODE_PBD = 0,         /* PBD stiffness on every cloth constraint */
    VIZ_MODE_XPBD = 1,        /* XPBD compliance on every cloth constraint */
    VIZ_MODE_MASS_SPRING = 2, /* def.mode = DRAPE_MODE_MASS_SPRING (seed 002) */
    VIZ_MODE_COUNT = 3,
} viz_mode;

const char *viz_mode_name(viz_mode mode);

typedef struct viz_sim {
    /* settings: change them, then viz_sim_build */
    const char *scene_name;  /* NULL: the default scene */
    uint32_t resolution;     /* particles along each cloth edge */
    viz_mode mode;
    drape_backend backend;
    const char *device;      /* OpenCL device selector, NULL: the library's default */
    void *gl_context, *gl_display; /* GLX handles for OpenCL-OpenGL sharing, NULL for none */

    /* state */
    drape_world *world;
    viz_scene scene;
    drape_build_info info;
    viz_topology topology;
    float strain_scale;      /* strain at the ends of the stress colour scale */
    uint64_t steps;

    /* the grab */
    bool grabbing;
    uint32_t grab_attachment; /* attachment id */
    uint32_t grab_particle;
    float grab_depth;         /* m along the view direction, kept while dragging */
    drape_vec3 *scratch;      /* particle positions for picking */
} viz_sim;

/* Destroys the current world (if any) and builds a new one from the settings. False, with a
 * message, when the world cannot be made; the sim then has no world. */
bool viz_sim_build(viz_sim *sim);
void viz_sim_destroy(viz_sim *sim);
bool viz_sim_step(viz_sim *sim);

/* Starts a grab where the ray (from the eye along `direction`, unit) first meets the cloth; false
 * when it misses. `forward` is the camera's unit view direction. */
bool viz_sim_grab(viz_sim *sim, viz_vec3 eye, viz_vec3 direction, viz_vec3 forward);
/* Moves the grabbed particle's target to the ray's point at the grab's depth. */
void viz_sim_drag(viz_sim *sim, viz_vec3 eye, viz_vec3 direction, viz_vec3 forward);
void viz_sim_release(viz_sim *sim);

#endif

/* The simulation the viewer shows: a scene from the scene library (a built-in name or a scene file,
 * exactly what `drape run` takes), in a solver mode and optionally with every cloth resized,
 * rebuilt whole when either changes or on reset, the topology drawn over it, and the mouse grab (an
 * attachment constraint that follows the cursor). */
#ifndef VIZ_SIM_H
#define VIZ_SIM_H

#include <drape/scene.h>
#include "topology.h"
#include "vecmath.h"

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum viz_mode {
    VIZ_MODE_PBD = 0,         /* the scene's own constraints */
    VIZ_MODE_XPBD = 1,        /* XPBD compliance on every distance and dihedral constraint */
    VIZ_MODE_MASS_SPRING = 2, /* def.mode = DRAPE_MODE_MASS_SPRING */
    VIZ_MODE_COUNT = 3,
} viz_mode;

const char *viz_mode_name(viz_mode mode);

/* The default scene: the first built-in (the `drape` command's). */
#define VIZ_DEFAULT_SCENE "cloth-sphere"

typedef struct viz_sim {
    /* settings: change them, then viz_sim_build */
    const char *scene_name; /* built-in name or scene file; NULL: the default scene */
    uint32_t resolution;    /* particles along each cloth edge; 0: as the scene says */
    viz_mode mode;
    drape_backend backend;
    const char *device;            /* OpenCL device selector, NULL: the library's default */
    void *gl_context, *gl_display; /* GLX handles for OpenCL-OpenGL sharing, NULL for none */
    char no_sharing[256];          /* why they are NULL, for the log and the HUD */

    /* state */
    drape_scene *scene;
    drape_world *world; /* the scene's */
    viz_topology topology;
    float strain_scale; /* strain at the ends of the stress colour scale */
    uint64_t steps;
    uint32_t splits;        /* vertex splits by tearing, as of the last step */
    bool triangles_changed; /* a tear moved triangles (topology.triangles): draw them anew */

    /* the grab */
    bool grabbing;
    drape_attachment_id grab_attachment;
    uint32_t grab_particle;
    float grab_depth;    /* m along the view direction, kept while dragging */
    drape_vec3 *scratch; /* particle positions for picking */
} viz_sim;

/* "cloth-sphere, triangle-plane, ..." */
const char *viz_sim_scene_names(char *buf, size_t size);

/* Destroys the current world (if any) and builds a new one from the settings. False, with a
 * message, when the world cannot be made; the sim then has no world. */
bool viz_sim_build(viz_sim *sim);
void viz_sim_destroy(viz_sim *sim);
/* One step of the scene (scripted targets move first). */
bool viz_sim_step(viz_sim *sim);

/* Starts a grab where the ray (from the eye along `direction`, unit) first meets a surface or a
 * sphere; false when it misses. `forward` is the camera's unit view direction. */
bool viz_sim_grab(viz_sim *sim, viz_vec3 eye, viz_vec3 direction, viz_vec3 forward);
/* Moves the grabbed particle's target to the ray's point at the grab's depth. */
void viz_sim_drag(viz_sim *sim, viz_vec3 eye, viz_vec3 direction, viz_vec3 forward);
void viz_sim_release(viz_sim *sim);

#endif

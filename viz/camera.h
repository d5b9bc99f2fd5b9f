/* The orbit camera: it circles a target point at a distance, turned by yaw and pitch; the mouse
 * orbits, pans and zooms it, and picking casts rays through it. */
#ifndef VIZ_CAMERA_H
#define VIZ_CAMERA_H

#include "vecmath.h"

typedef struct viz_camera {
    viz_vec3 target;  /* m, the point it orbits */
    float yaw, pitch; /* rad; yaw 0 looks along -z, pitch > 0 looks down */
    float distance;   /* m from the target */
    float fovy;       /* rad, vertical field of view */
} viz_camera;

/* A view of the default scene: the 1 m cloth over its sphere, from the front and above. */
viz_camera viz_camera_default(void);

/* Aims the view at the box lo .. hi (m) so that it about fills the view. */
void viz_camera_frame(viz_camera *cam, viz_vec3 lo, viz_vec3 hi);

viz_vec3 viz_camera_eye(const viz_camera *cam);
/* The unit direction it looks in. */
viz_vec3 viz_camera_forward(const viz_camera *cam);
viz_mat4 viz_camera_view(const viz_camera *cam);
viz_mat4 viz_camera_projection(const viz_camera *cam, float aspect);

/* Mouse motions in pixels of a viewport `height` pixels high. */
void viz_camera_orbit(viz_camera *cam, float dx, float dy);
void viz_camera_pan(viz_camera *cam, float dx, float dy, float height);
void viz_camera_zoom(viz_camera *cam, float wheel_steps);

/* The ray through pixel (x, y) (y down) of a width x height viewport: origin (the eye) and unit
 * direction. */
void viz_camera_ray(const viz_camera *cam, float x, float y, float width, float height,
                    viz_vec3 *origin, viz_vec3 *direction);

#endif

/* What every drawing pass of a frame needs to know: the camera's matrices and eye, and the display
 * toggles (C, Z) the keys set. */
#ifndef VIZ_VIEW_PARAMS_H
#define VIZ_VIEW_PARAMS_H

#include "vecmath.h"

#include <stdbool.h>

typedef struct viz_view_params {
    viz_mat4 view_projection;
    viz_vec3 eye;
    bool skeleton;      /* C: particles and constraint lines instead of the surface */
    bool stress;        /* Z: colour by strain */
    float strain_scale; /* strain at the ends of the colour scale */
    int grabbed;        /* the grabbed particle, -1 for none */
    float point_size;   /* pixels */
    float pixel_scale;  /* pixels spanned by 1 m at clip w = 1 (projection[1][1] * viewport height):
                           a sphere of radius r at clip w is r * pixel_scale / w pixels across */
} viz_view_params;

#endif

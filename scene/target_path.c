/* Scripted attachment targets: a path that says where a target is at time t, so that a scene file
 * can move an attachment (PBD as inverse kinematics: the end of a chain follows a target
 * and the solver finds the pose). The scene sets each scripted target to where its path is at the
 * end of the coming step, through drape_world_set_attachment_target, before every step.
 *
 * The maths is in double and depends only on t, so a run is the same whatever the backend.
 */
#include "scene_internal.h"

#include <math.h>

sc_target_path sc_default_target_path(void)
{
    sc_target_path p = {
        .type = SC_PATH_CIRCLE,
        .centre = {0.0f, 1.0f, 0.0f},
        .normal = {0.0f, 0.0f, 1.0f},
        .radius = 0.5f,
        .period = 4.0f,
        .phase = 0.0f,
        .start = {0.0f, 1.0f, 0.0f},
        .velocity = {0.0f, 0.0f, 0.0f},
    };
    return p;
}

/* The unit normal n and two unit vectors u, v with u x v = n: the plane of a circle. For n = +z, u
 * is +x and v is +y. */
static void circle_basis(drape_vec3 normal, double n[3], double u[3], double v[3])
{
    double len = sqrt((double)normal.x * normal.x + (double)normal.y * normal.y +
                      (double)normal.z * normal.z);
    n[0] = normal.x / len, n[1] = normal.y / len, n[2] = normal.z / len;
    double a[3] = {1.0, 0.0, 0.0};
    if (fabs(n[0]) > 0.9)
        a[0] = 0.0, a[1] = 1.0;
    double d = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
    for (int k = 0; k < 3; ++k)
        u[k] = a[k] - d * n[k];
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; ++k)
        u[k] /= ul;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
}

drape_vec3 sc_target_path_at(const sc_target_path *p, double t)
{
    if (p->type == SC_PATH_LINEAR)
        return (drape_vec3){(float)(p->start.x + p->velocity.x * t),
                            (float)(p->start.y + p->velocity.y * t),
                            (float)(p->start.z + p->velocity.z * t)};
    double n[3], u[3], v[3];
    circle_basis(p->normal, n, u, v);
    const double two_pi = 6.283185307179586;
    double a = p->phase + two_pi * t / p->period;
    double c = p->radius * cos(a), s = p->radius * sin(a);
    return (drape_vec3){(float)(p->centre.x + c * u[0] + s * v[0]),
                        (float)(p->centre.y + c * u[1] + s * v[1]),
                        (float)(p->centre.z + c * u[2] + s * v[2])};
}

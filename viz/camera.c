/* The orbit camera (camera.h). Yaw and pitch turn the eye around the target on a sphere of radius
 * `distance`; pitch stays short of the poles so that the view's up vector (+y) is never parallel to
 * the view direction. */
#include "camera.h"

#include <math.h>

static const float pi = 3.14159265358979f;

viz_camera viz_camera_default(void)
{
    return (viz_camera){.target = {0.0f, 0.05f, 0.0f},
                        .yaw = 0.6f,
                        .pitch = 0.5f,
                        .distance = 1.6f,
                        .fovy = 45.0f * pi / 180.0f};
}

void viz_camera_frame(viz_camera *c, viz_vec3 lo, viz_vec3 hi)
{
    const viz_vec3 size = viz_sub(hi, lo);
    const float radius = 0.5f * viz_length(size);
    c->target = viz_scale(viz_add(lo, hi), 0.5f);
    c->distance = fmaxf(0.85f * radius / sinf(0.5f * c->fovy), 0.2f);
}

viz_vec3 viz_camera_forward(const viz_camera *c)
{
    float cp = cosf(c->pitch);
    return viz_v3(-sinf(c->yaw) * cp, -sinf(c->pitch), -cosf(c->yaw) * cp);
}

viz_vec3 viz_camera_eye(const viz_camera *c)
{
    return viz_sub(c->target, viz_scale(viz_camera_forward(c), c->distance));
}

viz_mat4 viz_camera_view(const viz_camera *c)
{
    return viz_mat4_look_at(viz_camera_eye(c), c->target, viz_v3(0.0f, 1.0f, 0.0f));
}

viz_mat4 viz_camera_projection(const viz_camera *c, float aspect)
{
    float near = 0.01f * c->distance;
    return viz_mat4_perspective(c->fovy, aspect > 0.0f ? aspect : 1.0f, near,
                                100.0f + 10.0f * c->distance);
}

void viz_camera_orbit(viz_camera *c, float dx, float dy)
{
    c->yaw -= 0.008f * dx;
    c->pitch += 0.008f * dy;
    const float limit = 0.49f * pi;
    if (c->pitch > limit)
        c->pitch = limit;
    if (c->pitch < -limit)
        c->pitch = -limit;
}

/* Moves the target in the view plane so that the point under the cursor follows it. */
void viz_camera_pan(viz_camera *c, float dx, float dy, float height)
{
    viz_vec3 f = viz_camera_forward(c);
    viz_vec3 right = viz_normalize(viz_cross(f, viz_v3(0.0f, 1.0f, 0.0f)));
    viz_vec3 up = viz_cross(right, f);
    float metres_per_pixel =
        2.0f * c->distance * tanf(0.5f * c->fovy) / (height > 0.0f ? height : 1.0f);
    c->target = viz_add(c->target, viz_scale(right, -dx * metres_per_pixel));
    c->target = viz_add(c->target, viz_scale(up, dy * metres_per_pixel));
}

void viz_camera_zoom(viz_camera *c, float steps)
{
    c->distance *= powf(0.9f, steps);
    if (c->distance < 0.05f)
        c->distance = 0.05f;
    if (c->distance > 100.0f)
        c->distance = 100.0f;
}

void viz_camera_ray(const viz_camera *c, float x, float y, float width, float height,
                    viz_vec3 *origin, viz_vec3 *direction)
{
    viz_vec3 f = viz_camera_forward(c);
    viz_vec3 right = viz_normalize(viz_cross(f, viz_v3(0.0f, 1.0f, 0.0f)));
    viz_vec3 up = viz_cross(right, f);
    float t = tanf(0.5f * c->fovy);
    float aspect = height > 0.0f ? width / height : 1.0f;
    float nx = 2.0f * (x + 0.5f) / width - 1.0f, ny = 1.0f - 2.0f * (y + 0.5f) / height;
    *origin = viz_camera_eye(c);
    *direction = viz_normalize(
        viz_add(f, viz_add(viz_scale(right, nx * t * aspect), viz_scale(up, ny * t))));
}

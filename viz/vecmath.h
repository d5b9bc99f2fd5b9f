/* The little linear algebra the viewer needs: 3-vectors and column-major 4x4 matrices as OpenGL
 * takes them (glUniformMatrix4fv with transpose = GL_FALSE). Header-only, static inline. */
#ifndef VIZ_VECMATH_H
#define VIZ_VECMATH_H

#include <math.h>

typedef struct viz_vec3 {
    float x, y, z;
} viz_vec3;

typedef struct viz_mat4 {
    float m[16]; /* column-major: element (row r, column c) is m[4 * c + r] */
} viz_mat4;

static inline viz_vec3 viz_v3(float x, float y, float z) { return (viz_vec3){x, y, z}; }
static inline viz_vec3 viz_add(viz_vec3 a, viz_vec3 b)
{
    return viz_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline viz_vec3 viz_sub(viz_vec3 a, viz_vec3 b)
{
    return viz_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline viz_vec3 viz_scale(viz_vec3 a, float s) { return viz_v3(a.x * s, a.y * s, a.z * s); }
static inline float viz_dot(viz_vec3 a, viz_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline viz_vec3 viz_cross(viz_vec3 a, viz_vec3 b)
{
    return viz_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float viz_length(viz_vec3 a) { return sqrtf(viz_dot(a, a)); }
static inline viz_vec3 viz_normalize(viz_vec3 a)
{
    float l = viz_length(a);
    return l > 0.0f ? viz_scale(a, 1.0f / l) : a;
}

static inline viz_mat4 viz_mat4_identity(void)
{
    viz_mat4 r = {{0}};
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
    return r;
}

static inline viz_mat4 viz_mat4_mul(viz_mat4 a, viz_mat4 b)
{
    viz_mat4 r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k)
                s += a.m[4 * k + row] * b.m[4 * c + k];
            r.m[4 * c + row] = s;
        }
    return r;
}

/* Right-handed perspective (gluPerspective): vertical field of view in radians. */
static inline viz_mat4 viz_mat4_perspective(float fovy, float aspect, float near, float far)
{
    viz_mat4 r = {{0}};
    float f = 1.0f / tanf(0.5f * fovy);
    r.m[0] = f / aspect;
    r.m[5] = f;
    r.m[10] = (far + near) / (near - far);
    r.m[11] = -1.0f;
    r.m[14] = 2.0f * far * near / (near - far);
    return r;
}

/* gluLookAt. */
static inline viz_mat4 viz_mat4_look_at(viz_vec3 eye, viz_vec3 target, viz_vec3 up)
{
    viz_vec3 f = viz_normalize(viz_sub(target, eye));
    viz_vec3 s = viz_normalize(viz_cross(f, up));
    viz_vec3 u = viz_cross(s, f);
    viz_mat4 r = viz_mat4_identity();
    r.m[0] = s.x, r.m[4] = s.y, r.m[8] = s.z;
    r.m[1] = u.x, r.m[5] = u.y, r.m[9] = u.z;
    r.m[2] = -f.x, r.m[6] = -f.y, r.m[10] = -f.z;
    r.m[12] = -viz_dot(s, eye);
    r.m[13] = -viz_dot(u, eye);
    r.m[14] = viz_dot(f, eye);
    return r;
}

/* Orthographic projection of the rectangle [0, w] x [0, h] with y down (pixels, for the overlay).
 */
static inline viz_mat4 viz_mat4_pixels(float w, float h)
{
    viz_mat4 r = viz_mat4_identity();
    r.m[0] = 2.0f / w;
    r.m[5] = -2.0f / h;
    r.m[12] = -1.0f;
    r.m[13] = 1.0f;
    return r;
}

#endif

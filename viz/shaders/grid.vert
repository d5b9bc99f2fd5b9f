// A plane collider as a large square with a grid on it: (u, v) in metres along the plane.
layout(location = 0) in vec2 uv; // in [-1, 1]

uniform mat4 view_projection;
uniform vec3 origin;    // a point on the plane, m
uniform vec3 u_axis;    // unit vectors in the plane
uniform vec3 v_axis;
uniform float half_size; // m

out vec2 v_plane;
out vec3 v_world;

void main()
{
    v_plane = uv * half_size;
    v_world = origin + u_axis * v_plane.x + v_axis * v_plane.y;
    gl_Position = view_projection * vec4(v_world, 1.0);
}

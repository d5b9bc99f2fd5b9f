// The skeleton's particles as round points; the grabbed one is larger and highlighted.
layout(location = 0) in vec4 position;

uniform mat4 view_projection;
uniform float point_size;
uniform int grabbed; // particle index, -1 for none

out vec3 v_color;

void main()
{
    bool g = gl_VertexID == grabbed;
    v_color = g ? vec3(1.0, 0.95, 0.2) : vec3(0.95, 0.95, 0.95);
    gl_PointSize = g ? 3.0 * point_size : point_size;
    gl_Position = view_projection * vec4(position.xyz, 1.0);
}

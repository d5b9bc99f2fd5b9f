// Particles on no surface (ropes, loose particles) as spheres: one point each, as large on screen
// as a sphere of the particle's radius (colour.w, m) at its depth; spheres.frag shades it as one.
layout(location = 0) in vec4 position;
layout(location = 2) in vec4 color; // rgb: the object's colour; w: the radius, m

uniform mat4 view_projection;
uniform float pixel_scale; // pixels spanned by 1 m at clip w = 1: projection[1][1] * viewport height
uniform int grabbed;       // particle index, -1 for none

out vec3 v_color;

void main()
{
    gl_Position = view_projection * vec4(position.xyz, 1.0);
    v_color = gl_VertexID == grabbed ? vec3(1.0, 0.95, 0.2) : color.rgb;
    gl_PointSize = max(2.0, color.w * pixel_scale / max(gl_Position.w, 1e-3));
}

// Two-sided surfaces: the back face flips the normal and is a little darker.
in vec3 v_world;
in vec3 v_normal;
in float v_strain;
in vec3 v_color;

uniform vec3 eye;
uniform int stress;

out vec4 color;

void main()
{
    vec3 v = normalize(eye - v_world);
    vec3 n = length(v_normal) > 1e-6 ? normalize(v_normal) : v;
    if (!gl_FrontFacing)
        n = -n;
    vec3 albedo = stress != 0 ? strain_color(v_strain) : (gl_FrontFacing ? v_color : 0.8 * v_color);
    color = vec4(shade(albedo, n, v), 1.0);
}

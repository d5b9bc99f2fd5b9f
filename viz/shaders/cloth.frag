// Two-sided cloth: the back face flips the normal and takes its own colour.
in vec3 v_world;
in vec3 v_normal;
in float v_strain;

uniform vec3 eye;
uniform int stress;
uniform vec3 front_color;
uniform vec3 back_color;

out vec4 color;

void main()
{
    vec3 v = normalize(eye - v_world);
    vec3 n = length(v_normal) > 1e-6 ? normalize(v_normal) : v;
    if (!gl_FrontFacing)
        n = -n;
    vec3 albedo = stress != 0 ? strain_color(v_strain) : (gl_FrontFacing ? front_color : back_color);
    color = vec4(shade(albedo, n, v), 1.0);
}

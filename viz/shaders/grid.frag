// The ground grid: lines every 0.1 m and brighter ones every 1 m, anti-aliased with the screen-space
// derivatives, fading out with distance from the eye.
in vec2 v_plane;
in vec3 v_world;

uniform vec3 eye;
uniform vec3 normal;
uniform vec3 albedo;

out vec4 color;

float grid_line(vec2 p, float spacing)
{
    vec2 q = p / spacing;
    vec2 w = fwidth(q);
    vec2 d = abs(fract(q - 0.5) - 0.5) / max(w, vec2(1e-6));
    return 1.0 - min(min(d.x, d.y), 1.0);
}

void main()
{
    vec3 v = normalize(eye - v_world);
    vec3 n = dot(normal, v) < 0.0 ? -normal : normal;
    vec3 base = shade(albedo, n, v);
    float fine = grid_line(v_plane, 0.1), coarse = grid_line(v_plane, 1.0);
    float fade = exp(-0.08 * length(eye - v_world));
    vec3 c = mix(base, vec3(0.55), 0.35 * fine * fade);
    c = mix(c, vec3(0.75), 0.6 * coarse * fade);
    color = vec4(c, 1.0);
}

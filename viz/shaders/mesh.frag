// A lit collider.
in vec3 v_world;
in vec3 v_normal;

uniform vec3 eye;
uniform vec3 albedo;

out vec4 color;

void main()
{
    vec3 v = normalize(eye - v_world);
    vec3 n = normalize(v_normal);
    if (dot(n, v) < 0.0)
        n = -n;
    color = vec4(shade(albedo, n, v), 1.0);
}

// Prepended to every shader of the viewer after the #version line (viz/shader.c): the lighting and
// the strain colour scale, so that the cloth, the skeleton and the legend agree.

// Diverging scale for strain s / scale in [-1, 1]: blue (compressed), light grey (rest), red
// (stretched); Moreland's "cool to warm" end points.
vec3 strain_color(float t)
{
    t = clamp(t, -1.0, 1.0);
    vec3 cold = vec3(0.23, 0.30, 0.75), mid = vec3(0.86, 0.86, 0.86), warm = vec3(0.71, 0.02, 0.15);
    return t < 0.0 ? mix(mid, cold, -t) : mix(mid, warm, t);
}

// A key light from above, a fill light from the eye and some ambient; n and v unit, n facing v.
vec3 shade(vec3 albedo, vec3 n, vec3 v)
{
    vec3 key = normalize(vec3(0.35, 1.0, 0.45));
    float diffuse = max(dot(n, key), 0.0) * 0.65 + max(dot(n, v), 0.0) * 0.3 + 0.2;
    float specular = pow(max(dot(n, normalize(key + v)), 0.0), 32.0) * 0.15;
    return albedo * diffuse + vec3(specular);
}

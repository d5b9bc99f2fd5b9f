// A point drawn as a lit sphere: the normal from the point coordinate, the view taken as straight on.
in vec3 v_color;
out vec4 color;

void main()
{
    vec2 d = 2.0 * gl_PointCoord - vec2(1.0);
    float r2 = dot(d, d);
    if (r2 > 1.0)
        discard;
    vec3 n = vec3(d.x, -d.y, sqrt(1.0 - r2)); // eye space: +z towards the eye
    color = vec4(shade(v_color, n, vec3(0.0, 0.0, 1.0)), 1.0);
}

// A round point.
in vec3 v_color;
out vec4 color;

void main()
{
    vec2 d = gl_PointCoord - vec2(0.5);
    if (dot(d, d) > 0.25)
        discard;
    color = vec4(v_color, 1.0);
}

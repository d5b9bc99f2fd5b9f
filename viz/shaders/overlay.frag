// Solid panels, glyphs from the font atlas (an R8 coverage texture) and the strain colour bar.
in vec2 v_uv;
in vec4 v_tint;
flat in int v_mode;

uniform sampler2D font;

out vec4 color;

void main()
{
    if (v_mode == 1)
        color = vec4(v_tint.rgb, v_tint.a * texture(font, v_uv).r);
    else if (v_mode == 2)
        color = vec4(strain_color(1.0 - 2.0 * v_uv.y), 1.0);
    else
        color = v_tint;
}

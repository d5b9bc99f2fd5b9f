// The overlay (text, panels, the stress legend) in pixels, y down.
layout(location = 0) in vec2 position; // pixels
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 tint;
layout(location = 3) in float mode;    // 0 solid, 1 glyph (font texture), 2 strain scale (uv.y)

uniform mat4 projection;

out vec2 v_uv;
out vec4 v_tint;
flat out int v_mode;

void main()
{
    v_uv = uv;
    v_tint = tint;
    v_mode = int(mode + 0.5);
    gl_Position = projection * vec4(position, 0.0, 1.0);
}

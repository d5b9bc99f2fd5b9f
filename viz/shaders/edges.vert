// The skeleton's constraint lines, drawn with no vertex attributes: line e's two vertices are
// gl_VertexID 2e and 2e + 1; its particles and rest length come from texture buffers, its ends from
// the positions buffer. With stress colouring each line shows its own strain.
uniform mat4 view_projection;
uniform int stress;
uniform float strain_scale;
uniform samplerBuffer positions;  // RGBA32F, the cloth's positions buffer
uniform usamplerBuffer edges;     // RG32UI: the two particles of each line
uniform samplerBuffer edge_rest;  // R32F: rest length, m
uniform vec3 edge_color;
uniform int particle_colors;     // 1: each line in its first particle's colour (ropes)
uniform samplerBuffer colors;    // RGBA32F: per particle, the object's colour

out vec3 v_color;

void main()
{
    int e = gl_VertexID / 2;
    uvec2 ends = texelFetch(edges, e).rg;
    vec3 a = texelFetch(positions, int(ends.x)).xyz, b = texelFetch(positions, int(ends.y)).xyz;
    float rest = texelFetch(edge_rest, e).r;
    vec3 plain = particle_colors != 0 ? texelFetch(colors, int(ends.x)).rgb : edge_color;
    v_color = stress != 0 ? strain_color((length(b - a) - rest) / rest / strain_scale) : plain;
    vec3 p = (gl_VertexID & 1) == 0 ? a : b;
    gl_Position = view_projection * vec4(p, 1.0);
}

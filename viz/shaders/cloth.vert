// The surfaces (cloths, meshes): positions and normals straight from the solver's buffers (written by
// OpenCL, or uploaded), each particle in its object's colour. With stress colouring on, each vertex averages the strain (|xa - xb| - rest) / rest of
// its structural and shear neighbours, fetched from texture buffers: the positions buffer itself and
// the per-vertex neighbour lists (CSR) that viz/topology.c builds.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 normal;
layout(location = 2) in vec4 color; // rgb: the object's colour

uniform mat4 view_projection;
uniform int stress;           // 1: colour by strain
uniform float strain_scale;   // strain shown at the ends of the colour scale
uniform samplerBuffer positions;     // the positions buffer again, RGBA32F
uniform usamplerBuffer neighbour_offsets; // vertex v's neighbours are [offsets[v], offsets[v + 1])
uniform usamplerBuffer neighbours;   // neighbour particle index
uniform samplerBuffer rest_lengths;  // rest length of that pair, m

out vec3 v_world;
out vec3 v_normal;
out float v_strain;
out vec3 v_color;

void main()
{
    v_world = position.xyz;
    v_normal = normal.xyz;
    v_color = color.rgb;
    v_strain = 0.0;
    if (stress != 0) {
        int first = int(texelFetch(neighbour_offsets, gl_VertexID).r);
        int last = int(texelFetch(neighbour_offsets, gl_VertexID + 1).r);
        float sum = 0.0;
        for (int k = first; k < last; ++k) {
            vec3 other = texelFetch(positions, int(texelFetch(neighbours, k).r)).xyz;
            float rest = texelFetch(rest_lengths, k).r;
            sum += (length(other - position.xyz) - rest) / rest;
        }
        v_strain = last > first ? sum / float(last - first) / strain_scale : 0.0;
    }
    gl_Position = view_projection * vec4(position.xyz, 1.0);
}

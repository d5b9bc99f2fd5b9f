// A collider mesh (sphere, capsule): model-space positions and normals, placed by `model` (a
// translation and a uniform scale, so that the normal needs no inverse transpose).
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

uniform mat4 view_projection;
uniform mat4 model;

out vec3 v_world;
out vec3 v_normal;

void main()
{
    vec4 world = model * vec4(position, 1.0);
    v_world = world.xyz;
    v_normal = mat3(model) * normal;
    gl_Position = view_projection * world;
}

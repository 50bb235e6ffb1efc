// Skinned mesh, vertex stage: blends the morph targets into the bind-time vertex, skins it with its (up to eight) palette matrices
// and passes world-space position and normal to lit.frag.
#include "skinning.glsl"

layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_UV) in vec2 a_uv;

uniform mat4 u_view_projection;
uniform int u_weight_bone;  // mesh bone whose weight is shown as a heat map, -1 for none

out vec3 v_position_world;
out vec3 v_normal_world;
out vec2 v_uv;
out float v_weight;

void main() {
  vec3 bind_position = a_position;
  vec3 bind_normal = a_normal;
  ApplyMorphTargets(bind_position, bind_normal);
  mat4 skin = SkinMatrix();
  vec4 position = skin * vec4(bind_position, 1.0);
  v_position_world = position.xyz;
  v_normal_world = SkinNormal(skin, bind_normal);
  v_uv = a_uv;
  v_weight = BoneWeight(u_weight_bone);
  gl_Position = u_view_projection * vec4(position.xyz, 1.0);
}

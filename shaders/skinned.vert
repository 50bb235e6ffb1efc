// Skinned mesh, vertex stage: skins the bind-time vertex (with its blend shapes, which
// morph_blend.frag applied to a_position/a_normal) with its (up to eight) palette matrices, passes
// world-space position and normal to lit.frag, and picks the colour of the influence-count and
// weight-problem views.
#include "skinning.glsl"

layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_UV) in vec2 a_uv;
// assets::Mesh::weight_flags: 1 unweighted, 2 not summing to 1, 4 more than 8 influences.
layout(location = ATTRIB_WEIGHT_FLAGS) in uint a_weight_flags;

uniform mat4 u_view_projection;
uniform int u_weight_bone;  // mesh bone whose weight is shown as a heat map, -1 for none
uniform int u_weight_view;  // 0 materials, 1 heat map, 2 influence counts, 3 weight problems

out vec3 v_position_world;
out vec3 v_normal_world;
out vec2 v_uv;
out float v_weight;
out vec3 v_weight_color;  // the influence-count or problem colour (views 2 and 3)

// The weight views' colours, set once from renderer::kInfluenceColors (by influence count, 0 to 8)
// and renderer::kProblemColors (unweighted, not summing to 1, more than eight), so the keys and
// legends drawn on the C++ side show exactly these.
uniform vec3 u_influence_colors[9];
uniform vec3 u_problem_colors[3];

int InfluenceCount() {
  if ((a_weight_flags & 1u) != 0u) return 0;
  int count = int(dot(vec4(notEqual(a_weights, vec4(0.0))), vec4(1.0)));
  if (u_extra_influences != 0) {
    count += int(dot(vec4(notEqual(a_extra_weights, vec4(0.0))), vec4(1.0)));
  }
  return clamp(count, 0, 8);
}

vec3 ProblemColor() {
  if ((a_weight_flags & 1u) != 0u) return u_problem_colors[0];
  if ((a_weight_flags & 4u) != 0u) return u_problem_colors[2];
  if ((a_weight_flags & 2u) != 0u) return u_problem_colors[1];
  return vec3(0.5);
}

void main() {
  mat4 skin = SkinMatrix();
  vec4 position = skin * vec4(a_position, 1.0);
  v_position_world = position.xyz;
  v_normal_world = SkinNormal(skin, a_normal);
  v_uv = a_uv;
  v_weight = BoneWeight(u_weight_bone);
  v_weight_color = u_weight_view == 2 ? u_influence_colors[InfluenceCount()]
                   : u_weight_view == 3 ? ProblemColor()
                                        : vec3(0.0);
  gl_Position = u_view_projection * vec4(position.xyz, 1.0);
}

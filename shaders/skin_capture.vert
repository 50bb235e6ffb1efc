// Skinning for read-back: the same skinning.glsl as skinned.vert, with the world-space position
// and unit normal captured by transform feedback instead of rasterized.
#include "skinning.glsl"

layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;

out vec3 v_position_world;
out vec3 v_normal_world;

void main() {
  mat4 skin = SkinMatrix();
  v_position_world = (skin * vec4(a_position, 1.0)).xyz;
  vec3 n = SkinNormal(skin, a_normal);
  float length2 = dot(n, n);
  v_normal_world = length2 > 0.0 ? n * inversesqrt(length2) : vec3(0.0);
  gl_Position = vec4(v_position_world, 1.0);
}

// Linear blend skinning, shared by skinned.vert (drawing) and skin_capture.vert (read-back) so
// both compute the same numbers. The palette is a texture buffer of RGBA32F texels, four per
// matrix (its columns), so a rig has no fixed joint limit.

uniform samplerBuffer u_palette;
uniform int u_palette_offset;  // index of this mesh's first matrix in u_palette
// 1 when the mesh has influences five to eight (a_extra_joints/a_extra_weights), else 0: a mesh
// with four or fewer has no such attributes bound and skips their fetches.
uniform int u_extra_influences;

layout(location = ATTRIB_JOINTS) in uvec4 a_joints;
layout(location = ATTRIB_WEIGHTS) in vec4 a_weights;
layout(location = ATTRIB_EXTRA_JOINTS) in uvec4 a_extra_joints;
layout(location = ATTRIB_EXTRA_WEIGHTS) in vec4 a_extra_weights;

// Palette matrix of mesh bone `bone`: T[joint] * inverse_bind[bone] (model space at bind -> now).
mat4 PaletteMatrix(uint bone) {
  int base = 4 * (u_palette_offset + int(bone));
  return mat4(texelFetch(u_palette, base), texelFetch(u_palette, base + 1),
              texelFetch(u_palette, base + 2), texelFetch(u_palette, base + 3));
}

mat4 BlendFour(uvec4 joints, vec4 weights) {
  return weights.x * PaletteMatrix(joints.x) + weights.y * PaletteMatrix(joints.y) +
         weights.z * PaletteMatrix(joints.z) + weights.w * PaletteMatrix(joints.w);
}

// sum of w_k * palette[j_k] over the vertex's (up to eight) influences: blending the matrices
// first is the same as blending the skinned positions, and gives one matrix for the normal too.
mat4 SkinMatrix() {
  mat4 skin = BlendFour(a_joints, a_weights);
  if (u_extra_influences != 0) skin += BlendFour(a_extra_joints, a_extra_weights);
  return skin;
}

// Weight of mesh bone `bone` in this vertex (0 for -1).
float BoneWeight(int bone) {
  float w = dot(a_weights, vec4(equal(ivec4(a_joints), ivec4(bone))));
  if (u_extra_influences != 0) {
    w += dot(a_extra_weights, vec4(equal(ivec4(a_extra_joints), ivec4(bone))));
  }
  return w;
}

// Normal under `skin`. The cofactor matrix equals det * inverse-transpose, so it handles
// non-uniform scale like the inverse-transpose but stays defined when a bone is scaled to zero;
// multiplying by the sign of det keeps normals outward under mirroring. Not normalized.
vec3 SkinNormal(mat4 skin, vec3 normal) {
  mat3 m = mat3(skin);
  mat3 cofactor = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
  vec3 n = cofactor * normal;
  return dot(m[0], cofactor[0]) < 0.0 ? -n : n;
}

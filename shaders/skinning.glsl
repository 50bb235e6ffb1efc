// Linear blend skinning, shared by skinned.vert (drawing) and skin_capture.vert (read-back) so
// both compute the same numbers. The palette is a texture buffer of RGBA32F texels, four per
// matrix (its columns), so a rig has no fixed joint limit.

uniform samplerBuffer u_palette;
uniform int u_palette_offset;  // index of this mesh's first matrix in u_palette

// Palette matrix of mesh bone `bone`: T[joint] * inverse_bind[bone] (model space at bind -> now).
mat4 PaletteMatrix(uint bone) {
  int base = 4 * (u_palette_offset + int(bone));
  return mat4(texelFetch(u_palette, base), texelFetch(u_palette, base + 1),
              texelFetch(u_palette, base + 2), texelFetch(u_palette, base + 3));
}

// sum of w_k * palette[j_k]: blending the matrices first is the same as blending the four skinned
// positions, and gives one matrix for the normal too.
mat4 SkinMatrix(uvec4 joints, vec4 weights) {
  return weights.x * PaletteMatrix(joints.x) + weights.y * PaletteMatrix(joints.y) +
         weights.z * PaletteMatrix(joints.z) + weights.w * PaletteMatrix(joints.w);
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

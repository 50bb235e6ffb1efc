// Blend shapes, once per change of weights, one fragment per output vector: texel 2v of the
// RGBA32F target is vertex v's blended bind-time position, texel 2v + 1 its normal, rows of
// u_row_texels texels one after the other. Read back as RGB floats, those texels are exactly the
// interleaved (position, normal) vertices that skinned.vert and skin_capture.vert read, so a draw
// costs the same with targets as without. Fragments run on every rasterizer thread, which a
// vertex pass does not on a software rasterizer, and each fetches one texel per target.

// MORPH_ENTRIES_PER_PASS (target index, weight) entries, two per vec4: the targets with a
// non-zero weight, u_morph_count of them in this pass; the unused half of the last vec4 is
// (0, 0). More active targets than fit take several passes, the later ones added by blending.
// A uniform array rather than a texture: every fragment reads the same entries.
uniform vec4 u_morph_active[MORPH_ENTRIES_PER_PASS / 2];
uniform int u_morph_count;
// Blocks of u_morph_texels RGBA32F texels (position, normal per vertex): block 0 the unblended
// vertices, block t + 1 target t's deltas.
uniform samplerBuffer u_morph_deltas;
uniform int u_morph_texels;
uniform int u_row_texels;
uniform bool u_add_base;  // the first pass starts from the unblended vertex, the others from 0

out vec4 o_value;

void main() {
  int texel = int(gl_FragCoord.y) * u_row_texels + int(gl_FragCoord.x);
  if (texel >= u_morph_texels) discard;  // past the last vertex, in the last row
  vec3 sum = u_add_base ? texelFetch(u_morph_deltas, texel).xyz : vec3(0.0);
  // Two entries per iteration, as they are packed; an odd count's last pair has weight 0.
  for (int i = 0; i < (u_morph_count + 1) / 2; ++i) {
    vec4 pair = u_morph_active[i];
    sum += pair.y * texelFetch(u_morph_deltas, (int(pair.x) + 1) * u_morph_texels + texel).xyz +
           pair.w * texelFetch(u_morph_deltas, (int(pair.z) + 1) * u_morph_texels + texel).xyz;
  }
  o_value = vec4(sum, 0.0);
}

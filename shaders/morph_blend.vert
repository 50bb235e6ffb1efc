// Blend shapes, once per change of weights: the bind-time position and normal plus the active
// targets' weighted deltas, captured by transform feedback into the buffer that skinned.vert and
// skin_capture.vert then read as their a_position/a_normal. A draw therefore costs the same with
// targets as without; the deltas are fetched once per vertex, not once per draw.

layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;

// MORPH_ENTRIES_PER_PASS (target index, weight) entries, two per vec4: the targets with a
// non-zero weight, u_morph_count of them in this pass (0 copies the vertex through); the unused
// half of the last vec4 is (0, 0). More active targets than fit take several passes, each adding
// its share to the previous pass's output. A uniform array rather than a texture: every vertex
// reads the same entries.
uniform vec4 u_morph_active[MORPH_ENTRIES_PER_PASS / 2];
uniform int u_morph_count;
// Two RGBA32F texels per (target, vertex), at 2 * (target * u_morph_vertices + vertex): the
// position delta, then the normal delta.
uniform samplerBuffer u_morph_deltas;
uniform int u_morph_vertices;

out vec3 v_position;
out vec3 v_normal;

void main() {
  vec3 position = a_position;
  vec3 normal = a_normal;
  // Two entries per iteration, as they are packed; an odd count's last pair has weight 0.
  for (int i = 0; i < (u_morph_count + 1) / 2; ++i) {
    vec4 pair = u_morph_active[i];
    int a = 2 * (int(pair.x) * u_morph_vertices + gl_VertexID);
    int b = 2 * (int(pair.z) * u_morph_vertices + gl_VertexID);
    position += pair.y * texelFetch(u_morph_deltas, a).xyz +
                pair.w * texelFetch(u_morph_deltas, b).xyz;
    normal += pair.y * texelFetch(u_morph_deltas, a + 1).xyz +
              pair.w * texelFetch(u_morph_deltas, b + 1).xyz;
  }
  v_position = position;
  v_normal = normal;
  gl_Position = vec4(position, 1.0);
}

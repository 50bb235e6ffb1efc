// Debug lines, geometry stage: turns each segment into a screen-space quad of the requested pixel
// width (core profiles need not draw lines wider than 1 px), one pixel wider on each side for
// line.frag's anti-aliased edge. The segment is clipped to the near plane first so that the
// perspective divide below never sees w <= 0.

layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

in vec4 vs_color[];
in float vs_width[];

uniform vec2 u_viewport;      // pixels
uniform float u_alpha_scale;  // as in color.frag

out vec4 v_color;
out float v_across;
flat out float v_half_width;

void Emit(vec4 clip, vec2 offset_pixels, vec4 color, float across, float half_width) {
  gl_Position = vec4(clip.xy + offset_pixels * 2.0 / u_viewport * clip.w, clip.zw);
  v_color = color;
  v_across = across;
  v_half_width = half_width;
  EmitVertex();
}

void main() {
  vec4 p0 = gl_in[0].gl_Position, p1 = gl_in[1].gl_Position;
  vec4 c0 = vs_color[0], c1 = vs_color[1];
  // Signed distance to the near plane (z = -w) in clip space.
  float d0 = p0.z + p0.w, d1 = p1.z + p1.w;
  if (d0 < 0.0 && d1 < 0.0) return;
  if (d0 < 0.0) {
    float t = d0 / (d0 - d1);
    p0 = mix(p0, p1, t);
    c0 = mix(c0, c1, t);
  } else if (d1 < 0.0) {
    float t = d1 / (d1 - d0);
    p1 = mix(p1, p0, t);
    c1 = mix(c1, c0, t);
  }
  // Keep w strictly positive (a segment lying in the near plane of an orthographic camera).
  p0.w = max(p0.w, 1e-6);
  p1.w = max(p1.w, 1e-6);

  vec2 s0 = p0.xy / p0.w * 0.5 * u_viewport;
  vec2 s1 = p1.xy / p1.w * 0.5 * u_viewport;
  vec2 d = s1 - s0;
  float len = length(d);
  vec2 dir = len > 1e-4 ? d / len : vec2(1.0, 0.0);  // a point-like segment becomes a square
  float half_width = 0.5 * max(0.5 * (vs_width[0] + vs_width[1]), 1.0);
  // Opaque lines get square caps so that corners (boxes, bones) close. Translucent ones end flush:
  // the caps of consecutive segments of a circle would overlap and blend twice, beading the line.
  float opaque = step(0.999, min(c0.a, c1.a) * u_alpha_scale);
  vec2 along = dir * half_width * opaque;
  float outer = half_width + 1.0;
  vec2 across = vec2(-dir.y, dir.x) * outer;

  Emit(p0, -along - across, c0, -outer, half_width);
  Emit(p0, -along + across, c0, outer, half_width);
  Emit(p1, along - across, c1, -outer, half_width);
  Emit(p1, along + across, c1, outer, half_width);
  EndPrimitive();
}

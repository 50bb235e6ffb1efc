// Debug lines, fragment stage: the vertex colour, its alpha scaled for the dimmed pass of hidden
// parts and faded over the last pixel on each side of the line, so edges are anti-aliased.

in vec4 v_color;
in float v_across;  // pixels from the line's centre
flat in float v_half_width;

uniform float u_alpha_scale;

out vec4 frag_color;

void main() {
  float coverage = clamp(v_half_width + 0.5 - abs(v_across), 0.0, 1.0);
  frag_color = vec4(v_color.rgb, v_color.a * u_alpha_scale * coverage);
}

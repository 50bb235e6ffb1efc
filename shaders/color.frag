// Debug lines and shapes, fragment stage: the interpolated vertex colour, its alpha scaled for
// the dimmed pass of hidden parts.

in vec4 v_color;

uniform float u_alpha_scale;

out vec4 frag_color;

void main() { frag_color = vec4(v_color.rgb, v_color.a * u_alpha_scale); }

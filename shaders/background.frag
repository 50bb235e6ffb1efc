// Background, fragment stage: a vertical gradient.

in float v_height;

uniform vec3 u_top_color;
uniform vec3 u_bottom_color;

out vec4 frag_color;

void main() { frag_color = vec4(mix(u_bottom_color, u_top_color, clamp(v_height, 0.0, 1.0)), 1.0); }

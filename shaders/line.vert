// Debug lines, vertex stage: world-space endpoints to clip space; line.geom widens them.

layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_COLOR) in vec4 a_color;
layout(location = ATTRIB_WIDTH) in float a_width;

uniform mat4 u_view_projection;

out vec4 vs_color;
out float vs_width;

void main() {
  gl_Position = u_view_projection * vec4(a_position, 1.0);
  vs_color = a_color;
  vs_width = a_width;
}

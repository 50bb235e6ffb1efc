// Filled debug shapes (handles, discs, arrow heads), vertex stage: a world-space anchor plus an
// offset in pixels, so handles keep their on-screen size at any distance. The offset's x axis
// follows the projected a_axis when it is non-zero, else the screen's x axis.

layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_AXIS) in vec3 a_axis;
layout(location = ATTRIB_OFFSET) in vec2 a_offset;
layout(location = ATTRIB_COLOR) in vec4 a_color;

uniform mat4 u_view_projection;
uniform vec2 u_viewport;  // pixels

out vec4 v_color;

void main() {
  vec4 clip = u_view_projection * vec4(a_position, 1.0);
  vec2 x_axis = vec2(1.0, 0.0);
  if (dot(a_axis, a_axis) > 0.0 && clip.w > 0.0) {
    vec4 ahead = u_view_projection * vec4(a_position + a_axis, 1.0);
    if (ahead.w > 0.0) {
      vec2 d = (ahead.xy / ahead.w - clip.xy / clip.w) * u_viewport;
      if (dot(d, d) > 1e-8) x_axis = normalize(d);
    }
  }
  vec2 y_axis = vec2(-x_axis.y, x_axis.x);
  vec2 offset_pixels = a_offset.x * x_axis + a_offset.y * y_axis;
  gl_Position = vec4(clip.xy + offset_pixels * 2.0 / u_viewport * clip.w, clip.zw);
  v_color = a_color;
}

// Ground grid, vertex stage: one square on y = 0 around u_center; grid.frag draws the lines.

uniform mat4 u_view_projection;
uniform vec3 u_center;  // world space; y is ignored
uniform float u_extent; // half the side of the square, world units

out vec3 v_position_world;

const vec2 kCorners[4] = vec2[](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0),
                                vec2(1.0, 1.0));

void main() {
  vec2 corner = kCorners[gl_VertexID] * u_extent;
  v_position_world = vec3(u_center.x + corner.x, 0.0, u_center.z + corner.y);
  gl_Position = u_view_projection * vec4(v_position_world, 1.0);
}

// Ground grid, fragment stage: anti-aliased minor and major lines measured in screen pixels with
// derivatives, the x axis red and the z axis blue, lines fading where they get too dense and
// everything fading towards the edge of the square.

in vec3 v_position_world;

uniform vec3 u_center;
uniform float u_extent;
uniform float u_cell;         // minor spacing, world units
uniform float u_major_every;  // minor cells per major cell
uniform vec4 u_minor_color;
uniform vec4 u_major_color;
uniform vec4 u_x_axis_color;
uniform vec4 u_z_axis_color;

out vec4 frag_color;

// Coverage in [0, 1] of lines at integer values of `coord`, `width` pixels wide. Each family of
// lines fades out by itself once its lines are closer than ~5 pixels (gone at 2) instead of
// aliasing: at grazing angles the lines running away from the viewer stay while the crossing ones
// crowd together and fade.
float LineCoverage(vec2 coord, float width) {
  // World units per pixel along the screen gradient (fwidth's |dx| + |dy| would thin diagonals).
  vec2 pixels = max(sqrt(dFdx(coord) * dFdx(coord) + dFdy(coord) * dFdy(coord)), vec2(1e-6));
  vec2 distance = abs(fract(coord - 0.5) - 0.5) / pixels;
  vec2 coverage = clamp(0.5 * width + 0.5 - distance, 0.0, 1.0);
  coverage *= 1.0 - smoothstep(0.2, 0.5, pixels);
  return max(coverage.x, coverage.y);
}

float AxisCoverage(float coordinate, float width) {
  float pixels = max(length(vec2(dFdx(coordinate), dFdy(coordinate))), 1e-6);
  return clamp(0.5 * width + 0.5 - abs(coordinate) / pixels, 0.0, 1.0);
}

vec4 Over(vec4 below, vec3 color, float alpha) {
  return vec4(mix(below.rgb, color, alpha), alpha + below.a * (1.0 - alpha));
}

void main() {
  vec2 minor = v_position_world.xz / u_cell;
  vec2 major = minor / u_major_every;
  vec4 color = vec4(0.0);
  color = Over(color, u_minor_color.rgb, u_minor_color.a * LineCoverage(minor, 1.0));
  color = Over(color, u_major_color.rgb, u_major_color.a * LineCoverage(major, 1.5));
  color = Over(color, u_x_axis_color.rgb, u_x_axis_color.a * AxisCoverage(v_position_world.z, 2.0));
  color = Over(color, u_z_axis_color.rgb, u_z_axis_color.a * AxisCoverage(v_position_world.x, 2.0));

  float radius = length(v_position_world.xz - u_center.xz);
  color.a *= 1.0 - smoothstep(0.55 * u_extent, u_extent, radius);
  if (color.a < 0.002) discard;
  frag_color = color;
}

// Skinned mesh, fragment stage: base colour * texture lit by a headlight, a key light fixed to the
// camera, and a sky/ground hemisphere, with a soft specular; both faces are lit.

in vec3 v_position_world;
in vec3 v_normal_world;
in vec2 v_uv;
in float v_weight;
in vec3 v_weight_color;

uniform vec4 u_base_color;         // material base colour * style tint
uniform sampler2D u_base_texture;  // white when the material has none
uniform vec3 u_eye_world;
uniform vec3 u_key_direction;      // world space, unit, from the surface towards the light
uniform float u_opacity;
uniform int u_weight_view;  // 0 materials, 1 heat map of v_weight, 2 and 3 v_weight_color

out vec4 frag_color;

// Blue (0) -> green -> yellow -> red (1), the usual weight-paint ramp.
vec3 WeightColor(float w) {
  w = clamp(w, 0.0, 1.0);
  vec3 cold = vec3(0.05, 0.1, 0.45);
  if (w < 0.33) return mix(cold, vec3(0.0, 0.75, 0.3), w / 0.33);
  if (w < 0.66) return mix(vec3(0.0, 0.75, 0.3), vec3(0.95, 0.85, 0.1), (w - 0.33) / 0.33);
  return mix(vec3(0.95, 0.85, 0.1), vec3(0.9, 0.1, 0.05), (w - 0.66) / 0.34);
}

void main() {
  vec3 n = normalize(v_normal_world);
  // A zero normal (degenerate skin) would give NaN; treat it as facing the viewer.
  vec3 to_eye = normalize(u_eye_world - v_position_world);
  if (any(isnan(n))) n = to_eye;
  if (!gl_FrontFacing) n = -n;

  vec4 albedo = u_base_color * texture(u_base_texture, v_uv);
  if (u_weight_view == 1) albedo = vec4(WeightColor(v_weight), 1.0);
  if (u_weight_view >= 2) albedo = vec4(v_weight_color, 1.0);

  vec3 sky = vec3(0.42, 0.45, 0.5), ground = vec3(0.16, 0.14, 0.12);
  vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y);
  float key = max(dot(n, u_key_direction), 0.0);
  float head = max(dot(n, to_eye), 0.0);
  vec3 diffuse = ambient + key * vec3(0.62, 0.6, 0.56) + head * vec3(0.32);

  vec3 half_key = normalize(u_key_direction + to_eye);
  float specular = 0.22 * pow(max(dot(n, half_key), 0.0), 40.0) * step(0.0, key) +
                   0.12 * pow(head, 60.0);
  // A thin rim keeps silhouettes readable against a dark background.
  float rim = 0.08 * pow(1.0 - head, 3.0);

  vec3 color = albedo.rgb * diffuse + vec3(specular + rim);
  frag_color = vec4(color, albedo.a * u_opacity);
}

// Orbit camera and cursor-ray math.
#include "app/scene/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace app {

namespace {
constexpr float kMaxPitch = 1.55f;  // just under 90°, so the view matrix never degenerates
}

glm::vec3 OrbitCamera::Forward() const {
  const float cp = std::cos(pitch);
  return -glm::vec3(cp * std::sin(yaw), std::sin(pitch), cp * std::cos(yaw));
}

glm::vec3 OrbitCamera::Eye() const { return target - Forward() * distance; }

glm::mat4 OrbitCamera::View() const {
  // The camera's own up (the eye direction's derivative in pitch): +Y-like for any pitch below the
  // pole, and still defined looking straight down (top view) or up.
  const float sp = std::sin(pitch), cp = std::cos(pitch);
  const glm::vec3 up(-sp * std::sin(yaw), cp, -sp * std::cos(yaw));
  return glm::lookAt(Eye(), target, up);
}

glm::mat4 OrbitCamera::Projection(float aspect) const {
  const float far_plane = std::max(distance * 100.0f, 10.0f);
  aspect = std::max(aspect, 1e-3f);
  if (ortho) {
    const float half_height = distance * std::tan(fov_y * 0.5f);
    glm::mat4 projection = glm::ortho(-half_height * aspect, half_height * aspect, -half_height,
                                      half_height, -far_plane, far_plane);
    projection[3][0] += lens_shift_ndc;  // x_ndc += shift (w = 1)
    projection[3][1] += lens_shift_y_ndc;
    return projection;
  }
  const float near_plane = std::max(distance * 0.01f, 1e-4f);
  glm::mat4 projection = glm::perspective(fov_y, aspect, near_plane, far_plane);
  projection[2][0] -= lens_shift_ndc;  // x_ndc += shift (w = -z_eye)
  projection[2][1] -= lens_shift_y_ndc;
  return projection;
}

void OrbitCamera::Orbit(float dx_px, float dy_px) {
  const float kRadiansPerPixel = 0.008f;
  yaw -= dx_px * kRadiansPerPixel;
  pitch = std::clamp(pitch + dy_px * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::Pan(float dx_px, float dy_px, const Viewport& viewport) {
  // Move the target so the point under the cursor stays under it (at the target's depth).
  const float world_per_px =
      2.0f * distance * std::tan(fov_y * 0.5f) / float(std::max(viewport.height, 1));
  const glm::vec3 forward = Forward();
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  target += (-dx_px * right + dy_px * up) * world_per_px;
}

void OrbitCamera::Zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.88f, steps), 1e-4f, 1e7f);
}

void OrbitCamera::Frame(const glm::vec3& box_min, const glm::vec3& box_max, float aspect) {
  target = 0.5f * (box_min + box_max);
  const float radius = std::max(0.5f * glm::length(box_max - box_min), 1e-4f);
  // The narrower of the vertical and the (shifted) horizontal field of view must hold the box:
  // on the shorter side of the shifted centre, and within the part the panels leave free.
  const float visible_width =
      std::max(std::min(1.0f - std::abs(lens_shift_ndc), free_half_width), kMinFreeShare);
  const float visible_height =
      std::max(std::min(1.0f - std::abs(lens_shift_y_ndc), free_half_height), kMinFreeShare);
  const float tan_half = std::tan(fov_y * 0.5f);
  const float half_fov =
      std::min(std::atan(tan_half * visible_height), std::atan(tan_half * aspect * visible_width));
  distance = radius / std::sin(half_fov) * 1.05f;
}

void CentreOnFreeArea(const Viewport& viewport, const FreeArea& free, OrbitCamera* camera) {
  const float width = float(std::max(viewport.width, 1));
  const float height = float(std::max(viewport.height, 1));
  const float left = std::clamp(free.left, 0.0f, width);
  const float right = std::clamp(free.right, left, width);
  const float top = std::clamp(free.top, 0.0f, height);
  const float bottom = std::clamp(free.bottom, top, height);
  // In normalised device units the free part spans [2·left/width − 1, 2·right/width − 1]: its
  // centre is the shift, its half-extent the share of the half-width it keeps (y points up).
  if (right - left >= kMinFreeShare * width) {
    camera->lens_shift_ndc = (left + right) / width - 1.0f;
    camera->free_half_width = (right - left) / width;
  } else {
    camera->lens_shift_ndc = 0.0f;
    camera->free_half_width = 1.0f;
  }
  if (bottom - top >= kMinFreeShare * height) {
    camera->lens_shift_y_ndc = 1.0f - (top + bottom) / height;
    camera->free_half_height = (bottom - top) / height;
  } else {
    camera->lens_shift_y_ndc = 0.0f;
    camera->free_half_height = 1.0f;
  }
}

const char* ViewPresetName(ViewPreset preset) {
  switch (preset) {
    case ViewPreset::kFront:
      return "front";
    case ViewPreset::kBack:
      return "back";
    case ViewPreset::kLeft:
      return "left";
    case ViewPreset::kRight:
      return "right";
    case ViewPreset::kTop:
      return "top";
    case ViewPreset::kBottom:
      return "bottom";
  }
  return "front";
}

bool ParseViewPreset(const std::string& text, ViewPreset* out) {
  for (ViewPreset preset : {ViewPreset::kFront, ViewPreset::kBack, ViewPreset::kLeft,
                            ViewPreset::kRight, ViewPreset::kTop, ViewPreset::kBottom}) {
    if (text == ViewPresetName(preset)) {
      *out = preset;
      return true;
    }
  }
  return false;
}

void LookAlong(ViewPreset preset, OrbitCamera* camera) {
  constexpr float kHalfPi = 1.57079632679f;
  camera->pitch = 0.0f;
  switch (preset) {
    case ViewPreset::kFront:
      camera->yaw = 0.0f;
      break;
    case ViewPreset::kBack:
      camera->yaw = 2.0f * kHalfPi;
      break;
    case ViewPreset::kRight:
      camera->yaw = kHalfPi;
      break;
    case ViewPreset::kLeft:
      camera->yaw = -kHalfPi;
      break;
    case ViewPreset::kTop:
      camera->yaw = 0.0f;
      camera->pitch = kHalfPi;
      break;
    case ViewPreset::kBottom:
      camera->yaw = 0.0f;
      camera->pitch = -kHalfPi;
      break;
  }
}

void FollowRoot(const glm::vec3& previous_root, const glm::vec3& root, OrbitCamera* camera) {
  const glm::vec3 moved = root - previous_root;
  if (!std::isfinite(moved.x) || !std::isfinite(moved.z)) return;
  camera->target.x += moved.x;
  camera->target.z += moved.z;
}

Ray RayFromPixel(const glm::mat4& view, const glm::mat4& projection, const Viewport& viewport,
                 float x, float y) {
  const float ndc_x = 2.0f * x / float(viewport.width) - 1.0f;
  const float ndc_y = 1.0f - 2.0f * y / float(viewport.height);
  const glm::mat4 inverse = glm::inverse(projection * view);
  glm::vec4 near_point = inverse * glm::vec4(ndc_x, ndc_y, -1.0f, 1.0f);
  glm::vec4 far_point = inverse * glm::vec4(ndc_x, ndc_y, 1.0f, 1.0f);
  near_point /= near_point.w;
  far_point /= far_point.w;
  Ray ray;
  ray.origin = glm::vec3(near_point);
  ray.direction = glm::normalize(glm::vec3(far_point - near_point));
  return ray;
}

bool ProjectToPixel(const glm::mat4& view, const glm::mat4& projection, const Viewport& viewport,
                    const glm::vec3& world, glm::vec2* pixel) {
  const glm::vec4 clip = projection * view * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-8f) return false;
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  pixel->x = (ndc.x * 0.5f + 0.5f) * float(viewport.width);
  pixel->y = (0.5f - ndc.y * 0.5f) * float(viewport.height);
  return true;
}

}  // namespace app

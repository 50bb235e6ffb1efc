// Ghost skeletons and the motion trail as debug lines. Ghosts are bones, not skinned meshes: a
// ghost costs a few hundred line vertices whatever the mesh's size.
#include "app/scene/anim_overlays.h"

#include <algorithm>
#include <cmath>

#include "app/scene/bones.h"

namespace app {

namespace {

glm::vec4 WithAlpha(const glm::vec4& color, float alpha) {
  return glm::vec4(color.r, color.g, color.b, alpha);
}

void AddGhosts(const assets::Model& model, const std::vector<GhostPose>& ghosts,
               renderer::DebugLines* lines) {
  int nearest = 1 << 30, farthest = 0;
  for (const GhostPose& g : ghosts) {
    nearest = std::min(nearest, std::abs(g.offset));
    farthest = std::max(farthest, std::abs(g.offset));
  }
  const std::vector<bool>* bones = ShownBones(model);
  lines->width = 3.0f;
  for (const GhostPose& g : ghosts) {
    const glm::vec4& base = g.offset < 0 ? kGhostPastColor : kGhostFutureColor;
    lines->AddSkeleton(model.skeleton, g.models,
                       WithAlpha(base, GhostAlpha(g.offset, nearest, farthest)), 0.0f, bones);
  }
}

void AddTrail(const MotionTrail& trail, float time, float model_size, renderer::DebugLines* lines) {
  const size_t n = trail.positions.size();
  if (n == 0) return;
  const float span = std::max(trail.times.back() - trail.times.front(), 1e-3f);
  // Nearer frames in time are more opaque, so the current part of the path reads first.
  auto color_at = [&](float t) {
    const float distance = std::min(std::abs(t - time) / span, 1.0f);
    return WithAlpha(t < time ? kGhostPastColor : kGhostFutureColor, 0.95f - 0.55f * distance);
  };
  lines->width = 2.0f;
  for (size_t i = 0; i + 1 < n; ++i) {
    lines->AddLine(trail.positions[i], trail.positions[i + 1], color_at(trail.times[i]),
                   color_at(trail.times[i + 1]));
  }
  const float tick = model_size * 0.006f;
  lines->width = 1.5f;
  for (size_t i = 0; i < n; ++i)
    lines->AddCross(trail.positions[i], tick, color_at(trail.times[i]));
}

}  // namespace

float GhostAlpha(int offset, int nearest, int farthest) {
  if (farthest <= nearest) return 0.65f;
  const float t = float(std::abs(offset) - nearest) / float(farthest - nearest);
  return 0.65f - 0.5f * std::clamp(t, 0.0f, 1.0f);
}

void BuildAnimationOverlays(const assets::Model& model, const AnimationOverlays& animation,
                            float model_size, renderer::DebugLines* ghost_lines,
                            renderer::DebugLines* trail_lines) {
  ghost_lines->Clear();
  trail_lines->Clear();
  if (animation.ghosts) AddGhosts(model, *animation.ghosts, ghost_lines);
  if (animation.trail && !animation.trail->empty()) {
    AddTrail(*animation.trail, animation.time, model_size, trail_lines);
    if (animation.mark_now) {
      trail_lines->width = 3.0f;
      trail_lines->AddCross(animation.trail_now, model_size * 0.025f, renderer::colors::kWhite);
    }
  }
}

void DrawAnimationOverlays(renderer::Renderer& renderer, const assets::Model& model,
                           const AnimationOverlays& animation, float model_size,
                           const renderer::View& view, bool xray,
                           renderer::DebugLines* scratch_ghosts,
                           renderer::DebugLines* scratch_trail) {
  BuildAnimationOverlays(model, animation, model_size, scratch_ghosts, scratch_trail);
  if (!scratch_ghosts->empty()) {
    renderer.DrawLines(*scratch_ghosts, view,
                       xray ? renderer::DepthMode::kOnTop : renderer::DepthMode::kHiddenDimmed);
  }
  if (!scratch_trail->empty())
    renderer.DrawLines(*scratch_trail, view, renderer::DepthMode::kOnTop);
}

int RootMotionJoint(const assets::Model& model) {
  const ik::Skeleton& skeleton = model.skeleton;
  const int count = skeleton.joint_count();
  if (count == 0) return -1;
  auto is_bone = [&](int j) {
    return j >= 0 && j < static_cast<int>(model.is_bone.size()) && model.is_bone[j];
  };
  for (int j = 0; j < count; ++j) {
    if (!is_bone(j)) continue;
    int up = skeleton.parent(j);
    while (up >= 0 && !is_bone(up)) up = skeleton.parent(up);
    if (up < 0) return j;  // parents come before children: the first such bone
  }
  return 0;
}

}  // namespace app

// Onion skins and motion trails drawn as lines: ghost skeletons at ±k frames (past magenta, future
// cyan, fading with distance) and a joint's path over the clip with a tick per frame.
#pragma once

#include <vector>

#include "app/core/ghost_poses.h"
#include "assets/model/model.h"
#include "renderer/renderer.h"

namespace app {

// What DrawScene draws on top of the frame for the animation (all optional).
struct AnimationOverlays {
  const std::vector<GhostPose>* ghosts = nullptr;  // GhostCache::ghosts()
  const MotionTrail* trail = nullptr;              // GhostCache::trail()
  float time = 0.0f;  // the current clip time, seconds: splits the trail into past and future
  // The current position of the trail's joint (model space), marked on the trail.
  glm::vec3 trail_now{0.0f};
  bool mark_now = false;
};

// Colours: past ghosts and trail magenta, future ones cyan (alpha is set per ghost) — hues no
// bone is drawn in (bones.h) — and their names, for the panels' words.
inline constexpr glm::vec4 kGhostPastColor{1.0f, 0.4f, 0.85f, 1.0f};
inline constexpr glm::vec4 kGhostFutureColor{0.25f, 0.9f, 0.95f, 1.0f};
inline constexpr const char* kGhostPastColorName = "magenta";
inline constexpr const char* kGhostFutureColorName = "cyan";

// The opacity of a ghost `offset` frames away among ghosts from `nearest` to `farthest` frames
// away: 0.65 for the nearest down to 0.15 for the farthest (0.65 when all are as near).
float GhostAlpha(int offset, int nearest, int farthest);

// Builds the ghost skeletons (bones only when the model flags bones, as AddSkeleton does; lines
// 3 px wide, no joint crosses) into `ghost_lines` and the trail (a polyline through the frames,
// a tick of model_size·0.006 per frame, the current position marked) into `trail_lines`; both
// cleared first. `model_size` is the model's size in world units (SceneExtent::size).
void BuildAnimationOverlays(const assets::Model& model, const AnimationOverlays& animation,
                            float model_size, renderer::DebugLines* ghost_lines,
                            renderer::DebugLines* trail_lines);

// Builds them and draws them into the bound framebuffer: the ghosts on top with `xray` (as the
// bones are), else depth-tested and dimmed where hidden; the trail on top. The scratch buffers
// are reused between frames.
void DrawAnimationOverlays(renderer::Renderer& renderer, const assets::Model& model,
                           const AnimationOverlays& animation, float model_size,
                           const renderer::View& view, bool xray,
                           renderer::DebugLines* scratch_ghosts,
                           renderer::DebugLines* scratch_trail);

// The joint whose motion carries the character (root motion): the first bone without a bone
// above it (the hips of most rigs), or joint 0 when no joint is flagged a bone; -1 for a model
// without joints.
int RootMotionJoint(const assets::Model& model);

}  // namespace app

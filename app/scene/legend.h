// The legend: which marks the view draws this frame, each with its colour and shape, so every
// mark explains itself. Plain data (no GL, no ImGui): the window draws it with ImGui, `render`
// into the image.
#pragma once

#include <glm/glm.hpp>

#include "app/core/evaluate.h"
#include "app/scene/scene_draw.h"

namespace app {

enum class LegendShape { kLine, kDisc, kSquare, kDiamond, kCross, kBone, kGradient };

struct LegendEntry {
  const char* label = "";
  glm::vec4 color{1.0f};
  LegendShape shape = LegendShape::kLine;
  glm::vec4 color_to{1.0f};  // kGradient: the colour at its right end
};

// Room for every entry LegendEntries can give.
constexpr int kMaxLegendEntries = 32;

// The entries for what a frame with `options` draws of `model` with these requests and results,
// in drawing order, into `out` (room for kMaxLegendEntries); returns how many. Only marks that
// are drawn: no bones entry with bones off, no pole without a pole, no miss without a miss.
int LegendEntries(const assets::Model& model, const SceneExtent& extent,
                  const ConstraintRequests& requests, const PoseState& state,
                  const SceneOptions& options, LegendEntry* out);

// The legend as pixel-space shapes for an image of `width` × `height` pixels, at its bottom-left:
// swatches and labels (stb's quad font, doubled). *view is the pixel-space view to draw *shapes
// with (DepthMode::kOnTop). *shapes is cleared first; nothing when `count` is 0.
void BuildLegendImage(const LegendEntry* entries, int count, int width, int height,
                      renderer::DebugShapes* shapes, renderer::View* view);

}  // namespace app

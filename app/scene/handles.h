// The IK target handles of the view, one per chain: a disc at the target (green when the solver
// reached it, red when not), and the full gizmo (arrows, squares) on the active chain. Hit
// testing is pure math on the camera; drawing fills debug geometry for the renderer.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "app/scene/camera.h"
#include "app/scene/gizmo.h"
#include "renderer/debug_geometry.h"
#include "renderer/renderer.h"

namespace app {

// One chain's handle this frame.
struct Handle {
  glm::vec3 target{0.0f};  // world space
  bool enabled = false;    // disabled chains have no handle
  bool reached = false;
};

// How the handles are seen and which are singled out.
struct HandlesView {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  Viewport viewport;      // drawable pixels
  int active_chain = -1;  // shows the full gizmo
  int hover_chain = -1;   // drawn brighter
  GizmoPart hover_part = GizmoPart::kNone;
  GizmoPart drag_part = GizmoPart::kNone;  // the active gizmo's part being dragged
};

// The gizmo of a handle at `origin` seen through `view`.
GizmoView GizmoAt(const HandlesView& view, const glm::vec3& origin);

// The chain whose handle is under the cursor (drawable pixels, top-left origin) and which part:
// the active chain's gizmo first, then the nearest disc within the centre radius plus 3 pixels.
// -1 (and kNone) when none.
int HitHandles(const HandlesView& view, const GizmoStyle& style, const std::vector<Handle>& handles,
               const glm::vec2& cursor_px, GizmoPart* part);

// The enabled handles whose disc is under the cursor (within the centre radius plus 3 pixels, as
// HitHandles takes them), in chain order: up to `max` chain indices into `out` (null when `max`
// is 0); returns how many there are in all. Overlapping handles (two feet 2 cm apart) are all
// listed.
int HandlesUnderCursor(const HandlesView& view, const GizmoStyle& style,
                       const std::vector<Handle>& handles, const glm::vec2& cursor_px, int* out,
                       int max);

// The chain after `current` among `under` (`count` chain indices in chain order, as
// HandlesUnderCursor gives them; `step` 1 for the next, -1 for the previous), wrapping around;
// the first (or last) when `current` is not among them; -1 when `count` is 0. A second click or
// Tab on overlapping handles reaches the one behind the active one this way.
int CycleHandle(const int* under, int count, int current, int step = 1);

// Fills `lines` and `shapes` (cleared first) with every enabled handle; draws them on top of the
// scene with `renderer`.
void DrawHandles(renderer::Renderer& renderer, const renderer::View& render_view,
                 const HandlesView& view, const GizmoStyle& style,
                 const std::vector<Handle>& handles, renderer::DebugLines* lines,
                 renderer::DebugShapes* shapes);

}  // namespace app

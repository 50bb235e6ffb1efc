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

// Fills `lines` and `shapes` (cleared first) with every enabled handle; draws them on top of the
// scene with `renderer`.
void DrawHandles(renderer::Renderer& renderer, const renderer::View& render_view,
                 const HandlesView& view, const GizmoStyle& style,
                 const std::vector<Handle>& handles, renderer::DebugLines* lines,
                 renderer::DebugShapes* shapes);

}  // namespace app

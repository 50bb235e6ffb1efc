// Target handles: hit testing and drawing.
#include "app/scene/handles.h"

namespace app {

namespace {

glm::vec4 ReachedColor(bool reached) {
  return reached ? glm::vec4(0.35f, 0.9f, 0.35f, 1.0f) : glm::vec4(0.95f, 0.3f, 0.25f, 1.0f);
}

}  // namespace

GizmoView GizmoAt(const HandlesView& view, const glm::vec3& origin) {
  GizmoView gizmo;
  gizmo.view = view.view;
  gizmo.projection = view.projection;
  gizmo.viewport = view.viewport;
  gizmo.origin = origin;
  return gizmo;
}

int HitHandles(const HandlesView& view, const GizmoStyle& style, const std::vector<Handle>& handles,
               const glm::vec2& cursor_px, GizmoPart* part) {
  *part = GizmoPart::kNone;
  const int count = static_cast<int>(handles.size());
  const int active = view.active_chain;
  if (active >= 0 && active < count && handles[active].enabled) {
    const GizmoPart hit = HitTestGizmo(GizmoAt(view, handles[active].target), style, cursor_px);
    if (hit != GizmoPart::kNone) {
      *part = hit;
      return active;
    }
  }
  // The other handles are discs; the nearest under the cursor wins.
  int best = -1;
  float best_distance = style.center_radius_px + 3.0f;
  for (int i = 0; i < count; ++i) {
    if (!handles[i].enabled) continue;
    glm::vec2 px;
    if (!ProjectToPixel(view.view, view.projection, view.viewport, handles[i].target, &px)) {
      continue;
    }
    const float d = glm::length(px - cursor_px);
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  if (best >= 0) *part = GizmoPart::kCenter;
  return best;
}

int HandlesUnderCursor(const HandlesView& view, const GizmoStyle& style,
                       const std::vector<Handle>& handles, const glm::vec2& cursor_px, int* out,
                       int max) {
  int count = 0;
  const float reach = style.center_radius_px + 3.0f;
  for (int i = 0; i < static_cast<int>(handles.size()); ++i) {
    if (!handles[i].enabled) continue;
    glm::vec2 px;
    if (!ProjectToPixel(view.view, view.projection, view.viewport, handles[i].target, &px)) {
      continue;
    }
    if (glm::length(px - cursor_px) >= reach) continue;
    if (count < max) out[count] = i;
    ++count;
  }
  return count;
}

int CycleHandle(const int* under, int count, int current, int step) {
  if (count <= 0) return -1;
  for (int k = 0; k < count; ++k) {
    if (under[k] == current) return under[((k + step) % count + count) % count];
  }
  return step >= 0 ? under[0] : under[count - 1];
}

void DrawHandles(renderer::Renderer& renderer, const renderer::View& render_view,
                 const HandlesView& view, const GizmoStyle& style,
                 const std::vector<Handle>& handles, renderer::DebugLines* lines,
                 renderer::DebugShapes* shapes) {
  lines->Clear();
  shapes->Clear();
  for (int i = 0; i < static_cast<int>(handles.size()); ++i) {
    if (!handles[i].enabled) continue;
    const GizmoView gizmo = GizmoAt(view, handles[i].target);
    const GizmoPart hovered = view.hover_chain == i ? view.hover_part : GizmoPart::kNone;
    if (i == view.active_chain) {
      DrawGizmo(gizmo, style, hovered, view.drag_part, ReachedColor(handles[i].reached), lines,
                shapes);
    } else {
      const float radius = style.center_radius_px;
      glm::vec4 color = ReachedColor(handles[i].reached);
      if (hovered != GizmoPart::kNone) color = glm::mix(color, glm::vec4(1.0f), 0.5f);
      shapes->AddDisc(gizmo.origin, radius + 2.0f, glm::vec4(0.05f, 0.05f, 0.05f, 0.9f));
      shapes->AddDisc(gizmo.origin, radius, color);
    }
  }
  if (!lines->empty()) renderer.DrawLines(*lines, render_view, renderer::DepthMode::kOnTop);
  if (!shapes->empty()) renderer.DrawShapes(*shapes, render_view, renderer::DepthMode::kOnTop);
}

}  // namespace app

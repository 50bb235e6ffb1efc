// Overlays on the view drawn with ImGui: the legend (a swatch in each mark's colour and shape,
// and its name), the axis gizmo (click an axis to look along it) and the name of the handle under
// the cursor.
#include <imgui.h>

#include <algorithm>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

ImU32 ToImColor(const glm::vec4& c, float alpha = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, std::min(1.0f, c.a * alpha + 0.3f)));
}

void DrawSwatch(ImDrawList* draw, const LegendEntry& entry, const ImVec2& min, const ImVec2& max) {
  const ImVec2 mid((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f);
  const float h = (max.y - min.y) * 0.5f;
  const ImU32 color = ToImColor(entry.color);
  const ImU32 rim = IM_COL32(15, 15, 15, 230);
  switch (entry.shape) {
    case LegendShape::kLine:
      draw->AddLine(ImVec2(min.x, mid.y), ImVec2(max.x, mid.y), color, 2.5f);
      break;
    case LegendShape::kDisc:
      draw->AddCircleFilled(mid, h * 0.7f + 1.5f, rim);
      draw->AddCircleFilled(mid, h * 0.7f, color);
      break;
    case LegendShape::kSquare:
      draw->AddRectFilled(ImVec2(mid.x - h * 0.8f, mid.y - h * 0.8f),
                          ImVec2(mid.x + h * 0.8f, mid.y + h * 0.8f), rim);
      draw->AddRectFilled(ImVec2(mid.x - h * 0.6f, mid.y - h * 0.6f),
                          ImVec2(mid.x + h * 0.6f, mid.y + h * 0.6f), color);
      break;
    case LegendShape::kDiamond:
      draw->AddQuadFilled(ImVec2(mid.x - h, mid.y), ImVec2(mid.x, mid.y - h),
                          ImVec2(mid.x + h, mid.y), ImVec2(mid.x, mid.y + h), rim);
      draw->AddQuadFilled(ImVec2(mid.x - h * 0.7f, mid.y), ImVec2(mid.x, mid.y - h * 0.7f),
                          ImVec2(mid.x + h * 0.7f, mid.y), ImVec2(mid.x, mid.y + h * 0.7f), color);
      break;
    case LegendShape::kCross:
      draw->AddLine(ImVec2(mid.x - h, mid.y), ImVec2(mid.x + h, mid.y), color, 2.5f);
      draw->AddLine(ImVec2(mid.x, mid.y - h), ImVec2(mid.x, mid.y + h), color, 2.5f);
      break;
    case LegendShape::kBone:  // an octahedron's side view, head at the left
      draw->AddQuadFilled(
          ImVec2(min.x, mid.y), ImVec2(min.x + (max.x - min.x) * 0.2f, min.y + 1.0f),
          ImVec2(max.x, mid.y), ImVec2(min.x + (max.x - min.x) * 0.2f, max.y - 1.0f), color);
      break;
    case LegendShape::kGradient:
      draw->AddRectFilledMultiColor(ImVec2(min.x, min.y + 2.0f), ImVec2(max.x, max.y - 2.0f), color,
                                    ToImColor(entry.color_to), ToImColor(entry.color_to), color);
      break;
  }
}

}  // namespace

void DrawLegend(const LegendEntry* entries, int count, const glm::vec2& bottom_left_px) {
  if (count <= 0) return;
  const ImVec2 bottom_left(bottom_left_px.x, bottom_left_px.y);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const float row = ImGui::GetTextLineHeight() + 4.0f;
  const float swatch = row * 1.6f, pad = 6.0f;
  float text_width = 0.0f;
  for (int i = 0; i < count; ++i) {
    text_width = std::max(text_width, ImGui::CalcTextSize(entries[i].label).x);
  }
  const ImVec2 size(pad * 3.0f + swatch + text_width, pad * 2.0f + row * float(count));
  const ImVec2 top_left(bottom_left.x, bottom_left.y - size.y);
  draw->AddRectFilled(top_left, ImVec2(top_left.x + size.x, bottom_left.y),
                      IM_COL32(20, 22, 26, 190), 4.0f);
  for (int i = 0; i < count; ++i) {
    const float y = top_left.y + pad + row * float(i);
    DrawSwatch(draw, entries[i], ImVec2(top_left.x + pad, y + 3.0f),
               ImVec2(top_left.x + pad + swatch, y + row - 3.0f));
    draw->AddText(ImVec2(top_left.x + pad * 2.0f + swatch, y + 2.0f), IM_COL32(235, 235, 235, 255),
                  entries[i].label);
  }
}

namespace {

struct GizmoAxis {
  glm::vec3 direction;
  const char* label;  // drawn on the positive axes only
  glm::vec4 color;
  ViewPreset looks_from;  // the view that looks from this side towards the centre
  ViewPreset opposite;
};
constexpr GizmoAxis kGizmoAxes[6] = {
    {{1, 0, 0}, "X", {0.92f, 0.3f, 0.3f, 1.0f}, ViewPreset::kRight, ViewPreset::kLeft},
    {{0, 1, 0}, "Y", {0.45f, 0.82f, 0.3f, 1.0f}, ViewPreset::kTop, ViewPreset::kBottom},
    {{0, 0, 1}, "Z", {0.3f, 0.5f, 0.95f, 1.0f}, ViewPreset::kFront, ViewPreset::kBack},
    {{-1, 0, 0}, "", {0.92f, 0.3f, 0.3f, 1.0f}, ViewPreset::kLeft, ViewPreset::kRight},
    {{0, -1, 0}, "", {0.45f, 0.82f, 0.3f, 1.0f}, ViewPreset::kBottom, ViewPreset::kTop},
    {{0, 0, -1}, "", {0.3f, 0.5f, 0.95f, 1.0f}, ViewPreset::kBack, ViewPreset::kFront},
};

}  // namespace

glm::vec2 AxisGizmoPoint(const glm::mat4& view, const glm::vec2& center, float radius, int axis) {
  const glm::vec3 d = glm::mat3(view) * kGizmoAxes[axis].direction;
  return center + glm::vec2(d.x, -d.y) * radius;
}

void DrawAxisGizmo(const glm::mat4& view, const glm::vec2& center, float radius, Requests* out) {
  const float knob = std::max(7.0f, radius * 0.22f);
  const float side = 2.0f * (radius + knob + 2.0f);
  ImGui::SetNextWindowPos(ImVec2(center.x - side * 0.5f, center.y - side * 0.5f));
  ImGui::SetNextWindowSize(ImVec2(side, side));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoNav;
  const bool open = ImGui::Begin(kAxisGizmoName, nullptr, flags);
  ImGui::PopStyleVar();
  if (!open) return ImGui::End();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  // Far axes first, so the near ones are drawn over them.
  int order[6] = {0, 1, 2, 3, 4, 5};
  float depth[6];
  for (int a = 0; a < 6; ++a) depth[a] = (glm::mat3(view) * kGizmoAxes[a].direction).z;
  std::sort(order, order + 6, [&](int a, int b) { return depth[a] < depth[b]; });
  const ImVec2 c(center.x, center.y);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_window = ImGui::IsWindowHovered();
  int hovered = -1;
  for (int a = 0; a < 6; ++a) {  // the nearest knob under the cursor
    const glm::vec2 p = AxisGizmoPoint(view, center, radius, a);
    const float dx = mouse.x - p.x, dy = mouse.y - p.y;
    if (hovered_window && dx * dx + dy * dy <= knob * knob &&
        (hovered < 0 || depth[a] > depth[hovered])) {
      hovered = a;
    }
  }
  if (hovered >= 0) draw->AddCircleFilled(c, radius + knob, IM_COL32(255, 255, 255, 30));
  for (int k = 0; k < 6; ++k) {
    const int a = order[k];
    const GizmoAxis& axis = kGizmoAxes[a];
    const glm::vec2 p = AxisGizmoPoint(view, center, radius, a);
    const ImU32 color = ToImColor(axis.color);
    const bool positive = axis.label[0] != '\0';
    if (positive) draw->AddLine(c, ImVec2(p.x, p.y), color, 2.5f);
    if (positive) {
      draw->AddCircleFilled(ImVec2(p.x, p.y), knob, color);
      const ImVec2 text = ImGui::CalcTextSize(axis.label);
      draw->AddText(ImVec2(p.x - text.x * 0.5f, p.y - text.y * 0.5f), IM_COL32(20, 20, 20, 255),
                    axis.label);
    } else {
      draw->AddCircleFilled(ImVec2(p.x, p.y), knob * 0.8f,
                            ToImColor(glm::vec4(glm::vec3(axis.color) * 0.45f, 1.0f)));
      draw->AddCircle(ImVec2(p.x, p.y), knob * 0.8f, color, 0, 1.5f);
    }
    if (a == hovered) draw->AddCircle(ImVec2(p.x, p.y), knob + 1.5f, IM_COL32_WHITE, 0, 2.0f);
  }
  if (hovered >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    // Clicking the axis the view already looks along turns to the other side, as in Blender.
    const glm::vec3 toward_camera = glm::transpose(glm::mat3(view))[2];
    const bool already = glm::dot(toward_camera, kGizmoAxes[hovered].direction) > 0.999f;
    const ViewPreset preset =
        already ? kGizmoAxes[hovered].opposite : kGizmoAxes[hovered].looks_from;
    Ask(out, RequestKind::kViewPreset, {}, false, static_cast<int>(preset));
  }
  ImGui::End();
}

void DrawHandleTip(const char* label, int under) {
  if (!label || !*label) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(label);
  if (under > 1) {
    ImGui::TextDisabled("%d handles here: click again or press Tab for the next", under);
  }
  ImGui::EndTooltip();
}

}  // namespace app

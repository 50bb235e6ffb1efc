// The look of the interface: the dark or light theme, sizes and the font at a UI scale. The font
// is rasterised at the scaled size (not stretched), so text stays sharp at 2×.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/window/panels/panels.h"

namespace app {

namespace {
constexpr float kBaseFontPixels = 13.0f;  // Dear ImGui's built-in font at 1×
}  // namespace

float AutomaticUiScale(float dpi) {
  if (!(dpi > 0.0f) || !std::isfinite(dpi)) return 1.0f;
  return std::clamp(std::round(dpi / 96.0f * 4.0f) / 4.0f, 1.0f, 3.0f);
}

void ConfigureUi(float scale, bool light) {
  scale = std::clamp(std::isfinite(scale) ? scale : 1.0f, 0.5f, 4.0f);
  // A fresh style at the new scale (ScaleAllSizes is not reversible), keeping how lines are drawn.
  const ImGuiStyle& old = ImGui::GetStyle();
  ImGuiStyle style;
  style.AntiAliasedLines = old.AntiAliasedLines;
  style.AntiAliasedLinesUseTex = old.AntiAliasedLinesUseTex;
  style.AntiAliasedFill = old.AntiAliasedFill;
  if (light) {
    ImGui::StyleColorsLight(&style);
  } else {
    ImGui::StyleColorsDark(&style);
  }
  // Menus, popups and tooltips opaque: the text under them must not show through theirs.
  style.Colors[ImGuiCol_PopupBg].w = 1.0f;
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig font;
  font.SizePixels = std::round(kBaseFontPixels * scale);
  io.Fonts->AddFontDefault(&font);
  io.Fonts->Build();
  io.FontGlobalScale = 1.0f;
}

float UiScaleOfFont() { return ImGui::GetFontSize() / kBaseFontPixels; }

}  // namespace app

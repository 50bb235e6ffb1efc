// Dear ImGui without a window for the panel tests: a headless context, the mouse moved to a
// widget found by its ID, and the text a window drew read back from its draw list.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace headless {

// A Dear ImGui context of its own, 1000 × 900, fonts built, no .ini file. With `side_panel`
// what is drawn goes into a window at the left, like the viewer's side panel; without, it makes
// windows of its own (the menu bar, dialogs).
class HeadlessUi {
 public:
  using Draw = std::function<void()>;

  explicit HeadlessUi(bool side_panel = true, ImVec2 display = ImVec2(1000.0f, 900.0f))
      : context_(ImGui::CreateContext()), side_panel_(side_panel) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = display;
    // Lines drawn as plain triangles, so that every textured quad is a glyph (GlyphsOf).
    ImGui::GetStyle().AntiAliasedLinesUseTex = false;
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  }
  ~HeadlessUi() { ImGui::DestroyContext(context_); }
  HeadlessUi(const HeadlessUi&) = delete;
  HeadlessUi& operator=(const HeadlessUi&) = delete;

  // One frame of `draw` (in the window "panel" with a side panel).
  void Frame(const Draw& draw) {
    ImGui::NewFrame();
    if (side_panel_) {
      ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
      ImGui::SetNextWindowSize(ImVec2(400.0f, 880.0f));
      ImGui::Begin("panel");
    }
    draw();
    if (side_panel_) ImGui::End();
    ImGui::Render();
  }

  // The ID of the widget `label` in window `window`, under PushID(n) for each n of `path`.
  static ImGuiID ItemId(const char* window, std::initializer_list<int> path, const char* label) {
    ImGuiWindow* w = ImGui::FindWindowByName(window);
    if (!w) return 0;
    ImGuiID seed = w->IDStack.back();
    for (int n : path) seed = ImHashData(&n, sizeof(n), seed);
    return ImHashStr(label, 0, seed);
  }

  // Moves the mouse over window `window` until widget `id` is hovered; false when it never is.
  bool Hover(const char* window, ImGuiID id, const Draw& draw) {
    const ImGuiWindow* w = ImGui::FindWindowByName(window);
    if (!w) return false;
    const ImVec2 min = w->Pos, max = ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y);
    for (float y = min.y + 2.0f; y < max.y; y += 3.0f) {
      for (float x = min.x + 2.0f; x < max.x; x += 5.0f) {
        ImGui::GetIO().MousePos = ImVec2(x, y);
        Frame(draw);
        if (ImGui::GetHoveredID() == id) return true;
      }
    }
    return false;
  }

  // Press and release where the mouse is, a frame each, then a frame to settle.
  void Click(const Draw& draw) {
    ImGui::GetIO().MouseDown[0] = true;
    Frame(draw);
    ImGui::GetIO().MouseDown[0] = false;
    Frame(draw);
    Frame(draw);
  }

  // Press, move `dx` pixels right in steps, release.
  void DragRight(float dx, const Draw& draw) {
    ImGuiIO& io = ImGui::GetIO();
    io.MouseDown[0] = true;
    Frame(draw);
    for (int step = 0; step < 6; ++step) {
      io.MousePos.x += dx / 6.0f;
      Frame(draw);
    }
    io.MouseDown[0] = false;
    Frame(draw);
    Frame(draw);
  }

  void MouseAway() { ImGui::GetIO().MousePos = ImVec2(990.0f, 890.0f); }

 private:
  ImGuiContext* context_;
  bool side_panel_;
};

// A glyph drawn in a window: its quad and the clip rectangle of its draw command (x0, y0, x1, y1).
struct Glyph {
  ImVec2 min, max;
  ImVec4 clip;
};

// The glyphs of window `name`'s own draw list as last rendered (child windows have their own):
// the textured quads (everything else samples the font atlas's white pixel).
inline std::vector<Glyph> GlyphsOf(const char* name) {
  std::vector<Glyph> glyphs;
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  if (!window) return glyphs;
  const ImDrawList& list = *window->DrawList;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  const auto textured = [&](const ImDrawVert& v) { return v.uv.x != white.x || v.uv.y != white.y; };
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    // A glyph is two triangles (a, b, c) and (a, c, d) from its top-left corner a.
    for (unsigned e = cmd.IdxOffset; e + 5 < cmd.IdxOffset + cmd.ElemCount; e += 3) {
      const ImDrawVert& a = list.VtxBuffer[cmd.VtxOffset + list.IdxBuffer[e]];
      const ImDrawVert& c = list.VtxBuffer[cmd.VtxOffset + list.IdxBuffer[e + 2]];
      if (!textured(a) || !textured(c)) continue;
      glyphs.push_back(Glyph{ImVec2(std::min(a.pos.x, c.pos.x), std::min(a.pos.y, c.pos.y)),
                             ImVec2(std::max(a.pos.x, c.pos.x), std::max(a.pos.y, c.pos.y)),
                             cmd.ClipRect});
      e += 3;  // the quad's second triangle
    }
  }
  return glyphs;
}

// The text drawn in window `name` on the row through `y`, as last rendered (glyphs read back by
// their place in the font atlas), for messages.
inline std::string TextOnRow(const char* name, float y) {
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  if (!window) return "";
  const ImDrawList& list = *window->DrawList;
  const ImFont* font = ImGui::GetFont();
  std::vector<std::pair<float, char>> chars;
  for (size_t v = 0; v + 3 < static_cast<size_t>(list.VtxBuffer.Size); ++v) {
    const ImDrawVert& a = list.VtxBuffer[static_cast<int>(v)];
    const ImDrawVert& c = list.VtxBuffer[static_cast<int>(v) + 2];
    if (a.pos.y > y + 8.0f || c.pos.y < y - 8.0f) continue;
    for (const ImFontGlyph& glyph : font->Glyphs) {
      if (glyph.U0 == a.uv.x && glyph.V0 == a.uv.y && glyph.U1 == c.uv.x && glyph.V1 == c.uv.y) {
        chars.emplace_back(a.pos.x, static_cast<char>(glyph.Codepoint));
        break;
      }
    }
  }
  std::sort(chars.begin(), chars.end());
  std::string text;
  for (size_t i = 0; i < chars.size(); ++i) {
    if (i > 0 && chars[i].first - chars[i - 1].first > 9.0f) text += ' ';
    text += chars[i].second;
  }
  return text;
}

// Every row of text drawn in window `name`, top to bottom (TextOnRow of each row).
inline std::vector<std::string> TextRows(const char* name) {
  std::vector<std::string> rows;
  float last_y = -1e9f;
  std::vector<float> tops;
  for (const Glyph& glyph : GlyphsOf(name)) tops.push_back(glyph.min.y);
  std::sort(tops.begin(), tops.end());
  for (float top : tops) {
    if (top - last_y < 6.0f) continue;
    last_y = top;
    rows.push_back(TextOnRow(name, top + 4.0f));
  }
  return rows;
}

inline bool AnyRowHas(const std::vector<std::string>& rows, const std::string& text) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const std::string& row) { return row.find(text) != std::string::npos; });
}

// What is wrong with the text of window `name` as last rendered: a glyph cut by its clip
// rectangle's left or right edge (vertically, scrolling may cut a row), or two glyphs on top of
// each other. "" when nothing is.
// The part of a glyph inside its clip rectangle.
inline Glyph Visible(const Glyph& g) {
  Glyph v = g;
  v.min = ImVec2(std::max(g.min.x, g.clip.x), std::max(g.min.y, g.clip.y));
  v.max = ImVec2(std::min(g.max.x, g.clip.z), std::min(g.max.y, g.clip.w));
  return v;
}

inline std::string TextProblems(const char* name) {
  const std::vector<Glyph> glyphs = GlyphsOf(name);
  std::string problems;
  const auto at = [](const Glyph& g) {
    return "(" + std::to_string(int(g.min.x)) + "," + std::to_string(int(g.min.y)) + ")";
  };
  std::vector<const Glyph*> visible;
  for (const Glyph& g : glyphs) {
    if (g.max.y <= g.clip.y || g.min.y >= g.clip.w) continue;  // scrolled out of view
    visible.push_back(&g);
    if (g.min.x < g.clip.x - 0.5f || g.max.x > g.clip.z + 0.5f) {
      problems += "glyph at " + at(g) + "-" + std::to_string(int(g.max.x)) +
                  " cut by the clip rectangle's x " + std::to_string(int(g.clip.x)) + ".." +
                  std::to_string(int(g.clip.z)) + "\n";
    }
  }
  for (size_t i = 0; i < visible.size(); ++i) {
    for (size_t j = i + 1; j < visible.size(); ++j) {
      // What shows of each glyph: a line half scrolled under the title bar is clipped there, and
      // only its visible part can overlap anything.
      const Glyph a = Visible(*visible[i]);
      const Glyph b = Visible(*visible[j]);
      if (a.min.x < b.max.x - 1.0f && b.min.x < a.max.x - 1.0f && a.min.y < b.max.y - 1.0f &&
          b.min.y < a.max.y - 1.0f) {
        problems += "glyphs at " + at(a) + " and " + at(b) + " overlap\n";
      }
    }
  }
  return problems;
}

}  // namespace headless

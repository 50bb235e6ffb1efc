// The legend drawn into an image (`render --show ...,legend`): swatches as pixel-space triangles
// and the labels in stb's quad font, at the image's bottom-left.
#include <stb_easy_font.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>

#include "app/scene/legend.h"

namespace app {

namespace {

// Pixel-space shapes: x right, y down from the image's top-left, as the font gives them.
class PixelShapes {
 public:
  PixelShapes(float height, renderer::DebugShapes* shapes) : height_(height), shapes_(shapes) {}
  glm::vec3 At(float x, float y) const { return {x, height_ - y, 0.0f}; }
  void Quad(float x0, float y0, float x1, float y1, const glm::vec4& color) {
    shapes_->AddQuad(At(x0, y0), At(x1, y0), At(x1, y1), At(x0, y1), color);
  }
  // Left point, top and bottom at `waist`, right point: a bone's outline.
  void Kite(float left, float waist, float right, float top, float bottom, const glm::vec4& color) {
    const float mid = 0.5f * (top + bottom);
    shapes_->AddQuad(At(left, mid), At(waist, top), At(right, mid), At(waist, bottom), color);
  }
  void Polygon(float cx, float cy, float radius, int sides, float turn, const glm::vec4& color) {
    for (int k = 0; k < sides; ++k) {
      const float a0 = turn + 6.2831853f * float(k) / float(sides);
      const float a1 = turn + 6.2831853f * float(k + 1) / float(sides);
      shapes_->AddTriangle(At(cx, cy), At(cx + radius * std::cos(a0), cy + radius * std::sin(a0)),
                           At(cx + radius * std::cos(a1), cy + radius * std::sin(a1)), color);
    }
  }

 private:
  float height_;
  renderer::DebugShapes* shapes_;
};

void Swatch(const LegendEntry& entry, float x0, float y0, float x1, float y1, PixelShapes* out) {
  const float cx = 0.5f * (x0 + x1), cy = 0.5f * (y0 + y1), h = 0.5f * (y1 - y0);
  const glm::vec4 rim(0.06f, 0.06f, 0.06f, 1.0f);
  const glm::vec4 color(glm::vec3(entry.color), std::min(1.0f, entry.color.a + 0.3f));
  switch (entry.shape) {
    case LegendShape::kLine:
      out->Quad(x0, cy - 1.5f, x1, cy + 1.5f, color);
      break;
    case LegendShape::kDisc:
      out->Polygon(cx, cy, h * 0.75f + 1.5f, 16, 0.0f, rim);
      out->Polygon(cx, cy, h * 0.75f, 16, 0.0f, color);
      break;
    case LegendShape::kSquare:
      out->Quad(cx - h * 0.8f, cy - h * 0.8f, cx + h * 0.8f, cy + h * 0.8f, rim);
      out->Quad(cx - h * 0.6f, cy - h * 0.6f, cx + h * 0.6f, cy + h * 0.6f, color);
      break;
    case LegendShape::kDiamond:
      out->Polygon(cx, cy, h, 4, 0.0f, rim);
      out->Polygon(cx, cy, h * 0.7f, 4, 0.0f, color);
      break;
    case LegendShape::kCross:
      out->Quad(cx - h, cy - 1.5f, cx + h, cy + 1.5f, color);
      out->Quad(cx - 1.5f, cy - h, cx + 1.5f, cy + h, color);
      break;
    case LegendShape::kBone:  // an octahedron's side view, head at the left
      out->Kite(x0, x0 + (x1 - x0) * 0.2f, x1, y0 + 1.0f, y1 - 1.0f, color);
      break;
    case LegendShape::kGradient:
      for (int k = 0; k < 8; ++k) {
        const float t = (float(k) + 0.5f) / 8.0f;
        out->Quad(x0 + (x1 - x0) * float(k) / 8.0f, y0 + 2.0f, x0 + (x1 - x0) * float(k + 1) / 8.0f,
                  y1 - 2.0f, glm::mix(entry.color, entry.color_to, t));
      }
      break;
  }
}

}  // namespace

void BuildLegendImage(const LegendEntry* entries, int count, int width, int height,
                      renderer::DebugShapes* shapes, renderer::View* view) {
  shapes->Clear();
  view->view = glm::mat4(1.0f);
  view->projection = glm::ortho(0.0f, float(width), 0.0f, float(height), -1.0f, 1.0f);
  view->viewport = {width, height};
  if (count <= 0) return;
  constexpr float kScale = 2.0f;  // the font's 7-pixel glyphs, doubled
  const float row = 13.0f * kScale, swatch = 2.2f * row, pad = 8.0f;
  float text_width = 0.0f;
  for (int i = 0; i < count; ++i) {
    text_width = std::max(text_width,
                          float(stb_easy_font_width(const_cast<char*>(entries[i].label))) * kScale);
  }
  PixelShapes out(float(height), shapes);
  const float x = 12.0f, bottom = float(height) - 12.0f;
  const float top = bottom - pad * 2.0f - row * float(count);
  out.Quad(x, top, x + pad * 3.0f + swatch + text_width, bottom,
           glm::vec4(0.08f, 0.09f, 0.1f, 0.8f));
  std::vector<char> buffer(64 * 1024);  // the font's quads for one label (~270 bytes a character)
  for (int i = 0; i < count; ++i) {
    const float y = top + pad + row * float(i);
    Swatch(entries[i], x + pad, y + 4.0f, x + pad + swatch, y + row - 4.0f, &out);
    const int quads = stb_easy_font_print(0.0f, 0.0f, const_cast<char*>(entries[i].label), nullptr,
                                          buffer.data(), static_cast<int>(buffer.size()));
    struct FontVertex {
      float x, y, z;
      unsigned char color[4];
    };
    const FontVertex* v = reinterpret_cast<const FontVertex*>(buffer.data());
    const float tx = x + pad * 2.0f + swatch, ty = y + 5.0f;
    for (int q = 0; q < quads; ++q, v += 4) {
      out.Quad(tx + v[0].x * kScale, ty + v[0].y * kScale, tx + v[2].x * kScale,
               ty + v[2].y * kScale, glm::vec4(0.93f, 0.93f, 0.93f, 1.0f));
    }
  }
}

}  // namespace app

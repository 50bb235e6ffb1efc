// OffscreenTarget: a framebuffer to render into without a window (the `render` command, the F12
// screenshot, tests) — RGBA8 colour and depth, 4× multisampled when the driver can, read back as
// top-row-first RGBA8 bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "renderer/gl_object.h"

namespace renderer {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;

  // A width × height target (pixels, each >= 1 and within GL_MAX_RENDERBUFFER_SIZE) with
  // `samples` samples per pixel, lowered to what the driver offers, and 0 (no multisampling)
  // when a multisampled framebuffer cannot be completed. Needs a current context after LoadGl.
  // Fails (nullopt, reason in *error) on a bad size or when even the plain framebuffer is
  // incomplete. Leaves the default framebuffer bound.
  static std::optional<OffscreenTarget> Create(int width, int height, std::string* error,
                                               int samples = 4);

  // Binds the target for drawing and sets the viewport to cover it.
  void Bind() const;
  // Binds the default framebuffer (the window) again.
  static void BindDefault();

  // Resolves the samples and returns width × height × 4 bytes, RGBA8, first row at the top (as
  // image files store them). Leaves this target bound for drawing.
  std::vector<uint8_t> ReadPixels() const;

  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }  // 0: not multisampled
  GLuint framebuffer() const { return draw_framebuffer_.id(); }

 private:
  int width_ = 0, height_ = 0, samples_ = 0;
  Framebuffer draw_framebuffer_;  // multisampled when samples_ > 0
  Renderbuffer draw_color_;
  Renderbuffer draw_depth_;
  Framebuffer resolve_framebuffer_;  // single-sampled colour, only when samples_ > 0
  Renderbuffer resolve_color_;
};

}  // namespace renderer

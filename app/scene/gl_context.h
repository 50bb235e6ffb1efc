// An SDL window with an OpenGL 3.3 core context and the GL loader initialised: a visible window for
// the viewer, or a hidden one on SDL's offscreen (EGL) driver for headless commands.
#pragma once

#include <memory>
#include <string>

struct SDL_Window;

namespace app {

class GlContext {
 public:
  enum class Kind { kWindow, kHeadless };

  // Creates the window and context and loads GL. kHeadless selects SDL's offscreen video driver
  // unless SDL_VIDEODRIVER is set, so no display server is needed. Returns nullptr with a message
  // in *error when SDL, the context or the loader fails.
  static std::unique_ptr<GlContext> Create(Kind kind, const std::string& title, int width,
                                           int height, std::string* error);
  ~GlContext();
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  SDL_Window* window() const { return window_; }
  void* gl_context() const { return context_; }
  // Drawable size in pixels.
  void DrawableSize(int* width, int* height) const;
  // The longest side, in pixels, of an image this context can render offscreen or show: the
  // smallest of GL_MAX_VIEWPORT_DIMS, GL_MAX_RENDERBUFFER_SIZE and GL_MAX_TEXTURE_SIZE.
  int MaxImageSide() const;
  void Swap() const;

 private:
  GlContext() = default;
  SDL_Window* window_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace app

// SDL window + GL 3.3 core context creation, shared by the viewer and the headless commands.
#include "app/scene/gl_context.h"

#include <SDL2/SDL.h>

#include <algorithm>
#include <cstdlib>

#include "renderer/gl.h"

namespace app {

std::unique_ptr<GlContext> GlContext::Create(Kind kind, const std::string& title, int width,
                                             int height, std::string* error) {
  if (kind == Kind::kHeadless) setenv("SDL_VIDEODRIVER", "offscreen", /*overwrite=*/0);
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    *error = std::string("cannot start SDL video: ") + SDL_GetError();
    return nullptr;
  }
  std::unique_ptr<GlContext> gl(new GlContext());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  Uint32 flags = SDL_WINDOW_OPENGL;
  flags |=
      kind == Kind::kWindow ? (SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI) : SDL_WINDOW_HIDDEN;
  gl->window_ = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 width, height, flags);
  if (!gl->window_) {
    *error = std::string("cannot create a window: ") + SDL_GetError();
    return nullptr;
  }
  gl->context_ = SDL_GL_CreateContext(gl->window_);
  if (!gl->context_) {
    *error = std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
    return nullptr;
  }
  SDL_GL_MakeCurrent(gl->window_, gl->context_);
  if (kind == Kind::kWindow) SDL_GL_SetSwapInterval(1);
  std::string gl_error;
  if (!renderer::LoadGl(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress), &gl_error)) {
    *error = gl_error;
    return nullptr;
  }
  return gl;
}

GlContext::~GlContext() {
  if (context_) SDL_GL_DeleteContext(context_);
  if (window_) SDL_DestroyWindow(window_);
  SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

void GlContext::DrawableSize(int* width, int* height) const {
  SDL_GL_GetDrawableSize(window_, width, height);
}

void GlContext::Swap() const { SDL_GL_SwapWindow(window_); }

int GlContext::MaxImageSide() const {
  GLint viewport[2] = {0, 0}, renderbuffer = 0, texture = 0;
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &renderbuffer);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &texture);
  return std::min({viewport[0], viewport[1], renderbuffer, texture});
}

}  // namespace app

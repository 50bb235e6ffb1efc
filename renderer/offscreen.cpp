// Offscreen framebuffers with optional multisampling, and reading them back.
#include "renderer/offscreen.h"

#include <algorithm>
#include <cstring>

namespace renderer {

namespace {

// Attaches fresh colour (RGBA8) and depth renderbuffers with `samples` samples to `framebuffer`
// and returns whether it is complete.
bool BuildFramebuffer(int width, int height, int samples, Framebuffer* framebuffer,
                      Renderbuffer* color, Renderbuffer* depth) {
  *framebuffer = MakeFramebuffer();
  *color = MakeRenderbuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer->id());
  glBindRenderbuffer(GL_RENDERBUFFER, color->id());
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color->id());
  if (depth) {
    *depth = MakeRenderbuffer();
    glBindRenderbuffer(GL_RENDERBUFFER, depth->id());
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth->id());
  }
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return complete;
}

}  // namespace

std::optional<OffscreenTarget> OffscreenTarget::Create(int width, int height, std::string* error,
                                                       int samples) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width < 1 || height < 1 || width > max_size || height > max_size) {
    *error = "offscreen size " + std::to_string(width) + "x" + std::to_string(height) +
             " is outside 1.." + std::to_string(max_size);
    return std::nullopt;
  }
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples = std::clamp(samples, 0, static_cast<int>(max_samples));
  if (samples == 1) samples = 0;

  OffscreenTarget target;
  target.width_ = width;
  target.height_ = height;
  if (samples > 0) {
    const bool ok = BuildFramebuffer(width, height, samples, &target.draw_framebuffer_,
                                     &target.draw_color_, &target.draw_depth_) &&
                    BuildFramebuffer(width, height, 0, &target.resolve_framebuffer_,
                                     &target.resolve_color_, nullptr);
    if (ok) {
      target.samples_ = samples;
      return target;
    }
    target.resolve_framebuffer_.Reset();
    target.resolve_color_.Reset();
  }
  if (!BuildFramebuffer(width, height, 0, &target.draw_framebuffer_, &target.draw_color_,
                        &target.draw_depth_)) {
    *error = "the offscreen framebuffer (RGBA8 + depth) is incomplete on this driver";
    return std::nullopt;
  }
  target.samples_ = 0;
  return target;
}

void OffscreenTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_.id());
  glViewport(0, 0, width_, height_);
}

void OffscreenTarget::BindDefault() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

std::vector<uint8_t> OffscreenTarget::ReadPixels() const {
  GLuint read_from = draw_framebuffer_.id();
  if (samples_ > 0) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, draw_framebuffer_.id());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_framebuffer_.id());
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    read_from = resolve_framebuffer_.id();
  }
  const size_t row = static_cast<size_t>(width_) * 4;
  std::vector<uint8_t> bottom_up(row * height_);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_from);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  // GL's first row is the bottom one; image files start at the top.
  std::vector<uint8_t> pixels(bottom_up.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(&pixels[row * y], &bottom_up[row * (height_ - 1 - y)], row);
  glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_.id());
  return pixels;
}

}  // namespace renderer

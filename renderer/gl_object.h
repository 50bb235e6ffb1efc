// Move-only owners of GL object names (buffers, vertex arrays, textures, framebuffers, ...).
// Each deletes its object when destroyed, so every owner must die before the GL context does.
#pragma once

#include <utility>

#include "renderer/gl.h"

namespace renderer {

// Owns one GL object name; `Delete` releases it. A default-constructed owner holds 0 (no object).
template <void (*Delete)(GLuint)>
class GlObject {
 public:
  GlObject() = default;
  explicit GlObject(GLuint id) : id_(id) {}
  ~GlObject() { Reset(); }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  GlObject(GlObject&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlObject& operator=(GlObject&& other) noexcept {
    if (this != &other) {
      Reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void Reset() {
    if (id_ != 0) Delete(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

namespace gl_delete {
inline void Buffer(GLuint id) { glDeleteBuffers(1, &id); }
inline void VertexArray(GLuint id) { glDeleteVertexArrays(1, &id); }
inline void Texture(GLuint id) { glDeleteTextures(1, &id); }
inline void Framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
inline void Renderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }
inline void Shader(GLuint id) { glDeleteShader(id); }
inline void Program(GLuint id) { glDeleteProgram(id); }
}  // namespace gl_delete

using Buffer = GlObject<gl_delete::Buffer>;
using VertexArray = GlObject<gl_delete::VertexArray>;
using Texture = GlObject<gl_delete::Texture>;
using Framebuffer = GlObject<gl_delete::Framebuffer>;
using Renderbuffer = GlObject<gl_delete::Renderbuffer>;
using ShaderObject = GlObject<gl_delete::Shader>;
using ProgramObject = GlObject<gl_delete::Program>;

// Fresh names (glGen*); the objects come into existence when first bound.
inline Buffer MakeBuffer() {
  GLuint id = 0;
  glGenBuffers(1, &id);
  return Buffer(id);
}
inline VertexArray MakeVertexArray() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return VertexArray(id);
}
inline Texture MakeTexture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  return Texture(id);
}
inline Framebuffer MakeFramebuffer() {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  return Framebuffer(id);
}
inline Renderbuffer MakeRenderbuffer() {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  return Renderbuffer(id);
}

}  // namespace renderer

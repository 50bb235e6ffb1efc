// Loading and checking the GL 3.3 core context.
#include "renderer/gl.h"

namespace renderer {

namespace {

std::string GlString(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text ? reinterpret_cast<const char*>(text) : "?";
}

const char* ErrorName(GLenum error) {
  switch (error) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error";
  }
}

}  // namespace

bool LoadGl(GLADloadfunc get_proc, std::string* error) {
  if (!get_proc) {
    *error = "no OpenGL function loader given";
    return false;
  }
  // glad returns the version it found (0 when even glGetString is missing); functions above that
  // version stay null, so an old context must be refused here rather than crash later.
  const int version = gladLoadGL(get_proc);
  if (version == 0) {
    *error = "could not load OpenGL functions (is a GL context current?)";
    return false;
  }
  const int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
  if (major < 3 || (major == 3 && minor < 3)) {
    *error = "OpenGL 3.3 core is required, but the context is " + std::to_string(major) + "." +
             std::to_string(minor) + " (" + GlString(GL_RENDERER) + ")";
    return false;
  }
  return true;
}

std::string GlDescription() {
  return "OpenGL " + GlString(GL_VERSION) + " (" + GlString(GL_RENDERER) + ")";
}

std::string TakeGlErrors() {
  std::string errors;
  // Bounded: a lost context may report errors forever.
  for (int i = 0; i < 32; ++i) {
    const GLenum e = glGetError();
    if (e == GL_NO_ERROR) break;
    if (!errors.empty()) errors += ", ";
    errors += ErrorName(e);
  }
  return errors;
}

void Finish() { glFinish(); }

}  // namespace renderer

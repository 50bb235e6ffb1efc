// View: where the frame is seen from — the camera's matrices and the size of the target in
// pixels. Every draw call takes one; the renderer keeps no camera of its own.
#pragma once

#include <glm/glm.hpp>

namespace renderer {

struct View {
  glm::mat4 view{1.0f};        // world -> eye (right-handed, looking down -z)
  glm::mat4 projection{1.0f};  // eye -> clip, OpenGL depth range [-1, 1] (glm::perspective)
  glm::ivec2 viewport{1, 1};   // target size in pixels; sets the GL viewport and pixel widths

  glm::mat4 ViewProjection() const { return projection * view; }
  // Camera position in world space.
  glm::vec3 EyePosition() const { return glm::vec3(glm::inverse(view)[3]); }
};

}  // namespace renderer

// Settings of the ground grid on the y = 0 plane.
#pragma once

#include <glm/glm.hpp>

namespace renderer {

struct GridParams {
  glm::vec3 center{0.0f};  // world space; the grid square is centred here (y ignored)
  float cell = 0.1f;       // minor line spacing, world units; > 0
  int major_every = 10;    // minor cells per major line; >= 1
  float extent = 5.0f;     // half the side of the square, world units; lines fade out towards it
  glm::vec4 minor_color{0.55f, 0.56f, 0.6f, 0.5f};
  glm::vec4 major_color{0.7f, 0.72f, 0.76f, 0.7f};
  glm::vec4 x_axis_color{0.9f, 0.25f, 0.25f, 0.95f};
  glm::vec4 z_axis_color{0.25f, 0.45f, 0.95f, 0.95f};
};

// A grid for a model whose bounding size (e.g. its height or bounding-sphere diameter) is
// `model_size` world units: major lines at the power of ten at or below that size, ten minor cells
// per major, extending to about five model sizes. Non-positive or non-finite sizes give the
// defaults (1 m majors for a human-sized model).
GridParams GridForModelSize(float model_size);

}  // namespace renderer

// Grid sizing from the model size.
#include "renderer/grid.h"

#include <cmath>

namespace renderer {

GridParams GridForModelSize(float model_size) {
  GridParams grid;
  if (!(model_size > 0.0f) || !std::isfinite(model_size)) model_size = 1.8f;
  const float major = std::pow(10.0f, std::floor(std::log10(model_size)));
  grid.cell = major / static_cast<float>(grid.major_every);
  grid.extent = 5.0f * std::fmax(model_size, major);
  return grid;
}

}  // namespace renderer

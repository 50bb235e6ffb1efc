// Lookup into the embedded shader table.
#include "renderer/shader_sources.h"

namespace renderer {

std::string_view ShaderSource(std::string_view name) {
  for (int i = 0; i < embedded::kShaderCount; ++i)
    if (name == embedded::kShaders[i].name) return embedded::kShaders[i].text;
  return {};
}

}  // namespace renderer

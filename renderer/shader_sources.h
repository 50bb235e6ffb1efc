// The GLSL files of shaders/, embedded into the binary at build time
// (cmake/EmbedShaders.cmake writes the table into the build directory).
#pragma once

#include <string_view>

namespace renderer {

namespace embedded {
struct ShaderFile {
  const char* name;  // file name inside shaders/, e.g. "skinned.vert"
  const char* text;
};
extern const ShaderFile kShaders[];
extern const int kShaderCount;
}  // namespace embedded

// Text of an embedded shader file by name, or an empty view when there is none.
std::string_view ShaderSource(std::string_view name);

}  // namespace renderer

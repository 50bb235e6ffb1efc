// PNG output through stb_image_write, compiled here with static linkage so other libraries may
// carry their own copy without clashing symbols.
#include "renderer/png.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace renderer {

bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              std::string* error) {
  if (width < 1 || height < 1 ||
      rgba.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 4) {
    *error = path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) +
             " image from " + std::to_string(rgba.size()) + " bytes";
    return false;
  }
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4)) {
    *error = path + ": cannot write the PNG file";
    return false;
  }
  return true;
}

}  // namespace renderer

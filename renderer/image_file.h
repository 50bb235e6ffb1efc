// Writing RGBA8 images as PNG files (offscreen renders, screenshots, test output).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace renderer {

// Writes width × height RGBA8 pixels, first row at the top, to `path`. Fails (false, reason
// naming the path in *error) when the byte count is not width × height × 4 or the file cannot
// be written.
bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              std::string* error);

}  // namespace renderer

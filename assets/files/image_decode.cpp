// stb_image is compiled here, static to this file: libraries loaded beside us (Debian's libdraco,
// pulled in by Assimp) export their own older stbi_* symbols, which would otherwise be the ones
// the dynamic linker binds our calls to.
#include "assets/files/image_decode.h"

#include <cstdint>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#include <stb_image.h>

namespace assets {

bool ReadImageSize(const uint8_t* data, size_t size, int* width, int* height, std::string* reason) {
  int channels = 0;
  if (size == 0 || size > static_cast<size_t>(INT32_MAX) ||
      !stbi_info_from_memory(data, static_cast<int>(size), width, height, &channels)) {
    *reason = std::string("not a decodable image (") +
              (size == 0                               ? "no data"
               : size > static_cast<size_t>(INT32_MAX) ? "too large"
                                                       : stbi_failure_reason()) +
              ")";
    return false;
  }
  return true;
}

bool DecodeImage(const uint8_t* data, size_t size, Texture* out, std::string* reason) {
  if (size == 0 || size > static_cast<size_t>(INT32_MAX)) {
    *reason = "empty or oversized image data";
    return false;
  }
  int w = 0, h = 0, channels = 0;
  const int length = static_cast<int>(size);
  if (!stbi_info_from_memory(data, length, &w, &h, &channels)) {
    *reason = std::string("not a decodable image (") + stbi_failure_reason() + ")";
    return false;
  }
  if (w <= 0 || h <= 0 || w > kMaxTextureSide || h > kMaxTextureSide) {
    *reason = "image is " + std::to_string(w) + "x" + std::to_string(h) + ", larger than " +
              std::to_string(kMaxTextureSide) + " pixels a side";
    return false;
  }
  stbi_uc* pixels = stbi_load_from_memory(data, length, &w, &h, &channels, 4);
  if (!pixels) {
    *reason = std::string("decoding failed (") + stbi_failure_reason() + ")";
    return false;
  }
  out->width = w;
  out->height = h;
  out->rgba.assign(pixels, pixels + static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  stbi_image_free(pixels);
  return true;
}

}  // namespace assets

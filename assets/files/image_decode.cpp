// stb_image is compiled here, static to this file: libraries loaded beside us (Debian's libdraco,
// pulled in by Assimp) export their own older stbi_* symbols, which would otherwise be the ones
// the dynamic linker binds our calls to. WebP (which stb_image does not read) goes to Debian's
// libwebp.
#include "assets/files/image_decode.h"

#include <webp/decode.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#include <stb_image.h>

namespace assets {

namespace {

// What libwebp's status means for the user.
const char* WebPStatusText(VP8StatusCode status) {
  switch (status) {
    case VP8_STATUS_OK:
      return "no error";
    case VP8_STATUS_OUT_OF_MEMORY:
      return "out of memory";
    case VP8_STATUS_INVALID_PARAM:
      return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR:
      return "corrupt WebP data";
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      return "a WebP feature libwebp does not decode";
    case VP8_STATUS_SUSPENDED:
    case VP8_STATUS_USER_ABORT:
      return "decoding stopped";
    case VP8_STATUS_NOT_ENOUGH_DATA:
      return "truncated WebP data";
  }
  return "unknown WebP error";
}

// The size and features a WebP header declares (the header may be all `data` holds).
bool WebPHeader(const uint8_t* data, size_t size, WebPBitstreamFeatures* features,
                std::string* reason) {
  const VP8StatusCode status = WebPGetFeatures(data, size, features);
  if (status != VP8_STATUS_OK) {
    *reason = std::string("not a decodable image (") + WebPStatusText(status) + ")";
    return false;
  }
  if (features->has_animation) {
    *reason = "not a decodable image (an animated WebP; skelview reads still images)";
    return false;
  }
  return true;
}

}  // namespace

bool IsWebP(const uint8_t* data, size_t size) {
  return size >= 12 && std::memcmp(data, "RIFF", 4) == 0 && std::memcmp(data + 8, "WEBP", 4) == 0;
}

bool ReadImageSize(const uint8_t* data, size_t size, int* width, int* height, std::string* reason) {
  if (IsWebP(data, size)) {
    WebPBitstreamFeatures features;
    if (!WebPHeader(data, size, &features, reason)) return false;
    *width = features.width;
    *height = features.height;
    return true;
  }
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

namespace {

bool SideFits(int w, int h, std::string* reason) {
  if (w <= 0 || h <= 0 || w > kMaxTextureSide || h > kMaxTextureSide) {
    *reason = "image is " + std::to_string(w) + "x" + std::to_string(h) + ", larger than " +
              std::to_string(kMaxTextureSide) + " pixels a side";
    return false;
  }
  return true;
}

bool DecodeWebP(const uint8_t* data, size_t size, Texture* out, std::string* reason) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) {
    *reason = "decoding failed (libwebp's version does not match its header)";
    return false;
  }
  if (!WebPHeader(data, size, &config.input, reason)) return false;
  const int w = config.input.width, h = config.input.height;
  if (!SideFits(w, h, reason)) return false;
  // libwebp allocates the pixels once the bitstream's own headers have been read (so a corrupt
  // file usually fails before that), then they are copied out as stb_image's are.
  config.output.colorspace = MODE_RGBA;  // straight (not premultiplied) alpha, as PNG's
  const VP8StatusCode status = WebPDecode(data, size, &config);
  if (status != VP8_STATUS_OK) {
    WebPFreeDecBuffer(&config.output);
    *reason = std::string("decoding failed (") + WebPStatusText(status) + ")";
    return false;
  }
  const WebPRGBABuffer& pixels = config.output.u.RGBA;
  const size_t row = static_cast<size_t>(w) * 4;
  if (static_cast<size_t>(pixels.stride) == row) {
    out->rgba.assign(pixels.rgba, pixels.rgba + row * static_cast<size_t>(h));
  } else {
    out->rgba.resize(row * static_cast<size_t>(h));
    for (int y = 0; y < h; ++y) {
      std::memcpy(out->rgba.data() + row * static_cast<size_t>(y),
                  pixels.rgba + static_cast<size_t>(pixels.stride) * static_cast<size_t>(y), row);
    }
  }
  WebPFreeDecBuffer(&config.output);
  out->width = w;
  out->height = h;
  return true;
}

}  // namespace

bool DecodeImage(const uint8_t* data, size_t size, Texture* out, std::string* reason) {
  if (size == 0 || size > static_cast<size_t>(INT32_MAX)) {
    *reason = "empty or oversized image data";
    return false;
  }
  if (IsWebP(data, size)) return DecodeWebP(data, size, out, reason);
  int w = 0, h = 0, channels = 0;
  const int length = static_cast<int>(size);
  if (!stbi_info_from_memory(data, length, &w, &h, &channels)) {
    *reason = std::string("not a decodable image (") + stbi_failure_reason() + ")";
    return false;
  }
  if (!SideFits(w, h, reason)) return false;
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

// Decoding texture images (PNG, JPEG, BMP, TGA, ... with stb_image; WebP, lossy or lossless, with
// libwebp) into RGBA8 with a size check first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "assets/model/model.h"

namespace assets {

// Texture sides beyond this are refused before decoding (memory).
constexpr int kMaxTextureSide = 16384;
// Image files larger than this are not read as textures.
constexpr uint64_t kMaxImageFileBytes = uint64_t{512} << 20;

// True when `data` starts like a WebP file (a RIFF container of form type WEBP).
bool IsWebP(const uint8_t* data, size_t size);

// The width and height an encoded image's header declares, without decoding it (the header may
// be all `data` holds). False, with the reason, when it is not an image skelview decodes (an
// animated WebP is refused here).
bool ReadImageSize(const uint8_t* data, size_t size, int* width, int* height, std::string* reason);

// Decodes an encoded image into out (RGBA, 4 bytes per pixel, rows top to bottom). On failure
// returns false and says why in reason (a truncated or corrupt file, a side over kMaxTextureSide);
// out is left untouched.
bool DecodeImage(const uint8_t* data, size_t size, Texture* out, std::string* reason);

}  // namespace assets

// Writing RGBA8 images as PNG or JPEG files (offscreen renders, screenshots, test output), in the
// format the file name's extension asks for, atomically (assets/files/file_output.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace assets {

enum class ImageFormat { kPng, kJpeg };

// The format a file name asks for by its extension, in any case: ".png" PNG, ".jpg" and ".jpeg"
// JPEG, none at all PNG (for /dev/stdout and the like); nullopt for any other extension.
std::optional<ImageFormat> ImageFormatForPath(const std::string& path);

// "unknown image extension '.bmp' (use .png, .jpg or .jpeg)" for a path ImageFormatForPath
// refuses; "" otherwise.
std::string ImageExtensionProblem(const std::string& path);

// Encodes width × height RGBA8 pixels, first row at the top. JPEG drops the alpha channel
// (quality 92). False with a reason in *error when the byte count is not width × height × 4.
bool EncodeImage(ImageFormat format, int width, int height, const std::vector<uint8_t>& rgba,
                 std::vector<uint8_t>* out, std::string* error);

// Encodes the pixels in the format of `path`'s extension and writes them atomically: `path` ends
// up with either its old contents or the whole new image. Fails (false, reason naming the path in
// *error) for an unknown extension, a byte count that is not width × height × 4, or a failed
// write (assets::WriteFileAtomically: missing folder, disk full, file-size limit, ...).
bool WriteImage(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
                std::string* error);

// As WriteImage, but PNG whatever the extension.
bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              std::string* error);

}  // namespace assets

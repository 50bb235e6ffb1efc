// PNG and JPEG output through stb_image_write (into memory, then written atomically), compiled
// here with static linkage so other libraries may carry their own copy without clashing symbols.
#include "assets/files/image_file.h"

#include <cctype>
#include <filesystem>

#include "assets/files/file_output.h"

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

namespace assets {

namespace {

constexpr int kJpegQuality = 92;

std::string Extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

void AppendBytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size > 0) out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

std::optional<ImageFormat> ImageFormatForPath(const std::string& path) {
  const std::string ext = Extension(path);
  if (ext.empty() || ext == ".png") return ImageFormat::kPng;
  if (ext == ".jpg" || ext == ".jpeg") return ImageFormat::kJpeg;
  return std::nullopt;
}

std::string ImageExtensionProblem(const std::string& path) {
  if (ImageFormatForPath(path)) return {};
  return "unknown image extension '" + std::filesystem::path(path).extension().string() +
         "' (use .png, .jpg or .jpeg)";
}

bool EncodeImage(ImageFormat format, int width, int height, const std::vector<uint8_t>& rgba,
                 std::vector<uint8_t>* out, std::string* error) {
  if (width < 1 || height < 1 ||
      rgba.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 4) {
    *error = "cannot encode a " + std::to_string(width) + "x" + std::to_string(height) +
             " image from " + std::to_string(rgba.size()) + " bytes";
    return false;
  }
  out->clear();
  const int ok =
      format == ImageFormat::kPng
          ? stbi_write_png_to_func(AppendBytes, out, width, height, 4, rgba.data(), width * 4)
          : stbi_write_jpg_to_func(AppendBytes, out, width, height, 4, rgba.data(), kJpegQuality);
  if (!ok || out->empty()) {
    *error = "the image encoder failed";
    return false;
  }
  return true;
}

namespace {

bool Write(const std::string& path, ImageFormat format, int width, int height,
           const std::vector<uint8_t>& rgba, std::string* error) {
  std::vector<uint8_t> bytes;
  if (!EncodeImage(format, width, height, rgba, &bytes, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return assets::WriteFileAtomically(path, bytes.data(), bytes.size(), error);
}

}  // namespace

bool WriteImage(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
                std::string* error) {
  const std::optional<ImageFormat> format = ImageFormatForPath(path);
  if (!format) {
    *error = path + ": " + ImageExtensionProblem(path);
    return false;
  }
  return Write(path, *format, width, height, rgba, error);
}

bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              std::string* error) {
  return Write(path, ImageFormat::kPng, width, height, rgba, error);
}

}  // namespace assets

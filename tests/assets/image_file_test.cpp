// WriteImage writes what it is given, top row first, in the format the extension names (PNG or
// JPEG), refuses other extensions, and reports what it cannot write.
#include "assets/files/image_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wnull-dereference"
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "tests/test_paths.h"

namespace {

std::string Temp(const std::string& name) { return testpaths::TempDir() + "/" + name; }

std::string FirstBytes(const std::string& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(n, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(n));
  bytes.resize(static_cast<size_t>(in.gcount()));
  return bytes;
}

const std::string kPngMagic = "\x89PNG\r\n\x1a\n";
const std::string kJpegMagic = "\xff\xd8\xff";

TEST(ImageFile, PngRoundTripsPixelsWithTheTopRowFirst) {
  const int w = 3, h = 2;
  std::vector<uint8_t> rgba(w * h * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>(i * 9);
  const std::string path = Temp("roundtrip.png");
  std::string error;
  ASSERT_TRUE(assets::WriteImage(path, w, h, rgba, &error)) << error;
  int rw = 0, rh = 0, channels = 0;
  stbi_uc* read = stbi_load(path.c_str(), &rw, &rh, &channels, 4);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(rw, w);
  EXPECT_EQ(rh, h);
  EXPECT_EQ(std::vector<uint8_t>(read, read + w * h * 4), rgba);
  stbi_image_free(read);
}

TEST(ImageFile, JpgAndJpegExtensionsWriteJpeg) {
  // Top half red, bottom half blue: JPEG is lossy, the halves stay clearly apart.
  const int w = 32, h = 32;
  std::vector<uint8_t> rgba(size_t(w) * h * 4, 255);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &rgba[(size_t(y) * w + x) * 4];
      p[0] = y < h / 2 ? 220 : 20;
      p[1] = 20;
      p[2] = y < h / 2 ? 20 : 220;
    }
  }
  for (const char* name : {"photo.jpg", "PHOTO.JPEG", "mixed.JpG"}) {
    const std::string path = Temp(name);
    std::string error;
    ASSERT_TRUE(assets::WriteImage(path, w, h, rgba, &error)) << error;
    EXPECT_EQ(FirstBytes(path, 3), kJpegMagic) << name;
    int rw = 0, rh = 0, channels = 0;
    stbi_uc* read = stbi_load(path.c_str(), &rw, &rh, &channels, 4);
    ASSERT_NE(read, nullptr) << name;
    EXPECT_EQ(rw, w);
    EXPECT_EQ(rh, h);
    EXPECT_GT(read[0], 150);                            // top-left red
    EXPECT_GT(read[(size_t(h - 1) * w) * 4 + 2], 150);  // bottom-left blue
    stbi_image_free(read);
  }
}

TEST(ImageFile, PngExtensionAndNoExtensionWritePng) {
  const std::vector<uint8_t> rgba(4 * 4 * 4, 128);
  for (const char* name : {"a.png", "B.PNG", "no-extension"}) {
    std::string error;
    ASSERT_TRUE(assets::WriteImage(Temp(name), 4, 4, rgba, &error)) << error;
    EXPECT_EQ(FirstBytes(Temp(name), 8), kPngMagic) << name;
  }
  EXPECT_EQ(assets::ImageFormatForPath("x.jpeg"), assets::ImageFormat::kJpeg);
  EXPECT_EQ(assets::ImageFormatForPath("/dev/stdout"), assets::ImageFormat::kPng);
}

TEST(ImageFile, UnknownExtensionIsRefusedAndNothingIsWritten) {
  const std::vector<uint8_t> rgba(4, 0);
  for (const char* name : {"out.bmp", "out.glb", "out.png.tmp"}) {
    std::string error;
    EXPECT_FALSE(assets::WriteImage(Temp(name), 1, 1, rgba, &error)) << name;
    EXPECT_THAT(error, ::testing::HasSubstr(Temp(name)));
    EXPECT_THAT(error, ::testing::HasSubstr("unknown image extension"));
    EXPECT_FALSE(std::filesystem::exists(Temp(name))) << name;
    EXPECT_FALSE(assets::ImageFormatForPath(name).has_value());
  }
}

TEST(ImageFile, RefusesMismatchedSizeAndUnwritablePath) {
  std::string error;
  EXPECT_FALSE(assets::WriteImage(Temp("x.png"), 4, 4, std::vector<uint8_t>(3), &error));
  EXPECT_THAT(error, ::testing::HasSubstr("x.png"));
  EXPECT_FALSE(assets::WriteImage("/nonexistent-dir/y.png", 1, 1, std::vector<uint8_t>(4), &error));
  EXPECT_THAT(error, ::testing::HasSubstr("/nonexistent-dir/y.png"));
}

TEST(ImageFile, WriteToAFullDeviceFailsAndLeavesTheDevice) {
  std::string error;
  EXPECT_FALSE(assets::WriteImage("/dev/full", 8, 8, std::vector<uint8_t>(8 * 8 * 4), &error));
  EXPECT_THAT(error, ::testing::HasSubstr("No space left on device"));
  struct stat st {};
  ASSERT_EQ(lstat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

}  // namespace

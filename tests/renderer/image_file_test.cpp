// WritePng writes what it is given, top row first, and reports what it cannot write.
#include "renderer/png.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

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

TEST(PngTest, RoundTripsPixelsWithTheTopRowFirst) {
  const int w = 3, h = 2;
  std::vector<uint8_t> rgba(w * h * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>(i * 9);
  const std::string path = testpaths::TempDir() + "/roundtrip.png";
  std::string error;
  ASSERT_TRUE(renderer::WritePng(path, w, h, rgba, &error)) << error;
  int rw = 0, rh = 0, channels = 0;
  stbi_uc* read = stbi_load(path.c_str(), &rw, &rh, &channels, 4);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(rw, w);
  EXPECT_EQ(rh, h);
  EXPECT_EQ(std::vector<uint8_t>(read, read + w * h * 4), rgba);
  stbi_image_free(read);
}

TEST(PngTest, RefusesMismatchedSizeAndUnwritablePath) {
  std::string error;
  EXPECT_FALSE(
      renderer::WritePng(testpaths::TempDir() + "/x.png", 4, 4, std::vector<uint8_t>(3), &error));
  EXPECT_THAT(error, ::testing::HasSubstr("x.png"));
  EXPECT_FALSE(renderer::WritePng("/nonexistent-dir/y.png", 1, 1, std::vector<uint8_t>(4), &error));
  EXPECT_THAT(error, ::testing::HasSubstr("/nonexistent-dir/y.png"));
}

}  // namespace

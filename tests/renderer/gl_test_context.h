// Test support: one hidden SDL window with a current OpenGL 3.3 core context for the whole test
// process (SDL's offscreen driver when no other is chosen), and small image helpers.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "renderer/gl.h"
#include "renderer/view.h"

namespace rendertest {

// Creates the context on first use; it lives until all tests have run. False with a reason when
// SDL or GL cannot provide one.
bool EnsureGlContext(std::string* error);
// Loads the GL functions of the test context again (after a test replaced them).
void ReloadGl();

// Fixture for tests that touch GL: fails when there is no context, and fails a test that leaves
// GL errors behind.
class GlTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

// A top-row-first RGBA8 image as OffscreenTarget::ReadPixels returns it.
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;

  glm::ivec4 At(int x, int y) const {
    const uint8_t* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
  }
  bool Contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
};

// Largest per-channel RGB difference between two pixels.
int ColorDistance(const glm::ivec4& a, const glm::ivec4& b);
// Rec. 709 luma of a pixel, 0..255.
float Luma(const glm::ivec4& p);

// Pixel (x right, y down from the top row) where a world point lands, and whether it is in front
// of the camera.
glm::vec2 ProjectToPixel(const renderer::View& view, const glm::vec3& world, bool* in_front);

// Writes the image to /tmp/skelview-renderer-tests/<name>.png for looking at; failures to write
// are reported as test failures.
void SaveForInspection(const Image& image, const std::string& name);

// A camera at `eye` looking at `target` (y up), 40° vertical field of view, for a square target
// of `size` pixels.
renderer::View LookAt(const glm::vec3& eye, const glm::vec3& target, int size);

}  // namespace rendertest

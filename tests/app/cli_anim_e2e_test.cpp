// `render` with onion skins, a motion trail and --on-ground, run through the built binary: the
// ghosts and the trail appear in their colours, and a model whose origin is at its hips stands on
// the grid with --on-ground and sinks into it without.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/run_process.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;

std::string TempPath(const std::string& name) { return testpaths::TempDir() + "/" + name; }

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  glm::ivec3 At(int x, int y) const {
    const unsigned char* p = &rgba[(size_t(y) * width + x) * 4];
    return {p[0], p[1], p[2]};
  }
};

Image Render(const std::vector<std::string>& args, const std::string& name) {
  const std::string out = TempPath(name);
  std::vector<std::string> all = {"render", "-o", out};
  all.insert(all.end(), args.begin(), args.end());
  const testproc::Result r = testproc::Skelview(all, 60.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(out.c_str(), &image.width, &image.height, &channels, 4);
  if (data) {
    image.rgba.assign(data, data + size_t(image.width) * image.height * 4);
    stbi_image_free(data);
  }
  return image;
}

// Pixels of the past ghosts' pink (1, 0.4, 0.85) and the future ones' cyan (0.25, 0.9, 0.95),
// blended over the dark background; neither is a bone's colour (green, blue, red, grey, orange,
// white), shaded or not.
void CountGhostPixels(const Image& image, int* red, int* green) {
  *red = *green = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const glm::vec3 p(image.At(x, y));
      *red += p.r > 110 && p.b > 0.6f * p.r && p.g < 0.6f * p.r;
      *green += p.g > 110 && p.r < 0.4f * p.g && p.b > 0.7f * p.g && p.g > 0.8f * p.b;
    }
  }
}

TEST(CliRenderAnimation, OnionSkinsAndTrailDrawPastPinkAndFutureCyan) {
  const std::vector<std::string> common = {"--size", "400x300", "--anim", "0",
                                           "--time", "0.5",     "--view", "right"};
  std::vector<std::string> plain = common, onion = common, trail = common;
  plain.insert(plain.end(), {"--show", "bones"});
  onion.insert(onion.end(), {"--show", "bones,onion=4"});
  trail.insert(trail.end(), {"--show", "bones,trail=LeftFoot"});
  int plain_red = 0, plain_green = 0, onion_red = 0, onion_green = 0, trail_red = 0,
      trail_green = 0;
  CountGhostPixels(Render(plain, "plain.png"), &plain_red, &plain_green);
  CountGhostPixels(Render(onion, "onion.png"), &onion_red, &onion_green);
  CountGhostPixels(Render(trail, "trail.png"), &trail_red, &trail_green);
  EXPECT_LT(plain_red + plain_green, 20) << "bones alone have neither colour";
  EXPECT_GT(onion_red, 200) << "ghosts of the past";
  EXPECT_GT(onion_green, 200) << "ghosts of the future";
  EXPECT_GT(trail_red, 30) << "the trail before the current time";
  EXPECT_GT(trail_green, 30) << "the trail after it";
}

// onion=N:K puts the ghosts K frames apart: farther back and ahead in the walk, they stand
// elsewhere; K = 1 is the plain onion=N.
TEST(CliRenderAnimation, OnionSpacingMovesTheGhosts) {
  const std::vector<std::string> common = {"--size", "400x300", "--anim", "0",     "--time",
                                           "0.5",    "--view",  "right",  "--show"};
  std::vector<std::string> near = common, same = common, far = common;
  near.push_back("bones,onion=1");
  same.push_back("bones,onion=1:1");
  far.push_back("bones,onion=1:8");
  const Image a = Render(near, "onion_near.png");
  const Image b = Render(same, "onion_same.png");
  const Image c = Render(far, "onion_far.png");
  ASSERT_EQ(a.width, c.width);
  int same_differ = 0, far_differ = 0;
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      same_differ += a.At(x, y) != b.At(x, y);
      far_differ += glm::length(glm::vec3(a.At(x, y) - c.At(x, y))) > 40.0f;
    }
  }
  EXPECT_EQ(same_differ, 0);
  EXPECT_GT(far_differ, 100) << "ghosts 8 frames apart stand where ghosts 1 frame apart do";
  int red = 0, green = 0;
  CountGhostPixels(c, &red, &green);
  EXPECT_GT(red, 50);
  EXPECT_GT(green, 50);
}

// The built-in character exported as glTF with one more node above its hips that lowers it by
// the hips' height: its origin is at the pelvis and its feet at y = -0.975.
std::string PelvisOriginModel() {
  const std::string dir = TempPath("pelvis");
  std::filesystem::create_directories(dir);
  const std::string plain = dir + "/character.gltf";
  const testproc::Result r = testproc::Skelview({"export", "-o", plain}, 60.0);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(plain);
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return "";
  json& scene = doc["scenes"][0];  // the exporter writes one scene
  doc["nodes"].push_back({{"name", "PelvisOrigin"},
                          {"translation", {0.0, -0.975, 0.0}},
                          {"children", scene["nodes"]}});
  scene["nodes"] = {doc["nodes"].size() - 1};
  const std::string lowered = dir + "/pelvis_origin.gltf";
  std::ofstream(lowered) << doc.dump();
  return lowered;
}

// The lowest row with the character's beige (r > b, not the grey grid, not the red axis) and,
// in the columns of that row, the row of the red X axis line nearest to it (-1: none).
void FeetAndAxis(const Image& image, int* feet_row, int* axis_row) {
  auto beige = [](const glm::ivec3& p) {
    return p.r > 100 && p.g > 85 && p.r > p.b + 15 && p.g * 10 > p.r * 8;
  };
  auto red = [](const glm::ivec3& p) { return p.r > 150 && p.g < 100 && p.b < 100; };
  *feet_row = -1;
  *axis_row = -1;
  int feet_x0 = image.width, feet_x1 = -1;
  for (int y = image.height - 1; y >= 0 && *feet_row < 0; --y) {
    for (int x = 0; x < image.width; ++x) {
      if (!beige(image.At(x, y))) continue;
      *feet_row = y;
      feet_x0 = std::min(feet_x0, x);
      feet_x1 = std::max(feet_x1, x);
    }
  }
  int best = 1 << 30;
  for (int x = std::max(feet_x0 - 20, 0); x <= std::min(feet_x1 + 20, image.width - 1); ++x) {
    for (int y = 0; y < image.height; ++y) {
      if (red(image.At(x, y)) && std::abs(y - *feet_row) < best) {
        best = std::abs(y - *feet_row);
        *axis_row = y;
      }
    }
  }
}

TEST(CliRenderAnimation, OnGroundStandsAModelWithItsOriginAtThePelvisOnTheGrid) {
  const std::string model = PelvisOriginModel();
  ASSERT_FALSE(model.empty());
  const std::vector<std::string> look = {model, "--size", "320x240", "--show", "mesh,grid"};
  std::vector<std::string> on_ground = look;
  on_ground.push_back("--on-ground");
  const Image sunk = Render(look, "sunk.png");
  const Image standing = Render(on_ground, "standing.png");
  int sunk_feet = 0, sunk_axis = 0, feet = 0, axis = 0;
  FeetAndAxis(sunk, &sunk_feet, &sunk_axis);
  FeetAndAxis(standing, &feet, &axis);
  ASSERT_GE(feet, 0);
  ASSERT_GE(sunk_feet, 0);
  // The camera stays on the model (it moves with it), so the grid is what moves.
  EXPECT_LE(std::abs(feet - sunk_feet), 2) << "the model stays framed";
  // Standing: the feet are on the X axis line (within the toes' reach in front of it).
  ASSERT_GE(axis, 0);
  EXPECT_LE(std::abs(feet - axis), 6) << "feet row " << feet << ", axis row " << axis;
  // Sunk: the axis line crosses far above the feet (at the hips).
  EXPECT_GT(sunk_feet - sunk_axis, 30) << "feet row " << sunk_feet << ", axis row " << sunk_axis;
}

}  // namespace

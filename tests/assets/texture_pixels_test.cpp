// LoadOptions::texture_pixels = false (skelview check): textures are found and checked against
// the limits exactly as when decoding, with the same warnings, but not decoded or kept.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "assets/importer.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

// The skinned strip with one textured material whose image is `uri`.
std::string TexturedStrip(const std::string& name, const std::string& uri) {
  testgltf::json doc = testgltf::SkinnedStrip().Finished();
  doc["images"] = {{{"uri", uri}}};
  doc["textures"] = {{{"source", 0}}};
  doc["materials"] = {
      {{"name", "skin"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
  doc["meshes"][0]["primitives"][0]["material"] = 0;
  const std::string path = testpaths::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << doc.dump();
  return path;
}

LoadResult Load(const std::string& path, bool pixels) {
  LoadOptions options;
  options.texture_pixels = pixels;
  return LoadModel(path, options);
}

TEST(TexturePixels, WithoutPixelsATextureIsCheckedButNotKept) {
  std::ofstream(testpaths::TempDir() + "/skin.tga", std::ios::binary) << testgltf::SmallTga();
  const std::string path = TexturedStrip("textured.gltf", "skin.tga");
  const LoadResult decoded = Load(path, true);
  ASSERT_TRUE(decoded.ok()) << decoded.error;
  ASSERT_EQ(decoded.model->textures.size(), 1u);
  EXPECT_EQ(decoded.model->materials[0].base_color_texture, 0);
  const LoadResult checked = Load(path, false);
  ASSERT_TRUE(checked.ok()) << checked.error;
  EXPECT_TRUE(checked.model->textures.empty());
  EXPECT_EQ(checked.model->materials[0].base_color_texture, -1);
  EXPECT_EQ(checked.warnings, decoded.warnings);
}

TEST(TexturePixels, WithoutPixelsBadTexturesGiveTheSameWarnings) {
  std::ofstream(testpaths::TempDir() + "/not-an-image.png") << "plain text";
  for (const char* uri : {"gone.png", "not-an-image.png"}) {
    const std::string path = TexturedStrip(std::string("bad-") + uri + ".gltf", uri);
    const LoadResult decoded = Load(path, true), checked = Load(path, false);
    ASSERT_TRUE(decoded.ok() && checked.ok()) << decoded.error << checked.error;
    EXPECT_THAT(checked.warnings, testing::Contains(testing::HasSubstr("could not be loaded")));
    EXPECT_EQ(checked.warnings, decoded.warnings) << uri;
  }
}

}  // namespace
}  // namespace assets

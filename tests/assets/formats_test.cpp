// The extensions the file browser and `check` accept: Assimp's, and .vrm (binary glTF that our
// own reader opens).
#include "assets/formats.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

TEST(Formats, ListsGltfAndVrmSortedWithoutDuplicates) {
  const auto& all = assets::SupportedExtensions();
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  for (const char* ext : {"gltf", "glb", "vrm", "fbx"}) {
    EXPECT_TRUE(std::binary_search(all.begin(), all.end(), ext)) << ext;
  }
}

TEST(Formats, AcceptsVrmFilesInAnyCaseButNotOtherNames) {
  EXPECT_TRUE(assets::HasSupportedExtension("avatar.vrm"));
  EXPECT_TRUE(assets::HasSupportedExtension("dir/Avatar.VRM"));
  EXPECT_TRUE(assets::HasSupportedExtension("model.glb"));
  EXPECT_FALSE(assets::HasSupportedExtension("avatar.vrm.txt"));
  EXPECT_FALSE(assets::HasSupportedExtension("vrm"));
  EXPECT_FALSE(assets::HasSupportedExtension("dir.vrm/readme"));
}

}  // namespace

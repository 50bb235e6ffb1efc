// VRM avatars: the meta and humanoid map read from VRM 0.x and 1.0 JSON (files made by
// tests/assets/vrm_builder.h), with bad entries left out and said so.
#include "assets/gltf/vrm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/assets/vrm_builder.h"

namespace assets {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;
using testgltf::VrmOptions;
using testgltf::VrmVersion;

// The map as "bone=node" strings, sorted by bone.
std::vector<std::string> MapText(const vrm::Avatar& avatar) {
  std::vector<std::string> out;
  for (const vrm::HumanBone& b : avatar.bones) out.push_back(b.bone + "=" + std::to_string(b.node));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> FullMapText() {
  std::vector<std::string> out;
  const auto& bones = testgltf::VrmBones();
  for (size_t i = 0; i < bones.size(); ++i) {
    out.push_back(std::string(bones[i].role) + "=" + std::to_string(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(VrmAvatar, Vrm0MetaAndHumanoidMap) {
  VrmOptions options;
  options.version = VrmVersion::k0;
  options.title = "Alicia";
  options.author = "Somebody";
  options.license = "CC_BY_NC";
  const json doc = testgltf::VrmAvatar(options).Finished();
  vrm::Avatar avatar;
  ASSERT_TRUE(vrm::ReadAvatar(doc, &avatar));
  EXPECT_EQ(avatar.meta.format, "VRM 0.x");
  EXPECT_EQ(avatar.meta.title, "Alicia");
  EXPECT_EQ(avatar.meta.author, "Somebody");
  EXPECT_EQ(avatar.meta.license, "CC_BY_NC");
  EXPECT_EQ(MapText(avatar), FullMapText());
  EXPECT_TRUE(avatar.warnings.empty()) << ::testing::PrintToString(avatar.warnings);
}

TEST(VrmAvatar, Vrm1MetaAndHumanoidMap) {
  VrmOptions options;
  options.title = "Seed-san";
  options.author = "First Author, Second Author";
  options.license = "https://vrm.dev/licenses/1.0/";
  const json doc = testgltf::VrmAvatar(options).Finished();
  vrm::Avatar avatar;
  ASSERT_TRUE(vrm::ReadAvatar(doc, &avatar));
  EXPECT_EQ(avatar.meta.format, "VRM 1.0");
  EXPECT_EQ(avatar.meta.title, "Seed-san");
  ASSERT_EQ(doc["extensions"]["VRMC_vrm"]["meta"]["authors"].size(), 2u);
  EXPECT_EQ(avatar.meta.author, "First Author, Second Author");
  EXPECT_EQ(avatar.meta.license, "https://vrm.dev/licenses/1.0/");
  EXPECT_EQ(MapText(avatar), FullMapText());
  EXPECT_TRUE(avatar.warnings.empty()) << ::testing::PrintToString(avatar.warnings);
}

TEST(VrmAvatar, PlainGltfIsNoAvatar) {
  json doc = testgltf::VrmAvatar().Finished();
  doc.erase("extensions");
  vrm::Avatar avatar;
  EXPECT_FALSE(vrm::ReadAvatar(doc, &avatar));
  doc["extensions"] = {{"VRMC_vrm", "not an object"}, {"KHR_lights_punctual", json::object()}};
  EXPECT_FALSE(vrm::ReadAvatar(doc, &avatar));
  EXPECT_TRUE(avatar.meta.empty());
}

TEST(VrmAvatar, Vrm0OtherLicenceNamesItsUrlAndOddMetaIsCleaned) {
  VrmOptions options;
  options.version = VrmVersion::k0;
  options.title = std::string("two\nlines\tand a bell\a") + std::string(400, 'x');
  json doc = testgltf::VrmAvatar(options).Finished();
  json& meta = doc["extensions"]["VRM"]["meta"];
  meta["licenseName"] = "Other";
  meta["otherLicenseUrl"] = "https://example.com/licence";
  meta["author"] = 42;  // not a string: empty
  vrm::Avatar avatar;
  ASSERT_TRUE(vrm::ReadAvatar(doc, &avatar));
  EXPECT_EQ(avatar.meta.license, "Other (https://example.com/licence)");
  EXPECT_EQ(avatar.meta.author, "");
  EXPECT_EQ(avatar.meta.title.find('\n'), std::string::npos);
  EXPECT_EQ(avatar.meta.title.find('\a'), std::string::npos);
  EXPECT_THAT(avatar.meta.title, ::testing::StartsWith("two lines and a bell"));
  EXPECT_LE(avatar.meta.title.size(), vrm::kMaxMetaBytes + 3);
}

TEST(VrmAvatar, BadMapEntriesAreLeftOutWithOneWarning) {
  VrmOptions options;
  options.version = VrmVersion::k0;
  json doc = testgltf::VrmAvatar(options).Finished();
  json& bones = doc["extensions"]["VRM"]["humanoid"]["humanBones"];
  bones.push_back({{"bone", "tail"}, {"node", 3}});           // no VRM bone
  bones.push_back({{"bone", "hips"}, {"node", 4}});           // hips again
  bones.push_back({{"bone", "upperChest"}, {"node", 2}});     // chest's node again
  bones.push_back({{"bone", "jaw"}, {"node", -1}});           // no valid node
  bones.push_back({{"bone", "leftEye"}, {"node", "seven"}});  // no valid node
  bones.push_back("not an object");
  vrm::Avatar avatar;
  ASSERT_TRUE(vrm::ReadAvatar(doc, &avatar));
  EXPECT_EQ(MapText(avatar), FullMapText());
  ASSERT_EQ(avatar.warnings.size(), 1u);
  EXPECT_THAT(avatar.warnings[0], HasSubstr("6 entries of the VRM 0.x humanoid bone map left out"));
  EXPECT_THAT(avatar.warnings[0], HasSubstr("'tail' is not a humanoid bone VRM defines"));

  // 1.0: an object keyed by bone.
  json doc1 = testgltf::VrmAvatar().Finished();
  json& bones1 = doc1["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"];
  bones1["leftThumbMetacarpal"] = {{"node", 14}};  // the left hand's node again
  bones1["rightEye"] = json::array();
  ASSERT_TRUE(vrm::ReadAvatar(doc1, &avatar));
  EXPECT_EQ(avatar.bones.size(), testgltf::VrmBones().size());
  ASSERT_EQ(avatar.warnings.size(), 1u);
  EXPECT_THAT(avatar.warnings[0], HasSubstr("2 entries of the VRM 1.0 humanoid bone map"));

  // No map at all: an avatar still, without bones.
  doc1["extensions"]["VRMC_vrm"].erase("humanoid");
  ASSERT_TRUE(vrm::ReadAvatar(doc1, &avatar));
  EXPECT_TRUE(avatar.bones.empty());
  ASSERT_EQ(avatar.warnings.size(), 1u);
  EXPECT_THAT(avatar.warnings[0], HasSubstr("has no humanoid bone map"));
}

TEST(VrmAvatar, BoneNamesOfBothVersionsAreKnown) {
  for (const char* name : {"hips", "upperChest", "leftThumbIntermediate", "leftThumbMetacarpal",
                           "rightLittleDistal", "leftToes", "jaw", "rightEye"}) {
    EXPECT_TRUE(vrm::IsHumanoidBoneName(name)) << name;
  }
  for (const char* name : {"", "Hips", "leftIndexMetacarpal", "tail", "leftUpperLeg "}) {
    EXPECT_FALSE(vrm::IsHumanoidBoneName(name)) << name;
  }
}

}  // namespace
}  // namespace assets

// Importer tests: the shared third-party models (counts, names, skinned positions against an
// independent glTF evaluation), the Assimp 5.2.5 traps, and every kind of bad input.
#include "assets/importer.h"

#include <gmock/gmock.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <tuple>

#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"
#include "tests/assets/gltf_builder.h"
#include "tests/assets/gltf_reference.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const char kCesiumMan[] = "khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf";
const char kCesiumManGlb[] = "khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb";
const char kRiggedFigure[] = "khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf";
const char kRiggedSimple[] = "khronos-glTF-Sample-Models/RiggedSimple/glTF/RiggedSimple.gltf";
const char kSimpleSkin[] = "khronos-glTF-Sample-Models/SimpleSkin/glTF-Embedded/SimpleSkin.gltf";

std::string AnimationSkin(int i) {
  char name[96];
  std::snprintf(name, sizeof(name), "glTF-Asset-Generator/Animation_Skin/Animation_Skin_%02d.gltf",
                i);
  return name;
}

std::string Temp(const std::string& name) { return testpaths::TempDir() + "/" + name; }

bool AnyWarningContains(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& w : warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

int BoneCount(const Model& m) {
  int n = 0;
  for (bool b : m.is_bone) n += b ? 1 : 0;
  return n;
}

// Skins every mesh of `model` with the given pose and compares each vertex with the reference's
// instance of the same bind position: worst distance both ways, relative to the model's size.
void ExpectMatchesReference(const std::string& path, bool animate, float time) {
  const LoadResult result = LoadModel(path);
  ASSERT_TRUE(result.ok()) << result.error;
  const Model& model = *result.model;
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  if (animate) {
    // The reference applies every animation of the file at once: all clips played together.
    ASSERT_FALSE(model.clips.empty()) << path;
    std::vector<int> all(model.clips.size());
    for (size_t c = 0; c < all.size(); ++c) all[c] = static_cast<int>(c);
    SampleClip(model, CombineClips(model, all), time, &pose);
  }
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);

  gltfref::Scene reference;
  std::string error;
  ASSERT_TRUE(gltfref::Evaluate(path, animate, time, &reference, &error)) << error;
  ASSERT_FALSE(reference.vertices.empty());

  using Key = std::tuple<float, float, float>;
  auto key = [](const glm::vec3& p) { return Key(p.x, p.y, p.z); };
  std::multimap<Key, glm::vec3> expected, actual;
  Bounds bounds;
  for (const auto& v : reference.vertices) {
    expected.emplace(key(v.bind), v.world);
    bounds.Add(v.world);
  }
  std::vector<glm::vec3> skinned;
  for (const Mesh& mesh : model.meshes) {
    SkinMesh(mesh, models, &skinned, nullptr);
    for (size_t i = 0; i < skinned.size(); ++i) actual.emplace(key(mesh.positions[i]), skinned[i]);
  }
  const float tolerance = 1e-3f * bounds.diagonal();
  auto worst_miss = [](const std::multimap<Key, glm::vec3>& from,
                       const std::multimap<Key, glm::vec3>& to) {
    float worst = 0.0f;
    for (const auto& [k, p] : from) {
      float best = INFINITY;
      auto range = to.equal_range(k);
      for (auto it = range.first; it != range.second; ++it)
        best = std::min(best, glm::length(it->second - p));
      worst = std::max(worst, best);
    }
    return worst;
  };
  EXPECT_LE(worst_miss(actual, expected), tolerance) << path << " at t=" << time;
  EXPECT_LE(worst_miss(expected, actual), tolerance) << path << " at t=" << time;

  // Joint positions: every node the reference visits is a joint at the same place.
  float worst_joint = 0.0f;
  for (const glm::vec3& p : reference.joint_world_positions) {
    float best = INFINITY;
    for (const glm::mat4& m : models) best = std::min(best, glm::length(glm::vec3(m[3]) - p));
    worst_joint = std::max(worst_joint, best);
  }
  EXPECT_LE(worst_joint, tolerance) << path;
}

// --- the shared models --------------------------------------------------------------------

TEST(ImportSharedModels, CesiumManHasNineteenBonesInItsNodeHierarchyAndOneClip) {
  const std::string path = testpaths::SharedModel(kCesiumMan);
  SKIP_IF_NO_MODEL(path, "CesiumMan");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  EXPECT_EQ(m.skeleton.joint_count(), 22);  // 19 joints + scene root, mesh node, armature node
  EXPECT_EQ(BoneCount(m), 19);
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_TRUE(m.meshes[0].skinned);
  EXPECT_EQ(m.meshes[0].name, "Cesium_Man");
  EXPECT_EQ(m.meshes[0].bone_joints.size(), 19u);
  EXPECT_EQ(m.skeleton.name(0), "nodes[0]");  // unnamed glTF nodes are called nodes[i]
  EXPECT_EQ(m.skeleton.parent(0), -1);
  EXPECT_GE(m.skeleton.Find("nodes[2]"), 0);
  EXPECT_TRUE(m.is_bone[m.skeleton.Find("nodes[2]")]);
  EXPECT_FALSE(m.is_bone[m.skeleton.Find("nodes[1]")]);  // the mesh node
  EXPECT_EQ(m.meshes[0].node, m.skeleton.Find("nodes[1]"));
  ASSERT_EQ(m.clips.size(), 1u);
  EXPECT_NEAR(m.clips[0].duration, 2.0f, 1e-4f);
  EXPECT_EQ(m.clips[0].channels.size(), 19u);
  ASSERT_EQ(m.textures.size(), 1u);
  EXPECT_GT(m.textures[0].width, 0);
  EXPECT_EQ(m.textures[0].rgba.size(),
            static_cast<size_t>(m.textures[0].width) * m.textures[0].height * 4);
  ASSERT_GE(m.meshes[0].material, 0);
  EXPECT_EQ(m.materials[m.meshes[0].material].base_color_texture, 0);
  EXPECT_EQ(m.meshes[0].uvs.size(), m.meshes[0].positions.size());
  // The figure stands about 1.5 m tall along +Y once the root's Z-up to Y-up matrix applies.
  const Bounds b = RestBounds(m);
  EXPECT_NEAR(b.size().y, 1.5f, 0.05f);
}

TEST(ImportSharedModels, TextureCoordinatesKeepTheGltfConvention) {
  // Mesh::uvs promise glTF's top-down v, i.e. the file's own values.
  const std::string path = testpaths::SharedModel(kCesiumMan);
  SKIP_IF_NO_MODEL(path, "CesiumMan");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  gltfref::Scene reference;
  std::string error;
  ASSERT_TRUE(gltfref::Evaluate(path, false, 0.0f, &reference, &error)) << error;
  std::multimap<std::tuple<float, float, float>, glm::vec2> file_uvs;
  for (const auto& v : reference.vertices)
    file_uvs.emplace(std::make_tuple(v.bind.x, v.bind.y, v.bind.z), v.uv);
  const Mesh& mesh = r.model->meshes[0];
  ASSERT_EQ(mesh.uvs.size(), mesh.positions.size());
  float worst = 0.0f;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const glm::vec3& p = mesh.positions[i];
    float best = INFINITY;
    auto range = file_uvs.equal_range(std::make_tuple(p.x, p.y, p.z));
    for (auto it = range.first; it != range.second; ++it)
      best = std::min(best, glm::length(it->second - mesh.uvs[i]));
    worst = std::max(worst, best);
  }
  EXPECT_LT(worst, 1e-6f);
}

TEST(ImportSharedModels, CesiumManBinaryMatchesTheTextVersion) {
  const std::string text = testpaths::SharedModel(kCesiumMan);
  const std::string binary = testpaths::SharedModel(kCesiumManGlb);
  SKIP_IF_NO_MODEL(text, "CesiumMan");
  SKIP_IF_NO_MODEL(binary, "CesiumMan.glb");
  const LoadResult a = LoadModel(text), b = LoadModel(binary);
  ASSERT_TRUE(a.ok() && b.ok()) << a.error << b.error;
  EXPECT_EQ(a.model->skeleton.names(), b.model->skeleton.names());
  EXPECT_EQ(a.model->vertex_count(), b.model->vertex_count());
  EXPECT_EQ(b.model->textures.size(), 1u);  // embedded in the binary chunk
}

TEST(ImportSharedModels, RiggedFigureKeepsItsNineteenAnimationsAsNineteenClips) {
  const std::string path = testpaths::SharedModel(kRiggedFigure);
  SKIP_IF_NO_MODEL(path, "RiggedFigure");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->skeleton.joint_count(), 22);
  EXPECT_EQ(BoneCount(*r.model), 19);
  EXPECT_EQ(r.model->meshes.size(), 1u);
  // The file has 19 unnamed animations, one per joint: three.js and Blender list 19.
  ASSERT_EQ(r.model->clips.size(), 19u);
  for (size_t c = 0; c < r.model->clips.size(); ++c) {
    EXPECT_EQ(r.model->clips[c].name, "Animation " + std::to_string(c));
    EXPECT_EQ(r.model->clips[c].channels.size(), 1u);
  }
  EXPECT_FALSE(AnyWarningContains(r.warnings, "merged"));
  EXPECT_EQ(r.model->warnings, r.warnings);
}

TEST(ImportSharedModels, RiggedSimpleHasTwoClipsInFileOrderEachMovingItsOwnJoint) {
  const std::string path = testpaths::SharedModel(kRiggedSimple);
  SKIP_IF_NO_MODEL(path, "RiggedSimple");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  // animations[0] moves nodes[2], animations[1] nodes[3] (both unnamed in the file).
  ASSERT_EQ(m.clips.size(), 2u);
  const char* joints[] = {"nodes[2]", "nodes[3]"};
  for (size_t c = 0; c < 2; ++c) {
    SCOPED_TRACE(c);
    EXPECT_EQ(m.clips[c].name, "Animation " + std::to_string(c));
    ASSERT_EQ(m.clips[c].channels.size(), 1u);
    EXPECT_EQ(m.skeleton.name(m.clips[c].channels[0].joint), joints[c]);
    EXPECT_FALSE(m.clips[c].channels[0].rotation.empty());
  }
  const Clip both = CombineClips(m, {0, 1});
  EXPECT_EQ(both.name, "Animation 0+Animation 1");
  EXPECT_EQ(both.channels.size(), 2u);
  EXPECT_FLOAT_EQ(both.duration, std::max(m.clips[0].duration, m.clips[1].duration));
}

TEST(ImportSharedModels, RiggedSimpleAndSimpleSkinCounts) {
  const std::string simple = testpaths::SharedModel(kRiggedSimple);
  const std::string skin = testpaths::SharedModel(kSimpleSkin);
  SKIP_IF_NO_MODEL(simple, "RiggedSimple");
  SKIP_IF_NO_MODEL(skin, "SimpleSkin");
  const LoadResult a = LoadModel(simple);
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_EQ(a.model->skeleton.joint_count(), 5);
  EXPECT_EQ(BoneCount(*a.model), 2);
  EXPECT_EQ(a.model->clips.size(), 2u);
  const LoadResult b = LoadModel(skin);
  ASSERT_TRUE(b.ok()) << b.error;
  // Two scene roots, kept as two roots (without the node Assimp invents above them).
  EXPECT_EQ(b.model->skeleton.names(),
            (std::vector<std::string>{"nodes[0]", "nodes[1]", "nodes[2]"}));
  EXPECT_EQ(b.model->skeleton.parent(1), -1);
  EXPECT_EQ(BoneCount(*b.model), 2);
  ASSERT_EQ(b.model->clips.size(), 1u);
  EXPECT_NEAR(b.model->clips[0].duration, 5.5f, 1e-4f);
  EXPECT_EQ(b.model->meshes[0].positions.size(), 10u);
}

TEST(ImportSharedModels, FbxAndXFilesLoadWithBonesAndClipsInSeconds) {
  const std::string fbx = testpaths::SharedModel("assimp/huesitos/huesitos.fbx");
  const std::string x = testpaths::SharedModel("assimp/BCN_Epileptic/BCN_Epileptic.X");
  SKIP_IF_NO_MODEL(fbx, "huesitos.fbx");
  SKIP_IF_NO_MODEL(x, "BCN_Epileptic.X");
  const LoadResult a = LoadModel(fbx);
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_EQ(BoneCount(*a.model), 9);
  EXPECT_GE(a.model->skeleton.Find("Bone.003"), 0);
  ASSERT_EQ(a.model->clips.size(), 1u);
  EXPECT_EQ(a.model->clips[0].name, "Armature|Action");
  EXPECT_NEAR(a.model->clips[0].duration, 39.0f / 25.0f, 1e-4f);  // 39 ticks at 25 per second
  const LoadResult b = LoadModel(x);
  ASSERT_TRUE(b.ok()) << b.error;
  EXPECT_EQ(b.model->meshes.size(), 3u);
  EXPECT_EQ(BoneCount(*b.model), 54);
  ASSERT_EQ(b.model->clips.size(), 1u);
  EXPECT_EQ(b.model->clips[0].name, "Epileptisch");
  EXPECT_NEAR(b.model->clips[0].duration, 15840.0f / 4800.0f, 1e-4f);
}

TEST(ImportSharedModels, EveryWeightSetIsValidInEveryModel) {
  if (testpaths::SharedModels().empty()) GTEST_SKIP() << "no shared models";
  int checked = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testpaths::SharedModels())) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".gltf" && ext != ".glb" && ext != ".fbx" && ext != ".X") continue;
    const LoadResult r = LoadModel(entry.path().string());
    ASSERT_TRUE(r.ok()) << r.error;
    ++checked;
    for (const Mesh& mesh : r.model->meshes) {
      ASSERT_EQ(mesh.joints.size(), mesh.positions.size());
      ASSERT_EQ(mesh.weights.size(), mesh.positions.size());
      ASSERT_EQ(mesh.bone_joints.size(), mesh.bone_inverse_binds.size());
      for (uint32_t index : mesh.indices) ASSERT_LT(index, mesh.positions.size());
      for (int joint : mesh.bone_joints) ASSERT_LT(joint, r.model->skeleton.joint_count());
      for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec4 w = mesh.weights[i];
        const glm::vec4 sum4 = mesh.extra_weights.empty() ? w : w + mesh.extra_weights[i];
        ASSERT_NEAR(sum4.x + sum4.y + sum4.z + sum4.w, 1.0f, 1e-5f) << entry.path();
        for (int k = 0; k < 4; ++k) {
          ASSERT_GE(w[k], 0.0f);
          if (w[k] > 0.0f) {
            ASSERT_LT(mesh.joints[i][k], mesh.bone_joints.size());
          }
        }
        ASSERT_NEAR(glm::length(mesh.normals[i]), 1.0f, 1e-4f);
      }
    }
  }
  EXPECT_GE(checked, 18);
}

// --- skinned positions against the independent evaluation ----------------------------------

TEST(ImportReference, KhronosSamplesMatchSpecSkinningAtRestAndAnimated) {
  for (const char* relative :
       {kCesiumMan, kCesiumManGlb, kRiggedSimple, kRiggedFigure, kSimpleSkin}) {
    const std::string path = testpaths::SharedModel(relative);
    SKIP_IF_NO_MODEL(path, relative);
    SCOPED_TRACE(relative);
    ExpectMatchesReference(path, false, 0.0f);
    const LoadResult r = LoadModel(path);
    ASSERT_TRUE(r.ok());
    // A time between keys, so interpolation is exercised.
    ExpectMatchesReference(path, true, 0.37f * r.model->clips[0].duration);
  }
}

TEST(ImportReference, AnimationSkinSetMatchesSpecSkinning) {
  // 02: skinned node's own transforms ignored; 03: no inverse binds (crashes Assimp 5.2.5 alone);
  // 05: two meshes, one skin; 07: two skins sharing a joint; 09: non-joint node inside the
  // hierarchy; 11: two nodes sharing one mesh with different skins (Assimp merges them alone).
  for (int i = 0; i <= 11; ++i) {
    const std::string path = testpaths::SharedModel(AnimationSkin(i));
    SKIP_IF_NO_MODEL(path, AnimationSkin(i));
    SCOPED_TRACE(path);
    ExpectMatchesReference(path, false, 0.0f);
    const LoadResult r = LoadModel(path);
    ASSERT_TRUE(r.ok()) << r.error;
    if (!r.model->clips.empty()) ExpectMatchesReference(path, true, 0.6f);
  }
}

TEST(ImportReference, MissingInverseBindMatricesBecomeIdentityWithAWarning) {
  const std::string path = testpaths::SharedModel(AnimationSkin(3));
  SKIP_IF_NO_MODEL(path, "Animation_Skin_03");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(AnyWarningContains(r.warnings, "inverseBindMatrices"));
  for (const glm::mat4& m : r.model->meshes[0].bone_inverse_binds) EXPECT_EQ(m, glm::mat4(1.0f));
}

TEST(ImportReference, NodesSharingAMeshWithDifferentSkinsKeepTheirOwnSkins) {
  const std::string path = testpaths::SharedModel(AnimationSkin(11));
  SKIP_IF_NO_MODEL(path, "Animation_Skin_11");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->meshes.size(), 2u);
  EXPECT_NE(r.model->meshes[0].bone_joints, r.model->meshes[1].bone_joints);
  // Their joints have equal names in the file; renamed so they stay apart.
  EXPECT_TRUE(AnyWarningContains(r.warnings, "renamed"));
}

TEST(ImportAssimpTestModels, EveryGltf2FileLoadsOrFailsWithAMessageNamingIt) {
  const std::string dir = "/usr/share/assimp/models/glTF2";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "assimp-testmodels not installed";
  int loaded = 0, refused = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    const std::string path = entry.path().string();
    const LoadResult r = LoadModel(path);
    if (r.ok()) {
      ++loaded;
      for (const Mesh& mesh : r.model->meshes) {
        for (const glm::vec3& p : mesh.positions) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
      }
    } else {
      ++refused;
      EXPECT_THAT(r.error, HasSubstr(path));
    }
  }
  EXPECT_GT(loaded, 20);
  EXPECT_GT(refused, 5);
}

// --- the Assimp traps and repairs, on small generated files -------------------------------

TEST(ImportRepairs, NormalizedByteAndShortWeightsAreReadAsTheirRealValues) {
  for (int type : {5121, 5123}) {
    testgltf::StripOptions options;
    options.middle_weights[0] = 0.25f;
    options.middle_weights[1] = 0.75f;
    options.weight_type = type;
    const std::string path = Temp("normalized_" + std::to_string(type) + ".gltf");
    testgltf::SkinnedStrip(options).WriteGltf(path);
    const LoadResult r = LoadModel(path);
    ASSERT_TRUE(r.ok()) << r.error;
    // Read natively (Assimp 5.2.5 alone returns garbage for these): no repair to report.
    const Mesh& mesh = r.model->meshes.at(0);
    int middle = 0;
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      if (mesh.positions[i].y != 1.0f) continue;
      ++middle;
      // Weight of the bone that is joint "joint1".
      float w1 = 0.0f;
      for (int k = 0; k < 4; ++k) {
        if (mesh.weights[i][k] > 0.0f &&
            r.model->skeleton.name(mesh.bone_joints[mesh.joints[i][k]]) == "joint1")
          w1 += mesh.weights[i][k];
      }
      EXPECT_NEAR(w1, 0.75f, 3e-3f) << "type " << type;
    }
    EXPECT_EQ(middle, 2);
  }
}

TEST(ImportRepairs, SixInfluencesAreAllKeptInDescendingOrder) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  // Six joints in a chain; vertex 2 gets six influences through JOINTS_1/WEIGHTS_1.
  for (int j = 2; j < 6; ++j) {
    b.Node({{"name", "extra" + std::to_string(j)}}, false);
    b.doc["nodes"][1]["children"].push_back(b.doc["nodes"].size() - 1);
    b.doc["skins"][0]["joints"].push_back(b.doc["nodes"].size() - 1);
  }
  b.doc["skins"][0].erase("inverseBindMatrices");
  std::vector<uint16_t> joints0(24, 0), joints1(24, 0);
  std::vector<float> weights0(24, 0.0f), weights1(24, 0.0f);
  for (int v = 0; v < 6; ++v) weights0[v * 4] = 1.0f;
  const float six[6] = {0.05f, 0.3f, 0.1f, 0.25f, 0.2f, 0.1f};
  for (int k = 0; k < 4; ++k) {
    joints0[2 * 4 + k] = static_cast<uint16_t>(k);
    weights0[2 * 4 + k] = six[k];
  }
  joints1[2 * 4 + 0] = 4;
  joints1[2 * 4 + 1] = 5;
  weights1[2 * 4 + 0] = six[4];
  weights1[2 * 4 + 1] = six[5];
  json& attributes = b.doc["meshes"][0]["primitives"][0]["attributes"];
  attributes["JOINTS_0"] = b.Accessor(joints0.data(), 48, 5123, "VEC4", 6);
  attributes["WEIGHTS_0"] = b.Floats(weights0, "VEC4", 6);
  attributes["JOINTS_1"] = b.Accessor(joints1.data(), 48, 5123, "VEC4", 6);
  attributes["WEIGHTS_1"] = b.Floats(weights1, "VEC4", 6);
  const std::string path = Temp("six_influences.gltf");
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(AnyWarningContains(r.warnings, "more than"));
  EXPECT_EQ(r.model->influences.over_four, 1u);
  EXPECT_EQ(r.model->influences.over_eight, 0u);
  const Mesh& mesh = r.model->meshes.at(0);
  bool found = false;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    if (mesh.positions[i] != glm::vec3(-0.5f, 1.0f, 0.0f)) continue;
    found = true;
    // All six, largest first: 0.3 (joint1), 0.25 (extra3), 0.2 (extra4), 0.1 (extra2, then
    // extra5: ties keep file order), 0.05 (joint0); they already sum to 1.
    ASSERT_EQ(mesh.extra_weights.size(), mesh.positions.size());
    EXPECT_NEAR(mesh.weights[i].x, 0.3f, 1e-6f);
    EXPECT_NEAR(mesh.weights[i].y, 0.25f, 1e-6f);
    EXPECT_NEAR(mesh.weights[i].z, 0.2f, 1e-6f);
    EXPECT_NEAR(mesh.weights[i].w, 0.1f, 1e-6f);
    EXPECT_NEAR(mesh.extra_weights[i].x, 0.1f, 1e-6f);
    EXPECT_NEAR(mesh.extra_weights[i].y, 0.05f, 1e-6f);
    EXPECT_EQ(mesh.extra_weights[i].z, 0.0f);
    auto name = [&](int bone) { return r.model->skeleton.name(mesh.bone_joints[bone]); };
    EXPECT_EQ(name(mesh.joints[i].x), "joint1");
    EXPECT_EQ(name(mesh.joints[i].y), "extra3");
    EXPECT_EQ(name(mesh.joints[i].z), "extra4");
    EXPECT_EQ(name(mesh.joints[i].w), "extra2");
    EXPECT_EQ(name(mesh.extra_joints[i].x), "extra5");
    EXPECT_EQ(name(mesh.extra_joints[i].y), "joint0");
  }
  EXPECT_TRUE(found);
}

TEST(ImportRepairs, WeightsNotSummingToOneAreRenormalisedWithAWarning) {
  testgltf::StripOptions options;
  options.middle_weights[0] = 0.5f;
  options.middle_weights[1] = 0.25f;
  const std::string path = Temp("sum_not_one.gltf");
  testgltf::SkinnedStrip(options).WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(AnyWarningContains(r.warnings, "not summing to 1"));
  for (const glm::vec4& w : r.model->meshes[0].weights) {
    EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-6f);
  }
  // Skinned at rest the middle row stays where it was modelled.
  std::vector<glm::vec3> skinned;
  SkinMesh(r.model->meshes[0], r.model->skeleton.rest_models(), &skinned, nullptr);
  for (size_t i = 0; i < skinned.size(); ++i) {
    EXPECT_NEAR(glm::length(skinned[i] - r.model->meshes[0].positions[i]), 0.0f, 1e-5f);
  }
}

TEST(ImportRepairs, SkinWithoutInverseBindsLoadsInsteadOfCrashing) {
  testgltf::StripOptions options;
  options.inverse_binds = false;
  const std::string path = Temp("no_ibm.glb");
  testgltf::WriteBytes(path, testgltf::SkinnedStrip(options).Glb());
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.model->meshes[0].skinned);
  EXPECT_TRUE(AnyWarningContains(r.warnings, "inverseBindMatrices"));
}

TEST(ImportRepairs, StepAndCubicSplineInterpolationSurviveImport) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  const std::vector<float> times = {0.0f, 1.0f};
  const int input = b.Floats(times, "SCALAR", 2);
  const std::vector<float> steps = {0, 1, 0, 0, 2, 0};
  // Cubic: in-tangent, value, out-tangent per key.
  const std::vector<float> cubic = {0, 0, 0, 0, 0, 0, 3, 0, 0,   // key 0: value 0, out-tangent 3
                                    0, 0, 0, 1, 0, 0, 0, 0, 0};  // key 1: value 1
  b.doc["animations"] = json::array({json{
      {"name", "moves"},
      {"samplers", json::array({json{{"input", input},
                                     {"output", b.Floats(steps, "VEC3", 2)},
                                     {"interpolation", "STEP"}},
                                json{{"input", input},
                                     {"output", b.Floats(cubic, "VEC3", 6)},
                                     {"interpolation", "CUBICSPLINE"}}})},
      {"channels",
       json::array({json{{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}},
                    json{{"sampler", 1}, {"target", {{"node", 0}, {"path", "translation"}}}}})}}});
  const std::string path = Temp("interpolation.gltf");
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->clips.size(), 1u);
  EXPECT_EQ(r.model->clips[0].name, "moves");
  ik::Pose pose;
  SampleClip(*r.model, r.model->clips[0], 0.5f, &pose);
  const int joint0 = r.model->skeleton.Find("joint0");
  const int joint1 = r.model->skeleton.Find("joint1");
  EXPECT_EQ(pose.locals[joint1].translation, glm::vec3(0, 1, 0));  // step holds key 0
  // Hermite at u = 0.5 with p0 = 0, m0 = 3, p1 = 1, m1 = 0, dt = 1: 0.5 + 0.125 * 3 = 0.875.
  EXPECT_NEAR(pose.locals[joint0].translation.x, 0.875f, 1e-5f);
}

TEST(ImportRepairs, UnskinnedMeshIsRigidlyAttachedToItsNode) {
  testgltf::Builder b;
  const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  b.doc["meshes"] = json::array(
      {json{{"primitives",
             json::array({json{{"attributes", {{"POSITION", b.Positions(positions)}}}}})}}});
  b.Node({{"name", "parent"}, {"translation", {0.0, 0.0, 5.0}}, {"children", {1}}}, true);
  b.Node({{"name", "holder"}, {"mesh", 0}, {"translation", {1.0, 2.0, 3.0}}}, false);
  const std::string path = Temp("static.gltf");
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Mesh& mesh = r.model->meshes.at(0);
  EXPECT_FALSE(mesh.skinned);
  EXPECT_EQ(mesh.bone_joints, std::vector<int>{r.model->skeleton.Find("holder")});
  std::vector<glm::vec3> world;
  SkinMesh(mesh, r.model->skeleton.rest_models(), &world, nullptr);
  for (size_t i = 0; i < world.size(); ++i) {
    EXPECT_NEAR(glm::length(world[i] - (mesh.positions[i] + glm::vec3(1, 2, 8))), 0.0f, 1e-6f);
  }
  EXPECT_TRUE(r.model->meshes[0].normals.size() == 3);  // generated: the file has none
}

TEST(ImportRepairs, SkeletonWithoutMeshLoads) {
  testgltf::Builder b;
  b.Node({{"name", "hip"}, {"children", {1}}}, true);
  b.Node({{"name", "knee"}, {"translation", {0.0, -0.5, 0.0}}, {"children", {2}}}, false);
  b.Node({{"name", "ankle"}, {"translation", {0.0, -0.5, 0.0}}}, false);
  const std::string path = Temp("skeleton_only.gltf");
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.model->meshes.empty());
  EXPECT_EQ(r.model->skeleton.names(), (std::vector<std::string>{"hip", "knee", "ankle"}));
  EXPECT_NEAR(RestBounds(*r.model).size().y, 1.0f, 1e-6f);  // framed on the joints
}

// --- bad input: one clear message naming the file, never a crash -------------------------

void ExpectRefused(const std::string& path, const std::string& reason_part) {
  const LoadResult r = LoadModel(path);
  EXPECT_FALSE(r.ok()) << path;
  EXPECT_THAT(r.error, HasSubstr(path));
  EXPECT_THAT(r.error, HasSubstr(reason_part));
  EXPECT_EQ(r.error.find('\n'), std::string::npos) << "one line: " << r.error;
}

TEST(ImportBadInput, MissingFile) { ExpectRefused(Temp("does_not_exist.glb"), "not found"); }

TEST(ImportBadInput, DirectoryInsteadOfFile) { ExpectRefused(testpaths::TempDir(), "directory"); }

TEST(ImportBadInput, EmptyFile) {
  const std::string path = Temp("empty.gltf");
  std::ofstream(path).close();
  ExpectRefused(path, "empty");
}

TEST(ImportBadInput, UnreadableFile) {
  const std::string path = Temp("unreadable.glb");
  testgltf::WriteBytes(path, testgltf::SkinnedStrip().Glb());
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  if (access(path.c_str(), R_OK) != 0) {
    ExpectRefused(path, "ermission denied");
    return;
  }
  // Root reads any file: import in a child process that has become the unprivileged user
  // nobody, as a user without the permission would, and send the error back through a pipe.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0 ||
        access(path.c_str(), R_OK) == 0) {
      _exit(3);
    }
    const LoadResult r = LoadModel(path);
    const ssize_t written = write(fds[1], r.error.data(), r.error.size());
    _exit(r.ok() ? 1 : written == static_cast<ssize_t>(r.error.size()) ? 0 : 4);
  }
  close(fds[1]);
  std::string error;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof(buffer))) > 0;) error.append(buffer, n);
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 3) << "could not drop root's privileges to test permissions";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the unreadable file loaded";
  EXPECT_THAT(error, HasSubstr(path));
  EXPECT_THAT(error, HasSubstr("ermission denied"));
  EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << error;
}

TEST(ImportBadInput, RandomBytesUnderModelExtensions) {
  std::mt19937 random(1234);
  std::vector<uint8_t> noise(4096);
  for (uint8_t& byte : noise) byte = static_cast<uint8_t>(random());
  for (const char* ext : {".glb", ".gltf", ".bin", ".fbx", ".dae", ".x", ".3ds", ".ply", ".stl"}) {
    const std::string path = Temp(std::string("noise") + ext);
    testgltf::WriteBytes(path, noise);
    const LoadResult r = LoadModel(path);
    EXPECT_FALSE(r.ok()) << ext;
    EXPECT_THAT(r.error, HasSubstr(path));
  }
}

TEST(ImportBadInput, TruncatedGlb) {
  const std::vector<uint8_t> glb = testgltf::SkinnedStrip().Glb();
  const std::string path = Temp("truncated.glb");
  testgltf::WriteBytes(path, std::vector<uint8_t>(glb.begin(), glb.begin() + glb.size() / 2));
  ExpectRefused(path, "truncated");
  const std::string header_only = Temp("header_only.glb");
  testgltf::WriteBytes(header_only, std::vector<uint8_t>(glb.begin(), glb.begin() + 7));
  ExpectRefused(header_only, "truncated");
}

TEST(ImportBadInput, TruncatedCesiumManGlb) {
  const std::string source = testpaths::SharedModel(kCesiumManGlb);
  SKIP_IF_NO_MODEL(source, "CesiumMan.glb");
  std::ifstream in(source, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  const std::string path = Temp("CesiumMan_cut.glb");
  testgltf::WriteBytes(path,
                       std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() * 3 / 4));
  ExpectRefused(path, "truncated");
}

TEST(ImportBadInput, GltfWhoseJsonDoesNotParse) {
  const std::string path = Temp("broken.gltf");
  std::ofstream(path) << R"({"asset": {"version": "2.0"}, "nodes": [)";
  ExpectRefused(path, "JSON");
}

TEST(ImportBadInput, EmptyScene) {
  const std::string path = Temp("empty_scene.gltf");
  testgltf::Builder().WriteGltf(path);
  ExpectRefused(path, "empty");
}

TEST(ImportBadInput, NonFiniteAndHugeCoordinates) {
  for (float bad : {NAN, INFINITY, 1e30f}) {
    testgltf::Builder b;
    const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, bad, 0};
    const int accessor = b.Floats(positions, "VEC3", 3);
    b.doc["meshes"] = json::array(
        {json{{"primitives", json::array({json{{"attributes", {{"POSITION", accessor}}}}})}}});
    b.Node({{"name", "holder"}, {"mesh", 0}}, true);
    const std::string path = Temp("bad_coordinate.gltf");
    b.WriteGltf(path);
    ExpectRefused(path, "non-finite or huge");
  }
}

TEST(ImportBadInput, HugeNodeTranslation) {
  testgltf::Builder b;
  b.Node({{"name", "far"}, {"translation", {1e30, 0.0, 0.0}}, {"children", {1}}}, true);
  b.Node({{"name", "child"}}, false);
  const std::string path = Temp("far_node.gltf");
  b.WriteGltf(path);
  ExpectRefused(path, "far");
}

TEST(ImportBadInput, MoreThan65535Joints) {
  testgltf::Builder b;
  json children = json::array();
  for (int i = 1; i <= 65536; ++i) children.push_back(i);
  b.Node({{"name", "root"}, {"children", children}}, true);
  for (int i = 1; i <= 65536; ++i) b.doc["nodes"].push_back(json::object());
  const std::string path = Temp("too_many_joints.gltf");
  b.WriteGltf(path);
  ExpectRefused(path, "65535");
}

TEST(ImportBadInput, CyclicNodeHierarchy) {
  testgltf::Builder b;
  b.Node({{"name", "a"}, {"children", {1}}}, true);
  b.Node({{"name", "b"}, {"children", {0}}}, false);
  const std::string path = Temp("cycle.gltf");
  b.WriteGltf(path);
  ExpectRefused(path, "cycle");
}

TEST(ImportBadInput, AccessorReadingPastItsBuffer) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  b.doc["accessors"][b.doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"].get<int>()]
       ["count"] = 600;  // forces the glTF reader to read these weights past the buffer
  b.doc["accessors"][b.doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"].get<int>()]
       ["componentType"] = 5121;
  b.doc["accessors"][b.doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"].get<int>()]
       ["normalized"] = true;
  const std::string path = Temp("past_buffer.gltf");
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  EXPECT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr(path));
}

}  // namespace
}  // namespace assets

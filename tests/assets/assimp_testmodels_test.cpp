// Debian's assimp-testmodels: every rigged model loads with its bones and clips (or, for
// skeleton-only files, as a bare animated skeleton), and every other file of the package loads
// or is refused with one line naming it — never a crash, never an invalid Model.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "assets/importer.h"
#include "assets/model/animation.h"

namespace assets {
namespace {

using ::testing::HasSubstr;

const char kModels[] = "/usr/share/assimp/models";

#define SKIP_IF_NO_TESTMODELS()                                                   \
  do {                                                                            \
    if (!std::filesystem::is_directory(kModels))                                  \
      GTEST_SKIP() << kModels << " not found (Debian package assimp-testmodels)"; \
  } while (0)

int BoneCount(const Model& m) {
  int n = 0;
  for (bool b : m.is_bone) n += b ? 1 : 0;
  return n;
}

bool AnyWarningContains(const Model& m, const std::string& text) {
  for (const std::string& w : m.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

// What every loaded model satisfies: indices in range, finite positions, unit weights sums, and
// clips that sample to finite poses.
void ExpectValid(const Model& model, const std::string& path) {
  SCOPED_TRACE(path);
  const int joints = model.skeleton.joint_count();
  for (const Mesh& mesh : model.meshes) {
    const size_t n = mesh.positions.size();
    ASSERT_EQ(mesh.weights.size(), n);
    for (uint32_t i : mesh.indices) ASSERT_LT(i, n);
    for (int j : mesh.bone_joints) ASSERT_TRUE(j >= 0 && j < joints);
    for (size_t v = 0; v < n; ++v) {
      glm::vec4 w = mesh.weights[v];
      if (!mesh.extra_weights.empty()) w += mesh.extra_weights[v];  // influences five to eight
      ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-4f);
      ASSERT_TRUE(std::isfinite(mesh.positions[v].x + mesh.positions[v].y + mesh.positions[v].z));
    }
  }
  ik::Pose pose;
  for (const Clip& clip : model.clips) {
    SampleClip(model.skeleton, clip, 0.5f * clip.duration, &pose);
    for (const ik::Transform& t : pose.locals) ASSERT_TRUE(t.IsFinite());
  }
}

struct Rigged {
  const char* file;
  int min_bones;
  int clips;
  const char* warning;  // expected in the warnings, or nullptr
};

// The rigged (or skeleton-animated) models of the package outside glTF2/ (which
// importer_test.cpp covers), with what each must show.
const Rigged kRigged[] = {
    {"FBX/animation_with_skeleton.fbx", 14, 1, nullptr},  // up to eight influences: all kept
    {"FBX/huesitos.fbx", 9, 1, "not summing to 1"},
    {"X/BCN_Epileptic.X", 54, 1, nullptr},
    {"X/Testwuson.X", 37, 3, nullptr},
    {"X/anim_test.x", 2, 1, "refer to no node"},
    {"X/test_cube_text.x", 1, 0, nullptr},
    {"X/test_cube_binary.x", 1, 0, nullptr},
    {"X/test_cube_compressed.x", 1, 0, nullptr},
    {"SMD/WusonSMD.smd", 1, 1, nullptr},
    {"SMD/holy_grailref.smd", 1, 1, nullptr},
    {"SMD/triangle.smd", 1, 1, nullptr},
    {"MD5/SimpleCube.md5mesh", 2, 0, nullptr},
    {"MDL/MDL (HL1)/man.mdl", 6, 6, nullptr},
    {"MDL/MDL (HL1)/unnamed_bones.mdl", 8, 1, nullptr},
    {"Collada/box_nested_animation.dae", 1, 1, nullptr},
};

TEST(AssimpTestModels, RiggedModelsLoadWithTheirBonesClipsAndRepairWarnings) {
  SKIP_IF_NO_TESTMODELS();
  for (const Rigged& r : kRigged) {
    const std::string path = std::string(kModels) + "/" + r.file;
    SCOPED_TRACE(path);
    const LoadResult result = LoadModel(path);
    ASSERT_TRUE(result.ok()) << result.error;
    const Model& model = *result.model;
    EXPECT_GE(BoneCount(model), r.min_bones);
    EXPECT_EQ(static_cast<int>(model.clips.size()), r.clips);
    bool skinned = false;
    for (const Mesh& mesh : model.meshes) skinned |= mesh.skinned;
    EXPECT_TRUE(skinned);
    if (r.warning) {
      EXPECT_TRUE(AnyWarningContains(model, r.warning)) << r.warning;
    }
    ExpectValid(model, path);
  }
}

TEST(AssimpTestModels, SkeletonOnlyBvhFilesLoadAsAnimatedSkeletons) {
  SKIP_IF_NO_TESTMODELS();
  for (const char* file : {"BVH/01_01.bvh", "BVH/01_03.bvh", "BVH/Boxing_Toes.bvh"}) {
    const std::string path = std::string(kModels) + "/" + file;
    SCOPED_TRACE(path);
    const LoadResult result = LoadModel(path);
    ASSERT_TRUE(result.ok()) << result.error;
    EXPECT_TRUE(result.model->meshes.empty());
    EXPECT_GE(result.model->skeleton.joint_count(), 20);
    ASSERT_EQ(result.model->clips.size(), 1u);
    EXPECT_GT(result.model->clips[0].channels.size(), 20u);
    ExpectValid(*result.model, path);
  }
}

TEST(AssimpTestModels, UnriggedCharactersOfOtherFormatsLoad) {
  SKIP_IF_NO_TESTMODELS();
  for (const char* file : {"B3D/WusonBlitz.b3d", "MS3D/Wuson.ms3d", "MS3D/jeep1.ms3d",
                           "FBX/spider.fbx", "OBJ/spider.obj", "MDC/spider.mdc"}) {
    const std::string path = std::string(kModels) + "/" + file;
    SCOPED_TRACE(path);
    const LoadResult result = LoadModel(path);
    ASSERT_TRUE(result.ok()) << result.error;
    EXPECT_GT(result.model->vertex_count(), 100u);
    ExpectValid(*result.model, path);
  }
}

TEST(AssimpTestModels, EveryFileLoadsOrIsRefusedWithOneLineNamingIt) {
  SKIP_IF_NO_TESTMODELS();
  int loaded = 0, refused = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kModels)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string();
    // Reference renders and textures are not models; skip them to keep the loop fast.
    const std::string ext = entry.path().extension().string();
    if (ext == ".png" || ext == ".jpg" || ext == ".bmp" || ext == ".tga" || ext == ".gif" ||
        ext == ".dds" || ext == ".txt" || path.find("ReferenceImages") != std::string::npos) {
      continue;
    }
    const LoadResult r = LoadModel(path);
    if (r.ok()) {
      ++loaded;
      ExpectValid(*r.model, path);
    } else {
      ++refused;
      EXPECT_THAT(r.error, HasSubstr(path));
      EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
  }
  EXPECT_GT(loaded, 250);
  EXPECT_GT(refused, 50);
}

}  // namespace
}  // namespace assets

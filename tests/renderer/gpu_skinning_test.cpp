// GPU skinning read back through transform feedback agrees with CPU skinning, for rigs of over a
// thousand joints with rotations and non-uniform scales; GpuModel upload checks and palettes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "assets/model/skinning.h"
#include "renderer/gpu_model.h"
#include "renderer/renderer.h"
#include "tests/renderer/gl_test_context.h"
#include "tests/renderer/test_rigs.h"

namespace {

using ::testing::HasSubstr;

class GpuSkinningTest : public rendertest::GlTest {};

// Largest distance between corresponding points of all meshes.
float MaxDistance(const std::vector<std::vector<glm::vec3>>& a,
                  const std::vector<std::vector<glm::vec3>>& b) {
  float worst = 0.0f;
  for (size_t m = 0; m < a.size(); ++m)
    for (size_t v = 0; v < a[m].size(); ++v)
      worst = std::fmax(worst, glm::distance(a[m][v], b[m][v]));
  return worst;
}

TEST_F(GpuSkinningTest, ThousandJointRigMatchesCpuSkinningInAPosedRig) {
  const assets::Model model = rendertest::MakeWideRig();
  ASSERT_GE(model.skeleton.joint_count(), 1024);
  const ik::Pose pose = rendertest::RandomPose(model.skeleton, 42);
  const std::vector<glm::mat4> joint_models = rendertest::JointModels(model.skeleton, pose);

  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  ASSERT_TRUE(r) << error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  ASSERT_TRUE(gpu) << error;
  ASSERT_TRUE(gpu->UpdatePose(joint_models));
  renderer::SkinnedMeshes skinned;
  ASSERT_TRUE(r->SkinOnGpu(*gpu, &skinned, &error)) << error;

  std::vector<std::vector<glm::vec3>> expected, expected_normals, rest;
  for (const assets::Mesh& mesh : model.meshes) {
    expected.push_back(rendertest::ReferenceSkin(mesh, joint_models));
    expected_normals.push_back(rendertest::ReferenceSkinNormals(mesh, joint_models));
    rest.push_back(mesh.positions);
  }
  ASSERT_EQ(skinned.positions.size(), model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    ASSERT_EQ(skinned.positions[m].size(), model.meshes[m].positions.size());
    ASSERT_EQ(skinned.normals[m].size(), model.meshes[m].positions.size());
  }
  const float size = rendertest::BoundsSize(expected);
  ASSERT_GT(size, 0.5f);
  // The pose really moves the vertices, far beyond the tolerance...
  EXPECT_GT(MaxDistance(expected, rest), 0.1f * size);
  // ...and the GPU lands where the CPU does.
  EXPECT_LT(MaxDistance(skinned.positions, expected), 1e-4f * size);
  // Normals follow the inverse-transpose (non-uniform scale bends them away from the rotated
  // normal): compare directions.
  EXPECT_LT(MaxDistance(skinned.normals, expected_normals), 1e-3f);
}

// The wide rig with eight influences per vertex on its first mesh: the four it has, scaled down,
// and four more on pseudo-random bones of the same mesh (the extra set), summing to 1.
assets::Model WideRigWithEightInfluences() {
  assets::Model model = rendertest::MakeWideRig(16, 8);
  assets::Mesh& mesh = model.meshes[0];
  const size_t n = mesh.positions.size();
  const uint16_t bones = static_cast<uint16_t>(mesh.bone_joints.size());
  mesh.extra_joints.resize(n);
  mesh.extra_weights.resize(n);
  for (size_t v = 0; v < n; ++v) {
    for (int k = 0; k < 4; ++k) {
      mesh.extra_joints[v][k] =
          static_cast<uint16_t>((v / 24 * 7 + static_cast<size_t>(k) * 5) % bones);
      mesh.extra_weights[v][k] = 0.1f - 0.02f * static_cast<float>(k);  // 0.28 in all
    }
    mesh.weights[v] *= 0.72f;
  }
  return model;
}

TEST_F(GpuSkinningTest, EightInfluencesMatchCpuSkinning) {
  const assets::Model model = WideRigWithEightInfluences();
  const ik::Pose pose = rendertest::RandomPose(model.skeleton, 5);
  const std::vector<glm::mat4> joint_models = rendertest::JointModels(model.skeleton, pose);
  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  ASSERT_TRUE(r) << error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  ASSERT_TRUE(gpu) << error;
  EXPECT_TRUE(gpu->meshes()[0].extra_influences);
  EXPECT_FALSE(gpu->meshes()[1].extra_influences);
  ASSERT_TRUE(gpu->UpdatePose(joint_models));
  renderer::SkinnedMeshes skinned;
  ASSERT_TRUE(r->SkinOnGpu(*gpu, &skinned, &error)) << error;

  std::vector<std::vector<glm::vec3>> expected, cpu, four_only;
  assets::Model cut = model;  // the same weights without the extra set: what was lost before
  cut.meshes[0].extra_joints.clear();
  cut.meshes[0].extra_weights.clear();
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    expected.push_back(rendertest::ReferenceSkin(model.meshes[m], joint_models));
    cpu.emplace_back();
    assets::SkinMesh(model.meshes[m], joint_models, &cpu.back(), nullptr);
    four_only.push_back(rendertest::ReferenceSkin(cut.meshes[m], joint_models));
  }
  const float size = rendertest::BoundsSize(expected);
  ASSERT_GT(size, 0.1f);
  // The extra influences move the vertices far beyond the tolerance...
  EXPECT_GT(MaxDistance(four_only, expected), 0.05f * size);
  // ...and the GPU and the CPU both land on the double-precision reference.
  EXPECT_LT(MaxDistance(skinned.positions, expected), 1e-5f * size);
  EXPECT_LT(MaxDistance(cpu, expected), 1e-5f * size);
  EXPECT_LT(MaxDistance(skinned.positions, cpu), 1e-5f * size);
}

TEST_F(GpuSkinningTest, CreateRejectsExtraInfluencesOfAnotherLength) {
  assets::Model model = WideRigWithEightInfluences();
  model.meshes[0].extra_weights.pop_back();
  std::string error;
  EXPECT_FALSE(renderer::GpuModel::Create(model, &error));
  EXPECT_THAT(error, HasSubstr("different lengths"));
}

TEST_F(GpuSkinningTest, RestPoseReproducesBindPositions) {
  const assets::Model model = rendertest::MakeTube();
  std::string error;
  std::optional<renderer::SkinnedMeshes> skinned =
      renderer::SkinOnGpu(model, model.skeleton.rest_models(), &error);
  ASSERT_TRUE(skinned) << error;
  ASSERT_EQ(skinned->positions.size(), 1u);
  EXPECT_LT(MaxDistance(skinned->positions, {model.meshes[0].positions}), 1e-5f);
  EXPECT_LT(MaxDistance(skinned->normals, {model.meshes[0].normals}), 1e-5f);
}

TEST_F(GpuSkinningTest, MirroringScaleKeepsNormalsOutward) {
  assets::Model model = rendertest::MakeTube();
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  pose.locals[0].scale = {-1.0f, 2.0f, 0.5f};  // mirrored and squashed
  const std::vector<glm::mat4> joint_models = rendertest::JointModels(model.skeleton, pose);
  std::string error;
  std::optional<renderer::SkinnedMeshes> skinned = renderer::SkinOnGpu(model, joint_models, &error);
  ASSERT_TRUE(skinned) << error;
  const std::vector<glm::vec3> expected =
      rendertest::ReferenceSkinNormals(model.meshes[0], joint_models);
  EXPECT_LT(MaxDistance(skinned->normals, {expected}), 1e-4f);
}

TEST_F(GpuSkinningTest, UpdatePoseRefusesTooFewMatrices) {
  const assets::Model model = rendertest::MakeTube();
  std::string error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  ASSERT_TRUE(gpu) << error;
  const std::vector<glm::mat4> before = gpu->palette();
  std::vector<glm::mat4> too_few(model.skeleton.joint_count() - 1,
                                 glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)));
  EXPECT_FALSE(gpu->UpdatePose(too_few));
  EXPECT_EQ(gpu->palette(), before);
}

TEST_F(GpuSkinningTest, PaletteIsJointMatrixTimesInverseBindPerMeshBone) {
  const assets::Model model = rendertest::MakeWideRig(4, 3);
  const std::vector<glm::mat4> joint_models =
      rendertest::JointModels(model.skeleton, rendertest::RandomPose(model.skeleton, 3));
  std::string error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  ASSERT_TRUE(gpu) << error;
  ASSERT_TRUE(gpu->UpdatePose(joint_models));
  ASSERT_EQ(gpu->meshes().size(), 2u);
  for (size_t m = 0; m < 2; ++m) {
    const assets::Mesh& mesh = model.meshes[m];
    const int offset = gpu->meshes()[m].palette_offset;
    for (size_t b = 0; b < mesh.bone_joints.size(); ++b)
      EXPECT_EQ(gpu->palette()[offset + b],
                joint_models[mesh.bone_joints[b]] * mesh.bone_inverse_binds[b]);
  }
}

TEST_F(GpuSkinningTest, CreateRejectsIndexPastTheVertices) {
  assets::Model model = rendertest::MakeTube();
  model.meshes[0].indices.back() = static_cast<uint32_t>(model.meshes[0].positions.size());
  std::string error;
  EXPECT_FALSE(renderer::GpuModel::Create(model, &error));
  EXPECT_THAT(error, HasSubstr("'tube'"));
  EXPECT_THAT(error, HasSubstr("index"));
}

TEST_F(GpuSkinningTest, CreateRejectsWeightedBonePastTheBoneList) {
  assets::Model model = rendertest::MakeTube();
  model.meshes[0].joints[5] = glm::u16vec4(9, 0, 0, 0);
  model.meshes[0].weights[5] = glm::vec4(1, 0, 0, 0);
  std::string error;
  EXPECT_FALSE(renderer::GpuModel::Create(model, &error));
  EXPECT_THAT(error, HasSubstr("bone 9"));
}

TEST_F(GpuSkinningTest, UnweightedSlotsMayHoldAnyIndex) {
  assets::Model model = rendertest::MakeTube();
  ASSERT_EQ(model.meshes[0].weights[5].w, 0.0f);
  model.meshes[0].joints[5].w = 60000;  // past the bone list, in a slot of weight 0
  std::string error;
  EXPECT_TRUE(renderer::GpuModel::Create(model, &error)) << error;
  // The upload points such slots at bone 0 (a copy of the joint block); every vertex, the
  // patched one and the others, still skins as the CPU reference says in a posed rig.
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  for (size_t j = 0; j < pose.locals.size(); ++j) {
    pose.locals[j].rotation =
        glm::angleAxis(0.3f + 0.2f * static_cast<float>(j), glm::normalize(glm::vec3(1, 2, 0.5f)));
  }
  const std::vector<glm::mat4> joint_models = rendertest::JointModels(model.skeleton, pose);
  std::optional<renderer::SkinnedMeshes> skinned = renderer::SkinOnGpu(model, joint_models, &error);
  ASSERT_TRUE(skinned) << error;
  const std::vector<glm::vec3> expected = rendertest::ReferenceSkin(model.meshes[0], joint_models);
  EXPECT_GT(MaxDistance({expected}, {model.meshes[0].positions}), 0.05f);
  EXPECT_LT(MaxDistance(skinned->positions, {expected}), 1e-4f);
}

TEST_F(GpuSkinningTest, CreateRejectsTextureOfWrongByteCount) {
  assets::Model model = rendertest::MakeTube();
  model.textures.push_back({"bad", 4, 4, std::vector<uint8_t>(10)});
  std::string error;
  EXPECT_FALSE(renderer::GpuModel::Create(model, &error));
  EXPECT_THAT(error, HasSubstr("'bad'"));
}

TEST_F(GpuSkinningTest, MeshlessSkeletonUploadsAndSkinsToNothing) {
  assets::Model model = rendertest::MakeTube();
  model.meshes.clear();
  std::string error;
  std::optional<renderer::SkinnedMeshes> skinned =
      renderer::SkinOnGpu(model, model.skeleton.rest_models(), &error);
  ASSERT_TRUE(skinned) << error;
  EXPECT_TRUE(skinned->positions.empty());
}

}  // namespace

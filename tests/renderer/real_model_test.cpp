// GPU skinning and rendering of real files (the shared third-party models) and of the synthetic
// rigs against assets' own CPU skinning (assets/model/skinning.h), the reference `pose` prints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "renderer/offscreen.h"
#include "renderer/renderer.h"
#include "tests/renderer/gl_test_context.h"
#include "tests/renderer/test_rigs.h"
#include "tests/test_paths.h"

namespace {

class RealModelTest : public rendertest::GlTest {};

// GPU read-back against assets::SkinMesh for every mesh: the largest position error divided by
// the skinned model's bounding diagonal, and the largest normal error.
void ExpectGpuMatchesAssetsSkinning(const assets::Model& model,
                                    const std::vector<glm::mat4>& joint_models) {
  std::string error;
  std::optional<renderer::SkinnedMeshes> gpu = renderer::SkinOnGpu(model, joint_models, &error);
  ASSERT_TRUE(gpu) << error;
  ASSERT_EQ(gpu->positions.size(), model.meshes.size());
  const assets::Bounds bounds = assets::ModelBounds(model, joint_models);
  ASSERT_FALSE(bounds.empty());
  const float size = bounds.diagonal();
  float worst_position = 0.0f, worst_normal = 0.0f;
  size_t vertices = 0;
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    std::vector<glm::vec3> positions, normals;
    assets::SkinMesh(model.meshes[m], joint_models, &positions, &normals);
    ASSERT_EQ(gpu->positions[m].size(), positions.size());
    for (size_t v = 0; v < positions.size(); ++v) {
      worst_position = std::fmax(worst_position, glm::distance(gpu->positions[m][v], positions[v]));
      // A collapsed skin has no normal direction; assets keeps the bind normal there.
      if (glm::length(gpu->normals[m][v]) > 0.5f)
        worst_normal = std::fmax(worst_normal, glm::distance(gpu->normals[m][v], normals[v]));
    }
    vertices += positions.size();
  }
  EXPECT_GT(vertices, 0u);
  EXPECT_LT(worst_position, 1e-4f * size) << "model size " << size;
  EXPECT_LT(worst_normal, 1e-3f);
}

std::vector<glm::mat4> ClipPose(const assets::Model& model, float fraction) {
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  if (!model.clips.empty())
    assets::SampleClip(model, model.clips[0], fraction * model.clips[0].duration, &pose);
  return rendertest::JointModels(model.skeleton, pose);
}

TEST_F(RealModelTest, WideRigGpuSkinningMatchesAssetsSkinning) {
  const assets::Model rig = rendertest::MakeWideRig();
  ExpectGpuMatchesAssetsSkinning(
      rig, rendertest::JointModels(rig.skeleton, rendertest::RandomPose(rig.skeleton, 11)));
}

TEST_F(RealModelTest, BuiltinCharacterSkinsOnTheGpuLikeOnTheCpu) {
  const assets::Model character = assets::MakeBuiltinCharacter();
  ASSERT_FALSE(character.meshes.empty());
  ExpectGpuMatchesAssetsSkinning(character, ClipPose(character, 0.3f));
  ExpectGpuMatchesAssetsSkinning(
      character,
      rendertest::JointModels(character.skeleton,
                              rendertest::RandomPose(character.skeleton, 9, 0.5f, 0.2f)));
}

TEST_F(RealModelTest, SharedSkinnedModelsSkinOnTheGpuLikeOnTheCpu) {
  const char* files[] = {
      "khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb",
      "khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf",
      "khronos-glTF-Sample-Models/RiggedSimple/glTF/RiggedSimple.gltf",
      "glTF-Asset-Generator/Animation_Skin/Animation_Skin_07.gltf",
  };
  for (const char* file : files) {
    SCOPED_TRACE(file);
    const std::string path = testpaths::SharedModel(file);
    SKIP_IF_NO_MODEL(path, file);
    assets::LoadResult loaded = assets::LoadModel(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    const assets::Model& model = *loaded.model;
    // Mid-clip, and the clip's pose with every joint also turned and unevenly scaled.
    ExpectGpuMatchesAssetsSkinning(model, ClipPose(model, 0.4f));
    ik::Pose pose = rendertest::RandomPose(model.skeleton, 5, 0.4f, 0.15f);
    ExpectGpuMatchesAssetsSkinning(model, rendertest::JointModels(model.skeleton, pose));
  }
}

// Renders `model` posed by `joint_models` with grid and bones, 384 px square, framed by its
// bounds, and the same view without the model.
struct Rendered {
  rendertest::Image empty, image;
};
Rendered RenderFramed(const assets::Model& model, const std::vector<glm::mat4>& joint_models,
                      const glm::vec3& view_direction, const std::string& save_as) {
  constexpr int kSize = 384;
  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  EXPECT_TRUE(r) << error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  EXPECT_TRUE(gpu) << error;
  std::optional<renderer::OffscreenTarget> target =
      renderer::OffscreenTarget::Create(kSize, kSize, &error);
  EXPECT_TRUE(target) << error;
  if (!r || !gpu || !target) return {};
  EXPECT_TRUE(gpu->UpdatePose(joint_models));

  const assets::Bounds bounds = assets::ModelBounds(model, joint_models);
  const glm::vec3 center = bounds.center();
  const float radius = 0.5f * bounds.diagonal();
  const renderer::View view = rendertest::LookAt(center + radius * view_direction, center, kSize);
  renderer::GridParams grid = renderer::GridForModelSize(bounds.size().y);
  grid.center = {center.x, 0.0f, center.z};
  renderer::DebugLines bones;
  bones.AddSkeleton(model.skeleton, joint_models, renderer::colors::kYellow, 0.02f * radius,
                    &model.is_bone);
  auto render = [&](bool with_model) {
    target->Bind();
    r->BeginFrame(view);
    if (with_model) r->DrawModel(*gpu, view);
    r->DrawGrid(view, grid);
    if (with_model) r->DrawLines(bones, view, renderer::DepthMode::kHiddenDimmed);
    rendertest::Image image{kSize, kSize, target->ReadPixels()};
    renderer::OffscreenTarget::BindDefault();
    return image;
  };
  Rendered result{render(false), render(true)};
  rendertest::SaveForInspection(result.image, save_as);
  return result;
}

// Pixels that differ from the empty view, and how many of them are strongly coloured.
void CountModelPixels(const Rendered& r, int* model_pixels, int* saturated,
                      std::vector<float>* luma) {
  *model_pixels = *saturated = 0;
  for (int y = 0; y < r.image.height; ++y)
    for (int x = 0; x < r.image.width; ++x) {
      const glm::ivec4 p = r.image.At(x, y);
      if (rendertest::ColorDistance(p, r.empty.At(x, y)) <= 24) continue;
      ++*model_pixels;
      if (std::max({p.r, p.g, p.b}) - std::min({p.r, p.g, p.b}) > 40) ++*saturated;
      luma->push_back(rendertest::Luma(p));
    }
}

TEST_F(RealModelTest, CesiumManRendersTexturedAndLit) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(path, "CesiumMan.glb");
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const Rendered r = RenderFramed(*loaded.model, ClipPose(*loaded.model, 0.3f),
                                  glm::vec3(1.2f, 0.5f, 2.2f), "cesium_man");
  int model_pixels = 0, saturated = 0;
  std::vector<float> luma;
  CountModelPixels(r, &model_pixels, &saturated, &luma);
  EXPECT_GT(model_pixels, 384 * 384 / 20);
  // The texture is colourful; an untextured grey model would have none of these.
  EXPECT_GT(saturated, model_pixels / 10);
}

TEST_F(RealModelTest, BuiltinCharacterRendersAsALitMannequin) {
  const assets::Model character = assets::MakeBuiltinCharacter();
  const Rendered r = RenderFramed(character, ClipPose(character, 0.25f),
                                  glm::vec3(0.9f, 0.35f, 2.0f), "builtin_character");
  int model_pixels = 0, saturated = 0;
  std::vector<float> luma;
  CountModelPixels(r, &model_pixels, &saturated, &luma);
  EXPECT_GT(model_pixels, 384 * 384 / 20);
  ASSERT_FALSE(luma.empty());
  // Shaded in depth, not a flat silhouette.
  std::sort(luma.begin(), luma.end());
  EXPECT_GT(luma[luma.size() * 19 / 20] - luma[luma.size() / 20], 50.0f);
}

}  // namespace

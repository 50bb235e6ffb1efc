// Morph targets on the GPU (deltas in a texture buffer, blended by morph_blend.frag and read back
// into the vertices skinned.vert and skin_capture.vert read) blend like the CPU path
// (assets::SkinMesh) within float error: default weights at rest, any weights in a posed rig,
// meshes whose vertices fill several rows of the blend framebuffer, a clip's weights as it plays,
// and nothing for meshes without targets. The draws show the blend, which runs only when the
// weights change and leaves the GL state as it found it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "assets/model/animation.h"
#include "assets/model/morph.h"
#include "assets/model/skinning.h"
#include "renderer/gpu_model.h"
#include "renderer/offscreen.h"
#include "renderer/renderer.h"
#include "tests/renderer/gl_test_context.h"
#include "tests/renderer/test_rigs.h"

namespace {

class MorphGpuTest : public rendertest::GlTest {};

// The wide rig with `targets` random targets on every other mesh (position deltas up to 0.05,
// normal deltas on even targets), default weights 0.72, 0.28 and zeros after.
assets::Model RigWithTargets(int targets, unsigned seed) {
  assets::Model model = rendertest::MakeWideRig(16, 8);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> delta(-0.05f, 0.05f);
  for (size_t m = 0; m < model.meshes.size(); m += 2) {
    assets::Mesh& mesh = model.meshes[m];
    for (int t = 0; t < targets; ++t) {
      assets::MorphTarget target;
      target.name = "t" + std::to_string(t);
      for (size_t v = 0; v < mesh.positions.size(); ++v) {
        target.positions.emplace_back(delta(random), delta(random), delta(random));
        if (t % 2 == 0) target.normals.emplace_back(delta(random), delta(random), delta(random));
      }
      mesh.targets.push_back(std::move(target));
      mesh.target_weights.push_back(t == 0 ? 0.72f : t == 1 ? 0.28f : 0.0f);
    }
  }
  return model;
}

// CPU skinning of every mesh with `weights` (defaults when null).
renderer::SkinnedMeshes CpuSkin(const assets::Model& model, const std::vector<glm::mat4>& models,
                                const assets::MorphWeights& weights) {
  renderer::SkinnedMeshes out;
  out.positions.resize(model.meshes.size());
  out.normals.resize(model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    assets::SkinMesh(model.meshes[m], models, weights[m], &out.positions[m], &out.normals[m]);
  }
  return out;
}

float MaxDistance(const std::vector<std::vector<glm::vec3>>& a,
                  const std::vector<std::vector<glm::vec3>>& b) {
  float worst = 0.0f;
  for (size_t m = 0; m < a.size(); ++m) {
    EXPECT_EQ(a[m].size(), b[m].size());
    for (size_t v = 0; v < std::min(a[m].size(), b[m].size()); ++v) {
      worst = std::fmax(worst, glm::distance(a[m][v], b[m][v]));
    }
  }
  return worst;
}

TEST_F(MorphGpuTest, DefaultWeightsMoveTheRestPoseOnBothPathsAlike) {
  const assets::Model model = RigWithTargets(2, 7);
  const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
  std::string error;
  const auto gpu = renderer::SkinOnGpu(model, rest, &error);
  ASSERT_TRUE(gpu) << error;
  const renderer::SkinnedMeshes cpu = CpuSkin(model, rest, assets::DefaultMorphWeights(model));
  // Without the targets the rest pose would be elsewhere by about the deltas' size.
  const renderer::SkinnedMeshes unmorphed =
      CpuSkin(model, rest, assets::MorphWeights(model.meshes.size()));
  EXPECT_GT(MaxDistance(cpu.positions, unmorphed.positions), 0.02f);
  EXPECT_GT(MaxDistance(gpu->positions, unmorphed.positions), 0.02f);
  EXPECT_LT(MaxDistance(gpu->positions, cpu.positions), 1e-5f);
  EXPECT_LT(MaxDistance(gpu->normals, cpu.normals), 1e-4f);
}

TEST_F(MorphGpuTest, AnyWeightsInAPosedRigMatchTheCpu) {
  const assets::Model model = RigWithTargets(6, 11);
  const ik::Pose pose = rendertest::RandomPose(model.skeleton, 5);
  const std::vector<glm::mat4> joint_models = rendertest::JointModels(model.skeleton, pose);
  assets::MorphWeights weights = assets::DefaultMorphWeights(model);
  std::mt19937 random(3);
  std::uniform_real_distribution<float> weight(-0.5f, 1.5f);
  for (std::vector<float>& w : weights) {
    for (size_t t = 0; t < w.size(); ++t) w[t] = t == 3 ? 0.0f : weight(random);
  }
  std::string error;
  const auto gpu = renderer::SkinOnGpu(model, joint_models, &error, &weights);
  ASSERT_TRUE(gpu) << error;
  const renderer::SkinnedMeshes cpu = CpuSkin(model, joint_models, weights);
  const float size = rendertest::BoundsSize(cpu.positions);
  EXPECT_LT(MaxDistance(gpu->positions, cpu.positions), 1e-5f * std::fmax(size, 1.0f));
  EXPECT_LT(MaxDistance(gpu->normals, cpu.normals), 1e-4f);
}

TEST_F(MorphGpuTest, MoreActiveTargetsThanOnePassHoldsBlendInSeveralPasses) {
  // 129 targets take two passes (the second added to the first by blending), 300 take three;
  // every weight non-zero.
  for (int targets : {129, 300}) {
    const assets::Model model = RigWithTargets(targets, 17);
    assets::MorphWeights weights = assets::DefaultMorphWeights(model);
    std::mt19937 random(5);
    std::uniform_real_distribution<float> weight(0.05f, 0.4f);
    for (std::vector<float>& w : weights)
      for (float& x : w) x = weight(random);
    const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
    std::string error;
    const auto gpu = renderer::SkinOnGpu(model, rest, &error, &weights);
    ASSERT_TRUE(gpu) << error;
    const renderer::SkinnedMeshes cpu = CpuSkin(model, rest, weights);
    // Only the first pass's targets would be off by far more than this.
    EXPECT_LT(MaxDistance(gpu->positions, cpu.positions), 2e-5f) << targets << " targets";
    EXPECT_LT(MaxDistance(gpu->normals, cpu.normals), 1e-4f) << targets << " targets";
  }
}

TEST_F(MorphGpuTest, AMeshOfSeveralFramebufferRowsBlendsEveryVertex) {
  // The tube's vertices copied side by side to 5,003 (10,006 blend texels: more than two rows of
  // 4,096 and a short last row), with two targets of random deltas.
  const assets::Model tube = rendertest::MakeTube();
  assets::Model model = tube;
  assets::Mesh& mesh = model.meshes[0];
  const assets::Mesh& one = tube.meshes[0];
  for (int copy = 1; mesh.positions.size() < 5003; ++copy) {
    const size_t take = std::min(one.positions.size(), 5003 - mesh.positions.size());
    for (size_t v = 0; v < take; ++v) {
      mesh.positions.push_back(one.positions[v] + glm::vec3(0.1f * float(copy), 0.0f, 0.0f));
      mesh.normals.push_back(one.normals[v]);
      mesh.joints.push_back(one.joints[v]);
      mesh.weights.push_back(one.weights[v]);
      if (!one.uvs.empty()) mesh.uvs.push_back(one.uvs[v]);
    }
  }
  ASSERT_EQ(mesh.positions.size(), 5003u);
  mesh.weight_flags.clear();
  std::mt19937 random(11);
  std::uniform_real_distribution<float> delta(-0.05f, 0.05f);
  for (int t = 0; t < 2; ++t) {
    assets::MorphTarget target;
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
      target.positions.emplace_back(delta(random), delta(random), delta(random));
      target.normals.emplace_back(delta(random), delta(random), delta(random));
    }
    mesh.targets.push_back(std::move(target));
    mesh.target_weights.push_back(t == 0 ? 0.6f : -0.3f);
  }
  const assets::MorphWeights weights = assets::DefaultMorphWeights(model);
  const std::vector<glm::mat4> models =
      rendertest::JointModels(model.skeleton, rendertest::RandomPose(model.skeleton, 7));
  std::string error;
  const auto gpu = renderer::SkinOnGpu(model, models, &error, &weights);
  ASSERT_TRUE(gpu) << error;
  const renderer::SkinnedMeshes cpu = CpuSkin(model, models, weights);
  EXPECT_LT(MaxDistance(gpu->positions, cpu.positions), 1e-5f);
  EXPECT_LT(MaxDistance(gpu->normals, cpu.normals), 1e-4f);
  // Every vertex moved by its deltas, the last row's included (an unread one would sit at rest).
  const renderer::SkinnedMeshes unblended =
      CpuSkin(model, models, assets::MorphWeights{{0.0f, 0.0f}});
  EXPECT_GT(glm::distance(gpu->positions[0].back(), unblended.positions[0].back()), 1e-4f);
}

TEST_F(MorphGpuTest, AClipsWeightChannelAnimatesTheGpuMesh) {
  assets::Model model = RigWithTargets(2, 13);
  assets::Clip clip;
  clip.name = "faces";
  clip.duration = 1.0f;
  assets::MorphAnimation channel;
  channel.mesh = 0;
  channel.width = 2;
  channel.times = {0.0f, 1.0f};
  channel.values = {0.0f, 0.0f, 1.0f, -1.0f};
  clip.morph_channels.push_back(channel);
  model.clips.push_back(clip);
  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  ASSERT_TRUE(r) << error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  ASSERT_TRUE(gpu) << error;
  const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
  std::vector<glm::vec3> first;
  for (float t : {0.0f, 0.4f, 1.0f}) {
    assets::MorphWeights weights;
    assets::SampleClipMorphs(model, model.clips[0], t, &weights);
    EXPECT_NEAR(weights[0][0], t, 1e-6f);
    gpu->UpdateMorphWeights(weights);
    renderer::SkinnedMeshes skinned;
    ASSERT_TRUE(r->SkinOnGpu(*gpu, &skinned, &error)) << error;
    const renderer::SkinnedMeshes cpu = CpuSkin(model, rest, weights);
    EXPECT_LT(MaxDistance(skinned.positions, cpu.positions), 1e-5f) << "t=" << t;
    if (t == 0.0f) {
      first = skinned.positions[0];
      const renderer::SkinnedMeshes unmorphed =
          CpuSkin(model, rest, assets::MorphWeights(model.meshes.size()));
      EXPECT_LT(MaxDistance({first}, {unmorphed.positions[0]}), 1e-5f);
    } else {
      EXPECT_GT(MaxDistance({skinned.positions[0]}, {first}), 0.01f) << "t=" << t;
    }
  }
}

TEST_F(MorphGpuTest, MeshesWithoutTargetsHaveNoMorphBuffers) {
  const assets::Model model = RigWithTargets(3, 17);
  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  ASSERT_TRUE(r) << error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(model, &error);
  ASSERT_TRUE(gpu) << error;
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const renderer::GpuMesh& mesh = gpu->meshes()[m];
    EXPECT_EQ(mesh.target_count, static_cast<int>(model.meshes[m].targets.size()));
    EXPECT_EQ(mesh.morph_delta_texture.id() != 0, !model.meshes[m].targets.empty());
    EXPECT_EQ(mesh.morph_active_count, model.meshes[m].targets.empty() ? 0 : 2);
  }
  // All weights 0: nothing is blended, and the GPU still agrees with the CPU.
  assets::MorphWeights zeros = assets::DefaultMorphWeights(model);
  for (std::vector<float>& w : zeros) std::fill(w.begin(), w.end(), 0.0f);
  gpu->UpdateMorphWeights(zeros);
  for (const renderer::GpuMesh& mesh : gpu->meshes()) EXPECT_EQ(mesh.morph_active_count, 0);
  renderer::SkinnedMeshes skinned;
  ASSERT_TRUE(r->SkinOnGpu(*gpu, &skinned, &error)) << error;
  const renderer::SkinnedMeshes cpu = CpuSkin(model, model.skeleton.rest_models(), zeros);
  EXPECT_LT(MaxDistance(skinned.positions, cpu.positions), 1e-5f);
}

// Mean x of the pixels where `image` differs from `empty`, the frame drawn without the model.
float CoverageCenterX(const rendertest::Image& image, const rendertest::Image& empty) {
  double sum = 0.0;
  int count = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (rendertest::ColorDistance(image.At(x, y), empty.At(x, y)) > 30) {
        sum += x;
        ++count;
      }
    }
  }
  EXPECT_GT(count, 200);
  return count > 0 ? static_cast<float>(sum / count) : 0.0f;
}

// The vertices UpdateMorphWeights blends: the blend pass writes one fragment per position and
// one per normal.
GLuint64 VerticesBlended(renderer::GpuModel* gpu, const assets::MorphWeights& weights) {
  GLuint query = 0;
  glGenQueries(1, &query);
  glBeginQuery(GL_SAMPLES_PASSED, query);
  gpu->UpdateMorphWeights(weights);
  glEndQuery(GL_SAMPLES_PASSED);
  GLuint64 written = 0;
  glGetQueryObjectui64v(query, GL_QUERY_RESULT, &written);
  glDeleteQueries(1, &query);
  return written / 2;
}

TEST_F(MorphGpuTest, DrawsShowTheBlendWhichRunsOnlyWhenTheWeightsChange) {
  // The tube with one target that moves every vertex 0.5 along +x.
  assets::Model tube = rendertest::MakeTube();
  assets::MorphTarget shift;
  shift.name = "shift";
  shift.positions.assign(tube.meshes[0].positions.size(), glm::vec3(0.5f, 0.0f, 0.0f));
  tube.meshes[0].targets.push_back(shift);
  tube.meshes[0].target_weights.push_back(0.0f);
  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  ASSERT_TRUE(r) << error;
  std::optional<renderer::GpuModel> gpu = renderer::GpuModel::Create(tube, &error);
  ASSERT_TRUE(gpu) << error;
  constexpr int kSize = 200;
  std::optional<renderer::OffscreenTarget> target =
      renderer::OffscreenTarget::Create(kSize, kSize, &error);
  ASSERT_TRUE(target) << error;
  const renderer::View view = rendertest::LookAt({0.0f, 0.8f, 4.0f}, {0.0f, 0.8f, 0.0f}, kSize);
  const auto render = [&](bool with_model) {
    target->Bind();
    r->BeginFrame(view);
    if (with_model) r->DrawModel(*gpu, view);
    rendertest::Image image{kSize, kSize, target->ReadPixels()};
    renderer::OffscreenTarget::BindDefault();
    return image;
  };
  const rendertest::Image empty = render(false);
  const size_t vertices = tube.meshes[0].positions.size();

  // Create blended the defaults; the same weights again blend nothing.
  assets::MorphWeights weights{{0.0f}};
  EXPECT_EQ(VerticesBlended(&*gpu, weights), 0u);
  const float rest_x = CoverageCenterX(render(true), empty);
  weights[0][0] = 1.0f;
  EXPECT_EQ(VerticesBlended(&*gpu, weights), vertices);
  EXPECT_EQ(VerticesBlended(&*gpu, weights), 0u);
  const rendertest::Image shifted = render(true);
  rendertest::SaveForInspection(shifted, "morph_shifted");
  // 0.5 at 4 units with the test camera's field of view is well over ten pixels.
  EXPECT_GT(CoverageCenterX(shifted, empty), rest_x + 10.0f);
  // Back to 0, with the offscreen target bound and a frame's state set (depth test, alpha
  // blending, a viewport): blended again, and the state is as it was.
  weights[0][0] = 0.0f;
  target->Bind();
  r->BeginFrame(view);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glViewport(3, 4, 150, 160);
  EXPECT_EQ(VerticesBlended(&*gpu, weights), vertices);
  GLint program = -1, vertex_array = -1, framebuffer = -1, viewport[4] = {}, blend_dst = -1;
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vertex_array);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
  glGetIntegerv(GL_VIEWPORT, viewport);
  glGetIntegerv(GL_BLEND_DST_RGB, &blend_dst);
  EXPECT_EQ(program, 0);
  EXPECT_EQ(vertex_array, 0);
  EXPECT_EQ(framebuffer, static_cast<GLint>(target->framebuffer()));
  EXPECT_EQ(viewport[0], 3);
  EXPECT_EQ(viewport[3], 160);
  EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
  EXPECT_TRUE(glIsEnabled(GL_BLEND));
  EXPECT_EQ(blend_dst, GL_ONE_MINUS_SRC_ALPHA);
  EXPECT_FALSE(glIsEnabled(GL_RASTERIZER_DISCARD));
  renderer::OffscreenTarget::BindDefault();
  EXPECT_NEAR(CoverageCenterX(render(true), empty), rest_x, 0.5f);
}

}  // namespace

// Morph targets (blend shapes) read from glTF: deltas (dense and sparse), names, default and
// per-node weights, weight animations with every interpolation, checked against the independent
// reference reader; bad targets and weights dropped with warnings; the model cache round trip.
#include "assets/model/morph.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "assets/export/exporter.h"
#include "assets/files/model_io.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"
#include "tests/assets/gltf_builder.h"
#include "tests/assets/gltf_reference.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using json = nlohmann::json;

std::string Temp(const std::string& name) { return testpaths::TempDir() + "/" + name; }

struct MorphOptions {
  std::vector<float> mesh_weights = {0.72f, 0.28f};
  std::vector<float> node_weights;  // empty: none on the node
  std::string interpolation;        // empty: no weights animation
  int bad_target_count = 0;         // 1: the second target's POSITION has one vertex too few
};

// The skinned strip of gltf_builder.h (6 vertices; node 2 carries the mesh) with two targets:
// "Smile" moves every vertex along +x and tilts its normal (dense), "Blink" moves vertices 2 and
// 5 along +z (a sparse accessor without a bufferView). Optionally a clip animating the weights
// over keys at 0, 1 and 2 s.
testgltf::Builder MorphStrip(const MorphOptions& options = {}) {
  testgltf::Builder b = testgltf::SkinnedStrip();
  std::vector<float> smile, smile_normals;
  for (int v = 0; v < 6; ++v) {
    smile.insert(smile.end(), {0.1f * static_cast<float>(v + 1), 0.0f, 0.0f});
    smile_normals.insert(smile_normals.end(), {0.0f, 0.0f, 0.5f});
  }
  const int smile_accessor = b.Floats(smile, "VEC3", 6);
  const int smile_normal_accessor = b.Floats(smile_normals, "VEC3", 6);
  const std::vector<uint16_t> sparse_indices = {2, 5};
  const std::vector<float> sparse_values = {0, 0, 0.5f, 0, 0, -0.25f};
  while (b.data.size() % 4) b.data.push_back(0);
  const size_t index_offset = b.data.size();
  b.data.insert(b.data.end(), reinterpret_cast<const uint8_t*>(sparse_indices.data()),
                reinterpret_cast<const uint8_t*>(sparse_indices.data()) + 4);
  const size_t value_offset = b.data.size();
  b.data.insert(b.data.end(), reinterpret_cast<const uint8_t*>(sparse_values.data()),
                reinterpret_cast<const uint8_t*>(sparse_values.data()) + 24);
  b.doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", index_offset}, {"byteLength", 4}});
  b.doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", value_offset}, {"byteLength", 24}});
  const size_t views = b.doc["bufferViews"].size();
  b.doc["accessors"].push_back({{"componentType", 5126},
                                {"type", "VEC3"},
                                {"count", options.bad_target_count ? 5 : 6},
                                {"sparse",
                                 {{"count", 2},
                                  {"indices", {{"bufferView", views - 2}, {"componentType", 5123}}},
                                  {"values", {{"bufferView", views - 1}}}}}});
  const size_t blink_accessor = b.doc["accessors"].size() - 1;
  json& mesh = b.doc["meshes"][0];
  mesh["primitives"][0]["targets"] =
      json::array({json{{"POSITION", smile_accessor}, {"NORMAL", smile_normal_accessor}},
                   json{{"POSITION", blink_accessor}}});
  if (!options.mesh_weights.empty()) mesh["weights"] = options.mesh_weights;
  mesh["extras"] = {{"targetNames", {"Smile", "Blink"}}};
  if (!options.node_weights.empty()) b.doc["nodes"][2]["weights"] = options.node_weights;
  if (!options.interpolation.empty()) {
    const bool cubic = options.interpolation == "CUBICSPLINE";
    const std::vector<float> times = {0.0f, 1.0f, 2.0f};
    const std::vector<float> values = {0.0f, 1.0f, 1.0f, 0.5f, 0.25f, 0.0f};
    std::vector<float> output;
    for (size_t k = 0; k < 3; ++k) {
      if (cubic) output.insert(output.end(), {0.5f, -1.0f});  // in-tangent
      output.insert(output.end(), {values[k * 2], values[k * 2 + 1]});
      if (cubic) output.insert(output.end(), {-0.25f, 2.0f});  // out-tangent
    }
    const int input = b.Floats(times, "SCALAR", 3);
    b.doc["accessors"][input]["min"] = {0.0f};
    b.doc["accessors"][input]["max"] = {2.0f};
    const int out = b.Floats(output, "SCALAR", output.size());
    b.doc["animations"] = json::array({json{
        {"name", "faces"},
        {"samplers",
         json::array(
             {json{{"input", input}, {"output", out}, {"interpolation", options.interpolation}}})},
        {"channels",
         json::array({json{{"sampler", 0}, {"target", {{"node", 2}, {"path", "weights"}}}}})}}});
  }
  return b;
}

Model Load(const testgltf::Builder& b, const std::string& name) {
  const std::string path = Temp(name);
  b.WriteGltf(path);
  LoadResult loaded = LoadModel(path);
  EXPECT_TRUE(loaded.model) << loaded.error;
  return loaded.model ? std::move(*loaded.model) : Model();
}

// The model's vertices skinned at `time` of clip 0 (rest when no clip) against the reference's.
void ExpectMatchesReference(const Model& model, const std::string& path, bool animate, float time) {
  gltfref::Scene reference;
  std::string error;
  ASSERT_TRUE(gltfref::Evaluate(path, animate, time, &reference, &error)) << error;
  ik::Pose pose;
  MorphWeights weights = DefaultMorphWeights(model);
  if (animate) {
    SampleClip(model, model.clips[0], time, &pose);
    SampleClipMorphs(model, model.clips[0], time, &weights);
  } else {
    pose = ik::Pose::Rest(model.skeleton);
  }
  std::vector<glm::vec3> skinned;
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  ASSERT_EQ(model.meshes.size(), 1u);
  SkinMesh(model.meshes[0], models, weights[0], &skinned, nullptr);
  ASSERT_EQ(skinned.size(), reference.vertices.size());
  for (size_t v = 0; v < skinned.size(); ++v) {
    EXPECT_NEAR(glm::length(skinned[v] - reference.vertices[v].world), 0.0f, 1e-5f)
        << "vertex " << v << " at t=" << time;
  }
}

TEST(MorphTargets, ReadsTargetsNamesAndDefaultWeights) {
  const Model model = Load(MorphStrip(), "morph_read.gltf");
  ASSERT_EQ(model.meshes.size(), 1u);
  const Mesh& mesh = model.meshes[0];
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.targets[0].name, "Smile");
  EXPECT_EQ(mesh.targets[1].name, "Blink");
  EXPECT_EQ(mesh.target_weights, (std::vector<float>{0.72f, 0.28f}));
  ASSERT_EQ(mesh.targets[0].positions.size(), 6u);
  ASSERT_EQ(mesh.targets[0].normals.size(), 6u);
  EXPECT_TRUE(mesh.targets[1].normals.empty());
  // The sparse target: zeros except its two substituted vertices.
  ASSERT_EQ(mesh.targets[1].positions.size(), 6u);
  EXPECT_EQ(mesh.targets[1].positions[2], glm::vec3(0, 0, 0.5f));
  EXPECT_EQ(mesh.targets[1].positions[5], glm::vec3(0, 0, -0.25f));
  EXPECT_EQ(mesh.targets[1].positions[0], glm::vec3(0.0f));
  for (const std::string& w : model.warnings) EXPECT_EQ(w.find("morph"), std::string::npos) << w;
}

TEST(MorphTargets, DefaultWeightsMoveTheRestPoseLikeTheReference) {
  const testgltf::Builder b = MorphStrip();
  const Model model = Load(b, "morph_rest.gltf");
  ExpectMatchesReference(model, Temp("morph_rest.gltf"), false, 0.0f);
  // And it really moved: vertex 2 by 0.72 · 0.3 along x and 0.28 · 0.5 along z.
  std::vector<glm::vec3> skinned;
  SkinMesh(model.meshes[0], model.skeleton.rest_models(), &skinned, nullptr);
  EXPECT_NEAR(skinned[2].x - model.meshes[0].positions[2].x, 0.72f * 0.3f, 1e-6f);
  EXPECT_NEAR(skinned[2].z - model.meshes[0].positions[2].z, 0.28f * 0.5f, 1e-6f);
}

TEST(MorphTargets, NormalDeltasTiltTheSkinnedNormal) {
  const Model model = Load(MorphStrip(), "morph_normals.gltf");
  std::vector<glm::vec3> positions, normals, rest_normals;
  SkinMesh(model.meshes[0], model.skeleton.rest_models(), {0.0f, 0.0f}, &positions, &rest_normals);
  SkinMesh(model.meshes[0], model.skeleton.rest_models(), {1.0f, 0.0f}, &positions, &normals);
  const glm::vec3 expected = glm::normalize(rest_normals[0] + glm::vec3(0, 0, 0.5f));
  EXPECT_NEAR(glm::length(normals[0] - expected), 0.0f, 1e-6f);
}

TEST(MorphTargets, NodeWeightsOverrideTheMeshWeights) {
  MorphOptions options;
  options.node_weights = {0.1f, 0.9f};
  const Model model = Load(MorphStrip(options), "morph_node.gltf");
  EXPECT_EQ(model.meshes[0].target_weights, (std::vector<float>{0.1f, 0.9f}));
  ExpectMatchesReference(model, Temp("morph_node.gltf"), false, 0.0f);
}

TEST(MorphTargets, WeightsWithoutMeshWeightsAreZero) {
  MorphOptions options;
  options.mesh_weights.clear();
  const Model model = Load(MorphStrip(options), "morph_zero.gltf");
  EXPECT_EQ(model.meshes[0].target_weights, (std::vector<float>{0.0f, 0.0f}));
}

class MorphAnimationTest : public testing::TestWithParam<const char*> {};

TEST_P(MorphAnimationTest, WeightChannelsAnimateLikeTheReference) {
  MorphOptions options;
  options.interpolation = GetParam();
  const std::string name = std::string("morph_anim_") + GetParam() + ".gltf";
  const Model model = Load(MorphStrip(options), name);
  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(model.clips[0].morph_channels.size(), 1u);
  EXPECT_EQ(model.clips[0].morph_channels[0].mesh, 0);
  EXPECT_EQ(model.clips[0].morph_channels[0].width, 2);
  EXPECT_FLOAT_EQ(model.clips[0].duration, 2.0f);
  for (const std::string& w : model.warnings) EXPECT_EQ(w.find("morph"), std::string::npos) << w;
  for (float t : {0.0f, 0.25f, 0.5f, 1.0f, 1.3f, 1.75f, 2.0f, 3.0f}) {
    ExpectMatchesReference(model, Temp(name), true, t);
  }
}

INSTANTIATE_TEST_SUITE_P(Interpolations, MorphAnimationTest,
                         testing::Values("STEP", "LINEAR", "CUBICSPLINE"));

TEST(MorphTargets, SampledWeightsFollowTheKeys) {
  MorphOptions options;
  options.interpolation = "LINEAR";
  const Model model = Load(MorphStrip(options), "morph_keys.gltf");
  MorphWeights weights;
  SampleClipMorphs(model, model.clips[0], 0.5f, &weights);
  ASSERT_EQ(weights.size(), 1u);
  EXPECT_NEAR(weights[0][0], 0.5f, 1e-6f);
  EXPECT_NEAR(weights[0][1], 0.75f, 1e-6f);
  SampleClipMorphs(model, model.clips[0], 1.5f, &weights);
  EXPECT_NEAR(weights[0][0], 0.625f, 1e-6f);
  EXPECT_NEAR(weights[0][1], 0.25f, 1e-6f);
}

TEST(MorphTargets, CubicSplineUsesTheTangentsScaledByTheInterval) {
  MorphAnimation track;
  track.width = 1;
  track.interpolation = Interpolation::kCubicSpline;
  track.times = {0.0f, 2.0f};
  track.values = {0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f};  // key0 out-tangent 1, key1 in-tangent 1
  float w = -1.0f;
  ASSERT_TRUE(SampleMorphTrack(track, 1.0f, &w));
  // Hermite at u = 0.5 with tangents 1 · dt = 2: 0.5·0 + 0.125·2 + 0.5·1 - 0.125·2.
  EXPECT_NEAR(w, 0.5f, 1e-6f);
  track.values.pop_back();
  EXPECT_FALSE(SampleMorphTrack(track, 1.0f, &w));
}

TEST(MorphTargets, CombinedClipsCarryWeightChannels) {
  MorphOptions options;
  options.interpolation = "LINEAR";
  const Model model = Load(MorphStrip(options), "morph_combine.gltf");
  const Clip combined = CombineClips(model, {0, 0});
  ASSERT_EQ(combined.morph_channels.size(), 1u);
  MorphWeights a, b;
  SampleClipMorphs(model, model.clips[0], 0.7f, &a);
  SampleClipMorphs(model, combined, 0.7f, &b);
  EXPECT_EQ(a, b);
}

TEST(MorphTargets, TargetOfTheWrongCountMovesNothingWithAWarning) {
  MorphOptions options;
  options.bad_target_count = 1;
  const Model model = Load(MorphStrip(options), "morph_bad.gltf");
  ASSERT_EQ(model.meshes[0].targets.size(), 2u);
  EXPECT_TRUE(model.meshes[0].targets[1].positions.empty());
  bool warned = false;
  for (const std::string& w : model.warnings)
    warned |= w.find("morph targets") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(MorphTargets, WeightsOfTheWrongLengthAreZeroWithAWarning) {
  MorphOptions options;
  options.mesh_weights = {0.5f, 0.5f, 0.5f};
  const Model model = Load(MorphStrip(options), "morph_bad_weights.gltf");
  EXPECT_EQ(model.meshes[0].target_weights, (std::vector<float>{0.0f, 0.0f}));
  bool warned = false;
  for (const std::string& w : model.warnings)
    warned |= w.find("morph weights") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(MorphTargets, ModelCacheKeepsTargetsWeightsAndChannels) {
  MorphOptions options;
  options.interpolation = "CUBICSPLINE";
  const Model model = Load(MorphStrip(options), "morph_cache.gltf");
  Model back;
  std::string error;
  ASSERT_TRUE(DeserializeModel(SerializeModel(model), &back, &error)) << error;
  ASSERT_EQ(back.meshes[0].targets.size(), 2u);
  EXPECT_EQ(back.meshes[0].targets[0].name, "Smile");
  EXPECT_EQ(back.meshes[0].targets[1].positions, model.meshes[0].targets[1].positions);
  EXPECT_EQ(back.meshes[0].targets[0].normals, model.meshes[0].targets[0].normals);
  EXPECT_EQ(back.meshes[0].target_weights, model.meshes[0].target_weights);
  ASSERT_EQ(back.clips[0].morph_channels.size(), 1u);
  const MorphAnimation& a = model.clips[0].morph_channels[0];
  const MorphAnimation& c = back.clips[0].morph_channels[0];
  EXPECT_EQ(c.values, a.values);
  EXPECT_EQ(c.times, a.times);
  EXPECT_EQ(c.interpolation, a.interpolation);
  EXPECT_EQ(c.width, a.width);
  EXPECT_EQ(SerializeModel(back), SerializeModel(model));
}

TEST(MorphTargets, MeshesWithoutTargetsBlendNothing) {
  const Model model = Load(testgltf::SkinnedStrip(), "morph_none.gltf");
  EXPECT_FALSE(HasMorphTargets(model));
  std::vector<glm::vec3> p, n;
  EXPECT_FALSE(BlendMorphTargets(model.meshes[0], {1.0f}, &p, &n));
  EXPECT_TRUE(p.empty());
}

}  // namespace
}  // namespace assets

namespace assets {
namespace {

TEST(MorphTargets, ExportRoundTripsTargetsWeightsNamesAndChannels) {
  for (const char* interpolation : {"STEP", "LINEAR", "CUBICSPLINE"}) {
    MorphOptions options;
    options.interpolation = interpolation;
    const Model model = Load(MorphStrip(options), "morph_export_source.gltf");
    const std::string out = Temp(std::string("morph_export_") + interpolation + ".glb");
    std::string error;
    ASSERT_TRUE(ExportGltf(model, out, &error)) << error;
    LoadResult loaded = LoadModel(out);
    ASSERT_TRUE(loaded.model) << loaded.error;
    const Model& back = *loaded.model;
    ASSERT_EQ(back.meshes.size(), 1u);
    const Mesh& a = model.meshes[0];
    const Mesh& b = back.meshes[0];
    ASSERT_EQ(b.targets.size(), 2u) << interpolation;
    EXPECT_EQ(b.targets[0].name, "Smile");
    EXPECT_EQ(b.targets[1].name, "Blink");
    EXPECT_EQ(b.target_weights, a.target_weights);
    ASSERT_EQ(b.positions.size(), a.positions.size());
    ASSERT_EQ(back.clips.size(), 1u);
    ASSERT_EQ(back.clips[0].morph_channels.size(), 1u) << interpolation;
    EXPECT_EQ(back.clips[0].morph_channels[0].values, model.clips[0].morph_channels[0].values);
    // Same skinned, morphed vertices at rest and through the clip (by position: the written
    // vertex order may differ).
    for (float t : {0.0f, 0.6f, 1.5f}) {
      std::vector<glm::vec3> pa, pb;
      MorphWeights wa, wb;
      ik::Pose pose_a, pose_b;
      std::vector<glm::mat4> ma, mb;
      SampleClip(model, model.clips[0], t, &pose_a);
      SampleClip(back, back.clips[0], t, &pose_b);
      ik::LocalToModel(model.skeleton, pose_a, &ma);
      ik::LocalToModel(back.skeleton, pose_b, &mb);
      SampleClipMorphs(model, model.clips[0], t, &wa);
      SampleClipMorphs(back, back.clips[0], t, &wb);
      SkinMesh(a, ma, wa[0], &pa, nullptr);
      SkinMesh(b, mb, wb[0], &pb, nullptr);
      for (const glm::vec3& p : pa) {
        float nearest = 1e9f;
        for (const glm::vec3& q : pb) nearest = std::min(nearest, glm::length(p - q));
        EXPECT_LT(nearest, 1e-5f) << interpolation << " t=" << t;
      }
    }
  }
}

}  // namespace
}  // namespace assets

namespace assets {
namespace {

// Targets added one at a time (the definition in morph.h), for comparison with the grouped,
// blocked blend.
void BlendOneByOne(const Mesh& mesh, const std::vector<float>& weights, std::vector<glm::vec3>* p,
                   std::vector<glm::vec3>* n) {
  *p = mesh.positions;
  *n = mesh.normals;
  for (size_t t = 0; t < mesh.targets.size() && t < weights.size(); ++t) {
    const float w = weights[t];
    if (w == 0.0f || !std::isfinite(w)) continue;
    const MorphTarget& target = mesh.targets[t];
    for (size_t v = 0; v < p->size(); ++v) {
      if (target.positions.size() == p->size()) (*p)[v] += w * target.positions[v];
      if (target.normals.size() == n->size()) (*n)[v] += w * target.normals[v];
    }
  }
}

TEST(MorphTargets, BlendEqualsAddingTheTargetsOneByOne) {
  // 1,501 vertices: more than one block of sums and a tail that is not a multiple of four
  // floats; 11 targets, some skipped (zero, NaN, wrong length, no normals), so the groups of
  // contributing targets come in every size.
  Mesh mesh;
  const size_t vertices = 1501;
  auto value = [](size_t i, size_t salt) {
    return static_cast<float>((i * 7919 + salt * 104729) % 2003) / 1001.0f - 1.0f;
  };
  for (size_t v = 0; v < vertices; ++v) {
    mesh.positions.emplace_back(value(v, 1), value(v, 2), value(v, 3));
    mesh.normals.emplace_back(value(v, 4), value(v, 5), value(v, 6));
  }
  const std::vector<float> weights = {0.5f, 0.0f,  -0.25f, std::nanf(""), 1.5f, 0.125f,
                                      2.0f, -1.0f, 0.75f,  0.3f,          0.9f};
  for (size_t t = 0; t < weights.size(); ++t) {
    MorphTarget target;
    const size_t count = t == 4 ? vertices - 1 : vertices;  // target 4: wrong length
    for (size_t v = 0; v < count; ++v) {
      target.positions.emplace_back(value(v, 10 * t + 7), value(v, 10 * t + 8), 0.0f);
      if (t != 6) target.normals.emplace_back(0.0f, value(v, 10 * t + 9), value(v, t));
    }
    mesh.targets.push_back(std::move(target));
  }
  std::vector<glm::vec3> p, n, want_p, want_n;
  ASSERT_TRUE(BlendMorphTargets(mesh, weights, &p, &n));
  BlendOneByOne(mesh, weights, &want_p, &want_n);
  ASSERT_EQ(p.size(), vertices);
  ASSERT_EQ(n.size(), vertices);
  for (size_t v = 0; v < vertices; ++v) {
    for (int c = 0; c < 3; ++c) {
      ASSERT_NEAR(p[v][c], want_p[v][c], 1e-6f) << "position " << v;
      ASSERT_NEAR(n[v][c], want_n[v][c], 1e-6f) << "normal " << v;
    }
  }
  // Only the targets past weights.size() differ: a shorter weight vector ignores them.
  const std::vector<float> first_three(weights.begin(), weights.begin() + 3);
  ASSERT_TRUE(BlendMorphTargets(mesh, first_three, &p, &n));
  BlendOneByOne(mesh, first_three, &want_p, &want_n);
  EXPECT_NEAR(p[vertices - 1].x, want_p[vertices - 1].x, 1e-6f);
  EXPECT_NEAR(n[vertices - 1].y, want_n[vertices - 1].y, 1e-6f);
}

}  // namespace
}  // namespace assets

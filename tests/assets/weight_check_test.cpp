// Weight problems: hand-built glTF files with unweighted vertices, weights not summing to 1 and
// more than eight influences give those vertices by index; clean rigs give none; the flags survive
// serialisation; a real model's counts match the importer's own influence statistics.
#include "assets/model/weight_check.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "assets/builtin/builtin_character.h"
#include "assets/files/model_io.h"
#include "assets/importer.h"
#include "ik/core/kinematics.h"
#include "tests/assets/gltf_builder.h"
#include "tests/assets/small_models.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using json = nlohmann::json;
using Indices = std::vector<uint32_t>;

constexpr int kJoints = 12;

// One influence list per vertex: (joint, weight) pairs, written over JOINTS_0..2/WEIGHTS_0..2.
using Influences = std::vector<std::vector<std::pair<int, float>>>;

// A chain of kJoints joints along +y and one vertex per entry of `influences` at (v, 0.1 v, 0),
// all distinct (nothing welds), in triangles (0,1,2), (3,4,5), ...
testgltf::Builder WeightRig(const Influences& influences) {
  testgltf::Builder b;
  const size_t n = influences.size();
  std::vector<float> positions;
  for (size_t v = 0; v < n; ++v) {
    positions.insert(positions.end(), {static_cast<float>(v), 0.1f * static_cast<float>(v), 0.0f});
  }
  std::vector<uint16_t> indices;
  for (size_t v = 0; v + 2 < n; v += 3) {
    for (size_t k = 0; k < 3; ++k) indices.push_back(static_cast<uint16_t>(v + k));
  }
  json attributes = {{"POSITION", b.Positions(positions)}};
  for (int set = 0; set < 3; ++set) {
    std::vector<uint16_t> joints(n * 4, 0);
    std::vector<float> weights(n * 4, 0.0f);
    for (size_t v = 0; v < n; ++v) {
      for (size_t k = 0; k < influences[v].size(); ++k) {
        if (static_cast<int>(k / 4) != set) continue;
        joints[v * 4 + k % 4] = static_cast<uint16_t>(influences[v][k].first);
        weights[v * 4 + k % 4] = influences[v][k].second;
      }
    }
    const std::string suffix = std::to_string(set);
    attributes["JOINTS_" + suffix] = b.Accessor(joints.data(), joints.size() * 2, 5123, "VEC4", n);
    attributes["WEIGHTS_" + suffix] = b.Floats(weights, "VEC4", n);
  }
  const int index_accessor =
      b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", indices.size());
  b.doc["meshes"] = json::array(
      {json{{"name", "body"},
            {"primitives",
             json::array({json{{"attributes", attributes}, {"indices", index_accessor}}})}}});
  std::vector<int> joint_nodes;
  for (int j = 0; j < kJoints; ++j) {
    json node = {{"name", "j" + std::to_string(j)}};
    if (j > 0) node["translation"] = {0.0, 0.5, 0.0};
    if (j + 1 < kJoints) node["children"] = {j + 1};
    b.Node(node, j == 0);
    joint_nodes.push_back(j);
  }
  std::vector<float> ibm;
  for (int j = 0; j < kJoints; ++j) {
    const float y = -0.5f * static_cast<float>(j);
    ibm.insert(ibm.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, y, 0, 1});
  }
  b.Node({{"name", "body"}, {"mesh", 0}, {"skin", 0}}, true);
  b.doc["skins"] = json::array(
      {json{{"joints", joint_nodes}, {"inverseBindMatrices", b.Floats(ibm, "MAT4", kJoints)}}});
  return b;
}

std::vector<std::pair<int, float>> Spread(int count, float total) {
  std::vector<std::pair<int, float>> out;
  for (int k = 0; k < count; ++k) out.push_back({k, total / static_cast<float>(count)});
  return out;
}

// Vertices 0 and 4 clean, 1 all zero, 2 and 5 off by 0.5 and 0.2, 3 with ten influences, 6 with
// nine summing to 0.5 (too many, not also counted as not summing to 1), 7 and 8 clean.
Influences ProblemInfluences() {
  return {{{0, 1.0f}},
          {{1, 0.0f}, {2, 0.0f}},
          {{0, 0.25f}, {1, 0.25f}},
          Spread(10, 1.0f),
          {{3, 0.5f}, {4, 0.5f}},
          {{5, 0.6f}, {6, 0.6f}},
          Spread(9, 0.5f),
          {{7, 1.0f}},
          Spread(8, 1.0f)};
}

Model LoadProblemRig(const std::string& name) {
  const std::string path = testpaths::TempDir() + "/" + name;
  WeightRig(ProblemInfluences()).WriteGltf(path);
  LoadResult r = LoadModel(path);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.ok() ? std::move(*r.model) : Model{};
}

TEST(WeightCheck, FindsEachProblemByVertexIndex) {
  const Model model = LoadProblemRig("weight_problems.gltf");
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.meshes[0].positions.size(), 9u);
  const WeightProblems problems = CheckWeights(model);
  ASSERT_EQ(problems.meshes.size(), 1u);
  const auto& lists = problems.meshes[0].vertices;
  EXPECT_EQ(lists[0], (Indices{1}));
  EXPECT_EQ(lists[1], (Indices{2, 5}));
  EXPECT_EQ(lists[2], (Indices{3, 6}));
  EXPECT_EQ(problems.count(WeightProblem::kUnweighted), 1u);
  EXPECT_EQ(problems.count(WeightProblem::kNotNormalized), 2u);
  EXPECT_EQ(problems.count(WeightProblem::kTooManyInfluences), 2u);
  // The importer's own statistics agree on the vertices over eight.
  EXPECT_EQ(model.influences.over_eight, 2u);
}

TEST(WeightCheck, CleanFileStoresNoFlags) {
  const std::string path = testpaths::TempDir() + "/weight_clean.gltf";
  WeightRig({{{0, 1.0f}}, {{1, 0.5f}, {2, 0.5f}}, Spread(8, 1.0f)}).WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.model->meshes.at(0).weight_flags.empty());
  const WeightProblems problems = CheckWeights(*r.model);
  for (uint64_t total : problems.totals) EXPECT_EQ(total, 0u);
}

// A quad of four positions weighted 0.5 + 0.25 (not summing to 1), its corner at (1, 0, 0) given
// twice with different uvs (a uv seam: the two stay apart after welding), shown by `nodes` nodes.
testgltf::Builder SeamQuad(int nodes) {
  testgltf::Builder b;
  const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0};
  const std::vector<float> uvs = {0, 0, 1, 0, 0, 1, 1, 1, 0.5f, 0.5f};
  std::vector<float> weights;
  std::vector<uint16_t> joints;
  for (int v = 0; v < 5; ++v) {
    weights.insert(weights.end(), {0.5f, 0.25f, 0.0f, 0.0f});
    joints.insert(joints.end(), {0, 1, 0, 0});
  }
  const std::vector<uint16_t> indices = {0, 1, 2, 2, 4, 3};
  const int p = b.Positions(positions);
  const int uv = b.Floats(uvs, "VEC2", 5);
  const int w = b.Floats(weights, "VEC4", 5);
  const int j = b.Accessor(joints.data(), joints.size() * 2, 5123, "VEC4", 5);
  const int i = b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", 6);
  b.doc["meshes"] = json::array({json{
      {"primitives",
       json::array({json{
           {"attributes", {{"POSITION", p}, {"TEXCOORD_0", uv}, {"JOINTS_0", j}, {"WEIGHTS_0", w}}},
           {"indices", i}}})}}});
  b.Node({{"name", "joint0"}, {"children", {1}}}, true);
  b.Node({{"name", "joint1"}, {"translation", {0.0, 1.0, 0.0}}}, false);
  for (int n = 0; n < nodes; ++n) {
    b.Node({{"name", "quad" + std::to_string(n)}, {"mesh", 0}, {"skin", 0}}, true);
  }
  b.doc["skins"] = json::array({json{{"joints", {0, 1}}}});
  return b;
}

TEST(WeightCheck, TheLoadWarningCountsTheVerticesCheckWeightsCounts) {
  // One count everywhere: the load warning (and so the Model panel) says what `info` and the
  // Weights panel say: four vertices of the file, not the five loaded vertices (the seam's two
  // corners at one position) nor ten (the mesh shown twice).
  for (int nodes : {1, 2}) {
    const std::string path = testpaths::TempDir() + "/seam_quad_" + std::to_string(nodes) + ".gltf";
    SeamQuad(nodes).WriteGltf(path);
    const LoadResult r = LoadModel(path);
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.model->meshes.size(), static_cast<size_t>(nodes));
    EXPECT_EQ(r.model->meshes[0].positions.size(), 5u) << "the seam's corners stay apart";
    const WeightProblems problems = CheckWeights(*r.model);
    EXPECT_EQ(problems.count(WeightProblem::kNotNormalized), 4u) << nodes << " node(s)";
    for (const MeshWeightProblems& mesh : problems.meshes) {
      EXPECT_EQ(mesh.vertices[1].size(), 5u) << "every loaded vertex is listed for the view";
    }
    size_t warned = 0;
    for (const std::string& w : r.warnings) {
      if (w.find("had weights not summing to 1") == std::string::npos) continue;
      ++warned;
      EXPECT_EQ(w, "4 vertices had weights not summing to 1; renormalised");
    }
    EXPECT_EQ(warned, 1u) << ::testing::PrintToString(r.warnings);
  }
}

TEST(WeightCheck, BuiltInCharacterAndSmallRigsHaveNoProblems) {
  for (const Model& model : {MakeBuiltinCharacter(), testmodels::SmallCharacter()}) {
    const WeightProblems problems = CheckWeights(model);
    EXPECT_EQ(problems.meshes.size(), model.meshes.size());
    for (uint64_t total : problems.totals) EXPECT_EQ(total, 0u) << model.source;
  }
}

TEST(WeightCheck, WeightsBuiltInCodeAreCheckedDirectly) {
  Model model = testmodels::SmallCharacter();
  ASSERT_FALSE(model.meshes.empty());
  Mesh& mesh = model.meshes[0];
  ASSERT_GE(mesh.weights.size(), 3u);
  mesh.weights[0] = glm::vec4(0.0f);
  mesh.weights[2] = glm::vec4(0.7f, 0.0f, 0.0f, 0.0f);
  const WeightProblems problems = CheckWeights(model);
  EXPECT_EQ(problems.meshes[0].vertices[0], (Indices{0}));
  EXPECT_EQ(problems.meshes[0].vertices[1], (Indices{2}));
}

TEST(WeightCheck, FlagsSurviveSerialisation) {
  const Model model = LoadProblemRig("weight_problems_io.gltf");
  ASSERT_FALSE(model.meshes.empty());
  std::string error;
  Model loaded;
  ASSERT_TRUE(DeserializeModel(SerializeModel(model), &loaded, &error)) << error;
  const Model* back = &loaded;
  EXPECT_EQ(back->meshes.at(0).weight_flags, model.meshes[0].weight_flags);
  EXPECT_EQ(CheckWeights(*back).totals, CheckWeights(model).totals);
}

TEST(WeightCheck, ProblemBoundsCoverOnlyThoseVerticesPosed) {
  const Model model = LoadProblemRig("weight_problems_bounds.gltf");
  ASSERT_FALSE(model.meshes.empty());
  const WeightProblems problems = CheckWeights(model);
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  Bounds bounds =
      ProblemBounds(model, problems, WeightProblem::kNotNormalized, models);  // vertices 2 and 5
  ASSERT_FALSE(bounds.empty());
  EXPECT_NEAR(bounds.min.x, 2.0f, 1e-4f);
  EXPECT_NEAR(bounds.max.x, 5.0f, 1e-4f);
  EXPECT_NEAR(bounds.max.y, 0.5f, 1e-4f);
  // Moving the whole model moves the bounds: they are skinned with the pose.
  for (glm::mat4& m : models) m = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 3)) * m;
  bounds = ProblemBounds(model, problems, WeightProblem::kNotNormalized, models);
  EXPECT_NEAR(bounds.min.z, 3.0f, 1e-4f);
  EXPECT_TRUE(
      ProblemBounds(Model{}, CheckWeights(Model{}), WeightProblem::kUnweighted, models).empty());
}

using Key = std::tuple<float, float, float>;
Key KeyOf(const glm::vec3& p) { return Key(p.x, p.y, p.z); }

// huesitos.fbx (Assimp's test models) has vertices whose weights do not sum to 1. Assimp's own
// bone weights, read independently, must flag the same source vertices (by position: Assimp
// splits each into one per face corner, the importer welds them back).
TEST(WeightCheck, RealFbxFlagsTheVerticesAssimpsWeightsSay) {
  const std::string path = testpaths::SharedModel("assimp/huesitos/huesitos.fbx");
  SKIP_IF_NO_MODEL(path, "assimp/huesitos/huesitos.fbx");
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const WeightProblems problems = CheckWeights(*r.model);
  std::set<Key> flagged[kWeightProblemKinds];
  for (size_t m = 0; m < r.model->meshes.size(); ++m) {
    for (int k = 0; k < kWeightProblemKinds; ++k) {
      for (uint32_t v : problems.meshes[m].vertices[static_cast<size_t>(k)]) {
        flagged[k].insert(KeyOf(r.model->meshes[m].positions[v]));
      }
    }
  }
  const aiScene* scene = aiImportFile(path.c_str(), aiProcess_Triangulate);
  ASSERT_NE(scene, nullptr) << aiGetErrorString();
  std::set<Key> expected_off, expected_zero, expected_many;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    if (mesh->mNumBones == 0) continue;
    std::vector<float> sum(mesh->mNumVertices, 0.0f);
    std::vector<int> count(mesh->mNumVertices, 0);
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
      for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w) {
        const aiVertexWeight& vw = mesh->mBones[b]->mWeights[w];
        sum[vw.mVertexId] += vw.mWeight;
        count[vw.mVertexId] += vw.mWeight != 0.0f ? 1 : 0;
      }
    }
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const Key key =
          KeyOf(glm::vec3(mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z));
      if (count[v] > kMaxInfluences) {
        expected_many.insert(key);
      } else if (!(sum[v] > 0.0f)) {
        expected_zero.insert(key);
      } else if (std::abs(sum[v] - 1.0f) > 1e-3f) {
        expected_off.insert(key);
      }
    }
  }
  aiReleaseImport(scene);
  EXPECT_FALSE(expected_off.empty());
  EXPECT_EQ(flagged[0], expected_zero);
  EXPECT_EQ(flagged[1], expected_off);
  EXPECT_EQ(flagged[2], expected_many);
  // Totals count source vertices (distinct positions), as the importer's warning does.
  EXPECT_EQ(problems.count(WeightProblem::kNotNormalized), expected_off.size());
  EXPECT_GE(problems.meshes[0].vertices[1].size(), expected_off.size());
}

}  // namespace
}  // namespace assets

// Up to eight skin influences per vertex: glTF JOINTS_1/WEIGHTS_1 skinned like the independent
// reference reader, more than eight cut to the eight largest with counts, an Assimp rig with more
// than four against Assimp's own bone weights, export round trips, and repair warnings that count
// the file's vertices rather than face corners.
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "assets/export/exporter.h"
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
using Key = std::tuple<float, float, float>;

constexpr int kChain = 10;         // joints in the test rig's chain
constexpr float kSpacing = 0.25f;  // between joints along +y

std::string Temp(const std::string& name) { return testpaths::TempDir() + "/" + name; }

Key KeyOf(const glm::vec3& p) { return Key(p.x, p.y, p.z); }

// A chain of kChain joints along +y and a 4 × 10 grid of vertices beside it, each vertex weighted
// to `influences` distinct joints (pseudo-random, in shuffled order across JOINTS_n/WEIGHTS_n
// sets of four), and one clip turning every joint. `weights_out` (when not null) receives each
// vertex's (joint, weight) pairs as written.
testgltf::Builder InfluenceRig(int influences, unsigned seed,
                               std::vector<std::vector<std::pair<int, float>>>* weights_out) {
  testgltf::Builder b;
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> positions;
  for (int row = 0; row < 10; ++row)
    for (int col = 0; col < 4; ++col)
      positions.insert(positions.end(), {0.1f + 0.2f * col, kSpacing * row, 0.05f * col});
  const size_t n = positions.size() / 3;
  std::vector<uint16_t> indices;
  for (uint16_t row = 0; row + 1 < 10; ++row) {
    for (uint16_t col = 0; col + 1 < 4; ++col) {
      const uint16_t a = static_cast<uint16_t>(row * 4 + col), c = static_cast<uint16_t>(a + 4);
      indices.insert(indices.end(), {a, static_cast<uint16_t>(a + 1), static_cast<uint16_t>(c + 1),
                                     a, static_cast<uint16_t>(c + 1), c});
    }
  }
  const int sets = (influences + 3) / 4;
  std::vector<std::vector<uint16_t>> joints(static_cast<size_t>(sets),
                                            std::vector<uint16_t>(n * 4, 0));
  std::vector<std::vector<float>> weights(static_cast<size_t>(sets), std::vector<float>(n * 4, 0));
  if (weights_out) weights_out->assign(n, {});
  for (size_t v = 0; v < n; ++v) {
    std::vector<int> order(kChain);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), random);
    float sum = 0.0f;
    std::vector<float> w(static_cast<size_t>(influences));
    for (float& x : w) sum += (x = 0.02f + unit(random));
    for (int k = 0; k < influences; ++k) {
      const size_t set = static_cast<size_t>(k / 4), slot = v * 4 + static_cast<size_t>(k % 4);
      joints[set][slot] = static_cast<uint16_t>(order[static_cast<size_t>(k)]);
      weights[set][slot] = w[static_cast<size_t>(k)] / sum;
      if (weights_out) (*weights_out)[v].emplace_back(order[k], weights[set][slot]);
    }
  }
  json attributes = {{"POSITION", b.Positions(positions)}};
  for (int s = 0; s < sets; ++s) {
    attributes["JOINTS_" + std::to_string(s)] =
        b.Accessor(joints[s].data(), joints[s].size() * 2, 5123, "VEC4", n);
    attributes["WEIGHTS_" + std::to_string(s)] = b.Floats(weights[s], "VEC4", n);
  }
  const int index_accessor =
      b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", indices.size());
  b.doc["meshes"] = json::array(
      {json{{"name", "grid"},
            {"primitives",
             json::array({json{{"attributes", attributes}, {"indices", index_accessor}}})}}});
  std::vector<float> inverse_binds;
  json skin_joints = json::array();
  for (int j = 0; j < kChain; ++j) {
    json node = {{"name", "j" + std::to_string(j)}};
    if (j > 0) node["translation"] = {0.0, kSpacing, 0.0};
    if (j + 1 < kChain) node["children"] = {j + 1};
    b.Node(node, j == 0);
    skin_joints.push_back(j);
    const float y = -kSpacing * static_cast<float>(j);
    inverse_binds.insert(inverse_binds.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, y, 0, 1});
  }
  b.Node({{"name", "grid"}, {"mesh", 0}, {"skin", 0}}, true);
  b.doc["skins"] = json::array({json{
      {"joints", skin_joints}, {"inverseBindMatrices", b.Floats(inverse_binds, "MAT4", 10)}}});
  // One clip: each joint turns about its own axis from rest to 0.6 rad over one second.
  const std::vector<float> times = {0.0f, 1.0f};
  const int time_accessor = b.Floats(times, "SCALAR", 2);
  b.doc["accessors"][time_accessor]["min"] = {0.0};
  b.doc["accessors"][time_accessor]["max"] = {1.0};
  json channels = json::array(), samplers = json::array();
  for (int j = 0; j < kChain; ++j) {
    const glm::vec3 axis = glm::normalize(glm::vec3(std::sin(1.7f * j), 1.0f, std::cos(2.3f * j)));
    const glm::quat q = glm::angleAxis(0.6f, axis);
    const std::vector<float> keys = {0, 0, 0, 1, q.x, q.y, q.z, q.w};
    samplers.push_back({{"input", time_accessor}, {"output", b.Floats(keys, "VEC4", 2)}});
    channels.push_back(
        {{"sampler", samplers.size() - 1}, {"target", {{"node", j}, {"path", "rotation"}}}});
  }
  b.doc["animations"] = json::array({json{{"channels", channels}, {"samplers", samplers}}});
  return b;
}

// Skelview's skinned positions of every mesh vertex at `time` of clip 0, keyed by bind position.
std::multimap<Key, glm::vec3> SkinnedAt(const Model& model, float time) {
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  SampleClip(model, model.clips.at(0), time, &pose);
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  std::multimap<Key, glm::vec3> out;
  std::vector<glm::vec3> skinned;
  for (const Mesh& mesh : model.meshes) {
    SkinMesh(mesh, models, &skinned, nullptr);
    for (size_t i = 0; i < skinned.size(); ++i) out.emplace(KeyOf(mesh.positions[i]), skinned[i]);
  }
  return out;
}

// Largest distance from each point of `from` to the nearest point of `to` with the same key
// (infinite when a key is missing).
float WorstMiss(const std::multimap<Key, glm::vec3>& from,
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
}

TEST(EightInfluences, GltfWithJoints1SkinsLikeTheReferenceReader) {
  const std::string path = Temp("eight_influences.gltf");
  InfluenceRig(8, 11, nullptr).WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  ASSERT_EQ(model.meshes.size(), 1u);
  const Mesh& mesh = model.meshes[0];
  ASSERT_EQ(mesh.extra_weights.size(), mesh.positions.size());
  EXPECT_EQ(model.influences.over_four, 40u);
  EXPECT_EQ(model.influences.over_eight, 0u);
  EXPECT_EQ(model.influences.dropped, 0u);
  for (const std::string& w : r.warnings) EXPECT_EQ(w.find("influences"), std::string::npos) << w;

  gltfref::Scene reference;
  std::string error;
  ASSERT_TRUE(gltfref::Evaluate(path, true, 0.5f, &reference, &error)) << error;
  std::multimap<Key, glm::vec3> expected;
  Bounds bounds;
  for (const auto& v : reference.vertices) {
    expected.emplace(KeyOf(v.bind), v.world);
    bounds.Add(v.world);
  }
  const float size = bounds.diagonal();
  ASSERT_GT(size, 1.0f);
  const std::multimap<Key, glm::vec3> actual = SkinnedAt(model, 0.5f);
  EXPECT_LE(WorstMiss(actual, expected), 1e-5f * size);
  EXPECT_LE(WorstMiss(expected, actual), 1e-5f * size);

  // What the four-influence importer gave (the four largest, renormalised) is far off: the
  // comparison above can tell.
  Model four = model;
  for (Mesh& m : four.meshes) {
    for (glm::vec4& w : m.weights) w /= w.x + w.y + w.z + w.w;
    m.extra_joints.clear();
    m.extra_weights.clear();
  }
  EXPECT_GT(WorstMiss(SkinnedAt(four, 0.5f), expected), 0.01f * size);
}

TEST(EightInfluences, MoreThanEightKeepTheEightLargestRenormalisedAndCountWhatWasDropped) {
  std::vector<std::vector<std::pair<int, float>>> written;
  const std::string path = Temp("ten_influences.gltf");
  InfluenceRig(10, 12, &written).WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  EXPECT_EQ(model.influences.over_four, 40u);
  EXPECT_EQ(model.influences.over_eight, 40u);
  EXPECT_EQ(model.influences.dropped, 80u);
  bool warned = false;
  for (const std::string& w : r.warnings) {
    warned = warned || w == "40 vertices had more than 8 joint influences: kept the 8 largest and "
                            "renormalised (80 influences dropped)";
  }
  EXPECT_TRUE(warned) << ::testing::PrintToString(r.warnings);
  const Mesh& mesh = model.meshes.at(0);
  ASSERT_EQ(mesh.extra_weights.size(), mesh.positions.size());
  std::map<Key, size_t> vertex_of;  // file vertex by bind position (the grid's are distinct)
  for (size_t v = 0; v < written.size(); ++v) {
    vertex_of[Key(0.1f + 0.2f * static_cast<float>(v % 4), kSpacing * static_cast<float>(v / 4),
                  0.05f * static_cast<float>(v % 4))] = v;
  }
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    auto found = vertex_of.find(KeyOf(mesh.positions[i]));
    ASSERT_NE(found, vertex_of.end());
    std::vector<std::pair<int, float>> top = written[found->second];
    std::stable_sort(top.begin(), top.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    top.resize(8);
    float sum = 0.0f;
    for (const auto& [joint, w] : top) sum += w;
    for (int k = 0; k < 8; ++k) {
      const float w = k < 4 ? mesh.weights[i][k] : mesh.extra_weights[i][k - 4];
      const int bone = k < 4 ? mesh.joints[i][k] : mesh.extra_joints[i][k - 4];
      EXPECT_NEAR(w, top[static_cast<size_t>(k)].second / sum, 1e-6f);
      EXPECT_EQ(model.skeleton.name(mesh.bone_joints[static_cast<size_t>(bone)]),
                "j" + std::to_string(top[static_cast<size_t>(k)].first));
    }
  }
}

TEST(EightInfluences, ExportWritesJoints1AndReloadsTheSameSkin) {
  const std::string path = Temp("eight_for_export.gltf");
  InfluenceRig(7, 13, nullptr).WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const std::string out = Temp("eight_exported.gltf");
  std::string error;
  ASSERT_TRUE(ExportGltf(*r.model, out, &error)) << error;
  std::ifstream file(out);
  const json doc = json::parse(file);
  EXPECT_TRUE(doc["meshes"][0]["primitives"][0]["attributes"].contains("WEIGHTS_1"));
  const LoadResult again = LoadModel(out);
  ASSERT_TRUE(again.ok()) << again.error;
  EXPECT_EQ(again.model->influences.over_four, 40u);
  const float size = RestBounds(*r.model).diagonal();
  const auto before = SkinnedAt(*r.model, 0.7f), after = SkinnedAt(*again.model, 0.7f);
  EXPECT_LE(WorstMiss(before, after), 1e-5f * size);
  EXPECT_LE(WorstMiss(after, before), 1e-5f * size);
}

// Assimp's own bone weights for each vertex of each mesh, skinned with skelview's joint matrices
// (by bone name) and keeping the eight largest renormalised: an evaluation of the influences that
// shares nothing with the importer but the joint transforms.
std::multimap<Key, glm::vec3> AssimpSkinned(const aiScene* scene, const Model& model,
                                            const std::vector<glm::mat4>& models,
                                            size_t* over_four_positions) {
  std::multimap<Key, glm::vec3> out;
  std::set<Key> over_four;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    std::vector<std::vector<std::pair<float, glm::mat4>>> per_vertex(mesh->mNumVertices);
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
      const aiBone* bone = mesh->mBones[b];
      const int joint = model.skeleton.Find(bone->mName.C_Str());
      if (joint < 0) continue;
      glm::mat4 offset;
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) offset[c][r] = bone->mOffsetMatrix[r][c];
      for (unsigned w = 0; w < bone->mNumWeights; ++w) {
        const aiVertexWeight& vw = bone->mWeights[w];
        if (vw.mWeight > 0.0f) {
          per_vertex[vw.mVertexId].emplace_back(vw.mWeight,
                                                models[static_cast<size_t>(joint)] * offset);
        }
      }
    }
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      auto& list = per_vertex[v];
      const glm::vec3 p(mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z);
      if (list.size() > 4) over_four.insert(KeyOf(p));
      std::stable_sort(list.begin(), list.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      if (list.size() > 8) list.resize(8);
      glm::mat4 blended(0.0f);
      float sum = 0.0f;
      for (const auto& [w, matrix] : list) {
        blended += matrix * w;
        sum += w;
      }
      if (sum > 0.0f) out.emplace(KeyOf(p), glm::vec3(blended * glm::vec4(p, 1.0f)) / sum);
    }
  }
  *over_four_positions = over_four.size();
  return out;
}

TEST(EightInfluences, AssimpRigWithMoreThanFourMatchesAssimpsOwnWeights) {
  const std::string path = "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " not found (Debian's assimp-testmodels)";
  }
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  // Posed away from rest: each joint turned about a pseudo-random axis.
  ik::Pose pose = ik::Pose::Rest(model.skeleton);
  std::mt19937 random(3);
  std::uniform_real_distribution<float> signed_unit(-1.0f, 1.0f);
  for (ik::Transform& local : pose.locals) {
    const glm::vec3 axis(signed_unit(random), signed_unit(random), 1.0f);
    local.rotation =
        local.rotation * glm::angleAxis(0.5f * signed_unit(random), glm::normalize(axis));
  }
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  std::multimap<Key, glm::vec3> actual;
  std::vector<glm::vec3> skinned;
  bool extra = false;
  for (const Mesh& mesh : model.meshes) {
    extra = extra || !mesh.extra_weights.empty();
    SkinMesh(mesh, models, &skinned, nullptr);
    for (size_t i = 0; i < skinned.size(); ++i)
      actual.emplace(KeyOf(mesh.positions[i]), skinned[i]);
  }
  EXPECT_TRUE(extra);

  const aiScene* scene = aiImportFile(path.c_str(), aiProcess_Triangulate);
  ASSERT_NE(scene, nullptr) << aiGetErrorString();
  size_t over_four_positions = 0;
  const std::multimap<Key, glm::vec3> expected =
      AssimpSkinned(scene, model, models, &over_four_positions);
  aiReleaseImport(scene);
  ASSERT_FALSE(expected.empty());
  // Counted in source vertices (distinct positions), not in Assimp's per-corner vertices.
  EXPECT_GT(over_four_positions, 0u);
  EXPECT_EQ(model.influences.over_four, over_four_positions);
  Bounds bounds;
  for (const auto& [k, p] : expected) bounds.Add(p);
  const float size = bounds.diagonal();
  EXPECT_LE(WorstMiss(actual, expected), 1e-5f * size);
  EXPECT_LE(WorstMiss(expected, actual), 1e-5f * size);
}

TEST(RepairCounts, AssimpMeshesCountSourceVerticesNotFaceCorners) {
  // A cube of 8 vertices with one normal per face: Assimp's .x reader gives 24 face corners that
  // welding cannot merge (their normals differ). Every weight is 0.5: 8 vertices to renormalise.
  const std::string x = Temp("flat_cube.x");
  std::ofstream out(x);
  out << "xof 0303txt 0032\n"
         "Frame Root {\n"
         " FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,"
         "1.0;; }\n"
         " Frame Bone1 {\n"
         "  FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,"
         "1.0;; }\n"
         " }\n"
         " Mesh Cube {\n"
         "  8;\n"
         "  0.0;0.0;0.0;, 1.0;0.0;0.0;, 1.0;1.0;0.0;, 0.0;1.0;0.0;,\n"
         "  0.0;0.0;1.0;, 1.0;0.0;1.0;, 1.0;1.0;1.0;, 0.0;1.0;1.0;;\n"
         "  6;\n"
         "  4;0,3,2,1;, 4;4,5,6,7;, 4;0,1,5,4;, 4;2,3,7,6;, 4;1,2,6,5;, 4;0,4,7,3;;\n"
         "  MeshNormals {\n"
         "   6;\n"
         "   0.0;0.0;-1.0;, 0.0;0.0;1.0;, 0.0;-1.0;0.0;, 0.0;1.0;0.0;, 1.0;0.0;0.0;, "
         "-1.0;0.0;0.0;;\n"
         "   6;\n"
         "   4;0,0,0,0;, 4;1,1,1,1;, 4;2,2,2,2;, 4;3,3,3,3;, 4;4,4,4,4;, 4;5,5,5,5;;\n"
         "  }\n"
         "  XSkinMeshHeader { 1; 1; 1; }\n"
         "  SkinWeights {\n   \"Bone1\";\n   8;\n   0,1,2,3,4,5,6,7;\n"
         "   0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5;\n"
         "   1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;\n  }\n"
         " }\n"
         "}\n";
  out.close();
  const LoadResult r = LoadModel(x);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->vertex_count(), 24u);  // one per face corner: the normals differ
  bool warned = false;
  for (const std::string& w : r.warnings) {
    EXPECT_EQ(w.find("24 vertices"), std::string::npos) << w;
    warned = warned || w == "8 vertices had weights not summing to 1; renormalised";
  }
  EXPECT_TRUE(warned) << ::testing::PrintToString(r.warnings);
}

}  // namespace
}  // namespace assets

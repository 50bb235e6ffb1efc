// Assimp's anim meshes (FBX blend shapes, Collada morph controllers) become morph targets: deltas
// from the base mesh with their names and weights; bad ones kept empty with a warning; Assimp's
// morph-weight animations (FBX blend-shape channels) become clip weight tracks.
#include "assets/assimp/scene_morphs.h"

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace assets {
namespace {

// An aiMesh of three vertices with two anim meshes: "Raise" at full positions base + (0, 1, 0)
// with normals tilted, "Broken" of `broken_count` vertices.
struct AssimpMorphMesh {
  aiMesh mesh;
  AssimpMorphMesh(unsigned broken_count, float broken_value) {
    mesh.mName = "Face";
    mesh.mNumVertices = 3;
    mesh.mVertices = new aiVector3D[3]{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.mNormals = new aiVector3D[3]{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.mNumAnimMeshes = 2;
    mesh.mAnimMeshes = new aiAnimMesh*[2];
    aiAnimMesh* raise = new aiAnimMesh();
    raise->mName = "Raise";
    raise->mWeight = 0.25f;
    raise->mNumVertices = 3;
    raise->mVertices = new aiVector3D[3]{{0, 1, 0}, {1, 1, 0}, {0, 2, 0}};
    raise->mNormals = new aiVector3D[3]{{0, 1, 1}, {0, 0, 1}, {0, 0, 1}};
    aiAnimMesh* broken = new aiAnimMesh();
    broken->mName = "Broken";
    broken->mNumVertices = broken_count;
    broken->mVertices = new aiVector3D[broken_count];
    for (unsigned v = 0; v < broken_count; ++v) broken->mVertices[v] = {0, 0, broken_value};
    mesh.mAnimMeshes[0] = raise;
    mesh.mAnimMeshes[1] = broken;
  }
};

Mesh BaseOf(const aiMesh& source) {
  Mesh mesh;
  mesh.name = source.mName.C_Str();
  for (unsigned v = 0; v < source.mNumVertices; ++v) {
    const aiVector3D& p = source.mVertices[v];
    const aiVector3D& n = source.mNormals[v];
    mesh.positions.emplace_back(p.x, p.y, p.z);
    mesh.normals.emplace_back(n.x, n.y, n.z);
  }
  return mesh;
}

TEST(SceneMorphs, AnimMeshesBecomeDeltasWithNamesAndWeights) {
  AssimpMorphMesh source(3, 0.5f);
  Mesh mesh = BaseOf(source.mesh);
  std::vector<std::string> warnings;
  ConvertAnimMeshes(&source.mesh, "face.dae", &mesh, &warnings);
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.targets[0].name, "Raise");
  EXPECT_EQ(mesh.targets[1].name, "Broken");
  EXPECT_EQ(mesh.target_weights, (std::vector<float>{0.25f, 0.0f}));
  ASSERT_EQ(mesh.targets[0].positions.size(), 3u);
  for (const glm::vec3& d : mesh.targets[0].positions) EXPECT_EQ(d, glm::vec3(0, 1, 0));
  ASSERT_EQ(mesh.targets[0].normals.size(), 3u);
  EXPECT_EQ(mesh.targets[0].normals[0], glm::vec3(0, 1, 0));
  EXPECT_EQ(mesh.targets[0].normals[1], glm::vec3(0.0f));
  // Vertex 2 sits at (0, 1, 0): the anim mesh's (0, 0, 0.5) is that delta away.
  EXPECT_EQ(mesh.targets[1].positions[2], glm::vec3(0, -1, 0.5f));
  EXPECT_TRUE(warnings.empty());
}

TEST(SceneMorphs, AnimMeshTangentsBecomeDeltasWhereTheMeshKeptItsTangents) {
  AssimpMorphMesh source(3, 0.5f);
  aiAnimMesh* raise = source.mesh.mAnimMeshes[0];
  raise->mTangents = new aiVector3D[3]{{1, 0, 0}, {0, 1, 0}, {1, 0, 0}};
  Mesh untangented = BaseOf(source.mesh);
  std::vector<std::string> warnings;
  ConvertAnimMeshes(&source.mesh, "face.dae", &untangented, &warnings);
  EXPECT_TRUE(untangented.targets[0].tangents.empty());

  Mesh mesh = BaseOf(source.mesh);
  mesh.tangents.assign(3, glm::vec4(1, 0, 0, -1));
  ConvertAnimMeshes(&source.mesh, "face.dae", &mesh, &warnings);
  ASSERT_EQ(mesh.targets[0].tangents.size(), 3u);
  EXPECT_EQ(mesh.targets[0].tangents[0], glm::vec3(0.0f));
  EXPECT_EQ(mesh.targets[0].tangents[1], glm::vec3(-1, 1, 0));
  EXPECT_TRUE(mesh.targets[1].tangents.empty());  // "Broken" has none
  EXPECT_TRUE(warnings.empty());

  // A non-finite tangent leaves the whole target without deltas, as a bad position does.
  raise->mTangents[2] = {0, std::numeric_limits<float>::infinity(), 0};
  Mesh bad = BaseOf(source.mesh);
  bad.tangents.assign(3, glm::vec4(1, 0, 0, 1));
  ConvertAnimMeshes(&source.mesh, "face.dae", &bad, &warnings);
  EXPECT_TRUE(bad.targets[0].positions.empty());
  EXPECT_TRUE(bad.targets[0].tangents.empty());
  EXPECT_EQ(warnings.size(), 1u);
}

TEST(SceneMorphs, AnimMeshOfAnotherCountMovesNothingWithAWarning) {
  AssimpMorphMesh source(2, 0.5f);
  Mesh mesh = BaseOf(source.mesh);
  std::vector<std::string> warnings;
  ConvertAnimMeshes(&source.mesh, "face.dae", &mesh, &warnings);
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.targets[0].positions.size(), 3u);
  EXPECT_TRUE(mesh.targets[1].positions.empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'Face'"), std::string::npos) << warnings[0];
}

TEST(SceneMorphs, NonFiniteAnimMeshMovesNothingWithAWarning) {
  AssimpMorphMesh source(3, std::numeric_limits<float>::quiet_NaN());
  Mesh mesh = BaseOf(source.mesh);
  std::vector<std::string> warnings;
  ConvertAnimMeshes(&source.mesh, "face.dae", &mesh, &warnings);
  EXPECT_TRUE(mesh.targets[1].positions.empty());
  EXPECT_EQ(warnings.size(), 1u);
}

TEST(SceneMorphs, FbxTargetsStartAtZeroWithAWarning) {
  AssimpMorphMesh source(3, 0.5f);
  Mesh mesh = BaseOf(source.mesh);
  std::vector<std::string> warnings;
  ConvertAnimMeshes(&source.mesh, "models/Face.FBX", &mesh, &warnings);
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.target_weights, (std::vector<float>{0.0f, 0.0f}));
  EXPECT_EQ(mesh.targets[0].positions.size(), 3u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("start at weight 0"), std::string::npos) << warnings[0];
}

// Sets `key` to `time` (ticks) with (target, weight) pairs.
void SetKey(aiMeshMorphKey* key, double time,
            const std::vector<std::pair<unsigned, double>>& values) {
  key->mTime = time;
  key->mNumValuesAndWeights = static_cast<unsigned>(values.size());
  key->mValues = new unsigned[values.size()];
  key->mWeights = new double[values.size()];
  for (size_t i = 0; i < values.size(); ++i) {
    key->mValues[i] = values[i].first;
    key->mWeights[i] = values[i].second;
  }
}

// An aiAnimation whose morph channels are `channels` (name, keys), owned by it.
struct MorphAnimationSource {
  aiAnimation animation;
  explicit MorphAnimationSource(const std::vector<std::string>& names) {
    animation.mNumMorphMeshChannels = static_cast<unsigned>(names.size());
    animation.mMorphMeshChannels = new aiMeshMorphAnim*[names.size()];
    for (size_t c = 0; c < names.size(); ++c) {
      animation.mMorphMeshChannels[c] = new aiMeshMorphAnim();
      animation.mMorphMeshChannels[c]->mName = names[c];
    }
  }
  aiMeshMorphAnim* Channel(size_t c, unsigned keys) {
    aiMeshMorphAnim* channel = animation.mMorphMeshChannels[c];
    channel->mNumKeys = keys;
    channel->mKeys = new aiMeshMorphKey[keys];
    return channel;
  }
};

Mesh MeshWithTargets(int node, size_t targets, float default_weight) {
  Mesh mesh;
  mesh.node = node;
  mesh.positions.assign(2, glm::vec3(0.0f));
  mesh.targets.resize(targets);
  mesh.target_weights.assign(targets, default_weight);
  return mesh;
}

TEST(SceneMorphs, FbxBlendShapeChannelsBecomeWeightTracksInSeconds) {
  // As Assimp names an FBX model's blend-shape channels: "MODEL*GEOMETRY". The model's geometry
  // is split into two meshes (two materials); a mesh on another node has targets too.
  MorphAnimationSource source({"Face*0"});
  aiMeshMorphAnim* channel = source.Channel(0, 3);
  SetKey(&channel->mKeys[0], 0.0, {{0, 0.2}, {1, 0.0}});
  SetKey(&channel->mKeys[1], 12.0, {{0, 0.8}});  // target 1 has no key here
  SetKey(&channel->mKeys[2], 24.0, {{0, 0.4}, {1, 1.0}});
  const std::vector<std::string> nodes = {"RootNode", "Face", "Other"};
  const std::vector<Mesh> meshes = {MeshWithTargets(1, 2, 0.0f), MeshWithTargets(2, 2, 0.0f),
                                    MeshWithTargets(1, 2, 0.0f)};
  Clip clip;
  MorphAnimationSkips skips;
  ConvertMorphAnimation(&source.animation, 24.0, nodes, meshes, &clip, &skips);
  ASSERT_EQ(clip.morph_channels.size(), 2u);
  EXPECT_EQ(clip.morph_channels[0].mesh, 0);
  EXPECT_EQ(clip.morph_channels[1].mesh, 2);
  for (const MorphAnimation& track : clip.morph_channels) {
    EXPECT_EQ(track.width, 2);
    EXPECT_EQ(track.interpolation, Interpolation::kLinear);
    EXPECT_EQ(track.times, (std::vector<float>{0.0f, 0.5f, 1.0f}));
    // Target 1 between its keys at 0 and 1 s is interpolated at 0.5 s.
    EXPECT_EQ(track.values, (std::vector<float>{0.2f, 0.0f, 0.8f, 0.5f, 0.4f, 1.0f}));
  }
  EXPECT_FLOAT_EQ(clip.duration, 1.0f);
  EXPECT_TRUE(skips.unmatched.empty());
  EXPECT_EQ(skips.dropped_keys, 0u);
  std::vector<std::string> warnings;
  WarnMorphAnimationSkips(skips, &warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST(SceneMorphs, UnkeyedTargetsKeepTheirDefaultAndPlainNodeNamesMatch) {
  MorphAnimationSource source({"Face"});
  SetKey(&source.Channel(0, 1)->mKeys[0], 3.0, {{1, 0.6}});
  const std::vector<Mesh> meshes = {MeshWithTargets(0, 3, 0.25f)};
  Clip clip;
  MorphAnimationSkips skips;
  ConvertMorphAnimation(&source.animation, 2.0, {"Face"}, meshes, &clip, &skips);
  ASSERT_EQ(clip.morph_channels.size(), 1u);
  EXPECT_EQ(clip.morph_channels[0].times, (std::vector<float>{1.5f}));
  EXPECT_EQ(clip.morph_channels[0].values, (std::vector<float>{0.25f, 0.6f, 0.25f}));
}

TEST(SceneMorphs, UnmatchedChannelsAndBadKeysAreLeftOutAndNamed) {
  MorphAnimationSource source({"Face*1", "Nobody", "Face*0"});
  SetKey(&source.Channel(0, 1)->mKeys[0], 0.0, {{0, 0.5}});
  SetKey(&source.Channel(1, 1)->mKeys[0], 0.0, {{0, 0.5}});
  aiMeshMorphAnim* channel = source.Channel(2, 4);
  SetKey(&channel->mKeys[0], 0.0, {{0, 0.5}, {7, 0.5}});  // target 7: the mesh has 1
  SetKey(&channel->mKeys[1], 10.0, {{0, std::nan("")}});
  SetKey(&channel->mKeys[2], 5.0, {{0, 1.0}});
  SetKey(&channel->mKeys[3], 2.0, {{0, 0.1}});  // before the key at 5 ticks
  const std::vector<Mesh> meshes = {MeshWithTargets(0, 1, 0.0f)};
  Clip clip;
  MorphAnimationSkips skips;
  ConvertMorphAnimation(&source.animation, 10.0, {"Face"}, meshes, &clip, &skips);
  ASSERT_EQ(clip.morph_channels.size(), 1u);
  EXPECT_EQ(clip.morph_channels[0].times, (std::vector<float>{0.0f, 0.5f}));
  EXPECT_EQ(clip.morph_channels[0].values, (std::vector<float>{0.5f, 1.0f}));
  EXPECT_EQ(skips.unmatched, (std::set<std::string>{"Face*1", "Nobody"}));
  EXPECT_EQ(skips.dropped_keys, 2u);
  EXPECT_EQ(skips.unknown_targets, 1u);
  std::vector<std::string> warnings;
  WarnMorphAnimationSkips(skips, &warnings);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_NE(warnings[0].find("'Face*1'"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace assets

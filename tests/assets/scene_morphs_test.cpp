// Assimp's anim meshes (FBX blend shapes, Collada morph controllers) become morph targets: deltas
// from the base mesh with their names and weights; bad ones kept empty with a warning; a warning
// for morph-weight animations Assimp carries.
#include "assets/internal/scene_morphs.h"

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

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

TEST(SceneMorphs, MorphWeightAnimationsAreNamedInAWarning) {
  aiScene scene;
  scene.mNumAnimations = 1;
  scene.mAnimations = new aiAnimation*[1];
  scene.mAnimations[0] = new aiAnimation();
  scene.mAnimations[0]->mNumMorphMeshChannels = 1;
  scene.mAnimations[0]->mMorphMeshChannels = new aiMeshMorphAnim* [1] { new aiMeshMorphAnim() };
  std::vector<std::string> warnings;
  WarnMorphAnimations(&scene, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 morph-weight animation channel"), std::string::npos) << warnings[0];
  aiScene empty;
  warnings.clear();
  WarnMorphAnimations(&empty, &warnings);
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace assets

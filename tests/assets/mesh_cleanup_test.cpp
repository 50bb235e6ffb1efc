// Mesh clean-up tests, on hand-made meshes: face normals, normal repair, texture coordinate checks,
// the four-largest influence list, influence normalisation and vertex welding.
#include "assets/model/mesh_cleanup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace assets {
namespace {

void ExpectNear(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-6f) {
  EXPECT_NEAR(glm::length(a - b), 0.0f, tolerance)
      << a.x << "," << a.y << "," << a.z << " vs " << b.x << "," << b.y << "," << b.z;
}

// A mesh of the given corners with every other attribute filled the same for all vertices:
// normal +Z, uv (0, 0), weight 1 on bone slot 0.
Mesh MeshOf(std::vector<glm::vec3> positions, std::vector<uint32_t> indices) {
  Mesh mesh;
  const size_t n = positions.size();
  mesh.positions = std::move(positions);
  mesh.indices = std::move(indices);
  mesh.normals.assign(n, glm::vec3(0.0f, 0.0f, 1.0f));
  mesh.uvs.assign(n, glm::vec2(0.0f));
  mesh.joints.assign(n, glm::u16vec4(0));
  mesh.weights.assign(n, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
  mesh.bone_joints = {0};
  mesh.bone_inverse_binds = {glm::mat4(1.0f)};
  return mesh;
}

// Two triangles of a unit quad in the XY plane, each with its own three corners (as Assimp's
// non-indexing readers give them): corners 1/3 and 2/4 are the same vertex.
Mesh UnindexedQuad() {
  return MeshOf({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}},
                {0, 1, 2, 3, 4, 5});
}

TEST(FaceNormalsTest, CounterClockwiseTriangleFacesAlongTheRightHandNormal) {
  const std::vector<glm::vec3> positions = {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}};
  const std::vector<glm::vec3> normals = FaceNormals(positions, {0, 1, 2});
  ASSERT_EQ(normals.size(), 3u);
  for (const glm::vec3& n : normals) ExpectNear(n, glm::vec3(0, 0, 1));
  // The opposite winding faces the other way.
  for (const glm::vec3& n : FaceNormals(positions, {0, 2, 1})) ExpectNear(n, glm::vec3(0, 0, -1));
}

TEST(FaceNormalsTest, SharedVertexAveragesItsTrianglesWeightedByArea) {
  // Vertex 0 is shared by a triangle facing +Z (area 2) and one facing +X (area 0.5).
  const std::vector<glm::vec3> positions = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<glm::vec3> normals = FaceNormals(positions, {0, 1, 2, 0, 3, 4});
  ExpectNear(normals[0], glm::normalize(glm::vec3(0.5f, 0.0f, 2.0f)));
  ExpectNear(normals[1], glm::vec3(0, 0, 1));
  ExpectNear(normals[4], glm::vec3(1, 0, 0));
}

TEST(FaceNormalsTest, DegenerateAndUnusedVerticesGetUnitUp) {
  // Three collinear corners (zero area), and a vertex no triangle uses.
  const std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {5, 5, 5}};
  const std::vector<glm::vec3> normals = FaceNormals(positions, {0, 1, 2});
  ASSERT_EQ(normals.size(), 4u);
  for (const glm::vec3& n : normals) ExpectNear(n, glm::vec3(0, 1, 0));
}

TEST(RepairNormalsTest, NormalisesValidNormalsAndRebuildsUnusableOnesFromFaces) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  mesh.normals = {{3, 0, 0}, {0, 0, 0}, {nan, 0, 0}};
  std::vector<uint8_t> flags(3, 0);
  RepairNormals(&mesh, /*had_normals=*/true, &flags);
  ExpectNear(mesh.normals[0], glm::vec3(1, 0, 0));  // kept, made unit length
  ExpectNear(mesh.normals[1], glm::vec3(0, 0, 1));  // from the triangle
  ExpectNear(mesh.normals[2], glm::vec3(0, 0, 1));
  EXPECT_EQ(flags, (std::vector<uint8_t>{0, kRepairNormal, kRepairNormal}));
}

TEST(RepairNormalsTest, BuildingMissingNormalsIsNotCountedAsARepair) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
  mesh.normals.assign(3, glm::vec3(0.0f));  // the file had none
  std::vector<uint8_t> flags(3, 0);
  RepairNormals(&mesh, /*had_normals=*/false, &flags);
  for (const glm::vec3& n : mesh.normals) ExpectNear(n, glm::vec3(0, 0, 1));
  EXPECT_EQ(flags, std::vector<uint8_t>(3, 0));
}

TEST(DropNonFiniteUvsTest, ClearsAllTextureCoordinatesWhenOneIsNotFinite) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
  mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
  EXPECT_FALSE(DropNonFiniteUvs(&mesh));
  EXPECT_EQ(mesh.uvs.size(), 3u);
  mesh.uvs[1].y = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(DropNonFiniteUvs(&mesh));
  EXPECT_TRUE(mesh.uvs.empty());
}

TEST(InsertInfluenceTest, KeepsTheFourLargestInDescendingOrder) {
  glm::vec4 top(0.0f);
  glm::u16vec4 slots(0);
  const float weights[] = {0.1f, 0.5f, 0.05f, 0.3f, 0.2f, 0.01f};
  for (int i = 0; i < 6; ++i) {
    InsertInfluence(weights[i], static_cast<uint16_t>(i), std::min(i, 4), &top, &slots);
  }
  EXPECT_EQ(top, glm::vec4(0.5f, 0.3f, 0.2f, 0.1f));
  EXPECT_EQ(slots, glm::u16vec4(1, 3, 4, 0));
}

TEST(InsertInfluenceTest, EqualWeightsKeepTheirOrderOfArrival) {
  glm::vec4 top(0.0f);
  glm::u16vec4 slots(0);
  for (int i = 0; i < 3; ++i) InsertInfluence(0.25f, static_cast<uint16_t>(7 + i), i, &top, &slots);
  EXPECT_EQ(slots.x, 7);
  EXPECT_EQ(slots.y, 8);
  EXPECT_EQ(slots.z, 9);
}

TEST(InsertInfluenceTest, KeepsTheEightLargestAcrossBothSetsInDescendingOrder) {
  glm::vec4 top(0.0f), extra_top(0.0f);
  glm::u16vec4 slots(0), extra_slots(0);
  const float weights[] = {0.1f, 0.5f, 0.05f, 0.3f, 0.2f, 0.01f, 0.07f, 0.4f, 0.02f, 0.03f, 0.6f};
  for (int i = 0; i < 11; ++i) {
    InsertInfluence(weights[i], static_cast<uint16_t>(i), std::min(i, 8), &top, &slots, &extra_top,
                    &extra_slots);
  }
  EXPECT_EQ(top, glm::vec4(0.6f, 0.5f, 0.4f, 0.3f));
  EXPECT_EQ(slots, glm::u16vec4(10, 1, 7, 3));
  EXPECT_EQ(extra_top, glm::vec4(0.2f, 0.1f, 0.07f, 0.05f));
  EXPECT_EQ(extra_slots, glm::u16vec4(4, 0, 6, 2));
}

TEST(NormaliseInfluencesTest, ScalesWeightsToOneAndFlagsWhatItRepaired) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {0, 1, 2, 2, 1, 3});
  mesh.bone_joints = {4, 5, 6, 7, 8, 9, 10, 11};
  mesh.bone_inverse_binds.assign(8, glm::mat4(1.0f));
  mesh.joints = {{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 1, 2, 3}, {7, 6, 5, 4}};
  mesh.weights = {
      {0.6f, 0.4f, 0, 0}, {3.0f, 1.0f, 0, 0}, {0.3f, 0.2f, 0.2f, 0.1f}, {0.2f, 0.2f, 0.1f, 0.1f}};
  mesh.extra_joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {4, 5, 0, 0}, {3, 2, 1, 0}};
  mesh.extra_weights = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0.1f, 0.1f, 0, 0}, {0.1f, 0.1f, 0.05f, 0.05f}};
  // Vertex 2 had six influences (all kept, summing to 1), vertex 3 eleven (eight kept).
  const std::vector<uint8_t> counts = {2, 2, 6, 11};
  std::vector<uint8_t> flags(4, 0);
  NormaliseInfluences(&mesh, counts, /*node=*/9, &flags);
  EXPECT_NEAR(mesh.weights[0].x, 0.6f, 1e-6f);  // already summed to 1
  EXPECT_NEAR(mesh.weights[0].y, 0.4f, 1e-6f);
  EXPECT_NEAR(mesh.weights[1].x, 0.75f, 1e-6f);
  EXPECT_NEAR(mesh.weights[1].y, 0.25f, 1e-6f);
  EXPECT_NEAR(mesh.extra_weights[2].y, 0.1f, 1e-6f);
  for (int v = 2; v < 4; ++v) {
    const glm::vec4 sum4 = mesh.weights[v] + mesh.extra_weights[v];
    EXPECT_NEAR(sum4.x + sum4.y + sum4.z + sum4.w, 1.0f, 1e-6f);
  }
  EXPECT_NEAR(mesh.extra_weights[3].w, 0.05f / 0.9f, 1e-6f);
  EXPECT_EQ(flags, (std::vector<uint8_t>{0, kRepairRenormalised, kRepairOverFour,
                                         kRepairOverFour | kRepairOverEight}));
  EXPECT_EQ(mesh.bone_joints.size(), 8u);  // no vertex needed its node
}

TEST(NormaliseInfluencesTest, EmptiesTheExtraSetWhenNoVertexUsesIt) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
  mesh.bone_joints = {4};
  mesh.bone_inverse_binds = {glm::mat4(1.0f)};
  mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  mesh.extra_joints.assign(3, glm::u16vec4(0));
  mesh.extra_weights.assign(3, glm::vec4(0.0f));
  std::vector<uint8_t> flags(3, 0);
  NormaliseInfluences(&mesh, {1, 1, 1}, /*node=*/9, &flags);
  EXPECT_TRUE(mesh.extra_joints.empty());
  EXPECT_TRUE(mesh.extra_weights.empty());
}

TEST(CountWeightRepairsTest, ByPositionCountsSplitCornersOnce) {
  // Two source vertices split into three corners each (as Assimp's readers give them), plus one.
  Mesh mesh = MeshOf({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {2, 0, 0}},
                     {0, 3, 6});
  const std::vector<uint8_t> flags = {kRepairRenormalised,
                                      kRepairRenormalised,
                                      kRepairRenormalised,
                                      kRepairOverFour | kRepairOverEight,
                                      kRepairOverFour | kRepairOverEight,
                                      kRepairOverFour | kRepairOverEight,
                                      kRepairNormal};
  const std::vector<uint8_t> counts = {3, 3, 3, 11, 11, 11, 1};
  WeightRepairCounts by_position;
  CountWeightRepairs(mesh, flags, counts, /*by_position=*/true, &by_position);
  EXPECT_EQ(by_position.renormalised, 1u);
  EXPECT_EQ(by_position.over_four, 1u);
  EXPECT_EQ(by_position.over_eight, 1u);
  EXPECT_EQ(by_position.dropped, 3u);
  EXPECT_EQ(by_position.unweighted, 0u);
  WeightRepairCounts by_vertex;  // glTF: the accessor's vertices, one by one
  CountWeightRepairs(mesh, flags, counts, /*by_position=*/false, &by_vertex);
  EXPECT_EQ(by_vertex.renormalised, 3u);
  EXPECT_EQ(by_vertex.over_eight, 3u);
  EXPECT_EQ(by_vertex.dropped, 9u);
}

TEST(NormaliseInfluencesTest, UnweightedVerticesFollowTheMeshNodeThroughOneAddedBone) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
  mesh.bone_joints = {4};
  mesh.bone_inverse_binds = {glm::mat4(1.0f)};
  mesh.weights = {{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  std::vector<uint8_t> flags(3, 0);
  NormaliseInfluences(&mesh, {1, 0, 0}, /*node=*/9, &flags);
  ASSERT_EQ(mesh.bone_joints, (std::vector<int>{4, 9}));
  EXPECT_EQ(mesh.bone_inverse_binds[1], glm::mat4(1.0f));
  for (int v = 1; v < 3; ++v) {
    EXPECT_EQ(mesh.joints[v], glm::u16vec4(1, 0, 0, 0));
    EXPECT_EQ(mesh.weights[v], glm::vec4(1, 0, 0, 0));
    EXPECT_EQ(flags[v], kRepairUnweighted);
  }
  EXPECT_EQ(flags[0], 0);
}

TEST(WeldIdenticalVerticesTest, MergesEqualCornersAndRemapsTriangles) {
  Mesh mesh = UnindexedQuad();
  const Mesh before = mesh;
  WeldIdenticalVertices(&mesh);
  EXPECT_EQ(mesh.positions.size(), 4u);
  EXPECT_EQ(mesh.normals.size(), 4u);
  EXPECT_EQ(mesh.uvs.size(), 4u);
  EXPECT_EQ(mesh.joints.size(), 4u);
  EXPECT_EQ(mesh.weights.size(), 4u);
  ASSERT_EQ(mesh.indices.size(), 6u);
  EXPECT_EQ(mesh.indices[3], mesh.indices[1]);
  EXPECT_EQ(mesh.indices[4], mesh.indices[2]);
  // Every corner still has its position.
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(mesh.positions[mesh.indices[i]], before.positions[before.indices[i]]) << i;
  }
}

TEST(WeldIdenticalVerticesTest, KeepsCornersThatDifferInAnyAttribute) {
  for (int attribute = 0; attribute < 4; ++attribute) {
    Mesh mesh = UnindexedQuad();
    switch (attribute) {
      case 0:
        mesh.normals[3] = glm::vec3(0, 1, 0);  // a hard edge: split normals stay split
        break;
      case 1:
        mesh.uvs[3] = glm::vec2(0.5f, 0.0f);  // a texture seam
        break;
      case 2:
        mesh.weights[3] = glm::vec4(0.5f, 0.5f, 0, 0);
        mesh.joints[3] = glm::u16vec4(0, 1, 0, 0);
        break;
      default:
        mesh.joints[3] = glm::u16vec4(1, 0, 0, 0);  // same weights, another bone
        break;
    }
    WeldIdenticalVertices(&mesh);
    EXPECT_EQ(mesh.positions.size(), 5u) << "attribute " << attribute;
    EXPECT_NE(mesh.indices[3], mesh.indices[1]) << "attribute " << attribute;
    EXPECT_EQ(mesh.indices[4], mesh.indices[2]) << "attribute " << attribute;
  }
}

TEST(WeldIdenticalVerticesTest, NormalsWithinRoundingNoiseMergeKeepingTheFirst) {
  Mesh mesh = UnindexedQuad();
  mesh.normals[3] = glm::normalize(glm::vec3(0.0f, kWeldNormalDistance * 0.5f, 1.0f));
  const glm::vec3 first = mesh.normals[1];
  WeldIdenticalVertices(&mesh);
  EXPECT_EQ(mesh.positions.size(), 4u);
  EXPECT_EQ(mesh.normals[mesh.indices[3]], first);
}

TEST(WeldIdenticalVerticesTest, MergedVerticesCombineTheirRepairFlags) {
  Mesh mesh = UnindexedQuad();
  std::vector<uint8_t> flags = {0, kRepairNormal, 0, kRepairUnweighted, 0, 0};
  WeldIdenticalVertices(&mesh, &flags);
  ASSERT_EQ(flags.size(), 4u);
  EXPECT_EQ(flags[mesh.indices[1]], kRepairNormal | kRepairUnweighted);
  EXPECT_EQ(flags[mesh.indices[0]], 0);
}

TEST(WeldIdenticalVerticesTest, MeshWithoutTextureCoordinatesWelds) {
  Mesh mesh = UnindexedQuad();
  mesh.uvs.clear();
  WeldIdenticalVertices(&mesh);
  EXPECT_EQ(mesh.positions.size(), 4u);
  EXPECT_TRUE(mesh.uvs.empty());
}

TEST(WeldIdenticalVerticesTest, DistinctVerticesAreLeftAlone) {
  Mesh mesh = MeshOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
  const Mesh before = mesh;
  std::vector<uint8_t> flags = {1, 2, 4};
  WeldIdenticalVertices(&mesh, &flags);
  EXPECT_EQ(mesh.positions, before.positions);
  EXPECT_EQ(mesh.indices, before.indices);
  EXPECT_EQ(flags, (std::vector<uint8_t>{1, 2, 4}));
}

}  // namespace
}  // namespace assets

// FBX units and axes (GlobalSettings applied as Blender's importer applies them, --raw-units
// keeping the file's frame), the small node transforms Assimp's FBX converter drops, and names
// (meshes after their nodes, joint names unique).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "assets/assimp/fbx_properties.h"
#include "assets/files/model_files.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"
#include "ik/core/skeleton.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

// A one-triangle ASCII FBX 7.4: a Null "Parent" with Lcl Scaling `parent_scale` holding a Model
// "Tri" with Lcl Translation `offset`; its vertices are (0,0,0), (1,0,0), (0,1,0) and (0,0,1)
// (two triangles), with the given GlobalSettings.
std::string WriteAsciiFbx(const std::string& name, int up_axis, int up_sign, int front_axis,
                          int front_sign, int coord_axis, int coord_sign, double unit_scale,
                          const std::string& parent_scale, const std::string& offset) {
  const std::string path = testpaths::TempDir() + "/" + name + ".fbx";
  std::ofstream out(path);
  auto setting = [&](const char* key, int value) {
    out << "\t\tP: \"" << key << "\", \"int\", \"Integer\", \"\"," << value << "\n";
  };
  out << "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
         "\tFBXVersion: 7400\n}\nGlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n";
  setting("UpAxis", up_axis);
  setting("UpAxisSign", up_sign);
  setting("FrontAxis", front_axis);
  setting("FrontAxisSign", front_sign);
  setting("CoordAxis", coord_axis);
  setting("CoordAxisSign", coord_sign);
  out << "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\"," << unit_scale << "\n";
  out << "\t}\n}\nObjects:  {\n"
         "\tGeometry: 1000, \"Geometry::TriShape\", \"Mesh\" {\n"
         "\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,0,1,0,0,0,1\n\t\t}\n"
         "\t\tPolygonVertexIndex: *6 {\n\t\t\ta: 0,1,-3,0,2,-4\n\t\t}\n\t}\n"
         "\tModel: 2000, \"Model::Parent\", \"Null\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n"
         "\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\","
      << parent_scale
      << "\n\t\t}\n\t}\n"
         "\tModel: 3000, \"Model::Tri\", \"Mesh\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n"
         "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\","
      << offset
      << "\n\t\t}\n\t}\n}\nConnections:  {\n\tC: \"OO\",2000,0\n\tC: \"OO\",3000,2000\n"
         "\tC: \"OO\",1000,3000\n}\n";
  return path;
}

// World positions of every mesh vertex at rest.
std::vector<glm::vec3> RestVertices(const Model& model) {
  std::vector<glm::vec3> all, positions;
  for (const Mesh& mesh : model.meshes) {
    SkinMesh(mesh, model.skeleton.rest_models(), &positions, nullptr);
    all.insert(all.end(), positions.begin(), positions.end());
  }
  return all;
}

Model Load(const std::string& path, bool raw_units) {
  LoadOptions options;
  options.raw_units = raw_units;
  LoadResult r = LoadModel(path, options);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.ok() ? std::move(*r.model) : Model();
}

// Whether `points` holds a point within `tolerance` of `p`.
bool Contains(const std::vector<glm::vec3>& points, const glm::vec3& p, float tolerance) {
  for (const glm::vec3& q : points)
    if (glm::length(q - p) <= tolerance) return true;
  return false;
}

TEST(FbxFrame, ZUpCentimetreFileStandsUpInMetres) {
  // Z up, front -Y (Blender's own frame, as 3ds Max and Blender write it), centimetres.
  const std::string path = WriteAsciiFbx("zup_cm", 2, 1, 1, -1, 0, 1, 1.0, "1,1,1", "0,0,0");
  const std::vector<glm::vec3> v = RestVertices(Load(path, false));
  ASSERT_EQ(v.size(), 4u);
  // File +Z (up) → +Y, file -Y (front) → +Z, file +X → +X; 1 cm → 0.01 m.
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f), 1e-7f));
  EXPECT_TRUE(Contains(v, glm::vec3(0.01f, 0.0f, 0.0f), 1e-7f));
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f, 0.0f, -0.01f), 1e-7f));
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f, 0.01f, 0.0f), 1e-7f));
}

TEST(FbxFrame, RawUnitsKeepsTheFilesFrame) {
  const std::string path = WriteAsciiFbx("zup_cm_raw", 2, 1, 1, -1, 0, 1, 1.0, "1,1,1", "0,0,0");
  const std::vector<glm::vec3> v = RestVertices(Load(path, true));
  ASSERT_EQ(v.size(), 4u);
  for (const glm::vec3& p : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)}) {
    EXPECT_TRUE(Contains(v, p, 1e-7f)) << p.x << "," << p.y << "," << p.z;
  }
}

TEST(FbxFrame, MetreYUpFileIsUnchanged) {
  // Y up, front +Z, coord +X with UnitScaleFactor 100 (metres): glTF's own frame.
  const std::string path = WriteAsciiFbx("yup_m", 1, 1, 2, 1, 0, 1, 100.0, "1,1,1", "0,0,0");
  const std::vector<glm::vec3> v = RestVertices(Load(path, false));
  ASSERT_EQ(v.size(), 4u);
  for (const glm::vec3& p : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)}) {
    EXPECT_TRUE(Contains(v, p, 1e-7f)) << p.x << "," << p.y << "," << p.z;
  }
}

TEST(FbxFrame, XUpFileTurnsItsUpAxisToY) {
  // X up, front +Y, coord +Z (right-handed: X × Y = Z); 2 cm per unit.
  const std::string path = WriteAsciiFbx("xup", 0, 1, 1, 1, 2, 1, 2.0, "1,1,1", "0,0,0");
  const std::vector<glm::vec3> v = RestVertices(Load(path, false));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f, 0.02f, 0.0f), 1e-7f));  // file +X, up
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f, 0.0f, 0.02f), 1e-7f));  // file +Y, front
  EXPECT_TRUE(Contains(v, glm::vec3(0.02f, 0.0f, 0.0f), 1e-7f));  // file +Z, coord
}

TEST(FbxFrame, LeftHandedAxesFallBackToBlendersDefault) {
  // Y up, front +Z, coord -X is left-handed: Blender reads it as Z up, front -Y.
  const std::string path = WriteAsciiFbx("lefthanded", 1, 1, 2, 1, 0, -1, 100.0, "1,1,1", "0,0,0");
  const std::vector<glm::vec3> v = RestVertices(Load(path, false));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f, 0.0f, -1.0f), 1e-6f));  // file +Y
  EXPECT_TRUE(Contains(v, glm::vec3(0.0f, 1.0f, 0.0f), 1e-6f));   // file +Z
}

TEST(FbxFrame, CentimetreRigIsAHundredthOfItsRawSizeWithClips) {
  const std::string path = testpaths::SharedModel("assimp/huesitos/huesitos.fbx");
  SKIP_IF_NO_MODEL(path, "assimp/huesitos/huesitos.fbx");
  const Model metres = Load(path, false), raw = Load(path, true);
  ASSERT_FALSE(metres.clips.empty());
  ASSERT_EQ(metres.clips.size(), raw.clips.size());
  // Y-up centimetres: everything, rest and animated, is exactly 1/100 of the raw frame.
  for (float time : {0.0f, 0.5f, 1.2f}) {
    ik::Pose pose_m = ik::Pose::Rest(metres.skeleton), pose_r = ik::Pose::Rest(raw.skeleton);
    SampleClip(metres, metres.clips[0], time, &pose_m);
    SampleClip(raw, raw.clips[0], time, &pose_r);
    std::vector<glm::mat4> models_m, models_r;
    ik::LocalToModel(metres.skeleton, pose_m, &models_m);
    ik::LocalToModel(raw.skeleton, pose_r, &models_r);
    const float size = ModelBounds(raw, models_r).diagonal();
    ASSERT_GT(size, 1.0f);
    const float m_size = ModelBounds(metres, models_m).diagonal();
    EXPECT_NEAR(m_size, 0.01f * size, 1e-5f * size) << time;
    for (size_t j = 0; j < models_m.size(); ++j) {
      const glm::vec3 a(models_m[j][3]), b(models_r[j][3]);
      EXPECT_LE(glm::length(a - 0.01f * b), 1e-6f * size) << raw.skeleton.name(int(j));
    }
  }
}

TEST(FbxTinyTransforms, TranslationBelowAssimpsThresholdIsKept) {
  // 0.0002 cm along x and 0.0001 along z (squared length 5e-8, which Assimp drops) under a
  // parent scaled x100: 0.02 cm and 0.01 cm; Y up, metres, so no other change.
  const std::string path =
      WriteAsciiFbx("tiny_offset", 1, 1, 2, 1, 0, 1, 100.0, "100,100,100", "0.0002,0,0.0001");
  const std::vector<glm::vec3> v = RestVertices(Load(path, false));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(Contains(v, glm::vec3(0.02f, 0.0f, 0.01f), 1e-7f));
  EXPECT_TRUE(Contains(v, glm::vec3(100.02f, 0.0f, 0.01f), 2e-5f));
}

TEST(FbxTinyTransforms, ScalingCloseToOneIsKept) {
  // Parent scaled 1.0003 (squared distance 9e-8 from one, within Assimp's threshold of one) holding
  // a child 1000 units out.
  const std::string path =
      WriteAsciiFbx("tiny_scale", 1, 1, 2, 1, 0, 1, 100.0, "1.0003,1,1", "1000,0,0");
  const std::vector<glm::vec3> v = RestVertices(Load(path, false));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(Contains(v, glm::vec3(1000.3f, 0.0f, 0.0f), 1e-3f));
  EXPECT_TRUE(Contains(v, glm::vec3(1001.3003f, 0.0f, 0.0f), 1e-3f));
}

TEST(FbxTinyTransforms, BinaryReaderFindsEveryModelsTranslation) {
  const std::string path = testpaths::SharedModel("assimp/huesitos/huesitos.fbx");
  SKIP_IF_NO_MODEL(path, "assimp/huesitos/huesitos.fbx");
  InputFile file;
  std::string reason;
  ASSERT_EQ(OpenRegularFile(path, &file, &reason), FileStatus::kOk) << reason;
  std::vector<FbxModelTransform> models;
  ASSERT_TRUE(ReadFbxModelTransforms(file, &models, &reason)) << reason;
  // Every Model of the file is a node of Assimp's (raw) scene, with the same translation.
  const Model raw = Load(path, true);
  ASSERT_GE(models.size(), 10u);
  for (const FbxModelTransform& m : models) {
    const int joint = raw.skeleton.Find(m.name);
    ASSERT_GE(joint, 0) << m.name;
    if (!m.has_translation) continue;
    const glm::vec3 t = raw.skeleton.rest_locals()[size_t(joint)].translation;
    EXPECT_LE(glm::length(t - glm::vec3(m.translation)), 1e-4f * (1.0f + glm::length(t))) << m.name;
  }
}

TEST(FbxTinyTransforms, MalformedBinaryRecordsAreRefused) {
  const std::string path = testpaths::TempDir() + "/bad_records.fbx";
  {
    std::ofstream out(path, std::ios::binary);
    out.write("Kaydara FBX Binary  \0\x1a\0", 23);
    const uint32_t version = 7400;
    out.write(reinterpret_cast<const char*>(&version), 4);
    // A record claiming to end far past the file.
    const uint32_t header[3] = {1u << 30, 0, 0};
    out.write(reinterpret_cast<const char*>(header), 12);
    out.put(7);
    out.write("Objects", 7);
  }
  InputFile file;
  std::string reason;
  ASSERT_EQ(OpenRegularFile(path, &file, &reason), FileStatus::kOk) << reason;
  std::vector<FbxModelTransform> models;
  EXPECT_FALSE(ReadFbxModelTransforms(file, &models, &reason));
  EXPECT_NE(reason.find("outside"), std::string::npos) << reason;
}

TEST(FbxNames, RepeatedJointNamesGetBlenderSuffixesAndMeshesTheirNodesName) {
  // Three Models: "Twin" (a Null), "Twin" (the mesh, geometry "Mesh_0") and "Twin.001".
  const std::string path = testpaths::TempDir() + "/twins.fbx";
  {
    std::ofstream out(path);
    out << "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n"
           "Objects:  {\n\tGeometry: 1000, \"Geometry::Mesh_0\", \"Mesh\" {\n"
           "\t\tVertices: *9 {\n\t\t\ta: 0,0,0,1,0,0,0,1,0\n\t\t}\n"
           "\t\tPolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3\n\t\t}\n\t}\n"
           "\tModel: 2000, \"Model::Twin\", \"Null\" {\n\t}\n"
           "\tModel: 3000, \"Model::Twin\", \"Mesh\" {\n\t}\n"
           "\tModel: 4000, \"Model::Twin.001\", \"Null\" {\n\t}\n}\n"
           "Connections:  {\n\tC: \"OO\",2000,0\n\tC: \"OO\",3000,0\n\tC: \"OO\",4000,0\n"
           "\tC: \"OO\",1000,3000\n}\n";
  }
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const ik::Skeleton& skeleton = r.model->skeleton;
  std::vector<std::string> names = skeleton.names();
  std::sort(names.begin(), names.end());
  EXPECT_TRUE(std::adjacent_find(names.begin(), names.end()) == names.end());
  // The second "Twin" skips "Twin.001", which the file has.
  ASSERT_GE(skeleton.Find("Twin.002"), 0);
  EXPECT_GE(skeleton.Find("Twin.001"), 0);
  ASSERT_EQ(r.model->meshes.size(), 1u);
  EXPECT_EQ(r.model->meshes[0].name, skeleton.name(r.model->meshes[0].node));
  EXPECT_EQ(r.model->meshes[0].name.rfind("Twin", 0), 0u) << r.model->meshes[0].name;
  bool warned = false;
  for (const std::string& w : r.warnings) {
    warned = warned || w.find("renamed to keep joint names unique") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace assets

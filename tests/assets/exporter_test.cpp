// Export tests: what ExportGltf writes comes back through LoadModel as the same skeleton, skinned
// surface, clips and materials — for the built-in character and for the shared models.
#include "assets/exporter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assets/animation.h"
#include "assets/builtin_character.h"
#include "assets/importer.h"
#include "assets/skinning.h"
#include "ik/kinematics.h"
#include "tests/assets/model_compare.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using ::testing::HasSubstr;

std::string Temp(const std::string& name) { return testpaths::TempDir() + "/" + name; }

Model ExportAndLoad(const Model& model, const std::string& file) {
  const std::string path = Temp(file);
  std::string error;
  EXPECT_TRUE(ExportGltf(model, path, &error)) << error;
  LoadResult r = LoadModel(path);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.ok() ? std::move(*r.model) : Model();
}

void ExpectRoundTrip(const Model& original, const Model& back) {
  testcompare::ExpectSameSkeleton(original.skeleton, back.skeleton, 1e-5f);
  ASSERT_EQ(back.meshes.size(), original.meshes.size());
  testcompare::ExpectSameSkinnedSurface(original, back, -1, 0.0f, 1e-4f);
  ASSERT_EQ(back.clips.size(), original.clips.size());
  for (size_t c = 0; c < original.clips.size(); ++c) {
    EXPECT_EQ(back.clips[c].name, original.clips[c].name);
    EXPECT_NEAR(back.clips[c].duration, original.clips[c].duration, 1e-5f);
    testcompare::ExpectSameSkinnedSurface(original, back, static_cast<int>(c),
                                          0.37f * original.clips[c].duration, 1e-4f);
  }
}

TEST(ExportRoundTrip, BuiltinCharacterAsGlb) {
  const Model original = MakeBuiltinCharacter();
  const Model back = ExportAndLoad(original, "builtin.glb");
  ExpectRoundTrip(original, back);
  EXPECT_TRUE(back.warnings.empty()) << back.warnings.front();
  ASSERT_EQ(back.materials.size(), 1u);
  EXPECT_EQ(back.materials[0].name, "Mannequin");
  EXPECT_LT(glm::length(back.materials[0].base_color - original.materials[0].base_color), 1e-6f);
  EXPECT_EQ(back.meshes[0].name, "Body");
  for (int j = 0; j < original.skeleton.joint_count(); ++j) EXPECT_TRUE(back.is_bone[j]);
}

TEST(ExportRoundTrip, BuiltinCharacterAsTextGltf) {
  const Model original = MakeBuiltinCharacter();
  const Model back = ExportAndLoad(original, "builtin.gltf");
  ExpectRoundTrip(original, back);
  EXPECT_TRUE(std::filesystem::exists(Temp("builtin.bin")));
}

TEST(ExportRoundTrip, StepAndCubicSplineClipsKeepTheirInterpolation) {
  Model model = MakeBuiltinCharacter();
  Clip clip;
  clip.name = "Mixed";
  clip.duration = 2.0f;
  JointAnimation step;
  step.joint = model.skeleton.Find("Head");
  step.rotation.interpolation = Interpolation::kStep;
  step.rotation.times = {0.0f, 1.0f, 2.0f};
  step.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.5f, glm::vec3(0, 1, 0)),
                          glm::quat(1, 0, 0, 0)};
  clip.channels.push_back(step);
  JointAnimation cubic;
  cubic.joint = model.skeleton.Find("Hips");
  cubic.translation.interpolation = Interpolation::kCubicSpline;
  cubic.translation.times = {0.0f, 2.0f};
  cubic.translation.values = {glm::vec3(0),       glm::vec3(0, 1, 0),    glm::vec3(1, 0, 0),
                              glm::vec3(0, 0, 1), glm::vec3(0, 1.2f, 0), glm::vec3(0)};
  clip.channels.push_back(cubic);
  model.clips.push_back(clip);
  const Model back = ExportAndLoad(model, "interpolation.glb");
  const int index = back.FindClip("Mixed");
  ASSERT_GE(index, 0);
  for (const JointAnimation& a : back.clips[index].channels) {
    if (a.joint == back.skeleton.Find("Head")) {
      EXPECT_EQ(a.rotation.interpolation, Interpolation::kStep);
    }
    if (a.joint == back.skeleton.Find("Hips")) {
      EXPECT_EQ(a.translation.interpolation, Interpolation::kCubicSpline);
    }
  }
  for (float t : {0.3f, 0.99f, 1.01f, 1.7f}) {
    ik::Pose a, b;
    SampleClip(model, model.clips.back(), t, &a);
    SampleClip(back, back.clips[index], t, &b);
    for (size_t j = 0; j < a.locals.size(); ++j) {
      EXPECT_LT(glm::length(a.locals[j].translation - b.locals[j].translation), 1e-5f);
      EXPECT_GT(std::abs(glm::dot(a.locals[j].rotation, b.locals[j].rotation)), 1.0f - 1e-6f);
    }
  }
}

TEST(ExportRoundTrip, PoseOverloadWritesThePoseAsRestAndKeepsTheSkin) {
  const Model original = MakeBuiltinCharacter();
  ik::Pose pose;
  SampleClip(original, original.clips[0], 0.25f, &pose);
  const std::string path = Temp("posed.glb");
  std::string error;
  ASSERT_TRUE(ExportGltf(original, pose, path, &error)) << error;
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  for (int j = 0; j < original.skeleton.joint_count(); ++j) {
    EXPECT_LT(
        glm::length(r.model->skeleton.rest_locals()[j].translation - pose.locals[j].translation),
        1e-5f);
  }
  // The reloaded rest pose shows the mesh exactly as the original deformed by the pose.
  const testcompare::SurfaceMap posed = testcompare::Surface(original, pose);
  const testcompare::SurfaceMap rest =
      testcompare::Surface(*r.model, ik::Pose::Rest(r.model->skeleton));
  EXPECT_LT(testcompare::WorstMiss(posed, rest), 1e-4f);
  EXPECT_LT(testcompare::WorstMiss(rest, posed), 1e-4f);
}

TEST(ExportRoundTrip, SharedModelsComeBackTheSame) {
  // CesiumMan: texture and uvs; SimpleSkin: two scene roots; Animation_Skin_07/11: several skins;
  // BCN_Epileptic.X: three meshes binding shared bones differently; huesitos.fbx: non-bone nodes.
  const char* models[] = {"khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf",
                          "khronos-glTF-Sample-Models/SimpleSkin/glTF-Embedded/SimpleSkin.gltf",
                          "khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf",
                          "glTF-Asset-Generator/Animation_Skin/Animation_Skin_07.gltf",
                          "glTF-Asset-Generator/Animation_Skin/Animation_Skin_11.gltf",
                          "assimp/BCN_Epileptic/BCN_Epileptic.X",
                          "assimp/huesitos/huesitos.fbx"};
  for (const char* relative : models) {
    const std::string path = testpaths::SharedModel(relative);
    SKIP_IF_NO_MODEL(path, relative);
    SCOPED_TRACE(relative);
    const LoadResult original = LoadModel(path);
    ASSERT_TRUE(original.ok()) << original.error;
    const Model back = ExportAndLoad(*original.model, "shared.glb");
    ExpectRoundTrip(*original.model, back);
  }
}

TEST(ExportRoundTrip, TexturesAndUvsSurvive) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf");
  SKIP_IF_NO_MODEL(path, "CesiumMan");
  const LoadResult original = LoadModel(path);
  ASSERT_TRUE(original.ok());
  const Model back = ExportAndLoad(*original.model, "textured.glb");
  ASSERT_EQ(back.textures.size(), 1u);
  EXPECT_EQ(back.textures[0].width, original.model->textures[0].width);
  EXPECT_EQ(back.textures[0].rgba, original.model->textures[0].rgba);  // PNG is lossless
  const Mesh& a = original.model->meshes[0];
  const Mesh& b = back.meshes[0];
  ASSERT_EQ(a.uvs.size(), b.uvs.size());
  for (size_t i = 0; i < a.uvs.size(); ++i) ASSERT_LT(glm::length(a.uvs[i] - b.uvs[i]), 1e-6f);
  ASSERT_GE(b.material, 0);
  EXPECT_EQ(back.materials[b.material].base_color_texture, 0);
}

TEST(ExportRoundTrip, SeveralUnskinnedMeshesOnOneNodeStayInPlace) {
  Model model = MakeBuiltinCharacter();
  Mesh triangle;
  triangle.name = "Hat";
  triangle.positions = {{0, 0, 0}, {0.1f, 0, 0}, {0, 0.1f, 0}};
  triangle.normals.assign(3, glm::vec3(0, 0, 1));
  triangle.indices = {0, 1, 2};
  triangle.joints.assign(3, glm::u16vec4(0));
  triangle.weights.assign(3, glm::vec4(1, 0, 0, 0));
  triangle.node = model.skeleton.Find("Head");
  triangle.bone_joints = {triangle.node};
  triangle.bone_inverse_binds = {glm::mat4(1.0f)};
  model.meshes.push_back(triangle);
  triangle.name = "Glasses";
  triangle.positions[2].z = 0.05f;
  model.meshes.push_back(triangle);
  const Model back = ExportAndLoad(model, "crowded.glb");
  ASSERT_EQ(back.meshes.size(), 3u);
  testcompare::ExpectSameSkinnedSurface(model, back, -1, 0.0f, 1e-5f);
  testcompare::ExpectSameSkinnedSurface(model, back, 0, 0.4f, 1e-5f);  // they follow the head
}

// Vertices equal in position, normal and uv but not in skin weights or morph deltas are two
// vertices of the model (a seam), and stay two in the file.
TEST(ExportRoundTrip, CoincidentVerticesThatDifferInWeightsOrDeltasStayApart) {
  Model model = MakeBuiltinCharacter();
  ASSERT_FALSE(model.clips.empty());
  const int head = model.skeleton.Find("Head"), hips = model.skeleton.Find("Hips");
  ASSERT_GE(head, 0);
  ASSERT_GE(hips, 0);
  Mesh seam;
  seam.name = "Seam";
  seam.skinned = true;
  // Vertices 1 and 3 coincide, as do 2 and 4; 3 and 4 are bound to the hips, 0 to 2 to the head,
  // and the target lifts vertex 1 and lowers vertex 3.
  seam.positions = {{0, 1.5f, 0.3f},    {0.1f, 1.5f, 0.3f}, {0, 1.6f, 0.3f},
                    {0.1f, 1.5f, 0.3f}, {0, 1.6f, 0.3f},    {0.1f, 1.6f, 0.3f}};
  seam.normals.assign(6, glm::vec3(0, 0, 1));
  seam.indices = {0, 1, 2, 3, 5, 4};
  seam.bone_joints = {head, hips};
  const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
  seam.bone_inverse_binds = {glm::inverse(rest[size_t(head)]), glm::inverse(rest[size_t(hips)])};
  for (int v = 0; v < 6; ++v) {
    seam.joints.push_back(glm::u16vec4(v < 3 ? 0 : 1, 0, 0, 0));
    seam.weights.emplace_back(1, 0, 0, 0);
  }
  MorphTarget lift;
  lift.name = "lift";
  lift.positions.assign(6, glm::vec3(0.0f));
  lift.positions[1].z = 0.05f;
  lift.positions[3].z = -0.05f;
  seam.targets.push_back(lift);
  seam.target_weights.push_back(1.0f);
  model.meshes.push_back(seam);

  const Model back = ExportAndLoad(model, "seam.glb");
  ASSERT_EQ(back.meshes.size(), model.meshes.size());
  const Mesh& written = back.meshes.back();
  EXPECT_EQ(written.positions.size(), 6u);
  // Skinned and morphed in a clip, where head and hips move apart: the same six points.
  ASSERT_FALSE(back.clips.empty());
  auto skinned = [](const Model& m, const Mesh& mesh) {
    ik::Pose pose = ik::Pose::Rest(m.skeleton);
    SampleClip(m, m.clips[0], 0.4f * m.clips[0].duration, &pose);
    std::vector<glm::mat4> models;
    ik::LocalToModel(m.skeleton, pose, &models);
    std::vector<glm::vec3> out;
    SkinMesh(mesh, models, &out, nullptr);
    return out;
  };
  const std::vector<glm::vec3> want = skinned(model, seam), got = skinned(back, written);
  for (const glm::vec3& p : want) {
    float nearest = 1e9f;
    for (const glm::vec3& q : got) nearest = std::fmin(nearest, glm::distance(p, q));
    EXPECT_LT(nearest, 1e-5f) << p.x << " " << p.y << " " << p.z;
  }
}

TEST(ExportRoundTrip, MeshesBindingOneJointDifferentlyKeepTheirOwnInverseBinds) {
  // A second copy of the body, modelled 1 m to the side but bound with inverse binds that undo
  // the offset: skinned, it lands on the first. One shared skin (Assimp's way) would misplace it.
  Model model = MakeBuiltinCharacter();
  Mesh copy = model.meshes[0];
  copy.name = "Shifted";
  const glm::mat4 unshift = glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 0));
  for (glm::vec3& p : copy.positions) p.x += 1.0f;
  for (glm::mat4& m : copy.bone_inverse_binds) m = m * unshift;
  model.meshes.push_back(copy);
  const Model back = ExportAndLoad(model, "two_binds.glb");
  ASSERT_EQ(back.meshes.size(), 2u);
  testcompare::ExpectSameSkinnedSurface(model, back, 0, 0.3f, 1e-4f);
}

TEST(ExportRoundTrip, WrittenFileHasTheJointsAMeshNodeAtTheRootAndOneAnimationPerClip) {
  const Model original = MakeBuiltinCharacter();
  const std::string path = Temp("inspect.gltf");
  std::string error;
  ASSERT_TRUE(ExportGltf(original, path, &error)) << error;
  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  // The skeleton's root and the skinned mesh's own node (no transform, never animated), both at
  // the scene's root, as glTF wants a skinned mesh; no wrapper node.
  ASSERT_EQ(doc["scenes"][0]["nodes"].size(), 2u);
  EXPECT_EQ(doc["nodes"][doc["scenes"][0]["nodes"][0].get<int>()]["name"], "Hips");
  const int mesh_node = doc["scenes"][0]["nodes"][1].get<int>();
  const nlohmann::json& holder = doc["nodes"][mesh_node];
  EXPECT_EQ(holder["name"], "Body");
  EXPECT_TRUE(holder.contains("mesh"));
  EXPECT_TRUE(holder.contains("skin"));
  for (const char* trs : {"translation", "rotation", "scale", "matrix", "children"}) {
    EXPECT_FALSE(holder.contains(trs)) << trs;
  }
  for (const auto& animation : doc["animations"]) {
    for (const auto& channel : animation["channels"]) {
      EXPECT_NE(channel["target"]["node"].get<int>(), mesh_node);
    }
  }
  EXPECT_EQ(doc["nodes"].size(), 23u);
  EXPECT_EQ(doc["animations"].size(), 2u);
  EXPECT_EQ(doc["skins"].size(), 1u);
  for (const auto& node : doc["nodes"]) EXPECT_FALSE(node.contains("matrix"));
  EXPECT_FALSE(doc.contains("extensionsUsed"));
  EXPECT_EQ(doc["asset"]["generator"], "skelview");
  EXPECT_EQ(doc["asset"]["version"], "2.0");
}

TEST(ExportErrors, RefusesUnknownExtensionsBadPosesAndUnwritablePaths) {
  const Model model = MakeBuiltinCharacter();
  std::string error;
  EXPECT_FALSE(ExportGltf(model, Temp("out.fbx"), &error));
  EXPECT_THAT(error, HasSubstr("out.fbx"));
  EXPECT_THAT(error, HasSubstr(".glb"));

  ik::Pose short_pose;
  short_pose.locals.resize(3);
  EXPECT_FALSE(ExportGltf(model, short_pose, Temp("short.glb"), &error));
  EXPECT_THAT(error, HasSubstr("pose"));

  ik::Pose bad = ik::Pose::Rest(model.skeleton);
  bad.locals[4].translation.x = NAN;
  EXPECT_FALSE(ExportGltf(model, bad, Temp("nan.glb"), &error));
  EXPECT_THAT(error, HasSubstr("non-finite"));

  const std::string nowhere = Temp("no/such/dir/out.glb");
  EXPECT_FALSE(ExportGltf(model, nowhere, &error));
  EXPECT_THAT(error, HasSubstr(nowhere));

  EXPECT_FALSE(ExportGltf(Model(), Temp("empty.glb"), &error));
  EXPECT_THAT(error, HasSubstr("no joints"));
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string FreshDir(const std::string& name) {
  const std::string dir = Temp(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::vector<std::string> FileNames(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ExportFiles, GltfWritesItsBinBesideItAndRefersToIt) {
  const std::string dir = FreshDir("sidecar");
  const std::string path = dir + "/my model.gltf";
  EXPECT_EQ(ExportedFiles(path), (std::vector<std::string>{path, dir + "/my model.bin"}));
  EXPECT_EQ(ExportedFiles(dir + "/m.glb"), std::vector<std::string>{dir + "/m.glb"});
  std::string error;
  ASSERT_TRUE(ExportGltf(MakeBuiltinCharacter(), path, &error)) << error;
  EXPECT_EQ(FileNames(dir), (std::vector<std::string>{"my model.bin", "my model.gltf"}));
  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_EQ(doc["buffers"].size(), 1u);
  EXPECT_EQ(doc["buffers"][0]["uri"], "my%20model.bin");
  EXPECT_EQ(doc["buffers"][0]["byteLength"].get<size_t>(),
            std::filesystem::file_size(dir + "/my model.bin"));
  LoadResult back = LoadModel(path);
  ASSERT_TRUE(back.ok()) << back.error;
  ExpectRoundTrip(MakeBuiltinCharacter(), *back.model);
}

TEST(ExportFiles, RefusesToOverwriteTheModelOrAFileItReads) {
  const std::string dir = FreshDir("clobber");
  std::string error;
  ASSERT_TRUE(ExportGltf(MakeBuiltinCharacter(), dir + "/model.gltf", &error)) << error;
  LoadResult loaded = LoadModel(dir + "/model.gltf");
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  Model model = std::move(*loaded.model);
  // As the importer lists them: the model file, then its buffer.
  model.source_files = {std::filesystem::canonical(dir + "/model.gltf").string(),
                        std::filesystem::canonical(dir + "/model.bin").string()};
  const std::string gltf = ReadBytes(dir + "/model.gltf"), bin = ReadBytes(dir + "/model.bin");
  ExportFailure failure = ExportFailure::kNone;
  EXPECT_FALSE(ExportGltf(model, dir + "/model.gltf", &error, &failure));
  EXPECT_EQ(failure, ExportFailure::kRefused);
  EXPECT_THAT(error, HasSubstr("input model"));
  // The posed export checks the same, and a .gltf whose .bin is a link to the model's buffer.
  EXPECT_FALSE(
      ExportGltf(model, ik::Pose::Rest(model.skeleton), dir + "/model.gltf", &error, &failure));
  EXPECT_EQ(failure, ExportFailure::kRefused);
  std::filesystem::create_symlink("model.bin", dir + "/link.bin");
  EXPECT_FALSE(ExportGltf(model, dir + "/link.gltf", &error, &failure));
  EXPECT_EQ(failure, ExportFailure::kRefused);
  EXPECT_THAT(error, HasSubstr("link.bin"));
  EXPECT_THAT(error, HasSubstr("refusing to overwrite"));
  EXPECT_TRUE(ReadBytes(dir + "/model.gltf") == gltf) << "model.gltf changed";
  EXPECT_TRUE(ReadBytes(dir + "/model.bin") == bin) << "model.bin changed";
  EXPECT_EQ(FileNames(dir), (std::vector<std::string>{"link.bin", "model.bin", "model.gltf"}));
  // Another name is fine.
  EXPECT_TRUE(ExportGltf(model, dir + "/posed.glb", &error, &failure)) << error;
  EXPECT_EQ(failure, ExportFailure::kNone);
}

TEST(ExportFiles, FailedWriteLeavesTheEarlierExportWhole) {
  const std::string dir = FreshDir("efbig");
  const std::string path = dir + "/out.gltf";
  std::string error;
  ASSERT_TRUE(ExportGltf(MakeBuiltinCharacter(), path, &error)) << error;
  const std::string gltf = ReadBytes(path), bin = ReadBytes(dir + "/out.bin");
  Model moved = MakeBuiltinCharacter();
  for (glm::vec3& p : moved.meshes[0].positions) p.y += 1.0f;
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 8192;  // smaller than the .bin
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  ExportFailure failure = ExportFailure::kNone;
  const bool ok = ExportGltf(moved, path, &error, &failure);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_FALSE(ok);
  EXPECT_EQ(failure, ExportFailure::kWriteFailed);
  EXPECT_THAT(error, HasSubstr("File too large"));
  EXPECT_TRUE(ReadBytes(path) == gltf) << "out.gltf changed";
  EXPECT_TRUE(ReadBytes(dir + "/out.bin") == bin) << "out.bin changed";
  EXPECT_EQ(FileNames(dir), (std::vector<std::string>{"out.bin", "out.gltf"}));
}

}  // namespace
}  // namespace assets

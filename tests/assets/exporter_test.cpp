// Export tests: what ExportGltf writes comes back through LoadModel as the same skeleton, skinned
// surface, clips and materials — for the built-in character and for the shared models.
#include "assets/export/exporter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/morph.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"
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

// The built-in character with a cape that has everything a mesh can carry: eight influences
// per vertex (JOINTS_1/WEIGHTS_1), tangents of both handednesses, uvs, a textured material, and
// three morph targets (dense with normal and tangent deltas, sparse, all zero) with names and
// default weights; a rigid hat on the head, without a material; and a clip animating joints with
// step, linear and cubic-spline keys and the cape's weights.
Model RichModel() {
  Model model = MakeBuiltinCharacter();
  const ik::Skeleton& s = model.skeleton;
  const char* bone_names[] = {"Hips", "Spine",   "Spine1",        "Spine2",
                              "Neck", "LeftArm", "RightShoulder", "Head"};
  Mesh cape;
  cape.name = "Cape";
  cape.skinned = true;
  for (const char* name : bone_names) {
    const int joint = s.Find(name);
    EXPECT_GE(joint, 0) << name;
    cape.bone_joints.push_back(joint);
    cape.bone_inverse_binds.push_back(glm::inverse(s.rest_models()[static_cast<size_t>(joint)]));
  }
  constexpr int kColumns = 4, kRows = 6;
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kColumns; ++c) {
      const int v = r * kColumns + c;
      cape.positions.emplace_back(-0.2f + 0.13f * float(c), 1.5f - 0.2f * float(r), -0.15f);
      cape.normals.emplace_back(0.0f, 0.0f, -1.0f);
      cape.tangents.emplace_back(1.0f, 0.0f, 0.0f, v % 2 ? 1.0f : -1.0f);
      cape.uvs.emplace_back(float(c) / 3.0f, float(r) / 5.0f);
      // Eight influences, largest first, summing to 1.
      glm::vec4 w(0.3f, 0.2f, 0.15f, 0.1f), e(0.08f, 0.07f, 0.06f, 0.04f);
      const uint16_t shift = static_cast<uint16_t>(v % 8);
      glm::u16vec4 j, ej;
      for (int k = 0; k < 4; ++k) {
        j[k] = static_cast<uint16_t>((k + shift) % 8);
        ej[k] = static_cast<uint16_t>((k + 4 + shift) % 8);
      }
      cape.joints.push_back(j);
      cape.weights.push_back(w);
      cape.extra_joints.push_back(ej);
      cape.extra_weights.push_back(e);
      if (r + 1 < kRows && c + 1 < kColumns) {
        const uint32_t a = uint32_t(v), b = a + 1, d = a + kColumns, f = d + 1;
        cape.indices.insert(cape.indices.end(), {a, d, b, b, d, f});
      }
    }
  }
  const size_t n = cape.positions.size();
  MorphTarget billow, lift, none;
  billow.name = "Billow";
  lift.name = "Lift";
  none.name = "Nothing";
  for (size_t v = 0; v < n; ++v) {
    billow.positions.emplace_back(0.0f, 0.0f, -0.01f * float(v));
    billow.normals.emplace_back(0.0f, 0.1f, 0.0f);
    billow.tangents.emplace_back(0.0f, 0.0f, v % 3 ? 0.0f : 0.2f);
    lift.positions.emplace_back(0.0f, v == 3 || v == 17 ? 0.05f : 0.0f, 0.0f);
    lift.normals.emplace_back(0.0f);
    none.positions.emplace_back(0.0f);
    none.normals.emplace_back(0.0f);
  }
  cape.targets = {billow, lift, none};
  cape.target_weights = {0.25f, 0.0f, 0.5f};
  Texture texture;
  texture.name = "cloth";
  texture.width = 3;
  texture.height = 2;
  for (int i = 0; i < 3 * 2 * 4; ++i) texture.rgba.push_back(static_cast<uint8_t>(i * 11));
  model.textures.push_back(texture);
  Material cloth;
  cloth.name = "Cloth";
  cloth.base_color = glm::vec4(0.5f, 0.25f, 0.125f, 1.0f);
  cloth.base_color_texture = 0;
  model.materials.push_back(cloth);
  cape.material = static_cast<int>(model.materials.size()) - 1;
  const int cape_index = static_cast<int>(model.meshes.size());
  model.meshes.push_back(cape);

  const int head = s.Find("Head");
  Mesh hat;
  hat.name = "Hat";
  hat.positions = {{0, 1.7f, 0}, {0.1f, 1.7f, 0}, {0, 1.8f, 0}};
  hat.normals.assign(3, glm::vec3(0, 0, 1));
  hat.indices = {0, 1, 2};
  hat.joints.assign(3, glm::u16vec4(0));
  hat.weights.assign(3, glm::vec4(1, 0, 0, 0));
  hat.node = head;
  hat.bone_joints = {head};
  hat.bone_inverse_binds = {glm::mat4(1.0f)};
  model.meshes.push_back(hat);

  Clip clip;
  clip.name = "Flutter";
  clip.duration = 2.0f;
  JointAnimation step;
  step.joint = head;
  step.rotation.interpolation = Interpolation::kStep;
  step.rotation.times = {0.0f, 1.0f, 2.0f};
  step.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.5f, glm::vec3(0, 1, 0)),
                          glm::quat(1, 0, 0, 0)};
  clip.channels.push_back(step);
  JointAnimation cubic;
  cubic.joint = s.Find("Hips");
  cubic.translation.interpolation = Interpolation::kCubicSpline;
  cubic.translation.times = {0.0f, 2.0f};
  cubic.translation.values = {glm::vec3(0),       glm::vec3(0, 1, 0),    glm::vec3(1, 0, 0),
                              glm::vec3(0, 0, 1), glm::vec3(0, 1.2f, 0), glm::vec3(0)};
  cubic.scale.times = {0.0f, 0.5f, 2.0f};
  cubic.scale.values = {glm::vec3(1), glm::vec3(1.1f, 0.9f, 1), glm::vec3(1)};
  clip.channels.push_back(cubic);
  MorphAnimation weights;
  weights.mesh = cape_index;
  weights.width = 3;
  weights.interpolation = Interpolation::kCubicSpline;
  weights.times = {0.0f, 2.0f};
  weights.values = {0, 0, 0, 0.1f, 0.2f, 0.3f, 1, 1, 1, -1, 0, 1, 0.9f, 0.8f, 0.7f, 0, 0, 0};
  clip.morph_channels.push_back(weights);
  PrepareClip(&clip);
  model.clips.push_back(clip);
  return model;
}

// Distance between two floats in units in the last place (0: the same bits, or both zeros).
int64_t Ulps(float x, float y) {
  if (x == y) return 0;
  if (!std::isfinite(x) || !std::isfinite(y)) return INT64_MAX;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? int64_t{INT32_MIN} - i : int64_t{i};
  };
  return std::abs(ordered(x) - ordered(y));
}

// Element by element: integers equal, floats (also inside glm vectors, quaternions and matrices,
// in memory order) at most `ulps` apart.
template <typename Array>
void ExpectSameArray(const Array& x, const Array& y, int64_t ulps, const std::string& what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  using T = std::decay_t<decltype(x[0])>;
  for (size_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      ASSERT_LE(Ulps(x[i], y[i]), ulps) << what << "[" << i << "]: " << x[i] << " vs " << y[i];
    } else if constexpr (std::is_integral_v<T>) {
      ASSERT_EQ(x[i], y[i]) << what << "[" << i << "]";
    } else {
      using C = typename T::value_type;
      const auto* px = reinterpret_cast<const C*>(&x[i]);
      const auto* py = reinterpret_cast<const C*>(&y[i]);
      for (size_t k = 0; k < sizeof(T) / sizeof(C); ++k) {
        if constexpr (std::is_floating_point_v<C>) {
          ASSERT_LE(Ulps(px[k], py[k]), ulps)
              << what << "[" << i << "][" << k << "]: " << px[k] << " vs " << py[k];
        } else {
          ASSERT_EQ(px[k], py[k]) << what << "[" << i << "][" << k << "]";
        }
      }
    }
  }
}

// Target deltas: glTF gives every target of a mesh the same attributes, so a target without
// normal or tangent deltas comes back with zeros.
void ExpectSameDeltas(const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& y,
                      size_t vertices, const std::string& what) {
  const std::vector<glm::vec3> zeros(vertices, glm::vec3(0.0f));
  ExpectSameArray(x.empty() && y.size() == vertices ? zeros : x,
                  y.empty() && x.size() == vertices ? zeros : y, 0, what);
}

// What LoadModel gives back of an exported model, compared part by part so that a failure says
// where: every number the file stores as it is bit for bit; the numbers the importer rescales —
// normals and rotation keys (made unit length), skin weights (made to sum to 1) — to within 2
// ulps; the
// skeleton's rest transforms, which it builds from node matrices (Assimp's node tree: a rounding
// away from the T, R, S the file holds, which ExportFile.HoldsTheModelsNumbersBitForBit checks),
// as matrices to within 1e-6. Meshes are matched by name (the importer lists them in the order of
// the nodes that carry them), materials by content (a mesh without one gets the exporter's
// "default"), influence slots where their weight is not zero (an unused slot names joint 0).
void ExpectSameModel(const Model& a, const Model& b) {
  testcompare::ExpectSameSkeleton(a.skeleton, b.skeleton, 1e-6f);
  EXPECT_EQ(a.is_bone, b.is_bone);
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  std::vector<int> b_mesh(a.meshes.size(), -1);
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    for (size_t k = 0; k < b.meshes.size(); ++k) {
      if (b.meshes[k].name == a.meshes[m].name) b_mesh[m] = static_cast<int>(k);
    }
    ASSERT_GE(b_mesh[m], 0) << a.meshes[m].name;
  }
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    const Mesh& x = a.meshes[m];
    const Mesh& y = b.meshes[static_cast<size_t>(b_mesh[m])];
    const std::string name = "mesh " + x.name + ": ";
    const size_t n = x.positions.size();
    EXPECT_EQ(x.skinned, y.skinned) << name;
    ExpectSameArray(x.positions, y.positions, 0, name + "positions");
    ExpectSameArray(x.normals, y.normals, 2, name + "normals");
    ExpectSameArray(x.tangents, y.tangents, 0, name + "tangents");
    ExpectSameArray(x.uvs, y.uvs, 0, name + "uvs");
    ExpectSameArray(x.weights, y.weights, 2, name + "weights");
    ExpectSameArray(x.extra_weights, y.extra_weights, 2, name + "extra weights");
    auto used = [](const std::vector<glm::u16vec4>& joints, const std::vector<glm::vec4>& w) {
      std::vector<glm::u16vec4> out = joints;
      for (size_t v = 0; v < out.size() && v < w.size(); ++v) {
        for (int k = 0; k < 4; ++k) out[v][k] = w[v][k] != 0.0f ? out[v][k] : 0;
      }
      return out;
    };
    ExpectSameArray(used(x.joints, x.weights), used(y.joints, y.weights), 0, name + "joints");
    ExpectSameArray(used(x.extra_joints, x.extra_weights), used(y.extra_joints, y.extra_weights), 0,
                    name + "extra joints");
    ExpectSameArray(x.indices, y.indices, 0, name + "indices");
    EXPECT_EQ(x.bone_joints, y.bone_joints) << name;
    ExpectSameArray(x.bone_inverse_binds, y.bone_inverse_binds, 0, name + "inverse binds");
    ExpectSameArray(x.target_weights, y.target_weights, 0, name + "target weights");
    ASSERT_EQ(x.targets.size(), y.targets.size()) << name;
    for (size_t t = 0; t < x.targets.size(); ++t) {
      const std::string target = name + "target " + x.targets[t].name + " ";
      EXPECT_EQ(x.targets[t].name, y.targets[t].name);
      ExpectSameDeltas(x.targets[t].positions, y.targets[t].positions, n, target + "positions");
      ExpectSameDeltas(x.targets[t].normals, y.targets[t].normals, n, target + "normals");
      ExpectSameDeltas(x.targets[t].tangents, y.targets[t].tangents, n, target + "tangents");
    }
    const bool own = x.material >= 0 && static_cast<size_t>(x.material) < a.materials.size();
    const Material mx = own ? a.materials[static_cast<size_t>(x.material)] : Material{};
    ASSERT_GE(y.material, 0) << name;
    const Material& my = b.materials[static_cast<size_t>(y.material)];
    EXPECT_EQ(own ? mx.name : "default", my.name) << name;
    ExpectSameArray(std::vector<glm::vec4>{mx.base_color}, std::vector<glm::vec4>{my.base_color}, 0,
                    name + "base colour");
    ASSERT_EQ(mx.base_color_texture >= 0, my.base_color_texture >= 0) << name;
    if (mx.base_color_texture >= 0) {
      const Texture& tx = a.textures[static_cast<size_t>(mx.base_color_texture)];
      const Texture& ty = b.textures[static_cast<size_t>(my.base_color_texture)];
      EXPECT_EQ(tx.width, ty.width) << name;
      EXPECT_EQ(tx.height, ty.height) << name;
      EXPECT_TRUE(tx.rgba == ty.rgba) << name << "texture";  // PNG is lossless
    }
  }
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (size_t c = 0; c < a.clips.size(); ++c) {
    const Clip& x = a.clips[c];
    const Clip& y = b.clips[c];
    const std::string name = "clip " + x.name + ": ";
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.duration, y.duration) << name;
    ASSERT_EQ(x.channels.size(), y.channels.size()) << name;
    for (size_t k = 0; k < x.channels.size(); ++k) {
      const JointAnimation& p = x.channels[k];
      const JointAnimation& q = y.channels[k];
      const std::string channel = name + a.skeleton.name(p.joint) + " ";
      EXPECT_EQ(p.joint, q.joint) << channel;
      EXPECT_EQ(p.translation.interpolation, q.translation.interpolation) << channel;
      EXPECT_EQ(p.rotation.interpolation, q.rotation.interpolation) << channel;
      EXPECT_EQ(p.scale.interpolation, q.scale.interpolation) << channel;
      ExpectSameArray(p.translation.times, q.translation.times, 0, channel + "translation times");
      ExpectSameArray(p.translation.values, q.translation.values, 0, channel + "translations");
      ExpectSameArray(p.rotation.times, q.rotation.times, 0, channel + "rotation times");
      ExpectSameArray(p.rotation.values, q.rotation.values, 2, channel + "rotations");
      ExpectSameArray(p.scale.times, q.scale.times, 0, channel + "scale times");
      ExpectSameArray(p.scale.values, q.scale.values, 0, channel + "scales");
    }
    ASSERT_EQ(x.morph_channels.size(), y.morph_channels.size()) << name;
    for (size_t k = 0; k < x.morph_channels.size(); ++k) {
      const MorphAnimation& p = x.morph_channels[k];
      const MorphAnimation& q = y.morph_channels[k];
      EXPECT_EQ(b_mesh[static_cast<size_t>(p.mesh)], q.mesh) << name;
      EXPECT_EQ(p.width, q.width) << name;
      EXPECT_EQ(p.interpolation, q.interpolation) << name;
      ExpectSameArray(p.times, q.times, 0, name + "weight times");
      ExpectSameArray(p.values, q.values, 0, name + "weights");
    }
  }
}

TEST(ExportRoundTrip, EverythingAMeshCarriesComesBackExactly) {
  const Model model = RichModel();
  for (const char* file : {"rich.glb", "rich.gltf"}) {
    SCOPED_TRACE(file);
    const Model back = ExportAndLoad(model, file);
    EXPECT_TRUE(back.warnings.empty()) << back.warnings.front();
    ExpectSameModel(model, back);
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

// A pose export is the pose: no clips (skelview opens a file on its first clip's first frame,
// other tools play or show a clip too, and a clip sets every joint it animates), the blend-shape
// weights of the pose as the defaults.
TEST(ExportRoundTrip, PoseExportOpensInThePoseWithItsBlendShapesAndNoClips) {
  const Model original = RichModel();
  ASSERT_FALSE(original.clips.empty());
  ik::Pose pose;
  SampleClip(original, original.clips[0], 0.25f, &pose);
  MorphWeights weights = DefaultMorphWeights(original);
  const size_t cape = 1;
  ASSERT_EQ(original.meshes[cape].name, "Cape");
  weights[cape] = {0.75f, -0.5f, 0.125f};
  const std::string path = Temp("posed.glb");
  std::string error;
  ASSERT_TRUE(ExportGltf(original, pose, path, &error, nullptr, &weights)) << error;
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& back = *r.model;
  EXPECT_TRUE(back.clips.empty());
  for (int j = 0; j < original.skeleton.joint_count(); ++j) {
    EXPECT_LT(glm::length(back.skeleton.rest_locals()[j].translation - pose.locals[j].translation),
              1e-6f);
  }
  const int back_cape = [&] {
    for (size_t m = 0; m < back.meshes.size(); ++m)
      if (back.meshes[m].name == "Cape") return static_cast<int>(m);
    return -1;
  }();
  ASSERT_GE(back_cape, 0);
  EXPECT_EQ(back.meshes[static_cast<size_t>(back_cape)].target_weights, weights[cape]);
  // What the file opens on (its rest pose: there is no clip) shows the meshes exactly as the
  // original deformed by the pose with those blend-shape weights.
  Model shown = original;
  shown.meshes[cape].target_weights = weights[cape];
  const testcompare::SurfaceMap posed = testcompare::Surface(shown, pose);
  const testcompare::SurfaceMap rest = testcompare::Surface(back, ik::Pose::Rest(back.skeleton));
  EXPECT_LT(testcompare::WorstMiss(posed, rest), 1e-5f);
  EXPECT_LT(testcompare::WorstMiss(rest, posed), 1e-5f);
  // Without weights the meshes' own defaults are written; a non-finite weight is refused.
  ASSERT_TRUE(ExportGltf(original, pose, path, &error)) << error;
  const LoadResult plain = LoadModel(path);
  ASSERT_TRUE(plain.ok()) << plain.error;
  for (const Mesh& mesh : plain.model->meshes) {
    if (mesh.name == "Cape") {
      EXPECT_EQ(mesh.target_weights, original.meshes[cape].target_weights);
    }
  }
  weights[cape][1] = NAN;
  ExportFailure failure = ExportFailure::kNone;
  EXPECT_FALSE(ExportGltf(original, pose, Temp("nan_weight.glb"), &error, &failure, &weights));
  EXPECT_EQ(failure, ExportFailure::kRefused);
  EXPECT_THAT(error, HasSubstr("not finite"));
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

// A written .glb taken apart for checking what it holds: its JSON and its binary chunk, and any
// accessor decoded (dense, sparse, or zeros without a bufferView) as raw component values.
struct GlbFile {
  nlohmann::json doc;
  std::vector<uint8_t> bin;

  explicit GlbFile(const std::string& path) {
    const std::string bytes = ReadBytes(path);
    auto u32 = [&](size_t at) {
      uint32_t v;
      std::memcpy(&v, bytes.data() + at, 4);
      return v;
    };
    EXPECT_EQ(u32(0), 0x46546C67u);
    EXPECT_EQ(u32(8), bytes.size());
    const uint32_t json_length = u32(12);
    EXPECT_EQ(u32(16), 0x4E4F534Au);
    doc = nlohmann::json::parse(bytes.substr(20, json_length));
    const size_t bin_at = 20 + json_length;
    if (bin_at + 8 <= bytes.size()) {
      EXPECT_EQ(u32(bin_at + 4), 0x004E4942u);
      bin.assign(bytes.begin() + long(bin_at + 8), bytes.begin() + long(bin_at + 8 + u32(bin_at)));
    }
  }

  const uint8_t* View(const nlohmann::json& view_index) const {
    const nlohmann::json& view = doc["bufferViews"][view_index.get<size_t>()];
    return bin.data() + view.value("byteOffset", size_t{0});
  }

  // The accessor's components, as T (the accessor's own component type).
  template <typename T>
  std::vector<T> Read(int64_t index) const {
    const nlohmann::json& a = doc["accessors"][static_cast<size_t>(index)];
    const std::map<std::string, size_t> widths = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}};
    const size_t width = widths.at(a["type"].get<std::string>());
    const size_t count = a["count"].get<size_t>();
    std::vector<T> out(count * width, T(0));
    if (a.contains("bufferView"))
      std::memcpy(out.data(), View(a["bufferView"]), out.size() * sizeof(T));
    if (a.contains("sparse")) {
      const nlohmann::json& sparse = a["sparse"];
      const size_t k = sparse["count"].get<size_t>();
      const uint8_t* indices = View(sparse["indices"]["bufferView"]);
      const bool narrow = sparse["indices"]["componentType"] == 5123;
      const T* values = reinterpret_cast<const T*>(View(sparse["values"]["bufferView"]));
      for (size_t e = 0; e < k; ++e) {
        uint32_t at;
        if (narrow) {
          uint16_t i16;
          std::memcpy(&i16, indices + e * 2, 2);
          at = i16;
        } else {
          std::memcpy(&at, indices + e * 4, 4);
        }
        std::memcpy(&out[at * width], values + e * width, width * sizeof(T));
      }
    }
    return out;
  }
};

// The components of glm values in memory order.
template <typename T>
std::vector<typename T::value_type> Components(const std::vector<T>& values) {
  using C = typename T::value_type;
  const auto* begin = reinterpret_cast<const C*>(values.data());
  return std::vector<C>(begin, begin + values.size() * sizeof(T) / sizeof(C));
}

std::vector<float> Floats(const nlohmann::json& numbers) {
  std::vector<float> out;
  for (const auto& v : numbers) out.push_back(v.get<float>());
  return out;
}

// The file holds the model's numbers themselves: node transforms, vertex attributes, influences,
// inverse binds, morph deltas (dense and sparse) and key values compared bit for bit.
TEST(ExportFile, HoldsTheModelsNumbersBitForBit) {
  const Model model = RichModel();
  const std::string path = Temp("exact.glb");
  std::string error;
  ASSERT_TRUE(ExportGltf(model, path, &error)) << error;
  const GlbFile file(path);
  const nlohmann::json& nodes = file.doc["nodes"];
  const ik::Skeleton& s = model.skeleton;
  for (int j = 0; j < s.joint_count(); ++j) {
    const nlohmann::json& node = nodes[static_cast<size_t>(j)];
    const ik::Transform& t = s.rest_locals()[static_cast<size_t>(j)];
    EXPECT_EQ(node["name"], s.name(j));
    const std::vector<float> translation =
        node.contains("translation") ? Floats(node["translation"]) : std::vector<float>{0, 0, 0};
    const std::vector<float> rotation =
        node.contains("rotation") ? Floats(node["rotation"]) : std::vector<float>{0, 0, 0, 1};
    const std::vector<float> scale =
        node.contains("scale") ? Floats(node["scale"]) : std::vector<float>{1, 1, 1};
    ExpectSameArray(translation, Components(std::vector<glm::vec3>{t.translation}), 0, s.name(j));
    ExpectSameArray(rotation, {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w}, 0,
                    s.name(j));
    ExpectSameArray(scale, Components(std::vector<glm::vec3>{t.scale}), 0, s.name(j));
  }
  // The cape: mesh 1, on the second node after the joints; its skin is skin 1.
  const Mesh& cape = model.meshes[1];
  const nlohmann::json& gltf_mesh = file.doc["meshes"][1];
  EXPECT_EQ(gltf_mesh["name"], "Cape");
  const nlohmann::json& primitive = gltf_mesh["primitives"][0];
  const nlohmann::json& attributes = primitive["attributes"];
  ExpectSameArray(file.Read<float>(attributes["POSITION"]), Components(cape.positions), 0,
                  "positions");
  ExpectSameArray(file.Read<float>(attributes["NORMAL"]), Components(cape.normals), 0, "normals");
  ExpectSameArray(file.Read<float>(attributes["TANGENT"]), Components(cape.tangents), 0,
                  "tangents");
  ExpectSameArray(file.Read<float>(attributes["TEXCOORD_0"]), Components(cape.uvs), 0, "uvs");
  ExpectSameArray(file.Read<float>(attributes["WEIGHTS_0"]), Components(cape.weights), 0,
                  "weights");
  ExpectSameArray(file.Read<float>(attributes["WEIGHTS_1"]), Components(cape.extra_weights), 0,
                  "extra weights");
  // Eight bones: joint indices in one byte each.
  EXPECT_EQ(file.doc["accessors"][attributes["JOINTS_1"].get<size_t>()]["componentType"], 5121);
  std::vector<uint16_t> joints, extra_joints;
  for (const uint8_t j : file.Read<uint8_t>(attributes["JOINTS_0"])) joints.push_back(j);
  for (const uint8_t j : file.Read<uint8_t>(attributes["JOINTS_1"])) extra_joints.push_back(j);
  ExpectSameArray(joints, Components(cape.joints), 0, "joints");
  ExpectSameArray(extra_joints, Components(cape.extra_joints), 0, "extra joints");
  std::vector<uint32_t> indices;
  for (const uint16_t i : file.Read<uint16_t>(primitive["indices"])) indices.push_back(i);
  EXPECT_EQ(indices, cape.indices);
  const nlohmann::json& skin = file.doc["skins"][1];
  EXPECT_EQ(skin["joints"].get<std::vector<int>>(), cape.bone_joints);
  ExpectSameArray(file.Read<float>(skin["inverseBindMatrices"]),
                  Components(cape.bone_inverse_binds), 0, "inverse binds");
  ASSERT_EQ(primitive["targets"].size(), 3u);
  for (size_t t = 0; t < 3; ++t) {
    const MorphTarget& target = cape.targets[t];
    const nlohmann::json& written = primitive["targets"][t];
    const std::vector<glm::vec3> zeros(cape.positions.size(), glm::vec3(0.0f));
    ExpectSameArray(file.Read<float>(written["POSITION"]), Components(target.positions), 0,
                    target.name + " positions");
    ExpectSameArray(file.Read<float>(written["NORMAL"]), Components(target.normals), 0,
                    target.name + " normals");
    ExpectSameArray(file.Read<float>(written["TANGENT"]),
                    Components(target.tangents.empty() ? zeros : target.tangents), 0,
                    target.name + " tangents");
  }
  EXPECT_EQ(gltf_mesh["extras"]["targetNames"],
            nlohmann::json::array({"Billow", "Lift", "Nothing"}));
  ExpectSameArray(Floats(gltf_mesh["weights"]), cape.target_weights, 0, "default weights");
  // Key values of every track of the walk.
  const Clip& walk = model.clips[0];
  const nlohmann::json& animation = file.doc["animations"][0];
  EXPECT_EQ(animation["name"], walk.name);
  size_t checked = 0;
  for (const auto& channel : animation["channels"]) {
    const int joint = channel["target"]["node"];
    const std::string property = channel["target"]["path"];
    const nlohmann::json& sampler = animation["samplers"][channel["sampler"].get<size_t>()];
    for (const JointAnimation& a : walk.channels) {
      if (a.joint != joint) continue;
      const std::vector<float> times = file.Read<float>(sampler["input"]);
      const std::vector<float> values = file.Read<float>(sampler["output"]);
      if (property == "rotation") {
        ExpectSameArray(times, a.rotation.times, 0, "rotation times");
        ExpectSameArray(values, Components(a.rotation.values), 0, "rotations");
      } else {
        const Track<glm::vec3>& track = property == "translation" ? a.translation : a.scale;
        ExpectSameArray(times, track.times, 0, property + " times");
        ExpectSameArray(values, Components(track.values), 0, property + " values");
      }
      ++checked;
    }
  }
  size_t tracks = 0;
  for (const JointAnimation& a : walk.channels) {
    tracks += size_t(!a.translation.empty()) + size_t(!a.rotation.empty()) + !a.scale.empty();
  }
  EXPECT_EQ(checked, tracks);
  EXPECT_GT(checked, 0u);
}

// Morph deltas that move few vertices are written sparse (indices and values only), deltas that
// are all zero with no data at all, the others dense; all read back the same (above).
TEST(ExportFile, MostlyZeroDeltasAreWrittenSparse) {
  const std::string path = Temp("sparse.glb");
  std::string error;
  ASSERT_TRUE(ExportGltf(RichModel(), path, &error)) << error;
  const GlbFile file(path);
  const nlohmann::json& targets = file.doc["meshes"][1]["primitives"][0]["targets"];
  const nlohmann::json& accessors = file.doc["accessors"];
  const nlohmann::json& billow = accessors[targets[0]["POSITION"].get<size_t>()];
  EXPECT_TRUE(billow.contains("bufferView"));
  EXPECT_FALSE(billow.contains("sparse"));
  const nlohmann::json& lift = accessors[targets[1]["POSITION"].get<size_t>()];
  EXPECT_FALSE(lift.contains("bufferView"));
  ASSERT_TRUE(lift.contains("sparse"));
  EXPECT_EQ(lift["sparse"]["count"], 2);
  EXPECT_EQ(lift["min"], nlohmann::json::array({0.0, 0.0, 0.0}));
  EXPECT_EQ(lift["max"][1].get<float>(), 0.05f);
  const nlohmann::json& nothing = accessors[targets[2]["POSITION"].get<size_t>()];
  EXPECT_FALSE(nothing.contains("bufferView"));
  EXPECT_FALSE(nothing.contains("sparse"));
  EXPECT_EQ(nothing["count"], 24);
}

// The same model gives the same bytes, every time and from every copy of it: .glb, and .gltf
// with its .bin.
TEST(ExportFile, SameModelGivesTheSameBytes) {
  const std::string dir = FreshDir("deterministic");
  std::string error;
  for (const char* ext : {".glb", ".gltf"}) {
    SCOPED_TRACE(ext);
    const std::string a = dir + "/a" + ext, b = dir + "/b" + ext;
    ASSERT_TRUE(ExportGltf(RichModel(), a, &error)) << error;
    ASSERT_TRUE(ExportGltf(RichModel(), b, &error)) << error;
    const std::string first = ReadBytes(a);
    EXPECT_GT(first.size() + (std::filesystem::exists(dir + "/a.bin")
                                  ? std::filesystem::file_size(dir + "/a.bin")
                                  : 0),
              100000u);
    std::string second = ReadBytes(b);
    if (std::string(ext) == ".gltf") {
      EXPECT_TRUE(ReadBytes(dir + "/a.bin") == ReadBytes(dir + "/b.bin"));
      // The text differs only in the name of its .bin.
      const size_t at = second.find("\"b.bin\"");
      ASSERT_NE(at, std::string::npos);
      second[at + 1] = 'a';
    }
    EXPECT_TRUE(first == second);
    ASSERT_TRUE(ExportGltf(RichModel(), a, &error)) << error;  // over the earlier export
    EXPECT_TRUE(first == ReadBytes(a));
  }
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf");
  SKIP_IF_NO_MODEL(path, "CesiumMan");
  for (const char* out : {"/cesium_a.glb", "/cesium_b.glb"}) {
    const LoadResult loaded = LoadModel(path);  // a fresh load each time
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    ASSERT_TRUE(ExportGltf(*loaded.model, dir + out, &error)) << error;
  }
  EXPECT_TRUE(ReadBytes(dir + "/cesium_a.glb") == ReadBytes(dir + "/cesium_b.glb"));
}

}  // namespace
}  // namespace assets

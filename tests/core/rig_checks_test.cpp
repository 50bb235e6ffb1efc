// The rig checks of `skelview check`, rule by rule: each rule finds its mistake in a rig made here
// (positive), and does not fire on the clean humanoid or on a near miss (negative). Files are
// written as glTF (OBJ for names that are not UTF-8) and loaded by the importer, so rules that
// read load warnings are tested against the importer's real messages.
#include "app/core/rig_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <string>

#include "assets/importer.h"
#include "tests/core/test_rig.h"
#include "tests/test_paths.h"

namespace {

using app::Finding;
using app::RuleConfig;
using app::Severity;
using testrig::Humanoid;
using testrig::Rig;
using json = nlohmann::json;

std::string TempPath(const std::string& name) { return testpaths::TempDir() + "/" + name; }

std::string Write(const std::string& name, const testgltf::Builder& b) {
  const std::string path = TempPath(name);
  b.WriteGltf(path);
  return path;
}

std::string WriteText(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<Finding> CheckFile(const std::string& path, const RuleConfig& config = RuleConfig()) {
  assets::LoadResult result = assets::LoadModel(path);
  if (!result.ok()) return app::LoadFailureFindings(result.error, config);
  return app::CheckModel(*result.model, config);
}

std::vector<Finding> CheckRig(const std::string& name, const Rig& rig) {
  return CheckFile(Write(name, rig.Build()));
}

std::string Describe(const std::vector<Finding>& findings) {
  std::string out = "findings:\n";
  for (const Finding& f : findings) {
    out += "  [" + f.rule + "] " + app::SeverityName(f.severity) + ": " + f.message + " @ " +
           f.location + "\n";
  }
  return out;
}

std::set<std::string> RulesOf(const std::vector<Finding>& findings) {
  std::set<std::string> rules;
  for (const Finding& f : findings) rules.insert(f.rule);
  return rules;
}

const Finding* FindingOf(const std::vector<Finding>& findings, const std::string& rule) {
  for (const Finding& f : findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

#define EXPECT_FINDS(findings, rule) \
  EXPECT_TRUE(RulesOf(findings).count(rule)) << "expected " << (rule) << "\n" << Describe(findings)
#define EXPECT_NOT_FINDS(findings, rule)                                             \
  EXPECT_FALSE(RulesOf(findings).count(rule)) << "did not expect " << (rule) << "\n" \
                                              << Describe(findings)

int Node(const Rig& rig, const std::string& name) {
  const int j = rig.Find(name);
  EXPECT_GE(j, 0) << name;
  return j;
}

// --- the negative case of every rule ---------------------------------------------------------

TEST(RigChecks, CleanHumanoidHasNoFindingAtAll) {
  const std::vector<Finding> findings = CheckRig("clean.gltf", Humanoid());
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(RigChecks, EveryRuleHasAStableIdASeverityAndOneLineOfDescription) {
  const std::vector<app::RuleInfo>& rules = app::Rules();
  EXPECT_GE(rules.size(), 20u);
  std::set<std::string> ids;
  for (const app::RuleInfo& rule : rules) {
    EXPECT_TRUE(ids.insert(rule.id).second) << rule.id;
    EXPECT_NE(rule.severity, Severity::kOff) << rule.id;
    EXPECT_EQ(std::string(rule.description).find('\n'), std::string::npos) << rule.id;
    EXPECT_GT(std::string(rule.description).size(), 20u) << rule.id;
  }
  for (const char* id : {"load",
                         "weights.not-normalized",
                         "weights.unweighted",
                         "weights.too-many-influences",
                         "skin.joint-outside-scene",
                         "skin.inverse-bind-mismatch",
                         "bone.zero-length",
                         "bone.non-uniform-scale",
                         "rotation.non-unit",
                         "names.duplicate",
                         "names.not-utf8",
                         "limbs.not-found",
                         "limbs.asymmetric",
                         "limbs.straight-at-rest",
                         "ik.unreachable-rest",
                         "clip.non-finite",
                         "clip.huge-translation",
                         "clip.root-motion",
                         "morph.no-effect",
                         "mesh.far-from-skeleton",
                         "texture.missing",
                         "extension.unsupported"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

// --- load ------------------------------------------------------------------------------------

TEST(RigChecks, LoadReportsAFileThatDoesNotLoadAsAnError) {
  const std::string path = WriteText("broken.glb", "glTF this is not a binary glTF at all");
  const std::vector<Finding> findings = CheckFile(path);
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].rule, "load");
  EXPECT_EQ(findings[0].severity, Severity::kError);
  EXPECT_THAT(findings[0].message, testing::HasSubstr("broken.glb"));
  EXPECT_TRUE(findings[0].location.empty());
  EXPECT_NOT_FINDS(CheckRig("load-ok.gltf", Humanoid()), "load");
}

TEST(RigChecks, LoadRepairedQuotesRepairsNoOtherRuleCovers) {
  testgltf::Builder b = Humanoid().Build();
  json points = b.doc["meshes"][0]["primitives"][0];
  points["mode"] = 0;  // POINTS: not loaded, with a warning
  b.doc["meshes"][0]["primitives"].push_back(points);
  const std::vector<Finding> findings = CheckFile(Write("points.gltf", b));
  EXPECT_FINDS(findings, "load.repaired");
  EXPECT_EQ(FindingOf(findings, "load.repaired")->severity, Severity::kNote);
}

TEST(RigChecks, ExtensionUnsupportedNamesExtensionsSkelviewDoesNotRead) {
  testgltf::Builder b = Humanoid().Build();
  b.doc["extensionsUsed"] = {"KHR_texture_transform", "KHR_mesh_quantization"};
  const std::vector<Finding> findings = CheckFile(Write("ext.gltf", b));
  EXPECT_FINDS(findings, "extension.unsupported");
  EXPECT_THAT(FindingOf(findings, "extension.unsupported")->message,
              testing::AllOf(testing::HasSubstr("KHR_texture_transform"),
                             testing::Not(testing::HasSubstr("KHR_mesh_quantization"))));
  testgltf::Builder read = Humanoid().Build();
  read.doc["extensionsUsed"] = {"KHR_mesh_quantization"};  // one skelview reads
  EXPECT_NOT_FINDS(CheckFile(Write("ext-read.gltf", read)), "extension.unsupported");
}

// --- weights ---------------------------------------------------------------------------------

TEST(RigChecks, WeightsNotNormalizedFindsWeightsNotSummingToOne) {
  Rig rig = Humanoid();
  rig.vertices[0].influences = {{0, 0.5f}};
  const std::vector<Finding> findings = CheckRig("half-weight.gltf", rig);
  EXPECT_FINDS(findings, "weights.not-normalized");
  EXPECT_EQ(FindingOf(findings, "weights.not-normalized")->location, "mesh 'body', vertex 0");
  Rig split = Humanoid();
  split.vertices[0].influences = {{0, 0.5f}, {1, 0.5f}};
  EXPECT_NOT_FINDS(CheckRig("split-weight.gltf", split), "weights.not-normalized");
}

TEST(RigChecks, WeightsUnweightedFindsVerticesNoJointMoves) {
  Rig rig = Humanoid();
  rig.vertices[4].influences = {{0, 0.0f}};
  EXPECT_FINDS(CheckRig("unweighted.gltf", rig), "weights.unweighted");
  EXPECT_NOT_FINDS(CheckRig("weighted.gltf", Humanoid()), "weights.unweighted");
}

TEST(RigChecks, WeightsTooManyInfluencesFindsMoreThanEight) {
  Rig rig = Humanoid();
  rig.vertices[0].influences.clear();
  for (int j = 0; j < 9; ++j) rig.vertices[0].influences.push_back({j, 1.0f / 9.0f});
  EXPECT_FINDS(CheckRig("nine.gltf", rig), "weights.too-many-influences");
  Rig eight = Humanoid();
  eight.vertices[0].influences.clear();
  for (int j = 0; j < 8; ++j) eight.vertices[0].influences.push_back({j, 1.0f / 8.0f});
  EXPECT_NOT_FINDS(CheckRig("eight.gltf", eight), "weights.too-many-influences");
}

TEST(RigChecks, WeightsOverFourInfluencesFindsFiveOrMore) {
  Rig rig = Humanoid();
  rig.vertices[0].influences.clear();
  for (int j = 0; j < 5; ++j) rig.vertices[0].influences.push_back({j, 0.2f});
  const std::vector<Finding> findings = CheckRig("five.gltf", rig);
  EXPECT_FINDS(findings, "weights.over-four-influences");
  EXPECT_NOT_FINDS(findings, "weights.too-many-influences");
  Rig four = Humanoid();
  four.vertices[0].influences.clear();
  for (int j = 0; j < 4; ++j) four.vertices[0].influences.push_back({j, 0.25f});
  EXPECT_NOT_FINDS(CheckRig("four.gltf", four), "weights.over-four-influences");
}

// --- skins -----------------------------------------------------------------------------------

TEST(RigChecks, SkinJointOutsideSceneFindsSkinJointsTheSceneLacks) {
  Rig rig = Humanoid();
  rig.joints.push_back({"Stray", -1, {0.0f, 0.5f, 0.0f}});
  rig.BindToRest();
  rig.vertices[0].influences = {{static_cast<int>(rig.joints.size()) - 1, 1.0f}};
  testgltf::Builder b = rig.Build();
  // The stray joint is a root node that the scene does not list.
  json& roots = b.doc["scenes"][0]["nodes"];
  for (size_t i = 0; i < roots.size(); ++i) {
    if (roots[i] == static_cast<int>(rig.joints.size()) - 1) roots.erase(i);
  }
  const std::vector<Finding> findings = CheckFile(Write("stray.gltf", b));
  EXPECT_FINDS(findings, "skin.joint-outside-scene");
  EXPECT_EQ(FindingOf(findings, "skin.joint-outside-scene")->severity, Severity::kError);
  EXPECT_NOT_FINDS(CheckRig("no-stray.gltf", Humanoid()), "skin.joint-outside-scene");
}

TEST(RigChecks, InverseBindMismatchFindsBonesBoundElsewhereThanTheirRest) {
  Rig rig = Humanoid();
  const int forearm = Node(rig, "LeftForeArm");
  // Bound with the forearm 10 cm higher than its rest pose puts it.
  rig.inverse_binds[static_cast<size_t>(forearm)] = glm::inverse(
      glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.1f, 0.0f)) * rig.RestModel(forearm));
  const std::vector<Finding> findings = CheckRig("rebound.gltf", rig);
  EXPECT_FINDS(findings, "skin.inverse-bind-mismatch");
  EXPECT_THAT(FindingOf(findings, "skin.inverse-bind-mismatch")->message,
              testing::HasSubstr("'LeftForeArm'"));
  // Every bone bound the same way (the whole mesh placed by one turn) deforms nothing at rest.
  Rig turned = Humanoid();
  const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0.0f, 1.0f, 0.0f));
  for (glm::mat4& m : turned.inverse_binds) m = m * turn;
  EXPECT_NOT_FINDS(CheckRig("turned.gltf", turned), "skin.inverse-bind-mismatch");
}

TEST(RigChecks, MeshFarFromSkeletonFindsMeshesAwayFromOrUnlikeTheirJoints) {
  Rig moved = Humanoid();
  for (glm::mat4& m : moved.inverse_binds) {
    m = m * glm::translate(glm::mat4(1.0f), glm::vec3(100.0f, 0.0f, 0.0f));
  }
  EXPECT_FINDS(CheckRig("moved.gltf", moved), "mesh.far-from-skeleton");
  // A mesh in centimetres on a skeleton in metres: 100 times larger than the joints spread.
  Rig centimetres = Humanoid();
  for (testrig::Vertex& v : centimetres.vertices) v.position *= 100.0f;
  EXPECT_FINDS(CheckRig("centimetres.gltf", centimetres), "mesh.far-from-skeleton");
  EXPECT_NOT_FINDS(CheckRig("placed.gltf", Humanoid()), "mesh.far-from-skeleton");
}

// --- bones -----------------------------------------------------------------------------------

TEST(RigChecks, BoneZeroLengthFindsAnOnlyChildOnItsParent) {
  Rig rig = Humanoid();
  rig.joints.push_back({"HeadTop", Node(rig, "Head"), {0.0f, 0.0f, 0.0f}});
  rig.BindToRest();
  const std::vector<Finding> findings = CheckRig("zero.gltf", rig);
  EXPECT_FINDS(findings, "bone.zero-length");
  EXPECT_EQ(FindingOf(findings, "bone.zero-length")->location, "joint 'Head'");
  Rig top = Humanoid();
  top.joints.push_back({"HeadTop", Node(top, "Head"), {0.0f, 0.15f, 0.0f}});
  top.BindToRest();
  EXPECT_NOT_FINDS(CheckRig("head-top.gltf", top), "bone.zero-length");
}

TEST(RigChecks, BoneNonUniformScaleFindsItAtRestAndInClips) {
  Rig rig = Humanoid();
  rig.joints[static_cast<size_t>(Node(rig, "Spine"))].scale = glm::vec3(1.0f, 1.3f, 1.0f);
  rig.BindToRest();
  rig.TrianglePerJoint();
  EXPECT_FINDS(CheckRig("stretched.gltf", rig), "bone.non-uniform-scale");
  testgltf::Builder clip = Humanoid().Build();
  testrig::AddChannel(&clip, "squash", Node(Humanoid(), "Spine"), "scale", {0.0f, 1.0f},
                      {1, 1, 1, 1, 0.5f, 1});
  const std::vector<Finding> clip_findings = CheckFile(Write("squash.gltf", clip));
  EXPECT_FINDS(clip_findings, "bone.non-uniform-scale");
  EXPECT_THAT(FindingOf(clip_findings, "bone.non-uniform-scale")->location,
              testing::HasSubstr("clip 'squash'"));
  Rig uniform = Humanoid();
  uniform.joints[static_cast<size_t>(Node(uniform, "Spine"))].scale = glm::vec3(1.3f);
  uniform.BindToRest();
  uniform.TrianglePerJoint();
  EXPECT_NOT_FINDS(CheckRig("uniform.gltf", uniform), "bone.non-uniform-scale");
}

TEST(RigChecks, BoneNegativeScaleFindsMirroredJoints) {
  Rig rig = Humanoid();
  rig.joints[static_cast<size_t>(Node(rig, "Neck"))].scale = glm::vec3(-1.0f, 1.0f, 1.0f);
  rig.BindToRest();
  rig.TrianglePerJoint();
  EXPECT_FINDS(CheckRig("mirrored.gltf", rig), "bone.negative-scale");
  Rig turned = Humanoid();  // a half turn is no mirror
  turned.joints[static_cast<size_t>(Node(turned, "Neck"))].rotation =
      glm::angleAxis(3.14159265f, glm::vec3(0.0f, 1.0f, 0.0f));
  turned.BindToRest();
  turned.TrianglePerJoint();
  EXPECT_NOT_FINDS(CheckRig("half-turn.gltf", turned), "bone.negative-scale");
}

TEST(RigChecks, RotationNonUnitFindsQuaternionsTheImporterNormalised) {
  testgltf::Builder b = Humanoid().Build();
  b.doc["nodes"][Node(Humanoid(), "Chest")]["rotation"] = {0.0, 0.0, 0.0, 2.0};
  const std::vector<Finding> findings = CheckFile(Write("long-quaternion.gltf", b));
  EXPECT_FINDS(findings, "rotation.non-unit");
  EXPECT_THAT(FindingOf(findings, "rotation.non-unit")->message, testing::HasSubstr("Chest"));
  EXPECT_NOT_FINDS(CheckRig("unit.gltf", Humanoid()), "rotation.non-unit");
}

// --- names -----------------------------------------------------------------------------------

TEST(RigChecks, NamesDuplicateFindsNodesSharingAName) {
  testgltf::Builder b = Humanoid().Build();
  b.doc["nodes"][Node(Humanoid(), "Chest")]["name"] = "Spine";
  EXPECT_FINDS(CheckFile(Write("two-spines.gltf", b)), "names.duplicate");
  EXPECT_NOT_FINDS(CheckRig("unique.gltf", Humanoid()), "names.duplicate");
}

TEST(RigChecks, NamesNotUtf8FindsNamesWithOtherBytes) {
  const std::string triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  const std::vector<Finding> findings =
      CheckFile(WriteText("latin1.obj", "o caf\xE9\n" + triangle));
  EXPECT_FINDS(findings, "names.not-utf8");
  EXPECT_THAT(FindingOf(findings, "names.not-utf8")->message, testing::HasSubstr("caf\\xE9"));
  EXPECT_NOT_FINDS(CheckFile(WriteText("utf8.obj", "o caf\xC3\xA9\n" + triangle)),
                   "names.not-utf8");
}

// --- limbs and IK ----------------------------------------------------------------------------

TEST(RigChecks, LimbsNotFoundFindsSkinsWithoutArmsOrLegsOrWithOneSideMissing) {
  EXPECT_FINDS(CheckFile(Write("strip.gltf", testgltf::SkinnedStrip())), "limbs.not-found");
  Rig one_armed = Humanoid();
  one_armed.joints.resize(static_cast<size_t>(Node(one_armed, "RightUpLeg")) + 3);  // no arm
  one_armed.BindToRest();
  one_armed.TrianglePerJoint();
  const std::vector<Finding> findings = CheckRig("one-armed.gltf", one_armed);
  EXPECT_FINDS(findings, "limbs.not-found");
  EXPECT_THAT(FindingOf(findings, "limbs.not-found")->message, testing::HasSubstr("no right arm"));
  EXPECT_NOT_FINDS(CheckRig("four-limbs.gltf", Humanoid()), "limbs.not-found");
}

TEST(RigChecks, LimbsAsymmetricFindsSidesOfDifferentLengths) {
  Rig rig = Humanoid();
  rig.joints[static_cast<size_t>(Node(rig, "RightFoot"))].translation.y = -0.48f;  // +14%
  rig.BindToRest();
  rig.TrianglePerJoint();
  const std::vector<Finding> findings = CheckRig("long-shin.gltf", rig);
  EXPECT_FINDS(findings, "limbs.asymmetric");
  EXPECT_THAT(FindingOf(findings, "limbs.asymmetric")->message, testing::HasSubstr("shin"));
  Rig close = Humanoid();
  close.joints[static_cast<size_t>(Node(close, "RightFoot"))].translation.y = -0.435f;  // +3.5%
  close.BindToRest();
  close.TrianglePerJoint();
  EXPECT_NOT_FINDS(CheckRig("close-shin.gltf", close), "limbs.asymmetric");
}

TEST(RigChecks, LimbsStraightAtRestFindsLimbsWithoutABend) {
  Rig rig = Humanoid();
  rig.joints[static_cast<size_t>(Node(rig, "LeftLeg"))].translation.z = 0.0f;
  rig.joints[static_cast<size_t>(Node(rig, "LeftFoot"))].translation.z = 0.0f;
  rig.BindToRest();
  rig.TrianglePerJoint();
  const std::vector<Finding> findings = CheckRig("straight-leg.gltf", rig);
  EXPECT_FINDS(findings, "limbs.straight-at-rest");
  EXPECT_EQ(FindingOf(findings, "limbs.straight-at-rest")->location, "joint 'LeftLeg'");
  EXPECT_NOT_FINDS(CheckRig("bent-legs.gltf", Humanoid()), "limbs.straight-at-rest");
}

TEST(RigChecks, IkUnreachableRestFindsLimbsTheSolverCannotPlace) {
  // The hips scaled non-uniformly: the legs below them shear as they turn, so no rotation keeps
  // their lengths and the solver misses a bent target.
  Rig rig = Humanoid();
  rig.joints[static_cast<size_t>(Node(rig, "Hips"))].scale = glm::vec3(1.0f, 1.6f, 0.6f);
  rig.BindToRest();
  rig.TrianglePerJoint();
  const std::vector<Finding> findings = CheckRig("sheared-legs.gltf", rig);
  EXPECT_FINDS(findings, "ik.unreachable-rest");
  EXPECT_NOT_FINDS(CheckRig("reachable.gltf", Humanoid()), "ik.unreachable-rest");
}

// --- clips -----------------------------------------------------------------------------------

// The humanoid with a clip "walk" moving the hips from (0, 1, 0) to `end`.
testgltf::Builder HipsClip(const glm::vec3& end) {
  testgltf::Builder b = Humanoid().Build();
  testrig::AddChannel(
      &b, "walk", 0, "translation", {0.0f, 0.5f, 1.0f},
      {0, 1, 0, 0.5f * end.x, 0.5f * (1 + end.y), 0.5f * end.z, end.x, end.y, end.z});
  return b;
}

TEST(RigChecks, ClipEmptyFindsClipsThatMoveNothing) {
  testgltf::Builder b = Humanoid().Build();
  // A weights channel on a node without morph targets: skipped, the clip left empty.
  const int input = b.Floats({0.0f, 1.0f}, "SCALAR", 2);
  b.doc["accessors"][input]["min"] = {0.0};
  b.doc["accessors"][input]["max"] = {1.0};
  const int output = b.Floats({0.0f, 1.0f}, "SCALAR", 2);
  b.doc["animations"] = json::array(
      {{{"name", "nothing"},
        {"samplers", {{{"input", input}, {"output", output}}}},
        {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}}});
  const std::vector<Finding> findings = CheckFile(Write("empty-clip.gltf", b));
  EXPECT_FINDS(findings, "clip.empty");
  EXPECT_EQ(FindingOf(findings, "clip.empty")->location, "clip 'nothing'");
  EXPECT_NOT_FINDS(CheckFile(Write("walk.gltf", HipsClip({0.0f, 1.0f, 0.2f}))), "clip.empty");
}

TEST(RigChecks, ClipNonFiniteFindsKeysTheImporterDropped) {
  testgltf::Builder b = Humanoid().Build();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  testrig::AddChannel(&b, "glitch", 0, "translation", {0.0f, 0.5f, 1.0f},
                      {0, 1, 0, nan, 1, 0, 0, 1, 0});
  EXPECT_FINDS(CheckFile(Write("nan-key.gltf", b)), "clip.non-finite");
  EXPECT_NOT_FINDS(CheckFile(Write("finite.gltf", HipsClip({0.0f, 1.0f, 0.2f}))),
                   "clip.non-finite");
}

TEST(RigChecks, ClipHugeTranslationFindsKeysFarBeyondTheModel) {
  // Centimetres in a metre rig: the hips 500 up.
  EXPECT_FINDS(CheckFile(Write("hips-up.gltf", HipsClip({0.0f, 500.0f, 0.0f}))),
               "clip.huge-translation");
  testgltf::Builder hand = Humanoid().Build();
  testrig::AddChannel(&hand, "fling", Node(Humanoid(), "LeftHand"), "translation", {0.0f, 1.0f},
                      {0.25f, 0, 0.02f, 60.0f, 0, 0});
  const std::vector<Finding> findings = CheckFile(Write("hand-away.gltf", hand));
  EXPECT_FINDS(findings, "clip.huge-translation");
  EXPECT_THAT(FindingOf(findings, "clip.huge-translation")->location,
              testing::HasSubstr("joint 'LeftHand'"));
  // A long walk carries the hips far across the ground: root motion, not a mistake.
  EXPECT_NOT_FINDS(CheckFile(Write("long-walk.gltf", HipsClip({0.0f, 1.0f, 300.0f}))),
                   "clip.huge-translation");
}

TEST(RigChecks, ClipRootMotionNotesHipsThatTravel) {
  const std::vector<Finding> findings =
      CheckFile(Write("travel.gltf", HipsClip({0.0f, 1.0f, 3.0f})));
  EXPECT_FINDS(findings, "clip.root-motion");
  EXPECT_EQ(FindingOf(findings, "clip.root-motion")->severity, Severity::kNote);
  // In place: up and down, never across the ground.
  EXPECT_NOT_FINDS(CheckFile(Write("bob.gltf", HipsClip({0.0f, 1.1f, 0.05f}))), "clip.root-motion");
}

// --- morph targets and textures ---------------------------------------------------------------

// The humanoid with one morph target on its mesh, every vertex moved by `delta`.
testgltf::Builder WithMorphTarget(const glm::vec3& delta) {
  const Rig rig = Humanoid();
  testgltf::Builder b = rig.Build();
  std::vector<float> deltas;
  for (size_t v = 0; v < rig.vertices.size(); ++v)
    deltas.insert(deltas.end(), {delta.x, delta.y, delta.z});
  const int accessor = b.Positions(deltas);
  b.doc["meshes"][0]["primitives"][0]["targets"] = {{{"POSITION", accessor}}};
  b.doc["meshes"][0]["extras"] = {{"targetNames", {"Smile"}}};
  return b;
}

TEST(RigChecks, MorphNoEffectFindsTargetsWithOnlyZeroDeltas) {
  const std::vector<Finding> findings = CheckFile(Write("flat-morph.gltf", WithMorphTarget({})));
  EXPECT_FINDS(findings, "morph.no-effect");
  EXPECT_THAT(FindingOf(findings, "morph.no-effect")->location,
              testing::HasSubstr("morph target 'Smile'"));
  EXPECT_NOT_FINDS(CheckFile(Write("smile.gltf", WithMorphTarget({0.0f, 0.01f, 0.0f}))),
                   "morph.no-effect");
}

TEST(RigChecks, TextureMissingFindsImagesThatCouldNotBeLoaded) {
  auto textured = [](const std::string& uri) {
    testgltf::Builder b = Humanoid().Build();
    b.doc["images"] = {{{"uri", uri}}};
    b.doc["textures"] = {{{"source", 0}}};
    b.doc["materials"] = {
        {{"name", "skin"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
    b.doc["meshes"][0]["primitives"][0]["material"] = 0;
    return b;
  };
  const std::vector<Finding> findings = CheckFile(Write("no-texture.gltf", textured("gone.png")));
  EXPECT_FINDS(findings, "texture.missing");
  EXPECT_THAT(FindingOf(findings, "texture.missing")->message, testing::HasSubstr("gone.png"));
  WriteText("skin.tga", testgltf::SmallTga());
  EXPECT_NOT_FINDS(CheckFile(Write("textured.gltf", textured("skin.tga"))), "texture.missing");
}

// --- configuration and limits ----------------------------------------------------------------

TEST(RigChecks, ConfigTurnsRulesOffAndSetsTheirSeverity) {
  Rig rig = Humanoid();
  rig.vertices[0].influences = {{0, 0.5f}};
  rig.vertices[4].influences = {{0, 0.0f}};
  const std::string path = Write("two-problems.gltf", rig.Build());
  RuleConfig config;
  std::string error;
  ASSERT_TRUE(app::ParseRuleConfig(
      R"({"rules": {"weights.unweighted": "off", "weights.not-normalized": "error"}})", "c.json",
      &config, &error))
      << error;
  const std::vector<Finding> findings = CheckFile(path, config);
  EXPECT_NOT_FINDS(findings, "weights.unweighted");
  ASSERT_NE(FindingOf(findings, "weights.not-normalized"), nullptr) << Describe(findings);
  EXPECT_EQ(FindingOf(findings, "weights.not-normalized")->severity, Severity::kError);
  EXPECT_EQ(FindingOf(CheckFile(path), "weights.not-normalized")->severity, Severity::kWarning);
}

TEST(RigChecks, ConfigErrorsNameTheFileAndTheProblem) {
  RuleConfig config;
  std::string error;
  EXPECT_FALSE(
      app::ParseRuleConfig("{\"rules\": {\"no.such\": \"error\"}}", "c.json", &config, &error));
  EXPECT_THAT(error, testing::AllOf(testing::HasSubstr("c.json"), testing::HasSubstr("no.such")));
  EXPECT_FALSE(
      app::ParseRuleConfig("{\"rules\": {\"load\": \"fatal\"}}", "c.json", &config, &error));
  EXPECT_THAT(error, testing::HasSubstr("'load'"));
  EXPECT_FALSE(app::ParseRuleConfig("{\"rulez\": {}}", "c.json", &config, &error));
  EXPECT_THAT(error, testing::HasSubstr("rulez"));
  EXPECT_FALSE(app::ParseRuleConfig("{\"rules\": ", "c.json", &config, &error));
  EXPECT_THAT(error, testing::HasSubstr("not valid JSON"));
  EXPECT_FALSE(
      app::ParseRuleConfig("{\"rules\": {\"a\\nb\": \"off\"}}", "c.json", &config, &error));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  for (Severity s : config.severity) EXPECT_NE(s, Severity::kOff);  // unchanged by failures
}

TEST(RigChecks, FindingsOfOneRuleAreCappedWithACountOfTheRest) {
  Rig rig = Humanoid();
  for (int i = 0; i < 14; ++i) {  // 14 joints on the head, each with an only child on it
    const int parent = rig.Find("Head");
    rig.joints.push_back(
        {"Tip" + std::to_string(i), parent, {0.01f * static_cast<float>(i), 0.1f, 0.0f}});
    rig.joints.push_back(
        {"TipEnd" + std::to_string(i), static_cast<int>(rig.joints.size()) - 1, {}});
  }
  rig.BindToRest();
  const std::vector<Finding> findings = CheckRig("many-zero.gltf", rig);
  size_t count = 0;
  for (const Finding& f : findings) count += f.rule == "bone.zero-length" ? 1 : 0;
  EXPECT_EQ(count, static_cast<size_t>(app::kMaxFindingsPerRule) + 1) << Describe(findings);
  EXPECT_THAT(findings.back().message, testing::HasSubstr("4 more findings"));
}

TEST(RigChecks, FindingsComeInRuleOrder) {
  Rig rig = Humanoid();
  rig.vertices[0].influences = {{0, 0.5f}};
  rig.joints[static_cast<size_t>(Node(rig, "LeftLeg"))].translation.z = 0.0f;
  rig.joints[static_cast<size_t>(Node(rig, "LeftFoot"))].translation.z = 0.0f;
  rig.BindToRest();
  const std::vector<Finding> findings = CheckRig("ordered.gltf", rig);
  ASSERT_GE(findings.size(), 2u) << Describe(findings);
  for (size_t i = 1; i < findings.size(); ++i) {
    EXPECT_LE(app::FindRule(findings[i - 1].rule), app::FindRule(findings[i].rule));
  }
}

TEST(RigChecks, LoadWarningsMapToTheirRules) {
  EXPECT_EQ(app::RuleOfLoadWarning("texture 'a.png' of material 'm' could not be loaded (x)"),
            "texture.missing");
  EXPECT_EQ(app::RuleOfLoadWarning("3 vertices had weights not summing to 1; renormalised"), "");
  EXPECT_EQ(
      app::RuleOfLoadWarning("2 bones refer to no node (e.g. 'x'); their weights were dropped"),
      "skin.joint-outside-scene");
  EXPECT_EQ(app::RuleOfLoadWarning("something new was repaired"), "load.repaired");
}

}  // namespace

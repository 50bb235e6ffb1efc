// Per-character-frame cost of DESIGN.md's data flow — sample the clip, solve four limbs, forward
// kinematics, skin palette: one character on the viewer's path (BM_CharacterFrame: the frame
// pipeline with the window's default chains, for CesiumMan and a synthetic 256-joint character)
// and a crowd of 1,000 CesiumMen updated on one core (BM_Crowd; the goal: under 2 ms per frame).
// The goal of the viewer's path: one character's frame within 5x a crowd member's.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "app/core/chain_edit.h"
#include "app/core/crowd.h"
#include "assets/importer.h"
#include "ik/body/limbs.h"
#include "ik/core/kinematics.h"

namespace {

std::string SharedModel(const std::string& relative) {
  const char* env = std::getenv("SKELVIEW_MODELS");
  const std::string dir = env && *env ? env : SKELVIEW_SHARED_MODELS;
  const std::string path = dir + "/" + relative;
  return std::filesystem::exists(path) ? path : std::string();
}

const assets::Model* CesiumMan() {
  static const std::unique_ptr<assets::Model> model = [] {
    const std::string path =
        SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
    if (path.empty()) return std::unique_ptr<assets::Model>();
    assets::LoadResult loaded = assets::LoadModel(path);
    return loaded.ok() ? std::make_unique<assets::Model>(std::move(*loaded.model))
                       : std::unique_ptr<assets::Model>();
  }();
  return model.get();
}

// A 256-joint character: hips, a spine, two legs and two arms (so four limbs are detected), and
// a long tail and fingers to reach 256 joints; one mesh bone per joint and a 1 s clip animating
// every joint's rotation at 30 keys per second.
assets::Model Synthetic256() {
  std::vector<ik::JointDesc> joints;
  auto add = [&](const std::string& name, int parent, glm::vec3 offset) {
    ik::JointDesc j;
    j.name = name;
    j.parent = parent;
    j.rest.translation = offset;
    j.rest.rotation = glm::angleAxis(0.05f * float(joints.size() % 7), glm::vec3(0, 1, 0));
    joints.push_back(j);
    return static_cast<int>(joints.size()) - 1;
  };
  const int hips = add("Hips", -1, {0, 1.0f, 0});
  const int chest = add("Spine", hips, {0, 0.4f, 0});
  for (const char* side : {"Left", "Right"}) {
    const float x = side[0] == 'L' ? 1.0f : -1.0f;
    const int up = add(std::string(side) + "UpLeg", hips, {0.1f * x, -0.05f, 0});
    const int leg = add(std::string(side) + "Leg", up, {0, -0.45f, 0.03f});
    add(std::string(side) + "Foot", leg, {0, -0.42f, -0.03f});
    const int arm = add(std::string(side) + "Arm", chest, {0.2f * x, 0.1f, 0});
    const int fore = add(std::string(side) + "ForeArm", arm, {0.25f * x, -0.05f, -0.03f});
    const int hand = add(std::string(side) + "Hand", fore, {0.25f * x, -0.02f, 0.03f});
    for (int f = 0; f < 5; ++f) {
      int parent = hand;
      for (int k = 0; k < 3; ++k) {
        parent = add(std::string(side) + "Finger" + std::to_string(f) + "_" + std::to_string(k),
                     parent, {0.02f * x, 0, 0.01f * float(f - 2)});
      }
    }
  }
  int tail = hips;
  while (joints.size() < 256)
    tail = add("Tail" + std::to_string(joints.size()), tail, {0, 0, -0.01f});
  std::string error;
  assets::Model model;
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(model.skeleton.joint_count(), true);
  assets::Mesh mesh;
  mesh.name = "bones";
  mesh.skinned = true;
  for (int j = 0; j < model.skeleton.joint_count(); ++j) {
    mesh.bone_joints.push_back(j);
    mesh.bone_inverse_binds.push_back(model.skeleton.inverse_binds()[j]);
  }
  model.meshes.push_back(mesh);
  assets::Clip clip;
  clip.name = "wave";
  clip.duration = 1.0f;
  for (int j = 0; j < model.skeleton.joint_count(); ++j) {
    assets::JointAnimation channel;
    channel.joint = j;
    for (int k = 0; k <= 30; ++k) {
      const float t = float(k) / 30.0f;
      channel.rotation.times.push_back(t);
      channel.rotation.values.push_back(
          model.skeleton.rest_locals()[j].rotation *
          glm::angleAxis(0.2f * std::sin(6.2831853f * t + float(j)), glm::vec3(1, 0, 0)));
    }
    clip.channels.push_back(channel);
  }
  model.clips.push_back(clip);
  return model;
}

const assets::Model& Joints256() {
  static const assets::Model model = Synthetic256();
  return model;
}

// One iteration updates `characters` characters by one frame; items = character-frames.
void RunCrowd(benchmark::State& state, const assets::Model* model, int characters) {
  if (!model) {
    state.SkipWithError("CesiumMan not found under the shared models (set SKELVIEW_MODELS)");
    return;
  }
  const app::Character character(*model);
  app::Crowd crowd(character, characters, /*clip=*/0, /*spacing=*/1.5f);
  if (crowd.chain_count() != 4) {
    state.SkipWithError("expected four limbs");
    return;
  }
  for (auto _ : state) {
    crowd.Update(1.0f / 60.0f);
    benchmark::DoNotOptimize(crowd.palette(0).data());
  }
  state.SetItemsProcessed(state.iterations() * characters);
  state.counters["limbs"] = crowd.chain_count();
  state.counters["joints"] = model->skeleton.joint_count();
}

// One character's frame as the viewer computes it while a clip plays: the frame pipeline with
// the window's default chains (the detected limbs, their targets lifted by the crowd's 0.02 so
// that every solve does the same work as a crowd member's, and the two body handles), then the
// skin palette the viewer uploads. One iteration = one frame.
void RunViewerFrame(benchmark::State& state, const assets::Model* model) {
  if (!model) {
    state.SkipWithError("CesiumMan not found under the shared models (set SKELVIEW_MODELS)");
    return;
  }
  const app::Character character(*model);  // the rig's facts, as the viewer keeps them per load
  app::EditState edit;
  edit.chains = app::DefaultChains(character);
  int limbs = 0;
  for (app::ChainSettings& chain : edit.chains) {
    if (chain.kind != app::ConstraintKind::kTwoBone) continue;
    chain.offset = glm::vec3(0.0f, 0.02f, 0.0f);
    ++limbs;
  }
  if (limbs != 4) {
    state.SkipWithError("expected four limbs");
    return;
  }
  std::vector<int> offsets;
  int total_bones = 0;
  for (const assets::Mesh& mesh : model->meshes) {
    offsets.push_back(total_bones);
    total_bones += static_cast<int>(mesh.bone_joints.size());
  }
  std::vector<glm::mat4> palette(static_cast<size_t>(total_bones));
  app::EditedFrame frame;
  app::PoseState pose;
  const float duration = model->clips.empty() ? 0.0f : model->clips[0].duration;
  float t = 0.0f;
  for (auto _ : state) {
    t = duration > 0.0f ? std::fmod(t + 1.0f / 60.0f, duration) : 0.0f;
    app::EvaluateEditedFrame(character, app::ClipTime{0, t}, edit, &frame, &pose);
    for (size_t m = 0; m < model->meshes.size(); ++m) {
      const assets::Mesh& mesh = model->meshes[m];
      ik::SkinPalette(ik::MakeSkinBones(pose.models, mesh.bone_joints, mesh.bone_inverse_binds),
                      palette.data() + offsets[m]);
    }
    benchmark::DoNotOptimize(palette.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["limbs"] = limbs;
  state.counters["joints"] = model->skeleton.joint_count();
}

void BM_CharacterFrame_CesiumMan(benchmark::State& state) { RunViewerFrame(state, CesiumMan()); }
void BM_CharacterFrame_Joints256(benchmark::State& state) { RunViewerFrame(state, &Joints256()); }
// The crowd goal: 1,000 CesiumMen (sample + 4 IK chains + palette) per frame on one core.
void BM_Crowd1000_CesiumMan(benchmark::State& state) { RunCrowd(state, CesiumMan(), 1000); }

BENCHMARK(BM_CharacterFrame_CesiumMan)
    ->Name("BM_CharacterFrame/cesium_man")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CharacterFrame_Joints256)
    ->Name("BM_CharacterFrame/joints_256")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Crowd1000_CesiumMan)->Name("BM_Crowd/cesium_man_1000")->Unit(benchmark::kMillisecond);

}  // namespace

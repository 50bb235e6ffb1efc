// Retargeting (app/core/retarget.h): a clip of N frames moved between two 65-joint rigs (the
// built-in character with fingers, eyes and a head-top joint; the target scaled and named in
// Mixamo's convention): the joint mapping and the transfer with the feet solved each frame.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "app/core/character.h"
#include "app/core/retarget.h"
#include "assets/builtin/builtin_character.h"
#include "assets/model/animation.h"

namespace {

// The built-in skeleton grown to 65 joints, names given `prefix`, lengths times `scale`, with a
// `frames`-frame clip (30 fps) that loops the built-in walk.
assets::Model Rig65(const std::string& prefix, float scale, int frames) {
  const assets::Model base = assets::MakeBuiltinCharacter();
  const ik::Skeleton& s = base.skeleton;
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < s.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = prefix + s.name(j);
    d.parent = s.parent(j);
    d.rest = s.rest_locals()[size_t(j)];
    d.rest.translation *= scale;
    joints.push_back(d);
  }
  auto add = [&](const std::string& name, int parent, glm::vec3 offset) {
    ik::JointDesc d;
    d.name = prefix + name;
    d.parent = parent;
    d.rest.translation = offset * scale;
    joints.push_back(d);
    return static_cast<int>(joints.size()) - 1;
  };
  for (const char* side : {"Left", "Right"}) {
    const int hand = s.Find(std::string(side) + "Hand");
    const float x = side[0] == 'L' ? 1.0f : -1.0f;
    const char* fingers[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
    for (int f = 0; f < 5; ++f) {
      int parent = hand;
      for (int k = 1; k <= 4; ++k) {
        parent = add(std::string(side) + "Hand" + fingers[f] + std::to_string(k), parent,
                     k == 1 ? glm::vec3(0.03f * x, 0.0f, 0.01f * float(f - 2))
                            : glm::vec3(0.02f * x, 0.0f, 0.0f));
      }
    }
  }
  const int head = s.Find("Head");
  add("LeftEye", head, {0.03f, 0.08f, 0.08f});
  add("RightEye", head, {-0.03f, 0.08f, 0.08f});
  add("HeadTop_End", head, {0.0f, 0.2f, 0.0f});
  std::string error;
  assets::Model model;
  model.source = "rig65";
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(joints.size(), true);
  // The walk, looped to `frames` frames and keyed at every one.
  const assets::Clip& walk = base.clips[size_t(base.FindClip("Walk"))];
  assets::Clip clip;
  clip.name = "Long walk";
  clip.duration = float(frames) / 30.0f;
  ik::Pose pose;
  for (int j = 0; j < s.joint_count(); ++j) {
    assets::JointAnimation ch;
    ch.joint = j;
    clip.channels.push_back(ch);
  }
  for (int f = 0; f <= frames; ++f) {
    const float t = float(f) / 30.0f;
    assets::SampleClip(s, walk, assets::WrapTime(t, walk.duration, true), &pose);
    for (int j = 0; j < s.joint_count(); ++j) {
      assets::JointAnimation& ch = clip.channels[size_t(j)];
      ch.rotation.times.push_back(t);
      ch.rotation.values.push_back(pose.locals[size_t(j)].rotation);
      if (s.parent(j) < 0) {
        ch.translation.times.push_back(t);
        ch.translation.values.push_back(pose.locals[size_t(j)].translation * scale);
      }
    }
  }
  assets::PrepareClip(&clip);
  model.clips.push_back(clip);
  return model;
}

void BM_Retarget(benchmark::State& state) {
  const int frames = static_cast<int>(state.range(0));
  const assets::Model source = Rig65("", 1.0f, frames);
  const assets::Model target = Rig65("mixamorig:", 1.15f, 1);
  const app::Character cs(source), ct(target);
  std::string error;
  for (auto _ : state) {
    app::RetargetMapping mapping;
    if (!app::MapJoints(cs, ct, &mapping, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    assets::Clip clip;
    if (!app::RetargetClip(cs, 0, ct, mapping, 30.0f, "Retargeted", &clip, nullptr, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    benchmark::DoNotOptimize(clip.channels.data());
  }
  state.counters["joints"] = double(target.skeleton.joint_count());
}
BENCHMARK(BM_Retarget)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

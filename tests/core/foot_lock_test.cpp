// Foot contacts of clips, the foot lock and the ground: on a walk made here to skate, on the
// built-in walk, on slopes and stairs, and on the shared CesiumMan's walk.
#include "app/core/foot_lock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <glm/gtc/matrix_transform.hpp>
#include <string>

#include "app/core/bake.h"
#include "app/core/evaluate.h"
#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "tests/test_paths.h"

namespace {

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

// The built-in walk with offset(t) added to its hips' keyed translation.
template <typename Offset>
assets::Model WalkWithHipsMoved(Offset offset) {
  assets::Model model = Builtin();
  assets::Clip& walk = model.clips[0];
  const int hips = model.skeleton.Find("Hips");
  for (assets::JointAnimation& channel : walk.channels) {
    if (channel.joint != hips) continue;
    for (size_t k = 0; k < channel.translation.times.size(); ++k) {
      channel.translation.values[k] += offset(channel.translation.times[k]);
    }
  }
  assets::PrepareClip(&walk);
  return model;
}

// The built-in walk given root motion (the hips travel at the walking speed, so planted feet
// stand still in the world) and a sway of the hips from side to side, 25 mm each way, that the
// planted feet follow: 15-25 mm of skate per step.
assets::Model SkatingWalk() {
  return WalkWithHipsMoved(
      [](float t) { return glm::vec3(0.025f * std::sin(2.0f * 3.14159265f * t), 0.0f, 0.5f * t); });
}

// The built-in walk (in place) with its hips swaying forward and back, 60 mm each way, once a
// second: at the end of the left stance the hips are ahead, so that the planted foot, which the
// lock holds where it landed relative to the travel, ends far behind them, past the reach the
// source's leg has there.
assets::Model ReachingWalk() {
  return WalkWithHipsMoved(
      [](float t) { return glm::vec3(0.0f, 0.0f, -0.06f * std::sin(2.0f * 3.14159265f * t)); });
}

struct Locked {
  app::ClipContacts contacts;
  std::shared_ptr<const app::FootLockPlan> plan;
  app::FootLockReport report;
};

Locked Lock(const assets::Model& model, int clip, const app::Ground& ground = {}) {
  const app::Character character(model);
  Locked out;
  app::BakePlan bake;
  std::string error;
  EXPECT_TRUE(app::PlanBake(character, clip, &bake, &error)) << error;
  EXPECT_TRUE(app::FindClipContacts(character, clip, bake.fps, &out.contacts, &error)) << error;
  app::FootLockOptions options;
  options.ground = ground;
  out.plan = app::PlanFootLock(character, out.contacts, options);
  out.report = app::ReportFootLock(character, out.contacts, ground, out.plan);
  return out;
}

// The feet of the locked clip, sampled as the window plays it (the plan in the edit).
app::FeetSamples LockedFeet(const assets::Model& model, const Locked& l) {
  app::EditState edit;
  edit.foot_lock = l.plan;
  const app::FeetSamples& source = l.contacts.source;
  app::FeetSamples after;
  app::SampleFeet(app::Character(model), source.clip, source.fps, edit, source.legs, &after);
  return after;
}

app::Ground Parse(const std::string& spec) {
  app::Ground ground;
  std::string error;
  EXPECT_TRUE(app::ParseGroundSpec(spec, &ground, &error)) << error;
  return ground;
}

// The largest knee-angle steps of a locked clip against its source's, over every leg and frame
// (degrees): the issue's "the knee angle changes by at most 5 degrees between frames where the
// source did not" (the largest locked step where the source's is under 5), and the largest
// amount by which a locked step exceeds the source's (|step after| - |step before|).
struct KneeSteps {
  float where_source_holds = 0.0f;
  float beyond_source = 0.0f;
};
KneeSteps MeasureKneeSteps(const app::FeetSamples& before, const app::FeetSamples& after) {
  KneeSteps out;
  auto knee = [](const app::FeetSamples& x, size_t i, size_t f) {
    return app::KneeDegrees(x.hip[i][f], x.knee[i][f], x.ankle[i][f]);
  };
  for (size_t i = 0; i < before.legs.size(); ++i) {
    for (size_t f = 1; f < before.ankle[i].size() && f < after.ankle[i].size(); ++f) {
      const float source = std::fabs(knee(before, i, f) - knee(before, i, f - 1));
      const float locked = std::fabs(knee(after, i, f) - knee(after, i, f - 1));
      if (source < 5.0f) out.where_source_holds = std::max(out.where_source_holds, locked);
      out.beyond_source = std::max(out.beyond_source, locked - source);
    }
  }
  return out;
}

// The rule on the knee, both ways: no locked step over 5 degrees where the source holds,
// none more than 5 degrees beyond the source's own.
void ExpectKneesKeepThePace(const KneeSteps& steps) {
  EXPECT_LE(steps.where_source_holds, 5.0f);
  EXPECT_LE(steps.beyond_source, 5.0f);
}

TEST(FootLock, BuiltinWalkHasAContactOnEveryStep) {
  const Locked l = Lock(Builtin(), 0);
  EXPECT_TRUE(l.contacts.in_place);
  EXPECT_NEAR(glm::length(l.contacts.travel), 0.5f, 0.01f);  // the walk's speed
  ASSERT_EQ(l.contacts.source.legs.size(), 2u);
  // Left heel strike at 0 s, right at 0.5 s, each planted for 0.6 s of the 1 s loop.
  const float fps = l.contacts.source.fps;
  auto covers = [&](size_t leg, float from, float to) {
    for (const ik::FootContact& c : l.contacts.contacts[leg]) {
      if (float(c.first) / fps <= from && float(c.last) / fps >= to) return true;
    }
    return false;
  };
  EXPECT_TRUE(covers(0, 0.05f, 0.55f));  // left
  EXPECT_TRUE(covers(1, 0.55f, 0.95f));  // right
  EXPECT_TRUE(covers(1, 0.0f, 0.05f));   // right, the end of the step before the loop
  // The walk's feet do not slide relative to its travel.
  EXPECT_LT(l.report.before.max_skate_mm, 3.0f);
}

TEST(FootLock, SkatingWalkIsLockedToUnderOneMillimetrePerContact) {
  const assets::Model model = SkatingWalk();
  const Locked l = Lock(model, 0);
  EXPECT_FALSE(l.contacts.in_place);  // root motion: measured in the world
  int steps = 0;
  for (const auto& leg : l.report.before.skate_mm) {
    for (float skate : leg) steps += skate >= 15.0f ? 1 : 0;
  }
  EXPECT_GE(steps, 2) << "the generated walk should skate 15-30 mm per step";
  EXPECT_LE(l.report.before.max_skate_mm, 30.0f);
  for (const auto& leg : l.report.after.skate_mm) {
    for (float skate : leg) EXPECT_LE(skate, 1.0f);
  }
  EXPECT_LE(l.report.after.max_skate_mm, 1.0f);
  EXPECT_LE(l.report.knee_jump_deg, 5.0f);
}

TEST(FootLock, BakedLockedClipPlaysTheLock) {
  // The bake (the one frame pipeline with the plan in the edit) gives the locked frames.
  const assets::Model model = SkatingWalk();
  const Locked l = Lock(model, 0);
  app::EditState edit;
  edit.foot_lock = l.plan;
  assets::Model baked = model;
  baked.clips[0] = app::BakeClip(app::Character(model), 0, l.contacts.source.fps, edit);
  app::FeetSamples samples;
  app::SampleFeet(app::Character(baked), 0, l.contacts.source.fps, app::EditState(),
                  l.contacts.source.legs, &samples);
  const app::FeetNumbers numbers = app::MeasureFeet(samples, l.contacts, app::Ground());
  EXPECT_LE(numbers.max_skate_mm, 1.0f);
  EXPECT_GT(l.report.before.max_skate_mm, 15.0f);
  EXPECT_EQ(baked.clips[1].name, model.clips[1].name);  // the other clip kept
}

TEST(FootLock, LockOnlyMovesTheClipItWasPlannedFor) {
  const Locked l = Lock(Builtin(), 0);
  app::EditState edit;
  edit.foot_lock = l.plan;
  app::EditedFrame frame;
  app::PoseState locked, plain;
  const app::Character character(Builtin());
  app::EvaluateEditedFrame(character, app::ClipTime{1, 0.3f}, edit, &frame, &locked);
  app::EvaluateEditedFrame(character, app::ClipTime{1, 0.3f}, app::EditState(), &frame, &plain);
  for (size_t j = 0; j < plain.models.size(); ++j) EXPECT_EQ(locked.models[j], plain.models[j]);
}

// A placed frame (a crowd member's) with the lock is the unplaced locked frame, placed: the plan's
// targets are in model space.
TEST(FootLock, PlacedFrameIsTheLockedFramePlaced) {
  const Locked l = Lock(SkatingWalk(), 0, Parse("ramp,degrees=10"));
  const assets::Model model = SkatingWalk();
  const app::Character character(model);
  app::EditState edit;
  edit.foot_lock = l.plan;
  const glm::mat4 placement = glm::translate(glm::mat4(1.0f), glm::vec3(2.0f, 0.5f, -1.0f)) *
                              glm::mat4_cast(glm::angleAxis(0.7f, glm::vec3(0.0f, 1.0f, 0.0f)));
  for (float t : {0.1f, 0.45f, 0.8f}) {
    app::FrameSource source;
    source.clip_time = app::ClipTime{0, t};
    source.edit = &edit;
    app::EditedFrame frame;
    app::PoseState unplaced, placed;
    app::EvaluateFrame(character, source, &frame, &unplaced);
    source.placement = &placement;
    app::EvaluateFrame(character, source, &frame, &placed);
    for (size_t j = 0; j < unplaced.models.size(); ++j) {
      const glm::vec3 want(placement * unplaced.models[j][3]);
      EXPECT_LT(glm::distance(glm::vec3(placed.models[j][3]), want), 1e-4f) << t << " " << j;
    }
  }
}

TEST(FootLock, PlantedFeetStandOnARampWithTheSoleAlongIt) {
  const app::Ground ramp = Parse("ramp,degrees=10");
  const assets::Model model = SkatingWalk();
  const Locked l = Lock(model, 0, ramp);
  // The source, authored on flat ground, sinks into the ramp and floats over it.
  EXPECT_GT(l.report.before.penetration_mm + l.report.before.float_mm, 20.0f);
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  // Up to a few millimetres over the ground where a heel peels off at a stance's end (the hips,
  // lowered for the uphill foot, leave the downhill leg nearly straight there: held flat, its
  // knee would straighten faster than the source's).
  EXPECT_LE(l.report.after.float_mm, 3.0f);
  EXPECT_LE(l.report.after.max_skate_mm, 1.0f);
  const app::FeetSamples after = LockedFeet(model, l);
  // The knees keep the source's pace (the lock alone changed a knee by 7 degrees in a frame where
  // the source's changed by less than 5).
  const KneeSteps steps = MeasureKneeSteps(l.contacts.source, after);
  ExpectKneesKeepThePace(steps);
  // The sole turned to the ramp's normal: the rest pose's up axis of each planted foot.
  std::vector<glm::mat4> rest;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &rest);
  const glm::vec3 normal = ramp.NormalAt(0.0f, 0.0f);
  for (size_t i = 0; i < after.legs.size(); ++i) {
    const glm::quat rest_foot = glm::quat_cast(glm::mat3(rest[after.legs[i].chain.end]));
    for (const ik::FootContact& c : l.contacts.contacts[i]) {
      const glm::quat turn =
          after.rotation[i][size_t(c.first + c.last) / 2] * glm::inverse(rest_foot);
      const glm::vec3 up = turn * glm::vec3(0.0f, 1.0f, 0.0f);
      EXPECT_GT(glm::dot(up, normal), std::cos(1.0f * 3.14159265f / 180.0f)) << i;
    }
  }
}

// On stairs the planted feet stay planted, on their steps. (Where the hips follow the steps a
// knee cannot keep the source's pace; a heel-off that then turned the foot as far as it could
// slid it 115 mm.)
TEST(FootLock, PlantedFeetStandOnStairs) {
  const Locked l = Lock(Builtin(), 0, Parse("stairs,step=0.1,depth=0.3"));
  EXPECT_GT(l.report.before.float_mm, 50.0f);
  EXPECT_LE(l.report.after.max_skate_mm, 1.0f);
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  EXPECT_LE(l.report.after.float_mm, 1.0f);
}

// The knee steps of a locked clip, sampled as the window plays it.
KneeSteps LockedKneeSteps(const assets::Model& model, const Locked& l) {
  const app::FeetSamples after = LockedFeet(model, l);
  return MeasureKneeSteps(l.contacts.source, after);
}

// The skating walk (root motion) climbing stairs: between the lower foot's contacts the hips rise
// by a step's height. They follow it eased over twice the blend, so that the planted leg's knee
// keeps the pace (risen over the blend alone, they turned it 6.3 degrees in a frame where the
// source's turned 3.5).
TEST(FootLock, SkatingWalkOnStairsKneeKeepsThePace) {
  const assets::Model model = SkatingWalk();
  const Locked l = Lock(model, 0, Parse("stairs,step=0.15,depth=0.4"));
  EXPECT_LE(l.report.after.max_skate_mm, 1.0f);
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  EXPECT_LE(l.report.after.float_mm, 1.0f);
  const KneeSteps steps = LockedKneeSteps(model, l);
  ExpectKneesKeepThePace(steps);
}

// On a 12 degree ramp the built-in walk's knees keep the source's pace.
TEST(FootLock, BuiltinWalkOnARampKneeKeepsThePace) {
  const Locked l = Lock(Builtin(), 0, Parse("ramp,degrees=12"));
  EXPECT_LE(l.report.after.max_skate_mm, 1.1f);
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  const KneeSteps steps = LockedKneeSteps(Builtin(), l);
  ExpectKneesKeepThePace(steps);
}

// The built-in walk is in place: on stairs its ground passes back under it with the travel (a
// treadmill), so a planted foot stays on the step it landed on while it slides back in model
// space, and the walk rises as it travels. (Read in model space, the left foot's contact crossed
// the step edge at z = 0, its target dropped the whole step and the knee turned 61 degrees in a
// frame.)
TEST(FootLock, InPlaceWalkOnStairsStaysOnItsStepsAndClimbs) {
  const app::Ground stairs = Parse("stairs,step=0.15,depth=0.4");
  const Locked l = Lock(Builtin(), 0, stairs);
  ASSERT_TRUE(l.contacts.in_place);
  EXPECT_LE(l.report.after.max_skate_mm, 1.0f);
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  EXPECT_LE(l.report.after.float_mm, 1.0f);
  const app::FeetSamples after = LockedFeet(Builtin(), l);
  ExpectKneesKeepThePace(MeasureKneeSteps(l.contacts.source, after));
  // Each planted foot over one step for its whole contact, in the ground's frame; the later
  // contacts on higher steps.
  float lowest = 1e9f, highest = -1e9f;
  for (size_t i = 0; i < after.legs.size(); ++i) {
    for (const ik::FootContact& c : l.contacts.contacts[i]) {
      const glm::vec3 first =
          l.contacts.OnGround(after.ankle[i][size_t(c.first)], after.Time(c.first));
      const float step = stairs.HeightAt(first.x, first.z);
      lowest = std::min(lowest, step);
      highest = std::max(highest, step);
      for (int f = c.first; f <= c.last; ++f) {
        const glm::vec3 at = l.contacts.OnGround(after.ankle[i][size_t(f)], after.Time(f));
        EXPECT_EQ(stairs.HeightAt(at.x, at.z), step) << i << " " << f;
      }
    }
  }
  EXPECT_GE(highest - lowest, 0.15f - 1e-4f);
  // The walk climbs: the hips end higher than they start.
  EXPECT_GT(l.plan->hips_offset.back() - l.plan->hips_offset.front(), 0.5f * 0.15f);
}

// Down a ramp or stairs the in-place walk's knees keep the source's pace, its feet planted: a
// foot landing ahead of the hips on lower ground than it left arrives a little earlier along its
// way (PaceKnees' backward pass). Without it the knee straightened 7.0 degrees in a frame where
// the source's turned 4.2 (12 degrees down), 7.7 down stairs.
TEST(FootLock, InPlaceWalkDownhillKneeKeepsThePace) {
  for (const char* spec : {"ramp,degrees=-12", "ramp,degrees=-5", "stairs,step=-0.15,depth=0.4",
                           "stairs,step=0.1,depth=0.3"}) {
    SCOPED_TRACE(spec);
    const Locked l = Lock(Builtin(), 0, Parse(spec));
    EXPECT_LE(l.report.after.max_skate_mm, 1.0f);
    EXPECT_LE(l.report.after.penetration_mm, 1.0f);
    EXPECT_LE(l.report.after.float_mm, 1.0f);
    ExpectKneesKeepThePace(LockedKneeSteps(Builtin(), l));
  }
}

TEST(FootLock, RaisedGroundRaisesTheHips) {
  const Locked l = Lock(SkatingWalk(), 0, Parse("plane,y=0.2"));
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  EXPECT_LE(l.report.after.float_mm, 1.0f);
  for (float offset : l.plan->hips_offset) EXPECT_NEAR(offset, 0.2f, 0.01f);
}

TEST(FootLock, LoweredGroundDropsTheHipsSoFeetReachIt) {
  const Locked l = Lock(SkatingWalk(), 0, Parse("plane,y=-0.15"));
  EXPECT_LE(l.report.after.penetration_mm, 1.0f);
  EXPECT_LE(l.report.after.float_mm, 1.0f);
  for (float offset : l.plan->hips_offset) EXPECT_LT(offset, -0.14f);
}

TEST(FootLock, ModelWithoutLegsIsRefused) {
  assets::Model model = Builtin();
  std::vector<ik::JointDesc> joints(1);
  joints[0].name = "Only";
  std::string error;
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone.assign(1, true);
  model.meshes.clear();
  app::ClipContacts contacts;
  EXPECT_FALSE(app::FindClipContacts(app::Character(model), 0, 30.0f, &contacts, &error));
  EXPECT_NE(error.find("no legs"), std::string::npos) << error;
}

// The window finds a clip's contacts again when a limb fix changes the legs: LegsAre tells.
TEST(FootLock, ALimbFixChangesTheLegsContactsAreFoundOn) {
  const assets::Model& model = Builtin();
  const app::Character detected(model);
  const std::vector<int> joints = app::LegJoints(detected);
  ASSERT_EQ(joints.size(), 6u);
  EXPECT_EQ(joints[2], model.skeleton.Find("LeftFoot"));
  EXPECT_TRUE(app::LegsAre(detected, joints));
  ik::TwoBoneChain chain;
  chain.start = model.skeleton.Find("LeftUpLeg");
  chain.mid = model.skeleton.Find("LeftLeg");
  chain.end = model.skeleton.Find("LeftToeBase");
  const app::Character fixed(model, {{"LeftLeg", chain}});
  EXPECT_FALSE(app::LegsAre(fixed, joints));
  EXPECT_TRUE(app::LegsAre(fixed, app::LegJoints(fixed)));
  EXPECT_FALSE(app::LegsAre(detected, {joints.begin(), joints.begin() + 3}));
}

TEST(FootLock, CesiumManWalkHasAContactOnEveryStep) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(path, "CesiumMan.glb");
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const Locked l = Lock(*loaded.model, 0);
  ASSERT_EQ(l.contacts.source.legs.size(), 2u);
  // Its 2 s walk takes one step per foot: the left foot's mid-clip, the right foot's across the
  // loop (its end and its start).
  const float fps = l.contacts.source.fps;
  EXPECT_EQ(l.contacts.contacts[0].size(), 1u);
  ASSERT_GE(l.contacts.contacts[1].size(), 1u);
  EXPECT_LT(float(l.contacts.contacts[1].front().first) / fps, 0.3f);
  EXPECT_GT(float(l.contacts.contacts[1].back().last) / fps, 1.7f);
}

// Held where it landed, the left foot ends the stance behind the swaying hips, past the reach the
// source's leg has there: its knee would turn 6.4 degrees in a frame where the source's
// moves less than 5. The heel peels off instead.
TEST(FootLock, ReachingWalkKneeKeepsThePace) {
  const assets::Model model = ReachingWalk();
  const Locked l = Lock(model, 0);
  const app::FeetSamples after = LockedFeet(model, l);
  const KneeSteps steps = MeasureKneeSteps(l.contacts.source, after);
  ExpectKneesKeepThePace(steps);
}

// At the end of CesiumMan's left stance the source's leg is nearly straight and the in-place
// clip's travel carries the planted foot away behind the hips: held flat, the foot drove the knee
// from 156 to 173 degrees in one frame (the source's knee moved 2). The heel now peels off about
// the toe: the knee keeps the pace, the toe stays planted, and the ankle rolls forward over it.
TEST(FootLock, CesiumManKneeDoesNotPopAsTheHeelPeelsOff) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(path, "CesiumMan.glb");
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const assets::Model& model = *loaded.model;
  const Locked l = Lock(model, 0);
  const app::FeetSamples& before = l.contacts.source;
  const app::Character character(model);
  app::EditState edit;
  edit.foot_lock = l.plan;
  app::FeetSamples after;
  app::SampleFeet(character, before.clip, before.fps, edit, before.legs, &after);
  const KneeSteps steps = MeasureKneeSteps(before, after);
  ExpectKneesKeepThePace(steps);
  // The toe (the foot's child joint) of each planted foot stays where it landed, relative to the
  // clip's travel; the ankle moves only as far as the heel-off rolls it, less than the source's
  // foot slid.
  app::EditedFrame frame;
  app::PoseState state;
  float toe_skate_mm = 0.0f;
  for (size_t i = 0; i < before.legs.size(); ++i) {
    const std::vector<int>& children = model.skeleton.children(before.legs[i].chain.end);
    ASSERT_EQ(children.size(), 1u);
    for (const ik::FootContact& c : l.contacts.contacts[i]) {
      std::vector<glm::vec3> toe;
      for (int f = c.first; f <= c.last; ++f) {
        app::EvaluateEditedFrame(character, app::ClipTime{0, before.Time(f)}, edit, &frame, &state);
        toe.push_back(glm::vec3(state.models[size_t(children[0])][3]) +
                      l.contacts.travel * before.Time(f));
      }
      toe_skate_mm = std::max(toe_skate_mm, ik::ContactSkate(toe, 0, int(toe.size()) - 1) * 1000);
    }
  }
  EXPECT_LE(toe_skate_mm, 1.0f);
  EXPECT_LT(l.report.after.max_skate_mm, l.report.before.max_skate_mm);
  std::printf(
      "CesiumMan locked: knee step %.1f deg where the source holds, %.1f beyond it; toe "
      "skate %.2f mm, ankle %.1f mm (source %.1f)\n",
      double(steps.where_source_holds), double(steps.beyond_source), double(toe_skate_mm),
      double(l.report.after.max_skate_mm), double(l.report.before.max_skate_mm));
}

// Where the lock lowers the hips for a planted foot out of reach, a leg out of its lock (swing,
// or just after its contact's fade) keeps the source's knee: its foot stays where the clip puts
// it instead of moving down with the hips, so the knee does not take the hips' move in the frame
// its lock ends (CesiumMan's left knee snapped 18 degrees there; the issue allows 5 a frame).
TEST(FootLock, LegsOutOfTheirLockKeepTheSourcesKneeWhereTheHipsMoved) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(path, "CesiumMan.glb");
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const assets::Model& model = *loaded.model;
  const Locked l = Lock(model, 0);
  const app::FeetSamples& before = l.contacts.source;
  app::EditState edit;
  edit.foot_lock = l.plan;
  app::FeetSamples after;
  app::SampleFeet(app::Character(model), before.clip, before.fps, edit, before.legs, &after);
  const int blend =
      std::max(1, int(std::lround(app::FootLockOptions().blend_seconds * before.fps)));
  auto knee = [](const app::FeetSamples& x, size_t i, size_t f) {
    return app::KneeDegrees(x.hip[i][f], x.knee[i][f], x.ankle[i][f]);
  };
  int lowered_free_frames = 0;
  for (size_t i = 0; i < before.legs.size(); ++i) {
    for (size_t f = 1; f < before.ankle[i].size() && f < after.ankle[i].size(); ++f) {
      bool free = true;  // neither this frame nor the one before is in a lock or its fade
      for (const ik::FootContact& c : l.contacts.contacts[i]) {
        free = free && (int(f) < c.first - blend || int(f) - 1 > c.last + blend);
      }
      if (!free || (l.plan->hips_offset[f] == 0.0f && l.plan->hips_offset[f - 1] == 0.0f)) {
        continue;
      }
      ++lowered_free_frames;
      const float source_step = knee(before, i, f) - knee(before, i, f - 1);
      const float locked_step = knee(after, i, f) - knee(after, i, f - 1);
      EXPECT_LE(std::fabs(locked_step - source_step), 5.0f) << "leg " << i << " frame " << f;
    }
  }
  EXPECT_GT(lowered_free_frames, 0) << "the lock should lower CesiumMan's hips near a free leg";
}

TEST(Ground, Shapes) {
  EXPECT_FLOAT_EQ(Parse("plane").HeightAt(3.0f, -2.0f), 0.0f);
  EXPECT_TRUE(Parse("plane").IsAuthoredFloor());
  EXPECT_FLOAT_EQ(Parse("plane,y=0.25").HeightAt(1.0f, 1.0f), 0.25f);
  const app::Ground ramp = Parse("ramp,degrees=45");
  EXPECT_NEAR(ramp.HeightAt(5.0f, 2.0f), 2.0f, 1e-5f);  // rises along +Z
  EXPECT_NEAR(glm::length(ramp.NormalAt(0.0f, 0.0f)), 1.0f, 1e-6f);
  EXPECT_NEAR(ramp.HeightAbove(ramp.PointAbove(0.3f, 0.4f, 0.09f)), 0.09f, 1e-5f);
  const app::Ground stairs = Parse("stairs,step=0.15,depth=0.3");
  EXPECT_FLOAT_EQ(stairs.HeightAt(0.0f, 0.1f), 0.0f);
  EXPECT_FLOAT_EQ(stairs.HeightAt(0.0f, 0.35f), 0.15f);
  EXPECT_FLOAT_EQ(stairs.HeightAt(0.0f, 0.95f), 0.45f);
}

TEST(Ground, MeshIsItsHighestTriangle) {
  app::Ground g;
  g.kind = app::Ground::Kind::kMesh;
  // Two squares: y = 0 over [-1,1]², and a tilted one rising to 0.5 over x in [0, 1].
  auto square = [&](float x0, float x1, float y0, float y1) {
    const glm::vec3 a(x0, y0, -1), b(x1, y1, -1), c(x1, y1, 1), d(x0, y0, 1);
    for (const glm::vec3& p : {a, b, c, a, c, d}) g.triangles.push_back(p);
  };
  square(-1.0f, 1.0f, 0.0f, 0.0f);
  square(0.0f, 1.0f, 0.0f, 0.5f);
  std::string error;
  ASSERT_TRUE(app::BuildGroundGrid(&g, &error)) << error;
  EXPECT_NEAR(g.HeightAt(-0.5f, 0.2f), 0.0f, 1e-6f);
  EXPECT_NEAR(g.HeightAt(0.5f, 0.2f), 0.25f, 1e-6f);
  EXPECT_GT(g.NormalAt(0.5f, 0.2f).y, 0.8f);
  EXPECT_LT(g.NormalAt(0.5f, 0.2f).x, -0.3f);
  EXPECT_FLOAT_EQ(g.HeightAt(5.0f, 5.0f), 0.0f);  // outside: y = 0
}

TEST(Ground, BadSpecsNameTheOption) {
  // The mesh loader's worker is the skelview binary, not this test: load here.
  setenv("SKELVIEW_IMPORT_INPROCESS", "1", 1);
  for (const char* spec :
       {"", "hill", "plane,y=", "plane,z=1", "ramp", "ramp,degrees=85", "ramp,degrees=nan",
        "stairs,step=0.1", "stairs,step=0.1,depth=0", "plane,y=1,y=2", "missing-file.glb"}) {
    app::Ground g;
    std::string error;
    EXPECT_FALSE(app::ParseGroundSpec(spec, &g, &error)) << spec;
    EXPECT_EQ(error.rfind("--ground '", 0), 0u) << error;
  }
}

}  // namespace

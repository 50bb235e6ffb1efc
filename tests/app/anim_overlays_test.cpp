// Onion skins and trail as lines, the ground lift and the camera that follows the root.
#include "app/scene/anim_overlays.h"

#include <gtest/gtest.h>

#include <cmath>

#include "app/scene/camera.h"
#include "app/scene/scene_draw.h"
#include "assets/builtin/builtin_character.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

int CountColor(const renderer::DebugLines& lines, const glm::vec4& base) {
  int n = 0;
  for (const renderer::LineVertex& v : lines.vertices()) {
    n += glm::length(glm::vec3(v.color) - glm::vec3(base)) < 1e-5f;
  }
  return n;
}

TEST(AnimOverlays, GhostsArePastRedFutureGreenBonesFadingWithDistance) {
  const assets::Model& model = Builtin();
  app::Playback playback;
  playback.clip = model.FindClip("Walk");
  playback.time = 0.5f;
  app::GhostCache cache;
  cache.Update(app::Character(model), playback, app::EditState(), 3, 2, -1);
  ASSERT_EQ(cache.ghosts().size(), 6u);
  app::AnimationOverlays animation;
  animation.ghosts = &cache.ghosts();
  renderer::DebugLines ghosts, trail;
  app::BuildAnimationOverlays(model, animation, 1.8f, &ghosts, &trail);
  EXPECT_TRUE(trail.empty());
  // One segment per bone with a parent bone, per ghost, and no joint crosses.
  int bones = 0;
  for (int j = 0; j < model.skeleton.joint_count(); ++j) bones += model.skeleton.parent(j) >= 0;
  EXPECT_EQ(ghosts.vertices().size(), size_t(6 * 2 * bones));
  EXPECT_EQ(CountColor(ghosts, app::kGhostPastColor), 3 * 2 * bones);
  EXPECT_EQ(CountColor(ghosts, app::kGhostFutureColor), 3 * 2 * bones);
  for (const renderer::LineVertex& v : ghosts.vertices()) EXPECT_FLOAT_EQ(v.width, 3.0f);
  EXPECT_GT(app::GhostAlpha(2, 2, 6), app::GhostAlpha(4, 2, 6));
  EXPECT_GT(app::GhostAlpha(-4, 2, 6), app::GhostAlpha(-6, 2, 6));
  EXPECT_FLOAT_EQ(app::GhostAlpha(-2, 2, 6), app::GhostAlpha(2, 2, 6));
}

TEST(AnimOverlays, TrailRunsThroughItsFramesWithATickEachAndTheCurrentMark) {
  const assets::Model& model = Builtin();
  app::Playback playback;
  playback.clip = model.FindClip("Walk");
  playback.time = 0.5f;
  app::GhostCache cache;
  const int foot = model.skeleton.Find("LeftFoot");
  ASSERT_GE(foot, 0);
  cache.Update(app::Character(model), playback, app::EditState(), 0, 1, foot);
  const app::MotionTrail& path = cache.trail();
  ASSERT_GE(path.positions.size(), 10u);
  app::AnimationOverlays animation;
  animation.trail = &path;
  animation.time = playback.time;
  animation.trail_now = glm::vec3(1.0f, 2.0f, 3.0f);
  animation.mark_now = true;
  renderer::DebugLines ghosts, trail;
  app::BuildAnimationOverlays(model, animation, 1.8f, &ghosts, &trail);
  EXPECT_TRUE(ghosts.empty());
  const size_t n = path.positions.size();
  // The polyline (n - 1 segments), a cross (3 segments) per frame, the current mark (3).
  ASSERT_EQ(trail.vertices().size(), 2 * (n - 1) + 6 * n + 6);
  for (size_t i = 0; i + 1 < n; ++i) {
    EXPECT_EQ(trail.vertices()[2 * i].position, path.positions[i]);
    EXPECT_EQ(trail.vertices()[2 * i + 1].position, path.positions[i + 1]);
    // Before the current time red, after it green.
    const glm::vec4 c = trail.vertices()[2 * i].color;
    if (path.times[i] < playback.time) {
      EXPECT_GT(c.r, c.g);
    } else {
      EXPECT_GT(c.g, c.r);
    }
  }
  const glm::vec3 mark = 0.5f * (trail.vertices().back().position +
                                 trail.vertices()[trail.vertices().size() - 2].position);
  EXPECT_LT(glm::length(mark - animation.trail_now), 1e-5f);
}

TEST(AnimOverlays, GroundLiftPutsTheLowestRestPointOnTheGrid) {
  assets::Bounds bounds;
  bounds.Add(glm::vec3(-0.3f, -0.975f, -0.1f));
  bounds.Add(glm::vec3(0.3f, 0.8f, 0.1f));
  EXPECT_FLOAT_EQ(app::GroundLift(bounds), 0.975f);
  bounds = assets::Bounds();
  bounds.Add(glm::vec3(0.0f, 0.5f, 0.0f));
  bounds.Add(glm::vec3(0.0f, 2.0f, 0.0f));
  EXPECT_FLOAT_EQ(app::GroundLift(bounds), -0.5f);  // a floating model comes down
  EXPECT_EQ(app::GroundLift(assets::Bounds()), 0.0f);
  // The built-in character already stands on y = 0 (its soles a few millimetres below).
  const assets::Bounds rest = assets::RestBounds(Builtin());
  const app::SceneExtent extent = app::MeasureModel(Builtin());
  EXPECT_FLOAT_EQ(extent.ground_lift, -rest.min.y);
  EXPECT_NEAR(extent.ground_lift, 0.0f, 0.01f);
  // The lifted view sees a model point where the plain view sees it raised.
  app::OrbitCamera camera;
  const glm::vec3 p(0.2f, -0.9f, 0.1f);
  const glm::vec4 lifted = app::LiftedView(camera.View(), 0.975f) * glm::vec4(p, 1.0f);
  const glm::vec4 raised = camera.View() * glm::vec4(p + glm::vec3(0.0f, 0.975f, 0.0f), 1.0f);
  EXPECT_LT(glm::length(lifted - raised), 1e-5f);
}

// The built-in character with a clip that carries the hips 2 m forward (+Z) and 0.5 m right over
// a second while they bob up and down.
assets::Model WalkingAway() {
  assets::Model model = assets::MakeBuiltinCharacter();
  const int hips = model.skeleton.Find("Hips");
  const glm::vec3 rest = model.skeleton.rest_locals()[hips].translation;
  assets::Clip clip;
  clip.name = "Away";
  clip.duration = 1.0f;
  assets::JointAnimation channel;
  channel.joint = hips;
  for (int k = 0; k <= 10; ++k) {
    const float t = 0.1f * float(k);
    channel.translation.times.push_back(t);
    channel.translation.values.push_back(rest +
                                         glm::vec3(0.5f * t, 0.05f * float(k % 2), 2.0f * t));
  }
  clip.channels.push_back(channel);
  assets::PrepareClip(&clip);
  model.clips = {clip};
  return model;
}

TEST(FollowRoot, TheCameraTargetFollowsTheRootAcrossTheGround) {
  const assets::Model model = WalkingAway();
  const app::Character character(model);
  const int root = app::RootMotionJoint(model);
  ASSERT_EQ(root, model.skeleton.Find("Hips"));
  app::OrbitCamera camera;
  const glm::vec3 start_target = camera.target;
  app::EditedFrame frame;
  app::PoseState state;
  glm::vec3 previous(0.0f), first(0.0f);
  for (int f = 0; f <= 30; ++f) {
    app::EvaluateEditedFrame(character, app::ClipTime{0, float(f) / 30.0f}, app::EditState(),
                             &frame, &state);
    const glm::vec3 now(state.models[root][3]);
    if (f == 0) {
      first = now;
    } else {
      app::FollowRoot(previous, now, &camera);
    }
    previous = now;
    // The root keeps its place relative to the target on the ground; the height does not move.
    EXPECT_NEAR(camera.target.x - now.x, start_target.x - first.x, 1e-4f) << f;
    EXPECT_NEAR(camera.target.z - now.z, start_target.z - first.z, 1e-4f) << f;
    EXPECT_FLOAT_EQ(camera.target.y, start_target.y);
  }
  EXPECT_NEAR(camera.target.z - start_target.z, 2.0f, 1e-3f);
  EXPECT_NEAR(camera.target.x - start_target.x, 0.5f, 1e-3f);
  // A non-finite position leaves the camera alone.
  const glm::vec3 before = camera.target;
  app::FollowRoot(previous, glm::vec3(std::nanf(""), 0.0f, 0.0f), &camera);
  EXPECT_EQ(camera.target, before);
}

TEST(FollowRoot, RootMotionJointIsTheFirstBoneWithoutABoneAbove) {
  EXPECT_EQ(app::RootMotionJoint(Builtin()), Builtin().skeleton.Find("Hips"));
  assets::Model empty;
  EXPECT_EQ(app::RootMotionJoint(empty), -1);
}

}  // namespace

// Full-body IK through the app: --pin, --move, --body and `--ik ...,body` resolved against the
// built-in character and solved as `pose` solves them; the window's body handles; export's bake.
#include "app/core/body_solve.h"

#include <gtest/gtest.h>

#include <cmath>

#include "app/core/bake.h"
#include "app/core/chain_edit.h"
#include "app/core/chain_results.h"
#include "app/core/json_output.h"
#include "app/core/pose_input.h"
#include "assets/builtin/builtin_character.h"
#include "ik/core/kinematics.h"
#include "ik/limits/joint_limits.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

int Joint(const std::string& name) {
  const int j = Builtin().skeleton.Find(name);
  EXPECT_GE(j, 0) << name;
  return j;
}

glm::vec3 At(const std::vector<glm::mat4>& models, const std::string& name) {
  return glm::vec3(models[Joint(name)][3]);
}

// Hip to knee to foot at rest.
float LegLength() {
  const auto& rest = Builtin().skeleton.rest_models();
  return glm::length(At(rest, "LeftLeg") - At(rest, "LeftUpLeg")) +
         glm::length(At(rest, "LeftFoot") - At(rest, "LeftLeg"));
}

struct Solved {
  app::ConstraintRequests requests;
  app::PoseState state;
};

// What `skelview pose` computes for these arguments on the built-in character at rest.
Solved Pose(const app::PoseArgs& args, const app::ClipTime& time = {}) {
  Solved solved;
  std::string error;
  EXPECT_TRUE(app::ParseConstraints(args, BuiltinCharacter(), &solved.requests, &error)) << error;
  app::EvaluatePose(BuiltinCharacter(), time, solved.requests, &solved.state);
  return solved;
}

std::string Refused(const app::PoseArgs& args) {
  app::ConstraintRequests requests;
  std::string error;
  EXPECT_FALSE(app::ParseConstraints(args, BuiltinCharacter(), &requests, &error));
  return error;
}

// Every bone's length but the one into `except` (the hips, whose offset the body shift is).
void ExpectBoneLengthsKept(const std::vector<glm::mat4>& before,
                           const std::vector<glm::mat4>& after, int except) {
  const ik::Skeleton& skeleton = Builtin().skeleton;
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    const int p = skeleton.parent(j);
    if (p < 0 || j == except) continue;
    const float a = glm::length(glm::vec3(before[j][3] - before[p][3]));
    const float b = glm::length(glm::vec3(after[j][3] - after[p][3]));
    EXPECT_NEAR(b, a, 1e-5f * std::max(a, 1e-3f)) << skeleton.name(j);
  }
}

// The knee's way out of the hip→foot line, as a unit vector.
glm::vec3 KneeOut(const std::vector<glm::mat4>& models, const std::string& side) {
  const glm::vec3 hip = At(models, side + "UpLeg"), knee = At(models, side + "Leg");
  const glm::vec3 foot = At(models, side + "Foot");
  const glm::vec3 line = glm::normalize(foot - hip);
  const glm::vec3 out = (knee - hip) - glm::dot(knee - hip, line) * line;
  return glm::normalize(out);
}

TEST(BodySolve, MovingTheHipsDownKeepsPinnedFeetAndBendsTheKneesForward) {
  const auto& rest = Builtin().skeleton.rest_models();
  app::PoseArgs args;
  args.pin = {"LeftFoot", "RightFoot"};
  const glm::vec3 hips = At(rest, "Hips");
  const glm::vec3 moved = hips + glm::vec3(0.0f, -0.25f, 0.08f);
  args.move = {"Hips=" + std::to_string(moved.x) + "," + std::to_string(moved.y) + "," +
               std::to_string(moved.z)};
  const Solved s = Pose(args);
  ASSERT_TRUE(s.state.body_ran);
  const ik::FullBodyResult& r = s.state.body;
  ASSERT_TRUE(r.valid) << r.why;
  EXPECT_TRUE(r.reached);
  EXPECT_LT(glm::length(At(s.state.models, "Hips") - moved), 1e-4f * LegLength());
  for (const std::string side : {"Left", "Right"}) {
    EXPECT_LT(glm::length(At(s.state.models, side + "Foot") - At(rest, side + "Foot")),
              1e-4f * LegLength())
        << side;
    // The knees bend the way the rest pose shows (forward), not backward.
    EXPECT_GT(glm::dot(KneeOut(s.state.models, side), KneeOut(rest, side)), 0.9f) << side;
  }
  ExpectBoneLengthsKept(rest, s.state.models, Joint("Hips"));
  // The JSON reports the pins' errors, what moved and the iterations.
  const app::Json json = app::BodyJson(Builtin(), s.requests, s.state);
  EXPECT_EQ(json["reached"], true);
  EXPECT_GE(json["iterations"].get<int>(), 1);
  ASSERT_EQ(json["effectors"].size(), 3u);
  EXPECT_EQ(json["effectors"][0]["kind"], "move");
  EXPECT_EQ(json["effectors"][1]["kind"], "pin");
  EXPECT_EQ(json["effectors"][1]["joint"], "LeftFoot");
  EXPECT_LT(json["effectors"][1]["error"].get<double>(), 1e-4 * double(LegLength()));
  bool hips_moved = false;
  for (const auto& m : json["moved"]) hips_moved = hips_moved || m["joint"] == "Hips";
  EXPECT_TRUE(hips_moved);
}

TEST(BodySolve, TheBodyHelpsAHandReachBeyondItsArmAndWeightsSayHowMuch) {
  const auto& rest = Builtin().skeleton.rest_models();
  const glm::vec3 shoulder = At(rest, "RightArm");
  const float arm = glm::length(At(rest, "RightForeArm") - shoulder) +
                    glm::length(At(rest, "RightHand") - At(rest, "RightForeArm"));
  const glm::vec3 far = shoulder + glm::vec3(-0.35f * arm, -0.9f * arm, 0.5f * arm);
  ASSERT_GT(glm::length(far - shoulder), 1.05f * arm);
  const std::string target =
      std::to_string(far.x) + "," + std::to_string(far.y) + "," + std::to_string(far.z);
  app::PoseArgs plain;
  plain.ik = {"RightHand=" + target};
  const Solved alone = Pose(plain);
  ASSERT_EQ(alone.state.ik.size(), 1u);
  EXPECT_FALSE(alone.state.ik[0].reached);
  EXPECT_FALSE(alone.state.body_ran);

  app::PoseArgs helped = plain;
  helped.ik = {"RightHand=" + target + ",body"};
  helped.pin = {"LeftFoot", "RightFoot"};
  const Solved s = Pose(helped);
  ASSERT_TRUE(s.state.body_ran);
  EXPECT_TRUE(s.state.body.reached);
  EXPECT_TRUE(s.state.ik[0].reached);
  EXPECT_LT(glm::length(At(s.state.models, "RightHand") - far), 1e-4f * arm);
  for (const std::string side : {"Left", "Right"}) {
    EXPECT_LT(glm::length(At(s.state.models, side + "Foot") - At(rest, side + "Foot")),
              1e-4f * LegLength());
  }
  ExpectBoneLengthsKept(rest, s.state.models, Joint("Hips"));

  // With every part of the body at weight 0 it cannot help.
  helped.body = "hips=0,tilt=0,spine=0";
  const Solved stiff = Pose(helped);
  EXPECT_FALSE(stiff.state.ik[0].reached);
  EXPECT_LT(glm::length(At(stiff.state.models, "Hips") - At(rest, "Hips")), 1e-6f);
}

TEST(BodySolve, BodyJointsStayWithinTheirLimits) {
  const auto& rest = Builtin().skeleton.rest_models();
  app::PoseArgs args;
  const glm::vec3 low = At(rest, "RightHand") + glm::vec3(0.0f, -0.6f, 0.5f);
  args.ik = {"RightHand=" + std::to_string(low.x) + "," + std::to_string(low.y) + "," +
             std::to_string(low.z) + ",body"};
  args.pin = {"LeftFoot", "RightFoot"};
  args.limit = {"Spine=cone,8", "Spine1=cone,8", "Spine2=cone,8"};
  const Solved s = Pose(args);
  ASSERT_TRUE(s.state.body_ran);
  EXPECT_TRUE(s.state.body.limited);
  const ik::Skeleton& skeleton = Builtin().skeleton;
  for (const auto& [joint, limit] : s.requests.limits.entries()) {
    const glm::quat q = s.state.pose.locals[joint].rotation;
    const glm::quat clamped = ik::ClampRotation(limit, skeleton.rest_locals()[joint].rotation, q);
    EXPECT_GT(std::abs(glm::dot(q, clamped)), 1.0f - 1e-6f) << skeleton.name(joint);
  }
}

TEST(BodySolve, PinsThatCannotAllHoldGiveTheCompromiseWithEachError) {
  app::PoseArgs args;
  args.pin = {"LeftFoot=1.5,0.1,0", "RightFoot=-1.5,0.1,0"};
  const Solved s = Pose(args);
  ASSERT_TRUE(s.state.body_ran);
  const ik::FullBodyResult& r = s.state.body;
  ASSERT_TRUE(r.valid) << r.why;
  EXPECT_FALSE(r.reached);
  ASSERT_EQ(r.effectors.size(), 2u);
  const float left = r.effectors[0].error, right = r.effectors[1].error;
  EXPECT_TRUE(std::isfinite(left) && std::isfinite(right));
  EXPECT_GT(left, 0.1f);
  // Equal weights, mirror-image pins: an even split.
  EXPECT_NEAR(left, right, 0.05f * (left + right));
  for (const glm::mat4& m : s.state.models) {
    for (int c = 0; c < 4; ++c) {
      for (int k = 0; k < 4; ++k) ASSERT_TRUE(std::isfinite(m[c][k]));
    }
  }
}

TEST(BodySolve, BadArgumentsAreRefusedNamingThem) {
  app::PoseArgs args;
  args.pin = {"Nope"};
  EXPECT_NE(Refused(args).find("--pin Nope: the model has no joint named 'Nope'"),
            std::string::npos);
  args.pin = {"LeftLeg"};  // a knee: the foot is what can be pinned
  EXPECT_NE(Refused(args).find("use that end instead"), std::string::npos) << Refused(args);
  args.pin = {"LeftFoot"};
  args.ik = {"LeftFoot=0,0.1,0"};
  EXPECT_NE(Refused(args).find("--pin LeftFoot: LeftFoot is already given by --ik LeftFoot"),
            std::string::npos)
      << Refused(args);
  args = {};
  args.pin = {"Hips", "Hips=0,1,0"};
  EXPECT_NE(Refused(args).find("already given by --pin Hips"), std::string::npos);
  args = {};
  args.ik = {"Head=0,2,0,body"};
  EXPECT_NE(Refused(args).find("is not the end of an arm or leg"), std::string::npos)
      << Refused(args);
  args = {};
  args.move = {"Hips=0,1"};
  EXPECT_NE(Refused(args).find("--move 'Hips=0,1'"), std::string::npos);
  args = {};
  args.body = "spine=-1";
  EXPECT_NE(Refused(args).find("--body 'spine=-1'"), std::string::npos);
}

TEST(BodySolve, TheHingeIsOnByDefaultWhereTheRestPoseBends) {
  // A foot target in front and above: the knee must bend forward, as in the window.
  app::PoseArgs args;
  args.ik = {"LeftFoot=0.1,0.5,0.4"};
  const Solved s = Pose(args);
  ASSERT_EQ(s.requests.ik.size(), 1u);
  EXPECT_TRUE(s.requests.ik[0].options.hinge);
  const auto& rest = Builtin().skeleton.rest_models();
  EXPECT_GT(glm::dot(KneeOut(s.state.models, "Left"), KneeOut(rest, "Left")), 0.0f);
  args.ik = {"LeftFoot=0.1,0.5,0.4,nohinge"};
  EXPECT_FALSE(Pose(args).requests.ik[0].options.hinge);
}

// The window: body handles on the default chains, dragged while playing the walk.
TEST(BodySolve, DraggedHipsHandleHoldsHandsAndFeetOnEveryFrameWithoutDrift) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  ASSERT_GE(walk, 0);
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  int hips = -1;
  for (size_t i = 0; i < edit.chains.size(); ++i) {
    if (edit.chains[i].label == "Hips (body)") hips = static_cast<int>(i);
  }
  ASSERT_GE(hips, 0);
  edit.chains[hips].offset = glm::vec3(0.0f, -0.06f, 0.04f);  // a drag of its handle
  app::EditedFrame frame;
  app::PoseState state;
  const float duration = model.clips[walk].duration;
  const float leg = LegLength();
  std::vector<std::vector<glm::mat4>> first(60);
  constexpr int kFrames = 10000;
  for (int f = 0; f < kFrames; ++f) {
    const float t = std::fmod(float(f) / 60.0f, duration);
    app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{walk, t}, edit, &frame, &state);
    ASSERT_TRUE(state.body_ran);
    ASSERT_TRUE(state.body.valid) << state.body.why;
    ASSERT_TRUE(app::ChainReached(frame, state, hips)) << "t=" << t;
    // The hips' move, then the four hands and feet holding the body back as pins.
    ASSERT_EQ(state.body.effectors.size(), 5u);
    EXPECT_EQ(state.body.effectors[0].kind, ik::BodyEffector::Kind::kMove);
    for (int e = 1; e < 5; ++e)
      EXPECT_EQ(state.body.effectors[e].kind, ik::BodyEffector::Kind::kPin);
    for (const ik::BodyEffectorReport& e : state.body.effectors) {
      ASSERT_TRUE(std::isfinite(e.error));
      ASSERT_LT(e.error, 1e-4f * leg) << model.skeleton.name(e.joint) << " at t=" << t;
    }
    // Every hand and foot is on its target after the chains' own solve.
    for (size_t c = 0; c < edit.chains.size(); ++c) {
      if (edit.chains[c].kind != app::ConstraintKind::kTwoBone) continue;
      const app::IkChainRequest& request = frame.requests.ik[frame.chain_requests[c].index];
      const glm::vec3 end(state.models[request.chain.end][3]);
      ASSERT_LT(glm::length(end - request.target.position), 1e-4f * leg) << c << " t=" << t;
    }
    if (f < 60) first[f] = state.models;
  }
  // No drift: after 10,000 frames the same clip times give bit-identical poses.
  for (int f = 0; f < 60; ++f) {
    app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{walk, float(f) / 60.0f}, edit,
                             &frame, &state);
    ASSERT_EQ(state.models, first[f]) << "frame " << f;
  }
}

TEST(BodySolve, ABodyHandleThatIsHeldPinsAndOneLeftFreeDoesNothing) {
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  app::EditedFrame frame;
  app::PoseState state;
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{}, edit, &frame, &state);
  EXPECT_FALSE(state.body_ran);
  edit.chains[5].body_pin = true;  // hold the chest
  app::EvaluateEditedFrame(BuiltinCharacter(), app::ClipTime{}, edit, &frame, &state);
  ASSERT_TRUE(state.body_ran);
  ASSERT_EQ(frame.requests.body.effectors.size(), 1u);
  EXPECT_EQ(frame.requests.body.effectors[0].kind, ik::BodyEffector::Kind::kPin);
  EXPECT_EQ(app::ChainStatus(frame, state, 5), "held") << app::ChainStatus(frame, state, 5);
}

TEST(BodySolve, ExportBakesWhatPoseSolves) {
  const assets::Model& model = Builtin();
  const int walk = model.FindClip("Walk");
  const auto& rest = model.skeleton.rest_models();
  const glm::vec3 hips = At(rest, "Hips") + glm::vec3(0.0f, -0.08f, 0.0f);
  app::PoseArgs args;
  args.move = {"Hips=" + std::to_string(hips.x) + "," + std::to_string(hips.y) + "," +
               std::to_string(hips.z)};
  args.pin = {"LeftFoot", "Spine2"};
  args.ik = {"RightHand=-0.6,1.0,0.3,body"};
  app::ConstraintRequests requests;
  std::string error;
  ASSERT_TRUE(app::ParseConstraints(args, BuiltinCharacter(), &requests, &error)) << error;
  const app::EditState edit = app::EditForRequests(BuiltinCharacter(), requests);
  EXPECT_TRUE(edit.chains[0].body_helps);  // the --ik
  int kinds[4] = {};
  for (const app::ChainSettings& c : edit.chains) ++kinds[static_cast<int>(c.kind)];
  EXPECT_EQ(kinds[static_cast<int>(app::ConstraintKind::kTwoBone)], 2);  // --ik, --pin LeftFoot
  EXPECT_EQ(kinds[static_cast<int>(app::ConstraintKind::kBody)], 2);     // --move, --pin Spine2
  const float fps = 30.0f;
  const assets::Clip baked = app::BakeClip(BuiltinCharacter(), walk, fps, edit);
  assets::Model replay = model;
  replay.clips = {baked};
  const app::Character replay_character(replay);
  for (float t : {0.0f, 10.0f / fps, 20.0f / fps}) {
    app::PoseState posed, played;
    app::EvaluatePose(BuiltinCharacter(), app::ClipTime{walk, t}, requests, &posed);
    app::EvaluatePose(replay_character, app::ClipTime{0, t}, app::ConstraintRequests{}, &played);
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      EXPECT_LT(glm::length(glm::vec3(posed.models[j][3] - played.models[j][3])), 1e-4f)
          << model.skeleton.name(j) << " t=" << t;
    }
  }
}

}  // namespace

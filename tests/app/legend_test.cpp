// The legend lists exactly the marks the frame draws.
#include "app/scene/legend.h"

#include <gtest/gtest.h>

#include <string>

#include "app/core/args.h"
#include "assets/builtin/builtin_character.h"

namespace {

std::vector<std::string> Labels(const app::LegendEntry* entries, int count) {
  std::vector<std::string> labels;
  for (int i = 0; i < count; ++i) labels.push_back(entries[i].label);
  return labels;
}

bool Has(const std::vector<std::string>& labels, const std::string& label) {
  for (const std::string& l : labels) {
    if (l.rfind(label, 0) == 0) return true;
  }
  return false;
}

struct Frame {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Character character{model};
  app::SceneExtent extent = app::MeasureModel(model);
  app::ConstraintRequests requests;
  app::PoseState state;
  explicit Frame(const std::vector<app::IkSpec>& specs) {
    std::string error;
    EXPECT_TRUE(app::ResolveIkSpecs(character, specs, &requests.ik, &error)) << error;
    app::EvaluatePose(character, app::ClipTime{}, requests, &state);
  }
};

TEST(Legend, ListsOnlyWhatIsDrawn) {
  app::IkSpec reachable;
  reachable.end = "LeftHand";
  reachable.target = {0.5f, 1.3f, 0.3f};
  reachable.pole = glm::vec3(0.5f, 1.0f, -0.5f);
  app::IkSpec far;
  far.end = "RightFoot";
  far.target = {-0.2f, 3.0f, 0.3f};
  Frame frame({reachable, far});
  app::SceneOptions options;
  options.skeleton = false;
  options.ik_overlay = true;
  options.joint_limits = true;
  app::LegendEntry entries[app::kMaxLegendEntries];
  int count =
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, options, entries);
  std::vector<std::string> labels = Labels(entries, count);
  EXPECT_TRUE(Has(labels, "solved limb"));
  EXPECT_TRUE(Has(labels, "target, reached"));
  EXPECT_TRUE(Has(labels, "target, out of reach"));
  // No chain active, not every chain asked for: the knee marks are not drawn, nor listed.
  EXPECT_FALSE(Has(labels, "knee circle"));
  EXPECT_FALSE(Has(labels, "knee before"));
  EXPECT_FALSE(Has(labels, "bone"));
  EXPECT_FALSE(Has(labels, "joint limit")) << "the request has no limits";
  // The active chain has a pole: it is explained, pole included.
  options.active_chain = 0;
  options.skeleton = true;
  options.reach_shell = true;
  count =
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, options, entries);
  labels = Labels(entries, count);
  EXPECT_TRUE(Has(labels, "knee circle"));
  EXPECT_TRUE(Has(labels, "knee before the solve"));
  EXPECT_TRUE(Has(labels, "knee after the solve"));
  EXPECT_TRUE(Has(labels, "pole"));
  EXPECT_TRUE(Has(labels, "reach shells"));
  EXPECT_TRUE(Has(labels, "bone, left side"));
  EXPECT_TRUE(Has(labels, "bone, right side"));
  EXPECT_TRUE(Has(labels, "bone, middle"));
  EXPECT_TRUE(Has(labels, "active chain"));
  EXPECT_FALSE(Has(labels, "helper")) << "every joint of the character deforms";
  // Each entry's colour is the one its mark is drawn in.
  for (int i = 0; i < count; ++i) {
    if (labels[size_t(i)] == "pole") {
      EXPECT_EQ(entries[i].color, app::overlay_colors::kPole);
    }
    if (labels[size_t(i)] == "active chain") {
      EXPECT_EQ(entries[i].color, app::bone_colors::kActiveChain);
    }
  }
  // The active chain without a pole: the other chain's pole marker is still drawn (a handle).
  options.active_chain = 1;
  count =
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, options, entries);
  EXPECT_TRUE(Has(Labels(entries, count), "pole"));
  // No chain with a pole: no pole entry.
  app::ConstraintRequests no_pole = frame.requests;
  for (app::IkChainRequest& request : no_pole.ik) request.options.pole_model.reset();
  count = app::LegendEntries(frame.model, frame.extent, no_pole, frame.state, options, entries);
  EXPECT_FALSE(Has(Labels(entries, count), "pole"));
  // Onion skins and a trail: earlier and later frames in their colours.
  options.onion_count = 2;
  options.trail_joint = frame.model.skeleton.Find("LeftHand");
  count =
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, options, entries);
  labels = Labels(entries, count);
  ASSERT_TRUE(Has(labels, "earlier frames"));
  for (int i = 0; i < count; ++i) {
    const std::string& label = labels[size_t(i)];
    if (label.rfind("earlier", 0) == 0) {
      EXPECT_EQ(entries[i].color, app::kGhostPastColor);
    }
    if (label.rfind("later", 0) == 0) {
      EXPECT_EQ(entries[i].color, app::kGhostFutureColor);
    }
  }
  // The influence-count view: a swatch per count in the renderer's colours; the problem view
  // replaces it.
  options.influences = true;
  count =
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, options, entries);
  labels = Labels(entries, count);
  ASSERT_TRUE(Has(labels, "4 influences"));
  for (int i = 0; i < count; ++i) {
    if (labels[size_t(i)] == "4 influences") {
      EXPECT_EQ(glm::vec3(entries[i].color), renderer::kInfluenceColors[4]);
    }
  }
  options.weight_problems = true;
  count =
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, options, entries);
  labels = Labels(entries, count);
  EXPECT_FALSE(Has(labels, "4 influences"));
  EXPECT_TRUE(Has(labels, "unweighted vertex"));
  EXPECT_TRUE(Has(labels, "more than 8 influences"));
  options.influences = options.weight_problems = false;
  // Nothing drawn, nothing listed.
  app::SceneOptions nothing;
  nothing.ik_overlay = false;
  nothing.joint_limits = false;
  EXPECT_EQ(
      app::LegendEntries(frame.model, frame.extent, frame.requests, frame.state, nothing, entries),
      0);
}

}  // namespace

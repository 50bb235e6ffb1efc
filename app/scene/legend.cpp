// Legend entries from the frame's options and results.
#include "app/scene/legend.h"

#include "app/scene/bones.h"

namespace app {

namespace oc = overlay_colors;

namespace {

class EntryList {
 public:
  explicit EntryList(LegendEntry* out) : out_(out) {}
  void Add(const char* label, const glm::vec4& color, LegendShape shape,
           const glm::vec4& color_to = glm::vec4(1.0f)) {
    if (count_ < kMaxLegendEntries) out_[count_++] = LegendEntry{label, color, shape, color_to};
  }
  int count() const { return count_; }

 private:
  LegendEntry* out_;
  int count_ = 0;
};

void AddBoneEntries(const assets::Model& model, const SceneExtent& extent,
                    const ConstraintRequests& requests, const SceneOptions& options,
                    EntryList* list) {
  const bool bones = options.skeleton || model.meshes.empty();
  if (bones) {
    bool side[3] = {false, false, false}, helper = false;
    const std::vector<bool>* shown = ShownBones(model);
    for (size_t j = 0; j < extent.bones.size(); ++j) {
      if (!IsShownBone(shown, static_cast<int>(j))) continue;
      if (!extent.bones[j].deforms) {
        helper = true;
      } else {
        side[static_cast<int>(extent.bones[j].side)] = true;
      }
    }
    if (side[0]) list->Add("bone, middle", bone_colors::kCenter, LegendShape::kBone);
    if (side[1]) list->Add("bone, left side", bone_colors::kLeft, LegendShape::kBone);
    if (side[2]) list->Add("bone, right side", bone_colors::kRight, LegendShape::kBone);
    if (helper) list->Add("helper (moves no vertex)", bone_colors::kHelper, LegendShape::kBone);
    if (options.active_chain >= 0 && size_t(options.active_chain) < requests.ik.size()) {
      list->Add("active chain", bone_colors::kActiveChain, LegendShape::kBone);
    }
  }
  if (options.selected_joint >= 0 && options.selected_joint < model.skeleton.joint_count()) {
    list->Add("selected bone", bone_colors::kSelected, LegendShape::kBone);
  }
  if (options.joint_axes) {
    list->Add("joint X axis", renderer::colors::kRed, LegendShape::kLine);
    list->Add("joint Y axis", renderer::colors::kGreen, LegendShape::kLine);
    list->Add("joint Z axis", renderer::colors::kBlue, LegendShape::kLine);
  }
}

void AddTwoBoneEntries(const ConstraintRequests& requests, const PoseState& state,
                       const SceneOptions& options, EntryList* list) {
  bool any = false, explained = false, pole = false, reached = false, missed = false;
  bool circle = false;
  for (size_t i = 0; i < requests.ik.size() && i < state.ik.size(); ++i) {
    const ik::TwoBoneIkResult& r = state.ik[i];
    if (r.solve_case == ik::TwoBoneCase::kDegenerate) continue;
    any = true;
    (r.reached ? reached : missed) = true;
    pole = pole || requests.ik[i].options.pole_model.has_value();  // drawn on every chain
    if (!options.all_chains && static_cast<int>(i) != options.active_chain) continue;
    explained = true;
    circle = circle || r.circle.radius > 1e-6f;
  }
  if (!any) return;
  if (options.ik_overlay) {
    list->Add("solved limb", oc::kSolvedLimb, LegendShape::kLine);
    if (reached) list->Add("target, reached", oc::kTargetReached, LegendShape::kCross);
    if (missed) list->Add("target, out of reach", oc::kTargetMissed, LegendShape::kCross);
    if (explained) {
      if (circle)
        list->Add("knee circle: where the knee can go", oc::kKneeCircle, LegendShape::kLine);
      list->Add("knee before the solve", oc::kKneeBefore, LegendShape::kSquare);
      list->Add("knee after the solve", oc::kKneeAfter, LegendShape::kDisc);
    }
    if (pole) list->Add("pole", oc::kPole, LegendShape::kDiamond);
  }
  if (options.reach_shell && explained) {
    list->Add("reach shells: nearest and farthest", oc::kReachShell, LegendShape::kLine);
  }
}

}  // namespace

int LegendEntries(const assets::Model& model, const SceneExtent& extent,
                  const ConstraintRequests& requests, const PoseState& state,
                  const SceneOptions& options, LegendEntry* out) {
  EntryList list(out);
  AddBoneEntries(model, extent, requests, options, &list);
  if (options.weight_joint >= 0 && !options.influences && !options.weight_problems) {
    list.Add("weight 0 to 1", glm::vec4(0.1f, 0.2f, 0.95f, 1.0f), LegendShape::kGradient,
             glm::vec4(0.95f, 0.1f, 0.05f, 1.0f));
  }
  if (options.weight_problems) {
    static const char* const kProblems[3] = {"unweighted vertex", "weights not summing to 1",
                                             "more than 8 influences"};
    for (int k = 0; k < 3; ++k) {
      list.Add(kProblems[k], glm::vec4(renderer::kProblemColors[k], 1.0f), LegendShape::kSquare);
    }
  } else if (options.influences) {
    static const char* const kCounts[9] = {"no influence", "1 influence",  "2 influences",
                                           "3 influences", "4 influences", "5 influences",
                                           "6 influences", "7 influences", "8 influences"};
    for (int k = 1; k <= 8; ++k) {
      list.Add(kCounts[k], glm::vec4(renderer::kInfluenceColors[k], 1.0f), LegendShape::kSquare);
    }
    list.Add(kCounts[0], glm::vec4(renderer::kInfluenceColors[0], 1.0f), LegendShape::kSquare);
  }
  const bool onion = options.onion_count > 0, trail = options.trail_joint >= 0;
  if (onion && trail) {
    list.Add("earlier frames (ghosts, trail)", kGhostPastColor, LegendShape::kLine);
    list.Add("later frames (ghosts, trail)", kGhostFutureColor, LegendShape::kLine);
  } else if (onion) {
    list.Add("ghost of an earlier frame", kGhostPastColor, LegendShape::kLine);
    list.Add("ghost of a later frame", kGhostFutureColor, LegendShape::kLine);
  } else if (trail) {
    list.Add("trail before now", kGhostPastColor, LegendShape::kLine);
    list.Add("trail after now", kGhostFutureColor, LegendShape::kLine);
  }
  AddTwoBoneEntries(requests, state, options, &list);
  if (options.ik_overlay && !requests.fabrik.empty()) {
    list.Add("FABRIK chain", oc::kFabrik, LegendShape::kLine);
  }
  if (options.ik_overlay && !requests.aim.empty()) {
    list.Add("aim: bone's new direction", oc::kAim, LegendShape::kLine);
  }
  if (options.joint_limits && !requests.limits.entries().empty()) {
    list.Add("joint limit", oc::kLimit, LegendShape::kLine);
    bool twist = false;  // cones draw their twist range
    for (const auto& [joint, limit] : requests.limits.entries()) {
      twist = twist || limit.type == ik::JointLimit::Type::kCone;
    }
    if (twist) list.Add("twist limit", oc::kTwistLimit, LegendShape::kLine);
  }
  return list.count();
}

}  // namespace app

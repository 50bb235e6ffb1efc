// Joints: the hierarchy as a searchable tree, the selected joint's local and world transforms, its
// editable local rotation and its joint limit.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "app/scene/bone_rotate.h"
#include "app/window/panels/panel_util.h"
#include "ik/limits/joint_limits.h"
#include "ik/two_bone/two_bone_ik.h"

namespace app {

namespace {

bool ContainsNoCase(const std::string& text, const std::string& needle) {
  if (needle.empty()) return true;
  auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

void DrawJointTree(const assets::Model& model, int joint, Selection* selection) {
  const ik::Skeleton& skeleton = model.skeleton;
  const std::vector<int>& children = skeleton.children(joint);
  const int selected = selection->selected_joint;
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth;
  if (children.empty()) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (joint == selected) flags |= ImGuiTreeNodeFlags_Selected;
  if (skeleton.Depth(joint) < 2) flags |= ImGuiTreeNodeFlags_DefaultOpen;
  if (selection->scroll_to_selected && selected >= 0 && joint != selected &&
      skeleton.IsAncestorOrSelf(joint, selected)) {
    ImGui::SetNextItemOpen(true);
  }
  const bool bone = joint < static_cast<int>(model.is_bone.size()) && model.is_bone[joint];
  if (!bone) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.6f, 0.6f, 0.6f, 1.0f));
  const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(joint)), flags,
                                      "%s", skeleton.name(joint).c_str());
  if (!bone) ImGui::PopStyleColor();
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) selection->selected_joint = joint;
  Tip(bone ? "Click to select this joint; the arrow opens its children."
           : "A node that no mesh is skinned to (grey). Click to select it.");
  if (joint == selection->selected_joint && selection->scroll_to_selected) {
    ImGui::SetScrollHereY(0.5f);
    selection->scroll_to_selected = false;
  }
  if (open && !children.empty()) {
    // Very deep hierarchies are cut off rather than recursed into without bound.
    if (skeleton.Depth(joint) < 200) {
      for (int child : children) DrawJointTree(model, child, selection);
    } else {
      ImGui::TextDisabled("(deeper joints: use the search)");
    }
    ImGui::TreePop();
  }
}

// A hinge of `j` that the current local rotation satisfies, so that choosing it moves nothing:
// about the axis the joint is turned by from its rest rotation (when it is turned), else about the
// bend axis of the two-bone chain whose knee it is, else about X; ±45° widened to hold the turn.
ik::JointLimit HingeHoldingPose(const FrameInput& in, const EditState& edit, int j) {
  const ik::Skeleton& skeleton = in.model.skeleton;
  glm::quat delta =
      glm::inverse(skeleton.rest_locals()[j].rotation) * in.state.pose.locals[j].rotation;
  if (delta.w < 0.0f) delta = -delta;  // the turn the short way round, angle in [0, π]
  const float angle = 2.0f * std::acos(std::clamp(delta.w, -1.0f, 1.0f));
  const float quarter = glm::radians(45.0f), margin = glm::radians(0.5f);
  if (angle > glm::radians(1.0f)) {
    return ik::JointLimit::Hinge(glm::normalize(glm::vec3(delta.x, delta.y, delta.z)), -quarter,
                                 std::min(std::max(quarter, angle + margin), glm::pi<float>()));
  }
  for (const ChainSettings& chain : edit.chains) {
    if (chain.kind != ConstraintKind::kTwoBone || chain.chain.mid != j) continue;
    if (const auto axis = in.character.BendAxis(chain.chain)) {
      return ik::JointLimit::Hinge(*axis, -quarter, quarter);
    }
  }
  return ik::JointLimit::Hinge(glm::vec3(1.0f, 0.0f, 0.0f), -quarter, quarter);
}

// A cone of `j` about its bone that holds the current swing (45° or wider), any twist.
ik::JointLimit ConeHoldingPose(const FrameInput& in, int j) {
  const ik::Skeleton& skeleton = in.model.skeleton;
  const glm::vec3 axis = ik::BoneAxisLocal(skeleton, j).value_or(glm::vec3(0.0f, 1.0f, 0.0f));
  const ik::JointLimit any = ik::JointLimit::Cone(axis, glm::pi<float>());
  const float swing = ik::MeasureLimitAngles(any, skeleton.rest_locals()[j].rotation,
                                             in.state.pose.locals[j].rotation)
                          .swing;
  return ik::JointLimit::Cone(
      axis, std::min(std::max(glm::radians(45.0f), swing + glm::radians(0.5f)), glm::pi<float>()));
}

// Whether joint `j`'s current pose is within `limit`; when not, asks for a message saying so.
bool SayWhenOutside(const FrameInput& in, int j, const ik::JointLimit& limit, Requests* out) {
  const ik::Skeleton& skeleton = in.model.skeleton;
  const glm::quat& rest = skeleton.rest_locals()[j].rotation;
  const glm::quat& now = in.state.pose.locals[j].rotation;
  if (ik::WithinLimit(limit, rest, now, glm::radians(0.1f))) return true;
  Ask(out, RequestKind::kMessage,
      skeleton.name(j) + ": the current pose is outside the new " + ik::LimitTypeName(limit.type) +
          " limit; IK, aims and FABRIK will turn the joint into it",
      /*option=*/false);
  return false;
}

// The limit's own parameters (hinge axis and angles, or cone and twist), dragged; a valid change
// is stored, and when the drag ends with the pose outside the limit a message says so. Returns the
// limit as edited (valid or not), nullopt when the joint has none.
std::optional<ik::JointLimit> DrawLimitParameters(const FrameInput& in, int j, EditState* edit,
                                                  Requests* out) {
  const ik::JointLimit* found = edit->limits.Find(j);
  if (!found) return std::nullopt;
  ik::JointLimit limit = *found;
  bool changed = false, released = false;
  const auto track = [&] {
    TrackLastItem(out);
    released |= ImGui::IsItemDeactivatedAfterEdit();
  };
  if (limit.type == ik::JointLimit::Type::kHinge) {
    changed |= ImGui::DragFloat3("Hinge axis", &limit.axis_local.x, 0.01f, -1.0f, 1.0f, "%.2f");
    Tip("The hinge's axis in the joint's own frame.");
    track();
    float lo = glm::degrees(limit.min_angle), hi = glm::degrees(limit.max_angle);
    if (ImGui::DragFloatRange2("Angles", &lo, &hi, 0.5f, -180.0f, 180.0f, "%.1f deg")) {
      limit.min_angle = glm::radians(lo);
      limit.max_angle = glm::radians(std::max(lo, hi));
      changed = true;
    }
    Tip("The turn allowed about the axis from the rest pose, degrees.");
    track();
  } else if (limit.type == ik::JointLimit::Type::kCone) {
    float cone = glm::degrees(limit.cone_angle);
    if (ImGui::SliderFloat("Cone", &cone, 0.0f, 180.0f, "%.1f deg")) {
      limit.cone_angle = glm::radians(cone);
      changed = true;
    }
    Tip("How far the bone may swing from its rest direction, degrees.");
    track();
    float lo = glm::degrees(limit.twist_min), hi = glm::degrees(limit.twist_max);
    if (ImGui::DragFloatRange2("Twist", &lo, &hi, 0.5f, -180.0f, 180.0f, "%.1f deg")) {
      limit.twist_min = glm::radians(lo);
      limit.twist_max = glm::radians(std::max(lo, hi));
      changed = true;
    }
    Tip("The twist allowed about the bone, degrees.");
    track();
  }
  if (changed && limit.Validate()) edit->limits.Set(j, limit);
  if (released) {
    if (const ik::JointLimit* stored = edit->limits.Find(j)) SayWhenOutside(in, j, *stored, out);
  }
  return limit;
}

// The joint's limit relative to its rest rotation (aims, FABRIK and a two-bone hinge obey it),
// and where the joint is within it now. A new limit holds the current pose where it can, so
// choosing one moves nothing; a message says when the pose is outside it.
void DrawJointLimit(const FrameInput& in, int j, EditState* edit, Requests* out) {
  const ik::Skeleton& skeleton = in.model.skeleton;
  const ik::JointLimit* current = edit->limits.Find(j);
  int type = current ? static_cast<int>(current->type) : 0;
  if (Edited(ImGui::Combo("Limit", &type, "none\0hinge\0cone\0"), out)) {
    if (type == 0) {
      edit->limits.Remove(j);
    } else {
      const ik::JointLimit limit =
          type == 1 ? HingeHoldingPose(in, *edit, j) : ConeHoldingPose(in, j);
      edit->limits.Set(j, limit);
      SayWhenOutside(in, j, limit, out);
    }
  }
  Tip("A limit relative to the rest pose that aims, FABRIK and a two-bone knee obey. A new limit "
      "holds the current pose.");
  const std::optional<ik::JointLimit> limit = DrawLimitParameters(in, j, edit, out);
  if (!limit) return;
  const glm::quat& rest = skeleton.rest_locals()[j].rotation;
  const glm::quat& now = in.state.pose.locals[j].rotation;
  const ik::LimitAngles angles = ik::MeasureLimitAngles(*limit, rest, now);
  if (limit->type == ik::JointLimit::Type::kHinge) {
    ImGui::TextDisabled("now: %.1f deg about the axis, %.1f deg off it",
                        double(glm::degrees(angles.hinge)), double(glm::degrees(angles.off_axis)));
  } else {
    ImGui::TextDisabled("now: swing %.1f deg, twist %.1f deg", double(glm::degrees(angles.swing)),
                        double(glm::degrees(angles.twist)));
  }
  if (!ik::WithinLimit(*limit, rest, now, glm::radians(0.1f))) {
    ImGui::TextColored(ToneColor(Tone::kWarning),
                       "outside the limit: IK, aims and FABRIK turn the joint into it");
  }
}

void DrawSelectedJoint(const FrameInput& in, int j, EditState* edit, Selection* selection,
                       Requests* out) {
  const ik::Skeleton& skeleton = in.model.skeleton;
  if (j < 0 || j >= skeleton.joint_count()) {
    ImGui::TextDisabled("click a bone or a joint to select it");
    return;
  }
  ImGui::TextWrapped("%s", skeleton.name(j).c_str());
  ImGui::TextDisabled("parent:");
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s",
                     skeleton.parent(j) >= 0 ? skeleton.name(skeleton.parent(j)).c_str() : "none");
  ImGui::PopStyleColor();
  TransformRows("local", in.state.pose.locals[j]);
  ik::Transform world;
  if (ik::Transform::FromMatrix(in.state.models[j], &world)) TransformRows("world", world);
  // The local rotation is editable (Euler angles, degrees); the edit replaces the animation's.
  // Shown from the quaternion as the triple nearest the one shown before: never a jump.
  // In the rotation order chosen (Blender's modes: XYZ turns about X first), the fields in it.
  const EulerOrder order = selection->euler_order;
  const glm::quat rotation = in.frame.unsolved_pose.locals[j].rotation;
  glm::vec3 euler =
      selection->euler_joint == j && selection->euler_shown_order == order
          ? ContinuousEulerDegrees(rotation, selection->euler_shown, order)
          : ContinuousEulerDegrees(rotation, EulerDegreesInOrder(rotation, order), order);
  char label[32];  // no heap allocation in an idle frame
  std::snprintf(label, sizeof label, "Rotation %s", EulerOrderName(order));
  if (ImGui::DragFloat3(label, &euler.x, 0.5f, -720.0f, 720.0f, "%.1f")) {
    edit->joint_rotations[j] = QuatFromEulerDegrees(euler, order);
    edit->joint_offsets.erase(j);  // the fields give the whole rotation
  }
  selection->euler_joint = j;
  selection->euler_shown = euler;
  selection->euler_shown_order = order;
  Tip("The joint's local rotation, Euler degrees about the axes in the order below (the first "
      "turn applied first); an edit replaces the animation's. R in the view turns the bone "
      "instead (played with the clip); Alt+R clears.");
  TrackLastItem(out);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("XYZ").x + ImGui::GetFrameHeight() * 2.0f);
  if (ImGui::BeginCombo("Rotation order", EulerOrderName(order))) {
    for (int i = 0; i < kEulerOrderCount; ++i) {
      const EulerOrder o = static_cast<EulerOrder>(i);
      if (ImGui::Selectable(EulerOrderName(o), o == order)) selection->euler_order = o;
    }
    ImGui::EndCombo();
  }
  Tip("The order of the Euler fields above, as Blender's rotation modes (remembered).");
  if (edit->joint_rotations.count(j) || edit->joint_offsets.count(j)) {
    SameLineIfFits(ButtonWidth("clear"));
    if (Edited(ImGui::SmallButton("clear"), out)) {
      edit->joint_rotations.erase(j);
      edit->joint_offsets.erase(j);
    }
    Tip("Drop the edited rotation (Alt+R): the animation's comes back.");
  }
  int gizmo = static_cast<int>(selection->rotate_gizmo);
  if (ImGui::Combo("Rotate gizmo", &gizmo, "off\0global axes\0local axes\0")) {
    selection->rotate_gizmo = static_cast<Selection::RotateGizmoMode>(gizmo);
  }
  Tip("Rings on the bone's head (Shift+R cycles them): drag the white one to turn the bone about "
      "the view, a red, green or blue one about X, Y or Z (the model's axes, or the bone's own).");
  DrawJointLimit(in, j, edit, out);
}

}  // namespace

void DrawJointsPanel(const FrameInput& in, EditState* edit, Selection* selection,
                     JointSearch* search, Requests* out) {
  const bool open = ImGui::CollapsingHeader("Joints", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The hierarchy; the selected joint's transforms, rotation and limit.");
  if (!open) return;
  const ik::Skeleton& skeleton = in.model.skeleton;
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputTextWithHint("##filter", "search joints", search->filter, sizeof(search->filter));
  Tip("Type part of a joint's name to list the matching joints.");
  const std::string filter = search->filter;
  ImGui::BeginChild("joint_tree", ImVec2(0.0f, 220.0f), true);
  if (!filter.empty()) {
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      if (!ContainsNoCase(skeleton.name(j), filter)) continue;
      ImGui::PushID(j);
      if (ImGui::Selectable(skeleton.name(j).c_str(), j == selection->selected_joint)) {
        selection->selected_joint = j;
      }
      Tip("Click to select this joint.");
      ImGui::PopID();
    }
  } else {
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      if (skeleton.parent(j) < 0) DrawJointTree(in.model, j, selection);
    }
  }
  ImGui::EndChild();
  DrawSelectedJoint(in, selection->selected_joint, edit, selection, out);
}

}  // namespace app

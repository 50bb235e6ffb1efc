// The viewer's Dear ImGui panels: model statistics, display toggles, animation, IK chains, the
// joint hierarchy with the selected joint's transforms, messages and the status line. Panels
// only edit the viewer's settings; the pose is recomputed from them after the UI is built.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "app/window/viewer_impl.h"
#include "ik/joint_limits.h"
#include "ik/transform.h"

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

glm::vec3 EulerDegrees(const glm::quat& q) { return glm::degrees(glm::eulerAngles(q)); }

void TransformRows(const char* label, const ik::Transform& t) {
  const glm::vec3 euler = EulerDegrees(t.rotation);
  ImGui::Text("%s T  %8.4f %8.4f %8.4f", label, double(t.translation.x), double(t.translation.y),
              double(t.translation.z));
  ImGui::Text("%s R  %8.2f %8.2f %8.2f deg (quat %.3f %.3f %.3f %.3f)", label, double(euler.x),
              double(euler.y), double(euler.z), double(t.rotation.x), double(t.rotation.y),
              double(t.rotation.z), double(t.rotation.w));
  ImGui::Text("%s S  %8.4f %8.4f %8.4f", label, double(t.scale.x), double(t.scale.y),
              double(t.scale.z));
}

const char* kEndOrientationNames[] = {"keep local (seed)", "keep world", "target rotation"};

}  // namespace

void Viewer::TrackEditOfLastItem() {
  if (ImGui::IsItemActivated()) BeginEdit();
  if (ImGui::IsItemDeactivated()) CommitEdit();
}

void Viewer::DrawUi() {
  // The state before this frame's panel edits: widgets that change on release (checkboxes,
  // buttons, combo entries) record it as their undo step.
  const EditState before = edit_;
  const bool edit_running = edit_before_.has_value();
  const size_t commits = commits_;
  DrawMenuBar();
  ImGui::SetNextWindowPos(ImVec2(10, menu_height_ + 8.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, std::min(ImGui::GetIO().DisplaySize.y - 60.0f, 760.0f)),
                           ImGuiCond_FirstUseEver);
  ImGui::Begin("skelview");
  DrawModelPanel();
  DrawDisplayPanel();
  DrawAnimationPanel();
  DrawChainsPanel();
  DrawContactsPanel();
  DrawJointsPanel();
  // The camera centres the view in the space right of the panel.
  panel_right_px_ = ImGui::IsWindowCollapsed()
                        ? 0.0f
                        : (ImGui::GetWindowPos().x + ImGui::GetWindowSize().x) * pixel_ratio_;
  ImGui::End();
  DrawLoading();
  DrawExportDialog();
  std::string chosen;
  if (file_browser_.Draw(&chosen)) StartOpen(chosen);
  DrawMessage();
  DrawStatusLine();
  // Discrete widgets changed the state without a running edit: one undo step.
  if (!edit_running && !edit_before_ && commits == commits_) history_.Record(before, edit_);
}

void Viewer::DrawMenuBar() {
  if (!ImGui::BeginMainMenuBar()) return;
  menu_height_ = ImGui::GetWindowSize().y;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) file_browser_.Open("");
    if (ImGui::BeginMenu("Open recent", !recent_.paths().empty())) {
      for (const std::string& path : recent_.paths()) {
        if (ImGui::MenuItem(path.c_str())) StartOpen(path);
      }
      ImGui::Separator();
      if (ImGui::MenuItem("Clear list")) {
        recent_.Clear();
        std::string error;
        recent_.Save(&error);
      }
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Built-in character")) StartOpen("");
    if (ImGui::MenuItem("Reload", "Ctrl+R", false, !current_path_.empty())) {
      StartOpen(current_path_);
    }
    if (ImGui::MenuItem("Export glTF...", "Ctrl+E")) export_open_ = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Screenshot", "F12")) screenshot_requested_ = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, history_.undo_count() > 0)) Undo();
    if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, history_.redo_count() > 0)) Redo();
    ImGui::Separator();
    if (ImGui::MenuItem("Reset all targets")) ResetAllTargets();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Frame model", "F")) FrameCamera();
    ImGui::MenuItem("Mesh", nullptr, &scene_options_.mesh);
    ImGui::MenuItem("Bones", nullptr, &scene_options_.skeleton);
    ImGui::MenuItem("Joint axes", nullptr, &scene_options_.joint_axes);
    ImGui::MenuItem("IK handles", nullptr, &show_handles_);
    ImGui::MenuItem("Knee circles", nullptr, &scene_options_.ik_overlay);
    ImGui::MenuItem("Reach shells", nullptr, &scene_options_.reach_shell);
    ImGui::MenuItem("Grid", nullptr, &scene_options_.grid);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void Viewer::DrawExportDialog() {
  if (!export_open_) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(460.0f, 0.0f), ImGuiCond_Appearing);
  if (!ImGui::Begin("Export glTF", &export_open_, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  ImGui::TextDisabled("writes glTF 2.0 (.glb, or .gltf with a .bin beside it)");
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputText("##path", export_path_, sizeof(export_path_),
                                      ImGuiInputTextFlags_EnterReturnsTrue);
  int what = export_bake_ ? 1 : 0;
  ImGui::RadioButton("This pose as the rest pose (skins kept)", &what, 0);
  const bool has_clip = clip_ >= 0;
  ImGui::BeginDisabled(!has_clip);
  ImGui::RadioButton("The clip, baked with the IK at its frame rate", &what, 1);
  ImGui::EndDisabled();
  export_bake_ = what == 1 && has_clip;
  if (ImGui::Button("Export") || enter) {
    std::string error;
    if (ExportTo(export_path_, export_bake_, &error)) {
      ShowMessage(std::string("exported ") + export_path_, false);
      export_open_ = false;
    } else {
      ShowMessage(error, true);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) export_open_ = false;
  ImGui::End();
}

void Viewer::DrawLoading() {
  if (!loading_) return;
  const ImGuiIO& io = ImGui::GetIO();
  // At the bottom, so the current model (still usable meanwhile) stays in view.
  ImGui::SetNextWindowPos(
      ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y - ImGui::GetFrameHeight() * 2.0f),
      ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(420.0f, 0.0f), ImGuiCond_Always);
  ImGui::Begin("Loading", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextWrapped("%s", loading_->path().c_str());
  ImGui::ProgressBar(loading_->progress(), ImVec2(-1.0f, 0.0f));
  ImGui::TextDisabled("the current model stays usable until the new one is ready");
  if (ImGui::Button("Cancel")) loading_->Cancel();
  ImGui::End();
}

void Viewer::DrawModelPanel() {
  if (!ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const assets::Model& model = current_->model;
  ImGui::TextWrapped("%s", model.source.c_str());
  int bones = 0;
  for (bool b : model.is_bone) bones += b ? 1 : 0;
  ImGui::Text("%zu meshes, %zu vertices, %zu triangles", model.meshes.size(), model.vertex_count(),
              model.triangle_count());
  ImGui::Text("%d joints (%d bones), %zu clips, %zu chains", model.skeleton.joint_count(), bones,
              model.clips.size(), edit_.chains.size());
  for (const std::string& w : model.warnings) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.4f, 1.0f));
    ImGui::TextWrapped("warning: %s", w.c_str());
    ImGui::PopStyleColor();
  }
}

void Viewer::DrawDisplayPanel() {
  if (!ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("Mesh", &scene_options_.mesh);
  ImGui::SameLine();
  ImGui::Checkbox("Grid", &scene_options_.grid);
  ImGui::SameLine();
  ImGui::Checkbox("Bones", &scene_options_.skeleton);
  ImGui::SameLine();
  ImGui::Checkbox("X-ray", &scene_options_.skeleton_xray);
  ImGui::Checkbox("Joint axes", &scene_options_.joint_axes);
  ImGui::SameLine();
  ImGui::Checkbox("IK handles", &show_handles_);
  ImGui::Checkbox("Knee circles", &scene_options_.ik_overlay);
  ImGui::SameLine();
  ImGui::Checkbox("Reach shells", &scene_options_.reach_shell);
  ImGui::SameLine();
  ImGui::Checkbox("Limits", &scene_options_.joint_limits);
  ImGui::SliderFloat("Mesh opacity", &scene_options_.mesh_opacity, 0.05f, 1.0f, "%.2f");
  if (ImGui::Button("Frame model (F)")) FrameCamera();
  ImGui::SameLine();
  if (ImGui::Button("Screenshot (F12)")) screenshot_requested_ = true;
}

void Viewer::DrawAnimationPanel() {
  if (!ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const assets::Model& model = current_->model;
  if (model.clips.empty()) {
    ImGui::TextDisabled("no clips in this model");
    return;
  }
  const char* preview = clip_ >= 0 ? model.clips[clip_].name.c_str() : "(rest pose)";
  if (ImGui::BeginCombo("Clip", preview)) {
    if (ImGui::Selectable("(rest pose)", clip_ < 0)) clip_ = -1;
    for (int c = 0; c < static_cast<int>(model.clips.size()); ++c) {
      ImGui::PushID(c);
      const std::string label =
          model.clips[c].name.empty() ? "clip " + std::to_string(c) : model.clips[c].name;
      if (ImGui::Selectable(label.c_str(), clip_ == c)) {
        clip_ = c;
        clip_time_ = 0.0f;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (clip_ < 0) return;
  const float frame = 1.0f / 30.0f;
  if (ImGui::Button("|<")) clip_time_ = 0.0f;
  ImGui::SameLine();
  if (ImGui::Button("<")) {
    playing_ = false;
    clip_time_ -= frame;
  }
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? "Pause" : "Play")) playing_ = !playing_;
  ImGui::SameLine();
  if (ImGui::Button(">")) {
    playing_ = false;
    clip_time_ += frame;
  }
  ImGui::SameLine();
  if (ImGui::Button(">|")) clip_time_ = model.clips[clip_].duration;
  ImGui::SameLine();
  ImGui::Checkbox("Loop", &loop_);
  ImGui::SliderFloat("Speed", &speed_, -2.0f, 2.0f, "%.2fx");
  ImGui::SliderFloat("Time", &clip_time_, 0.0f, model.clips[clip_].duration, "%.3f s");
}

void Viewer::DrawChainsPanel() {
  if (!ImGui::CollapsingHeader("IK chains", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const ik::Skeleton& skeleton = current_->model.skeleton;
  if (edit_.chains.empty()) ImGui::TextDisabled("no chains: select a joint and add one");
  int remove = -1;
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    ChainSettings& chain = edit_.chains[i];
    ImGui::PushID(i);
    ImGui::Checkbox("##enabled", &chain.enabled);
    ImGui::SameLine();
    const ik::TwoBoneIkResult* result = TwoBoneResultOf(i);
    const bool open = ImGui::TreeNodeEx(
        "##chain",
        ImGuiTreeNodeFlags_SpanAvailWidth | (i == active_chain_ ? ImGuiTreeNodeFlags_Selected : 0),
        "%s", chain.label.c_str());
    if (ImGui::IsItemClicked()) active_chain_ = i;
    if (chain.enabled) {
      ImGui::SameLine(200.0f);
      const ImVec4 color =
          ChainReached(i) ? ImVec4(0.45f, 0.9f, 0.45f, 1.0f) : ImVec4(1.0f, 0.45f, 0.35f, 1.0f);
      ImGui::TextColored(color, "%s", ChainStatus(i).c_str());
    }
    if (open) {
      switch (chain.kind) {
        case ConstraintKind::kTwoBone:
          ImGui::TextDisabled("two-bone: %s > %s > %s", skeleton.name(chain.chain.start).c_str(),
                              skeleton.name(chain.chain.mid).c_str(),
                              skeleton.name(chain.chain.end).c_str());
          break;
        case ConstraintKind::kFabrik:
          ImGui::TextDisabled("FABRIK: %s down to %s", skeleton.name(chain.chain.start).c_str(),
                              skeleton.name(chain.chain.end).c_str());
          break;
        case ConstraintKind::kAim:
          ImGui::TextDisabled(
              "aim: %s points at %s", skeleton.name(chain.chain.end).c_str(),
              chain.target_joint >= 0 ? skeleton.name(chain.target_joint).c_str() : "its target");
          break;
      }
      int mode = static_cast<int>(chain.mode);
      const EffectorInfo info = Info(i);
      const glm::vec3 effector = info.effector;
      const glm::vec3 target_before = ChainTarget(chain, info, edit_.contacts);
      if (ImGui::Combo("Target", &mode,
                       "follow animation\0pinned in world\0on the ground\0on a ladder rung\0")) {
        chain.mode = static_cast<TargetMode>(mode);
        if (chain.mode == TargetMode::kGround || chain.mode == TargetMode::kRung) {
          chain.offset = glm::vec3(0.0f);  // let the contact place it
          if (chain.mode == TargetMode::kGround) edit_.contacts.ground.enabled = true;
          if (chain.mode == TargetMode::kRung) edit_.contacts.ladder.enabled = true;
        } else {
          SetChainTarget(&chain, target_before, info, edit_.contacts);  // the handle stays put
        }
      }
      glm::vec3 target = target_before;
      if (ImGui::DragFloat3("Position", &target.x, current_->extent.size * 0.002f, 0.0f, 0.0f,
                            "%.3f")) {
        SetChainTarget(&chain, target, info, edit_.contacts);
      }
      TrackEditOfLastItem();
      if (chain.kind == ConstraintKind::kAim) {
        const char* preview =
            chain.target_joint >= 0 ? skeleton.name(chain.target_joint).c_str() : "(the target)";
        if (ImGui::BeginCombo("Aim at", preview)) {
          if (ImGui::Selectable("(the target)", chain.target_joint < 0)) chain.target_joint = -1;
          for (int j = 0; j < skeleton.joint_count(); ++j) {
            ImGui::PushID(j + 5000);
            if (ImGui::Selectable(skeleton.name(j).c_str(), chain.target_joint == j)) {
              chain.target_joint = j;
            }
            ImGui::PopID();
          }
          ImGui::EndCombo();
        }
        ImGui::SliderInt("Spread", &chain.spread, 0, 8);
        TrackEditOfLastItem();
        ImGui::SliderFloat("Falloff", &chain.spread_falloff, 0.05f, 1.0f, "%.2f");
        TrackEditOfLastItem();
        ImGui::Checkbox("Up reference", &chain.use_up);
        if (chain.use_up) {
          ImGui::SameLine();
          ImGui::SetNextItemWidth(-1.0f);
          ImGui::DragFloat3("##up", &chain.up.x, current_->extent.size * 0.002f, 0.0f, 0.0f,
                            "%.3f");
          TrackEditOfLastItem();
        }
      }
      if (chain.kind == ConstraintKind::kFabrik) {
        ImGui::SliderInt("Iterations", &chain.max_iterations, 1, 256);
        TrackEditOfLastItem();
        ImGui::SliderFloat("Tolerance", &chain.tolerance, 1e-5f, 1e-2f, "%.5f",
                           ImGuiSliderFlags_Logarithmic);
        TrackEditOfLastItem();
        ImGui::Checkbox("Show iterations", &chain.show_iterations);
      }
      if (chain.kind == ConstraintKind::kTwoBone) {
        if (ImGui::Checkbox("Pole", &chain.use_pole) && chain.use_pole && result) {
          // Start the pole in front of the current knee, along its bend.
          const glm::vec3 middle = 0.5f * (result->a + result->c_final);
          glm::vec3 out = result->b_final - middle;
          if (glm::length(out) < 1e-6f) out = glm::vec3(0.0f, 0.0f, 1.0f);
          chain.pole = result->b_final + glm::normalize(out) * current_->extent.size * 0.2f;
        }
        if (chain.use_pole) {
          ImGui::SameLine();
          ImGui::SetNextItemWidth(-1.0f);
          ImGui::DragFloat3("##pole", &chain.pole.x, current_->extent.size * 0.002f, 0.0f, 0.0f,
                            "%.3f");
          TrackEditOfLastItem();
        }
        ImGui::Checkbox("Hinge (one-way knee)", &chain.hinge);
        ImGui::SliderFloat("Soft", &chain.soft, 0.0f, 0.5f, "%.3f");
        TrackEditOfLastItem();
      }  // two-bone options
      if (chain.weight_keys.empty()) {
        ImGui::SliderFloat("Weight", &chain.weight, 0.0f, 1.0f, "%.2f");
        TrackEditOfLastItem();
      } else {
        ImGui::Text("Weight %.2f (animated, %zu keys)", double(chain.WeightAt(clip_time_)),
                    chain.weight_keys.size());
      }
      if (ImGui::SmallButton("Key weight here")) {
        // A key at the current clip time with the current weight (replacing one at that time).
        const float w = chain.WeightAt(clip_time_);
        auto& keys = chain.weight_keys;
        keys.erase(
            std::remove_if(keys.begin(), keys.end(),
                           [&](const glm::vec2& k) { return std::abs(k.x - clip_time_) < 1e-4f; }),
            keys.end());
        keys.push_back({clip_time_, w});
        std::sort(keys.begin(), keys.end(),
                  [](const glm::vec2& a, const glm::vec2& b) { return a.x < b.x; });
      }
      int erase_key = -1;
      for (size_t k = 0; k < chain.weight_keys.size(); ++k) {
        ImGui::PushID(static_cast<int>(k) + 1000);
        ImGui::SetNextItemWidth(120.0f);
        ImGui::DragFloat("##t", &chain.weight_keys[k].x, 0.01f, 0.0f, 1e6f, "t %.3f s");
        TrackEditOfLastItem();
        ImGui::SameLine();
        ImGui::SetNextItemWidth(120.0f);
        ImGui::SliderFloat("##w", &chain.weight_keys[k].y, 0.0f, 1.0f, "w %.2f");
        TrackEditOfLastItem();
        ImGui::SameLine();
        if (ImGui::SmallButton("x")) erase_key = static_cast<int>(k);
        ImGui::PopID();
      }
      if (erase_key >= 0) chain.weight_keys.erase(chain.weight_keys.begin() + erase_key);
      int orientation = static_cast<int>(chain.end_orientation);
      if (chain.kind == ConstraintKind::kTwoBone &&
          ImGui::Combo("End", &orientation, kEndOrientationNames, 3)) {
        chain.end_orientation = static_cast<ik::EndOrientation>(orientation);
      }
      if (result) {
        ImGui::Text("case %s, %s, error %.2e", ik::CaseName(result->solve_case),
                    result->reached ? "reached" : "not reached", double(result->error));
        ImGui::Text("fallback %s", ik::FallbackName(result->fallback));
        ImGui::Text("knee circle r %.4f, reach %.3f..%.3f", double(result->circle.radius),
                    double(result->reach_min), double(result->reach_max));
      }
      if (ImGui::Button("Reset target (R)")) ResetChainTarget(&chain, effector);
      ImGui::SameLine();
      if (ImGui::Button("Remove")) remove = i;
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (remove >= 0) {
    edit_.chains.erase(edit_.chains.begin() + remove);
    active_chain_ = -1;
    hover_chain_ = -1;
  }
  if (ImGui::Button("Reset all targets")) {
    for (size_t i = 0; i < edit_.chains.size(); ++i) {
      ResetChainTarget(&edit_.chains[i], Effector(static_cast<int>(i)));
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset pose")) {
    edit_.joint_rotations.clear();
    for (size_t i = 0; i < edit_.chains.size(); ++i) {
      ResetChainTarget(&edit_.chains[i], Effector(static_cast<int>(i)));
    }
  }
  ImGui::BeginDisabled(selected_joint_ < 0);
  // New constraints on the selected joint: a two-bone chain ending there, an aim of its bone, or
  // a FABRIK chain from the marked root down to it.
  ChainSettings added;
  std::string error;
  bool add = false, failed = false;
  if (ImGui::Button("Add two-bone chain") && selected_joint_ >= 0) {
    add = MakeChain(current_->model, selected_joint_, &added, &error);
    failed = !add;
  }
  ImGui::SameLine();
  if (ImGui::Button("Add aim") && selected_joint_ >= 0) {
    add = MakeAim(current_->model, selected_joint_, &added, &error);
    failed = !add;
  }
  if (ImGui::Button("Mark FABRIK root") && selected_joint_ >= 0) fabrik_root_ = selected_joint_;
  ImGui::SameLine();
  ImGui::BeginDisabled(fabrik_root_ < 0);
  if (ImGui::Button("Add FABRIK root..selected") && selected_joint_ >= 0) {
    add = MakeFabrik(current_->model, fabrik_root_, selected_joint_, &added, &error);
    failed = !add;
  }
  ImGui::EndDisabled();
  if (fabrik_root_ >= 0 && fabrik_root_ < skeleton.joint_count()) {
    ImGui::SameLine();
    ImGui::TextDisabled("root %s", skeleton.name(fabrik_root_).c_str());
  }
  ImGui::EndDisabled();
  if (add) {
    edit_.chains.push_back(added);
    active_chain_ = static_cast<int>(edit_.chains.size()) - 1;
    // The target starts on the effector (the bone's tip for an aim): nothing moves yet.
    ResetChainTarget(&edit_.chains.back(), Effector(active_chain_));
  }
  if (failed) ShowMessage(error, true);
}

void Viewer::DrawContactsPanel() {
  if (!ImGui::CollapsingHeader("Ground and ladder")) return;
  SceneContacts& c = edit_.contacts;
  const float step = current_->extent.size * 0.002f;
  ImGui::Checkbox("Ground plane", &c.ground.enabled);
  ImGui::SameLine();
  ImGui::Checkbox("Lower hips to reach", &c.lower_hips);
  ImGui::DragFloat("Height", &c.ground.height, step, -1e6f, 1e6f, "%.3f");
  TrackEditOfLastItem();
  ImGui::SliderFloat("Tilt X", &c.ground.tilt_x_degrees, -45.0f, 45.0f, "%.1f deg");
  TrackEditOfLastItem();
  ImGui::SliderFloat("Tilt Z", &c.ground.tilt_z_degrees, -45.0f, 45.0f, "%.1f deg");
  TrackEditOfLastItem();
  if (ImGui::Button("Feet on the ground")) {
    c.ground.enabled = true;
    for (ChainSettings& chain : edit_.chains) {
      if (chain.label.find("Leg") != std::string::npos) {
        chain.mode = TargetMode::kGround;
        chain.offset = glm::vec3(0.0f);
      }
    }
  }
  ImGui::Separator();
  ImGui::Checkbox("Ladder", &c.ladder.enabled);
  ImGui::DragFloat3("First rung", &c.ladder.base.x, step, 0.0f, 0.0f, "%.3f");
  TrackEditOfLastItem();
  ImGui::DragFloat("Rung spacing", &c.ladder.spacing, step, current_->extent.size * 0.01f, 1e6f,
                   "%.3f");
  TrackEditOfLastItem();
  ImGui::DragFloat("Rung width", &c.ladder.width, step, current_->extent.size * 0.01f, 1e6f,
                   "%.3f");
  TrackEditOfLastItem();
  ImGui::SliderInt("Rungs", &c.ladder.count, 1, 20);
  TrackEditOfLastItem();
  if (ImGui::Button("Hands on the rungs")) {
    c.ladder.enabled = true;
    for (ChainSettings& chain : edit_.chains) {
      if (chain.label.find("Arm") != std::string::npos) {
        chain.mode = TargetMode::kRung;
        chain.offset = glm::vec3(0.0f);
      }
    }
  }
}

void Viewer::DrawJointTree(int joint, const std::string& filter) {
  const ik::Skeleton& skeleton = current_->model.skeleton;
  const std::vector<int>& children = skeleton.children(joint);
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth;
  if (children.empty()) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (joint == selected_joint_) flags |= ImGuiTreeNodeFlags_Selected;
  if (skeleton.Depth(joint) < 2) flags |= ImGuiTreeNodeFlags_DefaultOpen;
  if (scroll_to_selected_ && selected_joint_ >= 0 && joint != selected_joint_ &&
      skeleton.IsAncestorOrSelf(joint, selected_joint_)) {
    ImGui::SetNextItemOpen(true);
  }
  const bool bone =
      joint < static_cast<int>(current_->model.is_bone.size()) && current_->model.is_bone[joint];
  if (!bone) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.6f, 0.6f, 0.6f, 1.0f));
  const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(joint)), flags,
                                      "%s", skeleton.name(joint).c_str());
  if (!bone) ImGui::PopStyleColor();
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) selected_joint_ = joint;
  if (joint == selected_joint_ && scroll_to_selected_) {
    ImGui::SetScrollHereY(0.5f);
    scroll_to_selected_ = false;
  }
  if (open && !children.empty()) {
    // Very deep hierarchies are cut off rather than recursed into without bound.
    if (skeleton.Depth(joint) < 200) {
      for (int child : children) DrawJointTree(child, filter);
    } else {
      ImGui::TextDisabled("(deeper joints: use the search)");
    }
    ImGui::TreePop();
  }
}

void Viewer::DrawJointsPanel() {
  if (!ImGui::CollapsingHeader("Joints", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const ik::Skeleton& skeleton = current_->model.skeleton;
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputTextWithHint("##filter", "search joints", joint_filter_, sizeof(joint_filter_));
  const std::string filter = joint_filter_;
  ImGui::BeginChild("joint_tree", ImVec2(0.0f, 220.0f), true);
  if (!filter.empty()) {
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      if (!ContainsNoCase(skeleton.name(j), filter)) continue;
      ImGui::PushID(j);
      if (ImGui::Selectable(skeleton.name(j).c_str(), j == selected_joint_)) selected_joint_ = j;
      ImGui::PopID();
    }
  } else {
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      if (skeleton.parent(j) < 0) DrawJointTree(j, filter);
    }
  }
  ImGui::EndChild();
  DrawSelectedJoint();
}

void Viewer::DrawSelectedJoint() {
  const ik::Skeleton& skeleton = current_->model.skeleton;
  const int j = selected_joint_;
  if (j < 0 || j >= skeleton.joint_count()) {
    ImGui::TextDisabled("click a bone or a joint to select it");
    return;
  }
  ImGui::Text("%s", skeleton.name(j).c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(parent %s)",
                      skeleton.parent(j) >= 0 ? skeleton.name(skeleton.parent(j)).c_str() : "none");
  TransformRows("local", state_.pose.locals[j]);
  ik::Transform world;
  if (ik::Transform::FromMatrix(state_.models[j], &world)) TransformRows("world", world);
  // The local rotation is editable (Euler angles, degrees); the edit replaces the animation's.
  glm::vec3 euler = EulerDegrees(unsolved_pose_.locals[j].rotation);
  if (ImGui::DragFloat3("Local rotation", &euler.x, 0.5f, -360.0f, 360.0f, "%.1f")) {
    edit_.joint_rotations[j] = glm::normalize(glm::quat(glm::radians(euler)));
  }
  TrackEditOfLastItem();
  if (edit_.joint_rotations.count(j)) {
    ImGui::SameLine();
    if (ImGui::SmallButton("clear")) edit_.joint_rotations.erase(j);
  }
  // The joint's limit, relative to its rest rotation; aims, FABRIK and a two-bone hinge obey it.
  const ik::JointLimit* current = edit_.limits.Find(j);
  int type = current ? static_cast<int>(current->type) : 0;
  if (ImGui::Combo("Limit", &type, "none\0hinge\0cone\0")) {
    if (type == 0) {
      edit_.limits.Remove(j);
    } else if (type == 1) {
      edit_.limits.Set(j, ik::JointLimit::Hinge(glm::vec3(1.0f, 0.0f, 0.0f), glm::radians(-45.0f),
                                                glm::radians(45.0f)));
    } else {
      const glm::vec3 axis = ik::BoneAxisLocal(skeleton, j).value_or(glm::vec3(0.0f, 1.0f, 0.0f));
      edit_.limits.Set(j, ik::JointLimit::Cone(axis, glm::radians(45.0f)));
    }
  }
  if (const ik::JointLimit* found = edit_.limits.Find(j)) {
    ik::JointLimit limit = *found;
    bool changed = false;
    if (limit.type == ik::JointLimit::Type::kHinge) {
      changed |= ImGui::DragFloat3("Hinge axis", &limit.axis_local.x, 0.01f, -1.0f, 1.0f, "%.2f");
      TrackEditOfLastItem();
      float lo = glm::degrees(limit.min_angle), hi = glm::degrees(limit.max_angle);
      if (ImGui::DragFloatRange2("Angles", &lo, &hi, 0.5f, -180.0f, 180.0f, "%.1f deg")) {
        limit.min_angle = glm::radians(lo);
        limit.max_angle = glm::radians(std::max(lo, hi));
        changed = true;
      }
      TrackEditOfLastItem();
    } else if (limit.type == ik::JointLimit::Type::kCone) {
      float cone = glm::degrees(limit.cone_angle);
      if (ImGui::SliderFloat("Cone", &cone, 0.0f, 180.0f, "%.1f deg")) {
        limit.cone_angle = glm::radians(cone);
        changed = true;
      }
      TrackEditOfLastItem();
      float lo = glm::degrees(limit.twist_min), hi = glm::degrees(limit.twist_max);
      if (ImGui::DragFloatRange2("Twist", &lo, &hi, 0.5f, -180.0f, 180.0f, "%.1f deg")) {
        limit.twist_min = glm::radians(lo);
        limit.twist_max = glm::radians(std::max(lo, hi));
        changed = true;
      }
      TrackEditOfLastItem();
    }
    if (changed && limit.Validate()) edit_.limits.Set(j, limit);
    const ik::LimitAngles angles = ik::MeasureLimitAngles(limit, skeleton.rest_locals()[j].rotation,
                                                          state_.pose.locals[j].rotation);
    if (limit.type == ik::JointLimit::Type::kHinge) {
      ImGui::TextDisabled("now: %.1f deg about the axis", double(glm::degrees(angles.hinge)));
    } else {
      ImGui::TextDisabled("now: swing %.1f deg, twist %.1f deg", double(glm::degrees(angles.swing)),
                          double(glm::degrees(angles.twist)));
    }
  }
}

void Viewer::DrawMessage() {
  if (message_.empty() || MillisecondsSince(message_time_) > 8000.0) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f + 180.0f, 12.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##message", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  const ImVec4 color =
      message_is_error_ ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.85f, 0.9f, 1.0f, 1.0f);
  ImGui::PushTextWrapPos(560.0f);
  ImGui::TextColored(color, "%s", message_.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
}

void Viewer::DrawStatusLine() {
  const ImGuiIO& io = ImGui::GetIO();
  const float height = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(0.0f, io.DisplaySize.y - height), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f, 2.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoInputs);
  const assets::Model& model = current_->model;
  ImGui::Text(
      "frame %.2f ms (%.0f fps) | update %.2f ms (pose + IK %.1f us) | draw %.2f ms | %d joints | "
      "%zu "
      "vertices | %zu triangles%s",
      frame_ms_.value, frame_ms_.value > 0 ? 1000.0 / frame_ms_.value : 0.0, update_ms_.value,
      solve_us_.value, draw_ms_.value, model.skeleton.joint_count(), model.vertex_count(),
      model.triangle_count(), drag_ == Drag::kGizmo ? " | dragging" : "");
  ImGui::End();
  ImGui::PopStyleVar(2);
}

}  // namespace app

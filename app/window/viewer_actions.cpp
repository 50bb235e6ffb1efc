// What the panels' requests and the keys ask the viewer for: opening files (in the background),
// undo and redo, resetting targets, exporting, screenshots, messages, and the --trace events.
#include <imgui.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "app/core/bake.h"
#include "app/core/chain_results.h"
#include "app/core/pose_input.h"
#include "app/window/viewer_loop.h"
#include "assets/files/image_file.h"
#include "assets/files/text.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "ik/body/limbs.h"
#include "renderer/offscreen.h"

namespace app {

namespace {

// Every chain's label, end joint, target mode and target now, for load_done.
Json ChainTargetsJson(const assets::Model& model, const EditState& edit, const EditedFrame& frame) {
  Json chains = Json::array();
  for (int i = 0; i < static_cast<int>(edit.chains.size()); ++i) {
    const ChainSettings& c = edit.chains[size_t(i)];
    chains.push_back({{"label", c.label},
                      {"end", model.skeleton.name(c.chain.end)},
                      {"mode", TargetModeName(c.mode)},
                      {"target", ToJson(ChainTargetNow(model.skeleton, edit, frame, i))}});
  }
  return chains;
}

// The box about the posed vertices with weight problem `kind` (assets::WeightProblem), skinned on
// the CPU with the pose and morph weights of `state`, at least a twentieth of the model wide (a
// single vertex still gives a view). False for a bad kind or no such vertices.
bool ProblemBox(const LoadedModel& loaded, const PoseState& state, int kind, glm::vec3* lo,
                glm::vec3* hi) {
  if (kind < 0 || kind >= assets::kWeightProblemKinds) return false;
  const assets::Bounds bounds = assets::ProblemBounds(loaded.model, loaded.weight_problems,
                                                      static_cast<assets::WeightProblem>(kind),
                                                      state.models, &state.morph_weights);
  if (bounds.empty()) return false;
  const glm::vec3 half = glm::max(bounds.size() * 0.5f, glm::vec3(loaded.extent.size * 0.025f));
  *lo = bounds.center() - half;
  *hi = bounds.center() + half;
  return true;
}

}  // namespace

void Viewer::CarryOut(const Requests& requests) {
  for (const Request& request : requests) {
    switch (request.kind) {
      case RequestKind::kOpen:
        RequestOpen(request.text);
        break;
      case RequestKind::kOpenBrowser:
        file_browser_.Open(OpenFolder());
        break;
      case RequestKind::kClearRecent: {
        recent_.Clear();
        std::string error;
        recent_.Save(&error);
        break;
      }
      case RequestKind::kExport:
        Export(request.text, request.option, request.index == 1);
        break;
      case RequestKind::kOpenExport:
        OpenExportDialog();
        break;
      case RequestKind::kCancelExport:
        bake_export_.Cancel();
        break;
      case RequestKind::kDiscardEdits:
        DiscardEdits();
        break;
      case RequestKind::kScreenshot:
        screenshot_requested_ = true;
        break;
      case RequestKind::kUndo:
        Undo();
        break;
      case RequestKind::kRedo:
        Redo();
        break;
      case RequestKind::kResetTarget:
        if (request.index >= 0 && request.index < static_cast<int>(edit_.chains.size())) {
          ResetTarget(request.index);
        }
        break;
      case RequestKind::kResetAllTargets:
        ResetAllTargets();
        break;
      case RequestKind::kResetPose:
        ResetPose();
        break;
      case RequestKind::kFrameCamera:
        FrameCamera();
        WriteCameraTrace("frame");
        break;
      case RequestKind::kFrameSelected:
        FrameSelected();
        WriteCameraTrace("frame");
        break;
      case RequestKind::kFrameVertices:
        if (glm::vec3 lo, hi; ProblemBox(*current_, state_, request.index, &lo, &hi)) {
          FrameBox(lo, hi);
          display_.scene.weight_problems = true;  // so that the user sees what was framed
          WriteCameraTrace("frame");
        }
        break;
      case RequestKind::kViewPreset:
        LookAlongAndFrame(static_cast<ViewPreset>(request.index));
        break;
      case RequestKind::kToggleOrtho:
        camera_.ortho = !camera_.ortho;
        WriteCameraTrace("view");
        break;
      case RequestKind::kCancelLoading:
        if (loading_) loading_->Cancel();
        break;
      case RequestKind::kQuit:
        RequestQuit();
        break;
      case RequestKind::kMessage:
        ShowMessage(request.text, request.option ? MessageLevel::kError : MessageLevel::kWarning);
        break;
      case RequestKind::kEditBegan:
        recorder_.Begin();
        break;
      case RequestKind::kEditEnded:
        recorder_.End(edit_);
        break;
      case RequestKind::kEdited:
        recorder_.Changed(edit_);
        break;
      case RequestKind::kSetKey:
        SetKeyNow(request.index);
        break;
      case RequestKind::kMoveKey:
        MoveKeyNow(request.index, request.time, request.time_to);
        break;
      case RequestKind::kDeleteKey:
        DeleteKeyNow(request.index, request.time);
        break;
      case RequestKind::kLockFeet:
        LockFeetNow(request.option);
        break;
      case RequestKind::kSetGround:
        SetGroundNow(request.text);
        break;
      case RequestKind::kEditContact:
        EditContactNow(request);
        break;
      case RequestKind::kBrowseGround: {
        const std::string folder = std::filesystem::path(feet_.mesh_path).parent_path().string();
        std::error_code ec;
        ground_loading_.browser.Open(
            !folder.empty() && std::filesystem::is_directory(folder, ec) ? folder : OpenFolder(),
            "Choose a ground mesh", BrowseFor::kGroundMesh);
        break;
      }
      case RequestKind::kCancelGround:
        if (ground_loading_.load) ground_loading_.load->Cancel();  // PollGround reports it
        break;
      case RequestKind::kSaveSession:
        SaveSession(request.text, request.index == 1);
        break;
      case RequestKind::kOpenSaveSession:
        OpenSessionDialog();
        break;
      case RequestKind::kSaveAndContinue:
        SaveAndContinue();
        break;
      case RequestKind::kCopyPose:
        CopyPoseNow();
        break;
      case RequestKind::kPastePose:
        PastePoseNow(request.option);
        break;
      case RequestKind::kMirrorPose:
        MirrorPoseNow();
        break;
      case RequestKind::kMirrorTarget:
        MirrorTargetNow(request.index);
        break;
      case RequestKind::kGenerateRangeOfMotion:
        GenerateRangeOfMotion();
        break;
      case RequestKind::kSetLimbJoint:
        SetLimbJoint(request.index, request.text, selection_.selected_joint);
        break;
      case RequestKind::kForgetLimbPick:
        ForgetLimbPick(request.index);
        break;
      case RequestKind::kImportClip:
      case RequestKind::kApplyRetarget:
      case RequestKind::kCancelRetarget:
        CarryOutImportClip(request.kind);
        break;
    }
  }
}

bool Viewer::Open(const std::string& path, std::string* error) {
  auto loaded = std::make_unique<LoadedModel>();
  if (!LoadModelOrBuiltin(path, args_.pose.allow_outside_files, load_raw_units_, &loaded->model,
                          error)) {
    return false;
  }
  auto gpu = renderer::GpuModel::Create(loaded->model, error);
  if (!gpu) {
    *error = loaded->model.source + ": " + *error;
    return false;
  }
  loaded->gpu = std::move(*gpu);
  Adopt(std::move(loaded), path);
  return true;
}

void Viewer::StartOpen(const std::string& path) {
  if (IsSessionPath(path)) return StartOpenSession(path);
  // A file opened by itself (not a session's model, not a reload): with the command line's units.
  if (!pending_session_ && !pending_reload_) load_raw_units_ = args_.pose.raw_units;
  if (path.empty()) {
    std::string error;
    if (Open("", &error)) ShowMessage("opened the built-in character", MessageLevel::kNote);
    return;
  }
  if (loading_) loading_->Cancel();
  loading_ = std::make_unique<ImportProcess>();
  trace_.Write(LoadStartedEvent(path));
  ImportLimits limits;
  limits.allow_outside_files = args_.pose.allow_outside_files;
  limits.raw_units = load_raw_units_;
  if (!loading_->Start(path, limits)) PollLoading();
}

void Viewer::PollLoading() {
  if (!loading_) return;
  const ImportProcess::State state = loading_->Poll(0);
  if (state == ImportProcess::State::kRunning) return;
  const std::string path = loading_->path();
  std::string error;
  if (state == ImportProcess::State::kDone) {
    // The GPU upload happens here, on the thread that owns the context.
    auto loaded = std::make_unique<LoadedModel>();
    loaded->model = loading_->TakeModel();
    auto gpu = renderer::GpuModel::Create(loaded->model, &error);
    if (gpu) {
      loaded->gpu = std::move(*gpu);
      Adopt(std::move(loaded), path);
      AddRecent(path);
      ShowMessage("opened " + path, MessageLevel::kNote);
      for (const std::string& warning : current_->model.warnings) {
        ShowMessage(warning, MessageLevel::kWarning);
      }
      Json done = LoadDoneEvent(current_->model, edit_.chains.size());
      done["targets"] = ChainTargetsJson(current_->model, edit_, frame_);
      if (load_done_extra_) done.update(*load_done_extra_);
      load_done_extra_.reset();
      trace_.Write(done);
      loading_.reset();
      return;
    }
    error = path + ": " + error;
  } else {
    error = loading_->error();
  }
  loading_.reset();
  pending_session_.reset();
  pending_reload_.reset();
  ShowMessage(error, MessageLevel::kError);
  trace_.Write(LoadFailedEvent(path, error, current_->model.source));
}

void Viewer::Adopt(std::unique_ptr<LoadedModel> loaded, const std::string& path) {
  loaded->weight_problems = assets::CheckWeights(loaded->model);
  current_ = std::move(loaded);
  current_path_ = path;
  MakeCharacter(path);  // the rig's facts, once per load (and when the user fixes a limb)
  edit_ = EditState();
  edit_.chains = DefaultChains(current_->character);
  recorder_.Reset(edit_);
  saved_edit_ = edit_;
  playback_.clip = current_->model.clips.empty() ? -1 : 0;
  playback_.together.clear();
  playback_.range_start = 0.0f;
  playback_.range_end = -1.0f;
  playback_.time = 0.0f;
  playback_.playing = false;
  selection_.selected_joint = -1;
  display_.scene.trail_joint = -1;  // the trail is the selected joint's: none in a new file
  selection_.fabrik_root = -1;
  selection_.active_chain = -1;
  selection_.hover_chain = -1;
  drag_ = Drag::kNone;
  hover_pole_ = pole_chain_ = rotate_joint_ = -1;
  model_watch_.Watch(args_.no_watch ? std::string() : path);
  Update(0.0);
  FrameCamera();
  AttachPending(path);
}

void Viewer::PlayTogether() {
  Character& character = current_->character;
  if (playback_.together == character.together()) return;
  const int clip = character.PlayTogether(playback_.together);
  if (!character.together().empty()) playback_.clip = clip;
}

void Viewer::AddRecent(const std::string& path) {
  recent_.Add(path);
  std::string error;
  if (!recent_.Save(&error)) std::cerr << "skelview: " << assets::MessageLine(error) << "\n";
}

void Viewer::LookAlongAndFrame(ViewPreset preset) {
  LookAlong(preset, &camera_);
  FrameCamera();
  WriteCameraTrace("view");
}

void Viewer::FrameCamera() {
  const assets::Bounds bounds = assets::ModelBounds(current_->model, state_.models);
  if (!bounds.empty()) FrameBox(bounds.min, bounds.max);
}

void Viewer::FrameBox(const glm::vec3& lo, const glm::vec3& hi) {
  camera_.Frame(lo, hi, viewport_.aspect());
  applied_lift_ = GroundLiftNow();  // the box is in model space: the camera looks at it raised
  camera_.target.y += applied_lift_;
}

void Viewer::FrameSelected() {
  const int joint = selection_.selected_joint;
  const assets::Model& model = current_->model;
  if (joint < 0 || joint >= model.skeleton.joint_count() || size_t(joint) >= state_.models.size()) {
    return FrameCamera();
  }
  // The selected joint's bones, from its head to each tail; a lone joint gets a box about it.
  std::vector<BoneSegment> segments;
  BoneSegments(model, state_.models, &segments);
  glm::vec3 lo(state_.models[size_t(joint)][3]), hi = lo;
  for (const BoneSegment& bone : segments) {
    if (bone.joint != joint) continue;
    lo = glm::min(lo, glm::min(bone.head, bone.tail));
    hi = glm::max(hi, glm::max(bone.head, bone.tail));
  }
  const glm::vec3 pad(std::max(glm::length(hi - lo) * 0.25f, current_->extent.size * 0.03f));
  FrameBox(lo - pad, hi + pad);
}

void Viewer::Undo() {
  if (drag_ == Drag::kGizmo) return;
  if (recorder_.Undo(&edit_)) {
    LimbsFollowChains();
    if (selection_.active_chain >= static_cast<int>(edit_.chains.size())) {
      selection_.active_chain = -1;
    }
    ShowMessage("undo", MessageLevel::kNote);
    Update(0.0);  // the targets traced are those of the edit undone to, not the frame before
    WriteTargetsTrace("undo");
  }
}

void Viewer::Redo() {
  if (drag_ == Drag::kGizmo) return;
  if (recorder_.Redo(&edit_)) {
    LimbsFollowChains();
    if (selection_.active_chain >= static_cast<int>(edit_.chains.size())) {
      selection_.active_chain = -1;
    }
    ShowMessage("redo", MessageLevel::kNote);
    Update(0.0);  // the targets traced are those of the edit redone, not the frame before
    WriteTargetsTrace("redo");
  }
}

// A reset is one undo step of its own, or part of the handle drag it interrupts (R while dragging).
void Viewer::ResetTarget(int chain) {
  ResetChainTarget(&edit_.chains[chain],
                   ChainInfo(current_->model.skeleton, edit_, frame_, chain).effector,
                   playback_.time);
  recorder_.Changed(edit_);
  WriteTargetsTrace("reset");
}

void Viewer::ResetAllTargets() {
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    ResetChainTarget(&edit_.chains[i],
                     ChainInfo(current_->model.skeleton, edit_, frame_, i).effector,
                     playback_.time);
  }
  recorder_.Changed(edit_);
  WriteTargetsTrace("reset");
}

void Viewer::ResetPose() {
  edit_.joint_rotations.clear();
  edit_.joint_offsets.clear();
  edit_.joint_translations.clear();
  Update(0.0);  // the effectors of the pose without the edited rotations
  ResetAllTargets();
}

void Viewer::Export(const std::string& path, bool bake, bool replace) {
  std::error_code ec;
  if (!replace && std::filesystem::exists(path, ec)) {
    export_dialog_.replace_path = path;  // the dialog asks
    return;
  }
  export_dialog_.replace_path.clear();
  if (bake_export_.running()) return;  // one at a time: the dialog shows the running one
  if (bake && playback_.clip >= 0) {
    // Baking can take long (a long clip, many joints): on a thread, with progress and Cancel.
    bake_export_.Start(current_->character, state_.pose, playback_.clip, edit_, path);
    export_dialog_.busy = true;
    export_dialog_.progress = 0.0f;
    exported_edit_ = edit_;
    return;
  }
  std::string error;
  bool ok = false;
  // The pose as the rest pose; clips played together are the character's, not the model's, so
  // only the model's own clips go with it.
  ok = ExportEdited(current_->character, state_.pose, -1, edit_, false, path, &error);
  exported_edit_ = edit_;
  Exported(path, bake, ok, error);
}

void Viewer::PollExport() {
  if (!export_dialog_.busy) return;
  // Closing the dialog (or Escape) while it bakes cancels the bake.
  if (!export_dialog_.open) bake_export_.Cancel();
  export_dialog_.progress = bake_export_.progress();
  bool ok = false;
  std::string error;
  if (!bake_export_.Finished(&ok, &error)) return;
  export_dialog_.busy = false;
  // Stopped by the user: said as a note, not an error.
  Exported(bake_export_.path(), /*bake=*/true, ok, error,
           bake_export_.cancelled() ? MessageLevel::kNote : MessageLevel::kError);
}

void Viewer::Exported(const std::string& path, bool bake, bool ok, const std::string& error,
                      MessageLevel failure_level) {
  std::error_code ec;
  trace_.Write(ExportEvent(path, bake, ok, error));
  if (ok) {
    const std::filesystem::path written = std::filesystem::absolute(path, ec).lexically_normal();
    ShowMessage("exported " + (ec ? path : written.string()), MessageLevel::kNote);
    export_dialog_.open = false;
    saved_edit_ = exported_edit_;
    if (confirm_.open) confirm_.open = false;
  } else {
    ShowMessage(error, failure_level);
  }
}

void Viewer::OpenExportDialog() {
  if (!export_dialog_.open) {
    std::error_code ec;
    std::filesystem::path folder = OpenFolder();
    if (folder.empty()) folder = std::filesystem::current_path(ec);
    const std::string stem = current_path_.empty()
                                 ? std::string("skelview-character")
                                 : std::filesystem::path(current_path_).stem().string();
    const std::string proposed = (folder / (stem + "-skelview.glb")).string();
    std::snprintf(export_dialog_.path, sizeof(export_dialog_.path), "%s", proposed.c_str());
    export_dialog_.replace_path.clear();
  }
  export_dialog_.open = true;
}

void Viewer::RequestQuit() {
  if (!Unsaved()) {
    quit_ = true;
    return;
  }
  if (confirm_.open && confirm_.then == ConfirmDiscard::Then::kQuit) return;  // asking already
  confirm_ = ConfirmDiscard();
  confirm_.open = true;
  confirm_.then = ConfirmDiscard::Then::kQuit;
  confirm_traced_ = false;
}

void Viewer::RequestOpen(const std::string& path) {
  pending_reload_.reset();  // what the user opens wins over a reload under way
  if (!Unsaved()) return StartOpen(path);
  confirm_ = ConfirmDiscard();
  confirm_.open = true;
  confirm_.then = ConfirmDiscard::Then::kOpen;
  confirm_.path = path;
  confirm_traced_ = false;
}

void Viewer::DiscardEdits() {
  if (!confirm_.open) return;
  confirm_.open = false;
  trace_.Write(Json{{"event", "discard"},
                    {"then", confirm_.then == ConfirmDiscard::Then::kQuit ? "quit" : "open"}});
  if (confirm_.then == ConfirmDiscard::Then::kQuit) {
    quit_ = true;
  } else {
    // The edits stay unsaved until the new model replaces them (Adopt): when the file then fails
    // to load they are still on screen, and still asked about.
    StartOpen(confirm_.path);
  }
}

void Viewer::SaveScreenshot() {
  std::string error;
  auto target = renderer::OffscreenTarget::Create(viewport_.width, viewport_.height, &error);
  if (!target) {
    ShowMessage("screenshot: " + error, MessageLevel::kError);
    return;
  }
  target->Bind();
  DrawView();
  const std::vector<uint8_t> pixels = target->ReadPixels();
  renderer::OffscreenTarget::BindDefault();
  char name[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof(name), "skelview-%Y%m%d-%H%M%S.png", std::localtime(&now));
  if (assets::WritePng(name, viewport_.width, viewport_.height, pixels, &error)) {
    ShowMessage(std::string("saved screenshot ") + name, MessageLevel::kNote);
    trace_.Write(ScreenshotEvent(name));
  } else {
    ShowMessage(error, MessageLevel::kError);
  }
}

void Viewer::ShowMessage(const std::string& text, MessageLevel level) {
  log_.Add(text, level);
  const char* prefix = level == MessageLevel::kError     ? ""
                       : level == MessageLevel::kWarning ? "warning: "
                                                         : "note: ";
  (level == MessageLevel::kNote ? std::cout : std::cerr)
      << "skelview: " << prefix << assets::MessageLine(text) << "\n";
}

void Viewer::WriteReadyTrace() {
  const glm::ivec2 window(int(float(viewport_.width) / pixel_ratio_),
                          int(float(viewport_.height) / pixel_ratio_));
  std::vector<glm::vec2> handles_px;
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    handles_px.push_back(ToWindow(ChainTargetNow(current_->model.skeleton, edit_, frame_, i)));
  }
  Json ready =
      ReadyEvent(window, current_->model, edit_, frame_, handles_px, ModelOnScreenNow(), playback_);
  ready["display"] = DisplayJson(CurrentDisplay());
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {  // the pole markers
    ready["chains"][size_t(i)]["pole_px"] = PolePixels(i);
  }
  Json& ui = ready["ui"];
  ui["scale"] = UiScale();
  ui["automatic"] = ui_.scale == 0.0f;
  ui["theme"] = ui_.light ? "light" : "dark";
  ui["font_px"] = ImGui::GetFontSize();
  ui["panel_width"] = layout_.panel_width;
  ui["timeline"] = display_.show_timeline;
  ui["animation_menu_px"] = {layout_.animation_menu_px.x, layout_.animation_menu_px.y};
  ready["camera"] = CameraJson(CurrentCamera());
  // Where each bone's head is on screen, for tests that click bones.
  std::vector<BoneSegment> bones;
  BoneSegments(current_->model, state_.models, &bones);
  Json& joints_px = ready["bones_px"] = Json::object();
  for (const BoneSegment& bone : bones) {
    const glm::vec2 px = ToWindow(bone.head);
    joints_px[current_->model.skeleton.name(bone.joint)] = Json::array({px.x, px.y});
  }
  if (display_.show_axis_gizmo) {
    ready["axis_gizmo"] = {
        {"center", Json::array({layout_.axis_gizmo_center.x, layout_.axis_gizmo_center.y})},
        {"radius", layout_.axis_gizmo_radius}};
  }
  trace_.Write(ready);
}

std::optional<ModelOnScreen> Viewer::ModelOnScreenNow() const {
  // Where the model is on screen: its bounds' centre and the projected bounds box.
  const assets::Bounds bounds = assets::ModelBounds(current_->model, state_.models);
  if (bounds.empty()) return std::nullopt;
  glm::vec2 lo(1e9f), hi(-1e9f);
  const glm::mat4 view = ModelViewMatrix(), projection = camera_.Projection(viewport_.aspect());
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 p((corner & 1) ? bounds.max.x : bounds.min.x,
                      (corner & 2) ? bounds.max.y : bounds.min.y,
                      (corner & 4) ? bounds.max.z : bounds.min.z);
    glm::vec2 px;
    if (ProjectToPixel(view, projection, viewport_, p, &px)) {
      lo = glm::min(lo, px);
      hi = glm::max(hi, px);
    }
  }
  return ModelOnScreen{ToWindow(bounds.center()), lo / pixel_ratio_, hi / pixel_ratio_};
}

void Viewer::WriteDragEndTrace(int chain, const char* part) {
  if (chain < 0 || chain >= static_cast<int>(edit_.chains.size())) return;
  DragEnd drag;
  drag.chain = chain;
  drag.part = part ? part : GizmoPartName(gizmo_drag_.part());
  drag.handle_px = ToWindow(ChainTargetNow(current_->model.skeleton, edit_, frame_, chain));
  drag.drag_frames = this_drag_frames_;
  drag.idle_frame_ms = idle_frames_.mean();
  Json event = DragEndEvent(current_->model, edit_, frame_, state_, drag, playback_);
  event["pole_px"] = PolePixels(chain);  // where the pole marker is (null: no pole)
  trace_.Write(event);
  this_drag_frames_ = FrameTimes();
}

void Viewer::WriteCameraTrace(const char* by) {
  if (!trace_.is_open()) return;
  Json event = CameraEvent(by, glm::degrees(camera_.yaw), glm::degrees(camera_.pitch),
                           camera_.distance, camera_.target, camera_.ortho);
  if (std::string(by) == "frame" || std::string(by) == "view") {
    // Framed: where the model and the camera's target went, and the part of the window the
    // panels leave free for them.
    const FreeArea free = FreeAreaNow();
    event["free_px"] = {free.left / pixel_ratio_, free.top / pixel_ratio_,
                        free.right / pixel_ratio_, free.bottom / pixel_ratio_};
    const glm::vec2 target = ToWindow(camera_.target - glm::vec3(0.0f, applied_lift_, 0.0f));
    event["target_px"] = {target.x, target.y};
    if (const std::optional<ModelOnScreen> model = ModelOnScreenNow()) {
      event["model_px"] = {
          {"center", {model->center.x, model->center.y}},
          {"box", {model->box_min.x, model->box_min.y, model->box_max.x, model->box_max.y}}};
    }
  }
  trace_.Write(event);
}

void Viewer::WriteTargetsTrace(const char* event_name) {
  if (!trace_.is_open()) return;
  trace_.Write(TargetsEvent(event_name, current_->model, edit_, frame_));
}

}  // namespace app

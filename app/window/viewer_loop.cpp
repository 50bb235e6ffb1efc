// The viewer's loop: setting up the window, one frame in Dear ImGui's order, the pose update and
// the 3D view. Input is in viewer_input.cpp, what requests and keys ask for in viewer_actions.cpp.
#include "app/window/viewer_loop.h"

#include <SDL2/SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <imgui_internal.h>  // ClosePopupToLevel: Escape closes an open menu

#include <algorithm>
#include <cassert>
#include <clocale>
#include <cstdlib>
#include <iostream>

#include "app/core/args.h"
#include "app/core/bake.h"
#include "app/core/chain_results.h"
#include "app/core/pose_input.h"
#include "app/window/heap_count.h"
#include "app/window/termination.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"
#include "assets/model/skinning.h"
#include "renderer/offscreen.h"

namespace app {

namespace {

// One line on stderr, then the exit code for Init.
bool InitFailed(const std::string& message, int code, int* exit_code) {
  std::cerr << "skelview: " << assets::MessageLine(message) << "\n";
  *exit_code = code;
  return false;
}

}  // namespace

Viewer::~Viewer() {
  // GL objects die before the context.
  current_.reset();
  renderer_.reset();
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  gl_.reset();
}

bool Viewer::Init(int* exit_code) {
  // Xlib writes a UTF-8 window title (the em dash of "NAME* — skelview") to _NET_WM_NAME only
  // under a UTF-8 character type: the user's, else C.UTF-8. Only LC_CTYPE: numbers keep the "C"
  // format everywhere.
  if (const char* ctype = std::setlocale(LC_CTYPE, ""); !ctype || MB_CUR_MAX == 1) {
    std::setlocale(LC_CTYPE, "C.UTF-8");
  }
  std::string error;
  int width = 1280, height = 800;
  if (!args_.size.empty() && (!ParseSize(args_.size, &width, &height, &error) ||
                              !CheckWindowSize(width, height, &error))) {
    return InitFailed(error, kExitBadInput, exit_code);
  }
  if (!args_.show.empty() && !ParseShowList(args_.show, &show_display_, &error)) {
    return InitFailed(error, kExitBadInput, exit_code);
  }
  if (!args_.trace_path.empty() && !trace_.Open(args_.trace_path, &error)) {
    return InitFailed(error, kExitBadInput, exit_code);
  }
  std::string settings_warning, limbs_warning;
  if (!args_.no_settings) {
    LoadSettings(ConfigFilePath("settings.json"), &settings_, &settings_warning);
    LoadLimbPicks(ConfigFilePath("limbs.json"), &limb_picks_, &limbs_warning);
    if (args_.size.empty() && settings_.window_width > 0) {
      width = settings_.window_width;
      height = settings_.window_height;
    }
  }
  // A session (--session FILE, or a MODEL ending in .skelview) opens its model, unless a MODEL
  // is given too; it is attached once the model is in (Adopt).
  load_raw_units_ = args_.pose.raw_units;
  std::string session_path = args_.session_path;
  if (session_path.empty() && IsSessionPath(args_.pose.model_path)) {
    session_path = args_.pose.model_path;
    args_.pose.model_path.clear();
  }
  if (!session_path.empty()) {
    SessionFile file;
    if (!ReadSessionFile(session_path, &file, &error)) {
      return InitFailed(error, kExitBadInput, exit_code);
    }
    if (args_.pose.model_path.empty()) {
      args_.pose.model_path = file.model_path;
      load_raw_units_ = file.raw_units;
    } else {
      file.model_path = args_.pose.model_path;  // the session attached to this model instead
    }
    pending_session_ = std::move(file);
  }
  // A bad model still opens the window (as from a file manager): it says why in the message log,
  // File ▸ Open works, and quitting exits 2 so that scripts see the failure.
  auto loaded = std::make_unique<LoadedModel>();
  std::string load_error;
  if (!LoadModelOrBuiltin(args_.pose.model_path, args_.pose.allow_outside_files, load_raw_units_,
                          &loaded->model, &load_error)) {
    pending_session_.reset();
    first_load_failed_ = true;
    loaded->model = assets::Model();
    loaded->model.source = kNothingLoaded;
  }
  if (trace_.is_open() &&
      !assets::CheckOutputsSpareInputs(loaded->model, {args_.trace_path}, &error)) {
    return InitFailed("--trace " + args_.trace_path + ": " + error, kExitBadInput, exit_code);
  }
  if (!OpenWindow(width, height, exit_code)) return false;
  if (!CheckImageSize(width, height, gl_->MaxImageSide(), &error)) {
    return InitFailed(error, kExitBadInput, exit_code);
  }
  auto gpu = renderer::GpuModel::Create(loaded->model, &error);
  if (!gpu) return InitFailed(loaded->model.source + ": " + error, kExitBadInput, exit_code);
  loaded->gpu = std::move(*gpu);
  int w = 0, h = 0;
  gl_->DrawableSize(&viewport_.width, &viewport_.height);
  SDL_GetWindowSize(gl_->window(), &w, &h);
  pixel_ratio_ = w > 0 ? float(viewport_.width) / float(w) : 1.0f;
  Adopt(std::move(loaded), args_.pose.model_path);
  recent_.Load();
  if (!settings_warning.empty()) ShowMessage(settings_warning, MessageLevel::kWarning);
  if (!limbs_warning.empty()) ShowMessage(limbs_warning, MessageLevel::kWarning);
  // A session opened from the command line (applied by Adopt) shows what it saved: the settings'
  // display is for files opened without one. --show still wins.
  const bool session_display = !session_path_.empty();
  if (!session_display || !args_.show.empty()) {
    ApplyDisplay(args_.show.empty() ? settings_.display : show_display_);
  }
  if (!session_display) {
    display_.scene.skeleton_xray = settings_.xray;
    display_.scene.mesh_opacity = settings_.mesh_opacity;
    // The spacing saved, unless --show set one with its onion skins.
    display_.scene.onion_step = !args_.show.empty() && show_display_.onion > 0
                                    ? show_display_.onion_step
                                    : settings_.onion_step;
    display_.scene.all_chains = settings_.all_chains;
    display_.scene.axes_selected_only = settings_.axes_selected_only;
    display_.on_ground = settings_.on_ground;
    display_.follow_root = settings_.follow_root;
    display_.show_axis_gizmo = settings_.axis_gizmo;
    selection_.rotate_gizmo = RotateGizmoFromName(settings_.rotate_gizmo);
    display_.show_timeline = settings_.timeline;
  }
  EulerOrderFromName(settings_.euler_order, &selection_.euler_order);
  ui_.scale = settings_.ui_scale;
  ui_.light = settings_.light_theme;
  ApplyUi(/*texture=*/false);
  timeline_.show_seconds = settings_.timeline_seconds;
  layout_.panel_start_width = settings_.panel_width;
  if (first_load_failed_) {
    ShowMessage(load_error, MessageLevel::kError);
    log_.open = true;  // the error stays in view until the user closes the log
    trace_.Write(LoadFailedEvent(args_.pose.model_path, load_error, current_->model.source));
    return true;  // the command line's clip and constraints were for that model
  }
  for (const std::string& warning : current_->model.warnings) {
    ShowMessage(warning, MessageLevel::kWarning);
  }
  if (!ApplyCommandLine(exit_code)) return false;
  Update(0.0);
  if (!args_.pose.model_path.empty()) AddRecent(args_.pose.model_path);
  return true;
}

bool Viewer::OpenWindow(int width, int height, int* exit_code) {
  std::string error;
  gl_ = GlContext::Create(GlContext::Kind::kWindow, "skelview", width, height, &error);
  if (!gl_) return InitFailed(error, kExitFailure, exit_code);
  CatchTermination();  // after SDL's handlers: SIGTERM ends the viewer without asking
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the user's working directory
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 4.0f;
  ImGui::GetStyle().FrameRounding = 3.0f;
  ImGui_ImplSDL2_InitForOpenGL(gl_->window(), gl_->gl_context());
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;
  renderer_ = renderer::Renderer::Create(&error);
  if (!renderer_) return InitFailed(error, kExitFailure, exit_code);
  return true;
}

bool Viewer::ApplyCommandLine(int* exit_code) {
  const assets::Model& model = current_->model;
  const Character& character = current_->character;
  if (args_.pose.anim || args_.pose.time) {
    const int anim = args_.pose.anim.value_or(0);
    std::string why;
    if (!ValidateAnim(anim, model, false, &why)) return InitFailed(why, kExitBadInput, exit_code);
    playback_.clip = anim;
    for (int with : args_.pose.anim_together) {
      if (!ValidateAnim(with, model, false, &why)) return InitFailed(why, kExitBadInput, exit_code);
    }
    if (!args_.pose.anim_together.empty()) {  // --anim I+J: played together
      playback_.together = {anim};
      playback_.together.insert(playback_.together.end(), args_.pose.anim_together.begin(),
                                args_.pose.anim_together.end());
      PlayTogether();
    }
    const assets::Clip& clip = *character.clip(playback_.clip);
    std::string note;
    playback_.time = ClampClipTime(args_.pose.time.value_or(0.0f), clip.duration, clip.name, &note);
    if (!note.empty()) std::cerr << "skelview: warning: " << assets::MessageLine(note) << "\n";
  }
  ConstraintRequests requests;
  std::string error;
  if (!ParseConstraints(args_.pose, character, &requests, &error)) {
    return InitFailed(error, kExitBadInput, exit_code);
  }
  // Added to the detected limbs, pinned at their targets; an --ik on a detected limb replaces it.
  const EditState extra = EditForRequests(character, requests);
  for (const ChainSettings& chain : extra.chains) {
    auto same = std::find_if(edit_.chains.begin(), edit_.chains.end(), [&](const ChainSettings& c) {
      return c.kind == chain.kind && c.chain.end == chain.chain.end;
    });
    if (same != edit_.chains.end()) {
      ChainSettings replaced = chain;
      replaced.label = same->label;
      *same = replaced;
    } else {
      edit_.chains.push_back(chain);
    }
  }
  // Over a session's limits and body options, not instead of them.
  for (const auto& [joint, limit] : extra.limits.entries()) edit_.limits.Set(joint, limit);
  if (!args_.pose.body.empty()) edit_.body_options = extra.body_options;
  if (args_.pose.mirror) {  // --mirror: the pose with these constraints, mirrored
    Update(0.0);
    MirrorWholePose(model.skeleton, mirror_, state_.pose, playback_.time, &edit_);
  }
  recorder_.Reset(edit_);  // the command line's constraints are where undo stops
  saved_edit_ = edit_;     // ... and not edits of the user's to ask about
  return true;
}

int Viewer::Run() {
  int exit_code = kExitOk;
  if (!Init(&exit_code)) return exit_code;
  auto last = Clock::now();
  while (!quit_) {
    if (TerminationSignal() != 0) break;  // SIGTERM: end now, ask nothing, save nothing
    const auto frame_start = Clock::now();
    const double dt = std::chrono::duration<double>(frame_start - last).count();
    last = frame_start;
    const long allocations_before = HeapAllocations();
    RunFrame(dt);
    // Idle frames after the first ones (caches and buffers grown) should allocate nothing.
    constexpr long kWarmUpFrames = 30;
    if (frame_idle_ && frame_count_ >= kWarmUpFrames) {
      const long allocations = HeapAllocations() - allocations_before;
      ++idle_allocations_.frames;
      idle_allocations_.total += allocations;
      idle_allocations_.max = std::max(idle_allocations_.max, allocations);
    }
    if (frame_count_ == 0) WriteReadyTrace();
    ++frame_count_;
    const double frame_ms = MillisecondsSince(frame_start);
    stats_.frame_ms.Add(frame_ms);
    const bool editing = drag_ == Drag::kGizmo || drag_ == Drag::kPole || drag_ == Drag::kRotate;
    (editing ? drag_frames_ : idle_frames_).Add(frame_ms);
    if (editing) this_drag_frames_.Add(frame_ms);
    if (args_.max_frames > 0 && frame_count_ >= args_.max_frames) quit_ = true;
  }
  if (const int signal_number = TerminationSignal()) {
    Json event = ExitEvent(frame_count_, idle_frames_, drag_frames_, idle_allocations_);
    event["signal"] = signal_number;
    trace_.Write(event);
    return 128 + signal_number;  // as a shell reports a process ended by the signal
  }
  SaveUserSettings();
  trace_.Write(ExitEvent(frame_count_, idle_frames_, drag_frames_, idle_allocations_));
  if (trace_.failed()) return kExitFailure;
  return first_load_failed_ ? kExitBadInput : kExitOk;
}

void Viewer::RunFrame(double dt_seconds) {
  PollLoading();
  PollImportClip();
  PollGround();
  PollModelFile();
  PollExport();
  SDL_Event event;
  int events = 0;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    HandleEvent(event);
    ++events;
  }
  // Nothing happens this frame unless something below changes it.
  frame_idle_ = events == 0 && drag_ == Drag::kNone && !playback_.playing && !loading_ &&
                !export_dialog_.busy;
  int window_w = 0, window_h = 0;
  gl_->DrawableSize(&viewport_.width, &viewport_.height);
  SDL_GetWindowSize(gl_->window(), &window_w, &window_h);
  pixel_ratio_ = window_w > 0 ? float(viewport_.width) / float(window_w) : 1.0f;

  if (ui_ != applied_ui_) ApplyUi(/*texture=*/true);  // View ▸ Interface changed
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  // ImGui 1.86's SDL backend places the cursor from the global mouse position minus where SDL
  // believes the window is, which goes stale when the window is moved with no window manager
  // (Xvfb): use the window-relative position SDL's own mouse events carry instead.
  if (SDL_GetMouseFocus() == gl_->window()) {
    int mouse_x = 0, mouse_y = 0;
    SDL_GetMouseState(&mouse_x, &mouse_y);
    ImGui::GetIO().MousePos = ImVec2(float(mouse_x), float(mouse_y));
  }
  ImGui::NewFrame();
  if (close_popups_) {
    close_popups_ = false;
    if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
      ImGui::ClosePopupToLevel(0, /*restore_focus_to_window_under_popup=*/true);
    }
  }
  ApplyWheel();
  DrawUi();  // the panels edit the settings and ask for the rest
  if (!requests_.empty()) frame_idle_ = false;
  CarryOut(requests_);
  if (confirm_.open && !confirm_traced_ && confirm_.discard_px.x >= 0.0f) {
    confirm_traced_ = true;  // the question as the user sees it, buttons where they are
    const bool quit = confirm_.then == ConfirmDiscard::Then::kQuit;
    trace_.Write(Json{{"event", "confirm"},
                      {"then", quit ? "quit" : "open"},
                      {"path", confirm_.path},
                      {"save", {confirm_.save_px.x, confirm_.save_px.y}},
                      {"discard", {confirm_.discard_px.x, confirm_.discard_px.y}},
                      {"cancel", {confirm_.cancel_px.x, confirm_.cancel_px.y}}});
  }
  UpdateTitle();
  // Every change to the edit is either part of a running edit or already an undo step.
  assert(recorder_.running() || edit_ == recorder_.committed());
  // The view is centred in (and F frames into) the part the panels leave free.
  CentreOnFreeArea(viewport_, FreeAreaNow(), &camera_);
  if (frame_count_ == 0) {
    FrameCamera();           // now that the panel's size is known
    if (settings_.camera) {  // the camera the user left, as it was
      camera_.yaw = glm::radians(settings_.camera->yaw_degrees);
      camera_.pitch = glm::radians(settings_.camera->pitch_degrees);
      camera_.distance = settings_.camera->distance;
      camera_.target = settings_.camera->target;
      camera_.ortho = settings_.camera->ortho;
      applied_lift_ = GroundLiftNow();  // saved as seen, with the model on the ground or not
    }
    if (session_camera_pending_ && session_camera_) {  // a session's camera, as it was saved
      camera_.yaw = session_camera_->yaw;
      camera_.pitch = session_camera_->pitch;
      camera_.distance = session_camera_->distance;
      camera_.target = session_camera_->target;
      camera_.ortho = session_camera_->ortho;
      applied_lift_ = GroundLiftNow();
    }
    session_camera_pending_ = false;
  }
  Update(std::min(dt_seconds, 0.1));  // the pose follows the settings

  const auto draw_start = Clock::now();
  renderer::OffscreenTarget::BindDefault();
  DrawView();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  stats_.draw_ms.Add(MillisecondsSince(draw_start));
  if (screenshot_requested_) {
    screenshot_requested_ = false;
    SaveScreenshot();
  }
  gl_->Swap();
}

void Viewer::DrawUi() {
  requests_.clear();
  const assets::Model& model = current_->model;
  MenuBarInput menu{recent_.paths(), current_path_, recorder_.undo_count(), recorder_.redo_count(),
                    camera_.ortho};
  menu.can_paste = !pose_clipboard_.empty();
  menu.has_active_chain = selection_.active_chain >= 0;
  menu.has_clip_source = !current_->model.skeleton.empty();
  SyncFeet();
  menu.lock_feet = feet_.ready ? (feet_.locked ? 1 : 0) : -1;
  DrawMenuBar(menu, {&display_, &ui_, &help_open_, &log_}, &layout_, &requests_);
  FrameInput in{model, current_->character, current_->extent, frame_, state_};
  in.weight_problems = &current_->weight_problems, in.knee_jumps = &current_->knee_jumps;
  DrawSidePanel(in, {&display_, &playback_, &edit_, &selection_, &joint_search_, &feet_}, &layout_,
                &requests_);
  if (display_.show_timeline) {
    DrawTimeline({model, current_->character, edit_, selection_.selected_joint,
                  selection_.active_chain, &feet_},
                 &playback_, &timeline_, &layout_, &requests_);
  } else {
    layout_.timeline_top = ImGui::GetIO().DisplaySize.y;
  }
  DrawViewOverlays();
  if (loading_) DrawLoading(*loading_, &requests_);
  DrawExportDialog(playback_.clip >= 0, &export_dialog_, &requests_);
  DrawSessionDialog(&session_dialog_, &requests_);
  DrawConfirmDiscard(&confirm_, &requests_);
  std::string chosen;
  if (file_browser_.Draw(&chosen)) requests_.push_back({RequestKind::kOpen, chosen, false});
  DrawImportClip();
  DrawGroundBrowser();
  DrawMessage(log_);
  DrawMessageLog(&log_);
  DrawHelpOverlay(&help_open_);
  DrawStatusLine(model, stats_, drag_ == Drag::kGizmo);
}

void Viewer::Update(double dt_seconds) {
  const auto start = Clock::now();
  const Character& character = current_->character;
  PlayTogether();
  AdvancePlayback(character, dt_seconds, &playback_);
  const auto solve_start = Clock::now();
  EvaluateEditedFrame(character, ClipTime{playback_.clip, playback_.time}, edit_, &frame_, &state_);
  stats_.solve_us.Add(MillisecondsSince(solve_start) * 1000.0);
  // A scrub, a step or a loop's wrap is not a knee jump: only a frame of playback (or none) is.
  const ClipTime now{playback_.clip, playback_.time};
  const float step = playback_.playing ? float(dt_seconds) * playback_.speed : 0.0f;
  UpdateKneeJumps(frame_, state_, ContinuousClipTime(current_->knee_jumps_time, now, step),
                  &current_->knee_jumps);
  current_->knee_jumps_time = now;
  current_->gpu.UpdatePose(state_.models);
  current_->gpu.UpdateMorphWeights(state_.morph_weights);
  UpdateAnimationAids();
  RefreshHandles();
  stats_.update_ms.Add(MillisecondsSince(start));
}

void Viewer::RefreshHandles() {
  // Right after the frame's evaluation: its targets are this edit's (EditedFrame::chains).
  const int count = static_cast<int>(edit_.chains.size());
  handles_.resize(edit_.chains.size());
  for (int i = 0; i < count; ++i) {
    handles_[i].target = frame_.chains[size_t(i)].target;
    handles_[i].enabled = edit_.chains[i].enabled;
    handles_[i].reached = ChainReached(frame_, state_, i);
  }
}

void Viewer::UpdateAnimationAids() {
  LoadedModel& loaded = *current_;
  SceneOptions& scene = display_.scene;
  // Place on ground: the camera moves with the model, so that it stays framed as the grid drops
  // to its feet.
  const float lift = GroundLiftNow();
  if (lift != applied_lift_) {
    camera_.target.y += lift - applied_lift_;
    applied_lift_ = lift;
  }
  scene.ground_lift = lift;
  loaded.ghosts.Update(loaded.character, playback_, edit_, scene.onion_count, scene.onion_step,
                       scene.trail_joint);
  const int root = RootMotionJoint(loaded.model);
  if (display_.follow_root && root >= 0 && root < static_cast<int>(state_.models.size())) {
    const glm::vec3 now(state_.models[static_cast<size_t>(root)][3]);
    if (loaded.root_seen) FollowRoot(loaded.root_previous, now, &camera_);
    loaded.root_previous = now;
    loaded.root_seen = true;
  } else {
    loaded.root_seen = false;
  }
}

float Viewer::GroundLiftNow() const {
  return display_.on_ground ? current_->extent.ground_lift : 0.0f;
}

glm::mat4 Viewer::ModelViewMatrix() const { return LiftedView(camera_.View(), applied_lift_); }

void Viewer::SyncSceneSelection() {
  display_.scene.selected_joint = selection_.selected_joint;
  display_.scene.weight_joint = ShownWeightJoint();
  display_.scene.active_chain = ActiveTwoBoneRequest();
}

void Viewer::DrawView() {
  SyncSceneSelection();
  const renderer::View view = CurrentView();
  AnimationOverlays animation;
  animation.ghosts = &current_->ghosts.ghosts();
  animation.trail = &current_->ghosts.trail();
  animation.time = playback_.time;
  const int trail_joint = current_->ghosts.trail().joint;
  if (trail_joint >= 0 && trail_joint < static_cast<int>(state_.models.size())) {
    animation.trail_now = glm::vec3(state_.models[static_cast<size_t>(trail_joint)][3]);
    animation.mark_now = true;
  }
  DrawScene(*renderer_, current_->gpu, current_->model, current_->extent, frame_.requests, state_,
            display_.scene, view, &overlays_, &animation);
  // The ground plane and the ladder the targets hold on to.
  DrawContacts(*renderer_, edit_.contacts, current_->extent.size, view, &contact_lines_,
               &contact_shapes_);
  DrawGround(view);  // the foot lock's ground, unless it is the authored floor
  if (!display_.show_handles) return;
  DrawHandles(*renderer_, view, CurrentHandlesView(), gizmo_style_, handles_, &gizmo_lines_,
              &gizmo_shapes_);
}

void Viewer::DrawViewOverlays() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float scale = UiScaleOfFont();
  SyncSceneSelection();
  if (display_.scene.legend) {
    LegendEntry entries[kMaxLegendEntries];
    const int count = LegendEntries(current_->model, current_->extent, frame_.requests, state_,
                                    display_.scene, entries);
    DrawLegend(entries, count,
               {layout_.panel_right + 10.0f * scale, layout_.timeline_top - 10.0f * scale});
  }
  if (display_.show_axis_gizmo) {
    layout_.axis_gizmo_radius = 36.0f * scale;
    layout_.axis_gizmo_center = {display.x - 58.0f * scale, layout_.menu_height + 58.0f * scale};
    DrawAxisGizmo(camera_.View(), layout_.axis_gizmo_center, layout_.axis_gizmo_radius, &requests_);
  }
  const int hover = selection_.hover_chain;
  if (hover >= 0 && hover < static_cast<int>(edit_.chains.size()) && drag_ == Drag::kNone &&
      display_.show_handles && !ImGui::GetIO().WantCaptureMouse) {
    DrawHandleTip(edit_.chains[size_t(hover)].label.c_str(), selection_.hover_handles);
  }
  // The pole marker under the cursor or being dragged: a ring around it.
  const int pole = drag_ == Drag::kPole ? pole_chain_ : drag_ == Drag::kNone ? hover_pole_ : -1;
  if (pole >= 0 && size_t(pole) < edit_.chains.size() && edit_.chains[size_t(pole)].use_pole) {
    const glm::vec2 at = ToWindow(edit_.chains[size_t(pole)].pole);
    ImGui::GetForegroundDrawList()->AddCircle(ImVec2(at.x, at.y), 10.0f * scale,
                                              IM_COL32(255, 255, 255, 230), 20, 2.5f * scale);
  }
  DrawRotateOverlay();
}

int Viewer::ActiveTwoBoneRequest() const {
  const int chain = selection_.active_chain >= 0 ? selection_.active_chain : selection_.hover_chain;
  if (chain < 0 || size_t(chain) >= frame_.chain_requests.size()) return -1;
  const RequestIndex& request = frame_.chain_requests[size_t(chain)];
  return request.kind == ConstraintKind::kTwoBone ? request.index : -1;
}

FreeArea Viewer::FreeAreaNow() const {
  // Right of the side panel, below the menu bar, above the timeline (or the window's bottom).
  return FreeArea{layout_.panel_right * pixel_ratio_, layout_.menu_height * pixel_ratio_,
                  float(viewport_.width), layout_.timeline_top * pixel_ratio_};
}

renderer::View Viewer::CurrentView() const {
  renderer::View view;
  view.view = ModelViewMatrix();
  view.projection = camera_.Projection(viewport_.aspect());
  view.viewport = {viewport_.width, viewport_.height};
  return view;
}

HandlesView Viewer::CurrentHandlesView() const {
  HandlesView view;
  view.view = ModelViewMatrix();
  view.projection = camera_.Projection(viewport_.aspect());
  view.viewport = viewport_;
  view.active_chain = selection_.active_chain;
  view.hover_chain = selection_.hover_chain;
  view.hover_part = selection_.hover_part;
  view.drag_part = drag_ == Drag::kGizmo ? gizmo_drag_.part() : GizmoPart::kNone;
  return view;
}

Ray Viewer::CursorRay(const glm::vec2& cursor_px) const {
  return RayFromPixel(ModelViewMatrix(), camera_.Projection(viewport_.aspect()), viewport_,
                      cursor_px.x, cursor_px.y);
}

glm::vec2 Viewer::ToPixels(int x, int y) const {
  return glm::vec2(float(x), float(y)) * pixel_ratio_;
}

glm::vec2 Viewer::ToWindow(const glm::vec3& world) const {
  glm::vec2 px(-1.0f);
  ProjectToPixel(ModelViewMatrix(), camera_.Projection(viewport_.aspect()), viewport_, world, &px);
  return px / pixel_ratio_;
}

int RunViewer(const ViewerArgs& args) {
  Viewer viewer(args);
  return viewer.Run();
}

}  // namespace app

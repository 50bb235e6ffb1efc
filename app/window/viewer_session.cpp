// Sessions in the window (File ▸ Save session, Ctrl+S, opening a .skelview by File ▸ Open, drop,
// recent files or the command line), reloading the model when its file changes on disk with the
// edit kept by joint names, the window's title, and pose copy, paste (flipped) and mirroring.
#include <SDL2/SDL.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "app/core/chain_results.h"
#include "app/core/range_of_motion.h"
#include "app/window/viewer_loop.h"
#include "assets/files/file_output.h"

namespace app {

namespace {

namespace fs = std::filesystem;

// The same file named two ways ("a/../m.glb" and "m.glb"): compared as absolute, normal paths.
bool SamePath(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a == b;
  std::error_code ec;
  return fs::absolute(a, ec).lexically_normal() == fs::absolute(b, ec).lexically_normal();
}

// A file's name for the title: its last component.
std::string FileName(const std::string& path) { return fs::path(path).filename().string(); }

// The display a session keeps, each field with the one the window shows it by: the one list that
// CurrentSession copies out (ToSession) and ApplySession copies back (FromSession), as
// `visit(session_field, window_field)`. The display spec goes through CurrentDisplay and
// ApplyDisplay.
template <typename SessionSide, typename DisplaySide, typename SelectionSide, typename Visit>
void DisplayFields(SessionSide& d, DisplaySide& display, SelectionSide& selection, Visit&& visit) {
  visit(d.xray, display.scene.skeleton_xray);
  visit(d.mesh_opacity, display.scene.mesh_opacity);
  visit(d.onion_step, display.scene.onion_step);
  visit(d.all_chains, display.scene.all_chains);
  visit(d.axes_selected_only, display.scene.axes_selected_only);
  visit(d.on_ground, display.on_ground);
  visit(d.follow_root, display.follow_root);
  visit(d.axis_gizmo, display.show_axis_gizmo);
  visit(d.rotate_gizmo, selection.rotate_gizmo);
  visit(d.timeline, display.show_timeline);
}

// The camera a session keeps (SessionCamera) and the view's camera, field by field (as
// DisplayFields).
template <typename SessionSide, typename CameraSide, typename Visit>
void CameraFields(SessionSide& c, CameraSide& camera, Visit&& visit) {
  visit(c.yaw, camera.yaw);
  visit(c.pitch, camera.pitch);
  visit(c.distance, camera.distance);
  visit(c.target, camera.target);
  visit(c.ortho, camera.ortho);
}

// A window field into its session field; the rotate gizmo as its name.
struct ToSession {
  template <typename T>
  void operator()(T& session, const T& window) const {
    session = window;
  }
  void operator()(std::string& session, Selection::RotateGizmoMode window) const {
    session = RotateGizmoName(window);
  }
};

// A session field back into its window field; the rotate gizmo from its name.
struct FromSession {
  template <typename T>
  void operator()(const T& session, T& window) const {
    window = session;
  }
  void operator()(const std::string& session, Selection::RotateGizmoMode& window) const {
    window = RotateGizmoFromName(session);
  }
};

}  // namespace

Session Viewer::CurrentSession() const {
  Session s;
  s.model_path = current_path_;
  s.raw_units = load_raw_units_;
  s.edit = edit_;
  s.lock_feet = edit_.foot_lock != nullptr;
  s.playback = playback_;
  s.range_of_motion = playback_.clip >= 0 && playback_.clip == current_->rom_clip;
  // Clips played together are the model's clips by name; `clip` is the first of them.
  if (!playback_.together.empty()) s.playback.clip = playback_.together[0];
  s.camera.emplace();
  CameraFields(*s.camera, camera_, ToSession{});
  SessionDisplay& d = s.display;
  d.spec = CurrentDisplay();
  d.spec.onion_step = display_.scene.onion_step;
  DisplayFields(d, display_, selection_, ToSession{});
  s.selected_joint = selection_.selected_joint;
  s.active_chain = selection_.active_chain;
  return s;
}

void Viewer::ApplySession(const Session& s) {
  const assets::Model& model = current_->model;
  edit_ = s.edit;
  recorder_.Reset(edit_);
  saved_edit_ = edit_;
  playback_.clip = s.range_of_motion ? EnsureRangeOfMotion() : s.playback.clip;
  playback_.together = s.playback.together;
  playback_.time = s.playback.time;
  playback_.speed = s.playback.speed;
  playback_.loop = s.playback.loop;
  playback_.range_start = s.playback.range_start;
  playback_.range_end = s.playback.range_end;
  playback_.playing = s.playback.playing && playback_.clip >= 0;
  if (s.lock_feet) {  // the lock planned again (with the edited contacts and the ground)
    Replan();
    if (!edit_.foot_lock) ShowMessage("session: Lock feet: " + feet_.error, MessageLevel::kWarning);
    recorder_.Reset(edit_);
    saved_edit_ = edit_;
    // A mesh ground still being read: planned again and traced once it is in (GroundLoaded).
    if (trace_.is_open() && !ground_loading_.replan) {
      Json event = FeetJson("foot_lock");
      event["on"] = feet_.locked;
      trace_.Write(event);
    }
  }
  if (playback_.clip >= 0 && size_t(playback_.clip) < model.clips.size()) {
    playback_.time = std::clamp(playback_.time, 0.0f, model.clips[size_t(playback_.clip)].duration);
  }
  ApplyDisplay(s.display.spec);
  DisplayFields(s.display, display_, selection_, FromSession{});
  if (s.selected_joint >= 0) selection_.selected_joint = s.selected_joint;
  selection_.scroll_to_selected = selection_.selected_joint >= 0;
  selection_.active_chain = s.active_chain;
  if (s.camera) {
    session_camera_ = s.camera;
    session_camera_pending_ = true;
    if (frame_count_ > 0) {  // the first frame frames the model first, then takes it
      CameraFields(*s.camera, camera_, FromSession{});
      applied_lift_ = GroundLiftNow();
      session_camera_pending_ = false;
    }
  }
  Update(0.0);
}

bool Viewer::SaveSession(const std::string& requested, bool replace) {
  std::string path = requested;
  if (path.empty()) {
    if (session_path_.empty()) {
      OpenSessionDialog();
      return false;
    }
    path = session_path_;
    replace = true;
  }
  if (!IsSessionPath(path)) path += kSessionExtension;
  std::error_code ec;
  if (!replace && !SamePath(path, session_path_) && fs::exists(path, ec)) {
    session_dialog_.open = true;
    std::snprintf(session_dialog_.path, sizeof(session_dialog_.path), "%s", path.c_str());
    session_dialog_.replace_path = path;  // the dialog asks
    return false;
  }
  session_dialog_.replace_path.clear();
  std::string error;
  bool ok = assets::CheckOutputsSpareInputs(current_->model, {path}, &error);
  if (!ok) {
    error = path + ": " + error;
  } else {
    ok = WriteSessionFile(path, SessionJson(current_->model, CurrentSession(), path), &error);
  }
  trace_.Write(Json{{"event", "session_saved"},
                    {"path", path},
                    {"ok", ok},
                    {"error", ok ? Json(nullptr) : Json(error)},
                    {"chains", edit_.chains.size()}});
  if (!ok) {
    ShowMessage(error, MessageLevel::kError);
    return false;
  }
  const fs::path written = fs::absolute(path, ec).lexically_normal();
  ShowMessage("saved session " + (ec ? path : written.string()), MessageLevel::kNote);
  session_path_ = path;
  saved_edit_ = edit_;
  session_dialog_.open = false;
  ++title_generation_;
  AddRecent(path);
  if (after_save_) {  // saved from the unsaved-edits question: on to what was asked
    const ConfirmDiscard asked = *after_save_;
    after_save_.reset();
    confirm_.open = false;
    if (asked.then == ConfirmDiscard::Then::kQuit) {
      quit_ = true;
    } else {
      StartOpen(asked.path);
    }
  }
  return true;
}

void Viewer::OpenSessionDialog() {
  if (!session_dialog_.open) {
    std::string proposed = session_path_;
    if (proposed.empty()) {
      std::error_code ec;
      fs::path folder = OpenFolder();
      if (folder.empty()) folder = fs::current_path(ec);
      const std::string stem = current_path_.empty() ? std::string("skelview-character")
                                                     : fs::path(current_path_).stem().string();
      proposed = (folder / (stem + kSessionExtension)).string();
    }
    std::snprintf(session_dialog_.path, sizeof(session_dialog_.path), "%s", proposed.c_str());
    session_dialog_.replace_path.clear();
  }
  session_dialog_.open = true;
}

void Viewer::SaveAndContinue() {
  if (!confirm_.open) return;
  after_save_ = confirm_;
  if (session_path_.empty()) {
    confirm_.open = false;  // the dialog asks where; saving there goes on to quit or open
    OpenSessionDialog();
    return;
  }
  if (!SaveSession(session_path_, true)) after_save_.reset();
}

void Viewer::StartOpenSession(const std::string& path) {
  SessionFile file;
  std::string error;
  if (!ReadSessionFile(path, &file, &error)) {
    ShowMessage(error, MessageLevel::kError);
    trace_.Write(LoadFailedEvent(path, error, current_->model.source));
    return;
  }
  pending_reload_.reset();
  const std::string model_path = file.model_path;
  if (IsSessionPath(model_path)) {
    const std::string why = path + ": its model is another session (" + model_path + ")";
    ShowMessage(why, MessageLevel::kError);
    trace_.Write(LoadFailedEvent(path, why, current_->model.source));
    return;
  }
  load_raw_units_ = file.raw_units;
  pending_session_ = std::move(file);
  StartOpen(model_path);
}

void Viewer::AttachPending(const std::string& loaded_path) {
  const assets::Model& model = current_->model;
  load_done_extra_.reset();
  if (pending_session_ && SamePath(pending_session_->model_path, loaded_path)) {
    const SessionFile file = std::move(*pending_session_);
    pending_session_.reset();
    Session session;
    SessionProblems problems;
    std::string error;
    if (!AttachSession(file, model, nullptr, &session, &problems, &error)) {
      ShowMessage(error, MessageLevel::kError);
      return;
    }
    session.model_path = loaded_path;
    ApplySession(session);
    session_path_ = file.path;
    ++title_generation_;
    AddRecent(file.path);
    ShowMessage("opened session " + file.path, MessageLevel::kNote);
    Json left_out = Json::array();
    for (const std::string& line : problems.lines) {
      ShowMessage(file.path + ": could not reattach " + line, MessageLevel::kWarning);
      left_out.push_back(line);
    }
    load_done_extra_ = Json{{"session", file.path}, {"left_out", std::move(left_out)}};
    return;
  }
  pending_session_.reset();
  if (pending_reload_ && SamePath(pending_reload_->path, loaded_path)) {
    const PendingReload reload = std::move(*pending_reload_);
    pending_reload_.reset();
    const RigChanges changes = CompareRigs(reload.before, model.skeleton);
    Session state, saved;
    SessionProblems problems, ignored;
    std::string error;
    if (!AttachSession(reload.state, model, &changes.renamed, &state, &problems, &error) ||
        !AttachSession(reload.saved, model, &changes.renamed, &saved, &ignored, &error)) {
      ShowMessage(error, MessageLevel::kError);
      return;
    }
    state.model_path = loaded_path;
    const std::string kept_session = session_path_;
    ApplySession(state);
    saved_edit_ = saved.edit;  // unsaved edits stay unsaved
    session_path_ = kept_session;
    ShowMessage("reloaded " + loaded_path + ": " + changes.Describe(),
                changes.removed.empty() ? MessageLevel::kNote : MessageLevel::kWarning);
    Json left_out = Json::array();
    for (const std::string& line : problems.lines) {
      ShowMessage("reload: could not reattach " + line, MessageLevel::kWarning);
      left_out.push_back(line);
    }
    Json renamed = Json::object();
    for (const auto& [from, to] : changes.renamed) renamed[from] = to;
    load_done_extra_ = Json{
        {"reload", true},
        {"changes",
         {{"added", changes.added}, {"removed", changes.removed}, {"renamed", std::move(renamed)}}},
        {"left_out", std::move(left_out)}};
    return;
  }
  pending_reload_.reset();
  // A plain load: the next session save asks where, the title names the model.
  session_path_.clear();
  ++title_generation_;
}

void Viewer::PollModelFile() {
  if (args_.no_watch || loading_ || current_path_.empty()) return;
  if (!model_watch_.Changed(Clock::now())) return;
  // Re-exported: load it again, the edit, the clip, time and camera kept by joint names.
  PendingReload reload;
  const Session now = CurrentSession();
  Session saved = now;
  saved.edit = saved_edit_;
  const std::string nowhere = current_path_ + kSessionExtension;  // relative paths only
  reload.state.path = reload.saved.path = current_path_ + " (reload)";
  reload.state.json = SessionJson(current_->model, now, nowhere);
  reload.saved.json = SessionJson(current_->model, saved, nowhere);
  reload.state.model_path = reload.saved.model_path = current_path_;
  reload.state.raw_units = reload.saved.raw_units = load_raw_units_;
  reload.before = current_->model.skeleton;
  reload.path = current_path_;
  ShowMessage(current_path_ + " changed on disk: reloading", MessageLevel::kNote);
  pending_session_.reset();
  pending_reload_ = std::move(reload);
  StartOpen(current_path_);
}

void Viewer::UpdateTitle() {
  const bool unsaved = Unsaved();
  if (title_shown_ == title_generation_ && title_unsaved_ == unsaved) return;
  title_shown_ = title_generation_;
  title_unsaved_ = unsaved;
  std::string name;
  if (!session_path_.empty()) {
    name = FileName(session_path_);
  } else if (current_->model.source == kNothingLoaded) {
    name.clear();
  } else if (current_path_.empty()) {
    name = "Built-in character";
  } else {
    name = FileName(current_path_);
  }
  const std::string title =
      name.empty() ? std::string("skelview") : name + (unsaved ? "*" : "") + " \u2014 skelview";
  SDL_SetWindowTitle(gl_->window(), title.c_str());
  // Traced as it changes after the ready event (the title the window opens with is not an
  // event: scripts read `ready` first).
  if (frame_count_ > 0)
    trace_.Write(Json{{"event", "title"}, {"title", title}, {"unsaved", unsaved}});
}

void Viewer::CopyPoseNow() {
  pose_clipboard_ = CopyPose(current_->model.skeleton, state_.pose);
  ShowMessage("copied the pose (" + std::to_string(pose_clipboard_.names.size()) + " joints)",
              MessageLevel::kNote);
  trace_.Write(Json{{"event", "copy_pose"}, {"joints", pose_clipboard_.names.size()}});
}

void Viewer::PastePoseNow(bool flipped) {
  if (pose_clipboard_.empty() || drag_ == Drag::kGizmo) return;
  const int set = PastePose(pose_clipboard_, current_->model.skeleton, flipped ? &mirror_ : nullptr,
                            playback_.time, &edit_);
  if (set == 0) {
    ShowMessage("paste: the copied pose has no joint of this model", MessageLevel::kWarning);
    return;
  }
  recorder_.Changed(edit_);
  Update(0.0);
  ShowMessage(std::string(flipped ? "pasted the pose flipped" : "pasted the pose") + " (" +
                  std::to_string(set) + " joints)",
              MessageLevel::kNote);
  WriteTargetsTrace(flipped ? "paste_flipped" : "paste");
}

void Viewer::MirrorPoseNow() {
  if (drag_ == Drag::kGizmo || mirror_.empty()) return;
  MirrorWholePose(current_->model.skeleton, mirror_, state_.pose, playback_.time, &edit_);
  recorder_.Changed(edit_);
  Update(0.0);
  ShowMessage("mirrored the pose (" + std::to_string(mirror_.pair_count()) + " joint pairs, " +
                  (mirror_.pairs_by_name > 0 ? "by name" : "by symmetry") + ")",
              MessageLevel::kNote);
  if (trace_.is_open()) {
    Json event = TargetsEvent("mirror", current_->model, edit_, frame_);
    event["pairs_by_name"] = mirror_.pairs_by_name;
    event["pairs_by_symmetry"] = mirror_.pairs_by_symmetry;
    trace_.Write(event);
  }
}

void Viewer::MirrorTargetNow(int chain) {
  if (chain < 0) chain = selection_.active_chain;
  if (chain < 0 || size_t(chain) >= edit_.chains.size() || drag_ == Drag::kGizmo) {
    ShowMessage("mirror target: click a handle first (no active chain)", MessageLevel::kWarning);
    return;
  }
  std::string why;
  const int other = MirrorChainTarget(current_->character, mirror_, chain, &edit_, &why);
  if (other < 0) {
    ShowMessage("mirror target: " + why, MessageLevel::kWarning);
    return;
  }
  recorder_.Changed(edit_);
  Update(0.0);
  ShowMessage("mirrored " + edit_.chains[size_t(chain)].label + "'s target onto " +
                  edit_.chains[size_t(other)].label,
              MessageLevel::kNote);
  WriteTargetsTrace("mirror_target");
}

int Viewer::EnsureRangeOfMotion() {
  LoadedModel& m = *current_;
  if (m.rom_clip >= 0) return m.rom_clip;
  const RangeOfMotion rom = MakeModelRangeOfMotion(m.character, edit_.limits);
  if (rom.motions.empty()) return -1;
  // It joins the model's clips, as if the file had it: clips played together stop first (their
  // combination's index is after the model's clips).
  playback_.together.clear();
  m.character.PlayTogether({});
  if (playback_.clip >= m.character.file_clip_count()) playback_.clip = -1;
  m.model.clips.push_back(rom.clip);
  m.rom_clip = m.character.file_clip_count() - 1;
  return m.rom_clip;
}

void Viewer::GenerateRangeOfMotion() {
  const int clip = EnsureRangeOfMotion();
  if (clip < 0) {
    ShowMessage("range of motion: no legs, arms or spine found in this rig",
                MessageLevel::kWarning);
    return;
  }
  playback_.clip = clip;
  playback_.together.clear();
  playback_.time = 0.0f;
  playback_.range_start = playback_.range_end = 0.0f;
  playback_.playing = true;
  const assets::Clip& rom = current_->model.clips[size_t(clip)];
  ShowMessage("playing the generated clip \"" + rom.name + "\" (" +
                  ShortestFloatText(rom.duration) +
                  " s): each leg, arm and the spine through "
                  "its range",
              MessageLevel::kNote);
  trace_.Write(Json{{"event", "range_of_motion"},
                    {"clip", clip},
                    {"name", rom.name},
                    {"duration", rom.duration},
                    {"channels", rom.channels.size()}});
  Update(0.0);
}

}  // namespace app

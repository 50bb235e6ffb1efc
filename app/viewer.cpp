// The interactive viewer: window, input (camera, gizmo drags, picking, undo), the per-frame update
// of the shown character and the 3D drawing. The panels are in viewer_ui.cpp.
#include "app/viewer.h"

#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>

#include "app/args.h"
#include "app/bake.h"
#include "app/commands.h"
#include "app/json_output.h"
#include "app/picking.h"
#include "app/viewer_impl.h"
#include "assets/animation.h"
#include "assets/exporter.h"
#include "assets/file_output.h"
#include "assets/skinning.h"
#include "ik/kinematics.h"
#include "renderer/image_file.h"
#include "renderer/offscreen.h"

namespace app {

namespace {

constexpr float kClickTravelPx = 4.0f;  // a press that moves less than this is a click

glm::vec4 ReachedColor(bool reached) {
  return reached ? glm::vec4(0.35f, 0.9f, 0.35f, 1.0f) : glm::vec4(0.95f, 0.3f, 0.25f, 1.0f);
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
  std::string error;
  int width = 1280, height = 800;
  if (!args_.size.empty() && (!ParseSize(args_.size, &width, &height, &error) ||
                              !CheckWindowSize(width, height, &error))) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  if (!args_.trace_path.empty() && !trace_.Open(args_.trace_path, &error)) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  // Load before opening the window so a bad file fails fast with exit code 2.
  auto loaded = std::make_unique<LoadedModel>();
  if (!LoadModelOrBuiltin(args_.pose.model_path, args_.pose.allow_outside_files, &loaded->model,
                          &error)) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  if (trace_.is_open() &&
      !assets::CheckOutputsSpareInputs(loaded->model, {args_.trace_path}, &error)) {
    std::cerr << "skelview: --trace " << args_.trace_path << ": " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  gl_ = GlContext::Create(GlContext::Kind::kWindow, "skelview", width, height, &error);
  if (!gl_) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitFailure;
    return false;
  }
  if (!CheckImageSize(width, height, gl_->MaxImageSide(), &error)) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
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
  if (!renderer_) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitFailure;
    return false;
  }
  auto gpu = renderer::GpuModel::Create(loaded->model, &error);
  if (!gpu) {
    std::cerr << "skelview: " << loaded->model.source << ": " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  loaded->gpu = std::move(*gpu);
  int w = 0, h = 0;
  gl_->DrawableSize(&viewport_.width, &viewport_.height);
  SDL_GetWindowSize(gl_->window(), &w, &h);
  pixel_ratio_ = w > 0 ? float(viewport_.width) / float(w) : 1.0f;
  Adopt(std::move(loaded), args_.pose.model_path);
  for (const std::string& warning : current_->model.warnings) ShowMessage(warning, false);
  // Command-line clip, time and constraints.
  const assets::Model& model = current_->model;
  if (args_.pose.anim || args_.pose.time) {
    const int anim = args_.pose.anim.value_or(0);
    if (anim < 0 || anim >= static_cast<int>(model.clips.size())) {
      std::cerr << "skelview: --anim " << anim << ": " << model.source << " has "
                << model.clips.size() << " clip(s)\n";
      *exit_code = kExitBadInput;
      return false;
    }
    clip_ = anim;
    std::string note;
    clip_time_ = ClampClipTime(args_.pose.time.value_or(0.0f), model.clips[clip_].duration,
                               model.clips[clip_].name, &note);
    if (!note.empty()) std::cerr << "skelview: warning: " << note << "\n";
  }
  ConstraintRequests requests;
  if (!ParseConstraints(args_.pose, model.skeleton, &requests, &error)) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  const EditState extra = EditForRequests(model, requests);
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
  edit_.limits = extra.limits;
  Update(0.0);
  recent_.Load();
  if (!args_.pose.model_path.empty()) {
    recent_.Add(args_.pose.model_path);
    std::string save_error;
    if (!recent_.Save(&save_error)) std::cerr << "skelview: " << save_error << "\n";
  }
  return true;
}

bool Viewer::Open(const std::string& path, std::string* error) {
  auto loaded = std::make_unique<LoadedModel>();
  if (!LoadModelOrBuiltin(path, args_.pose.allow_outside_files, &loaded->model, error)) {
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
  if (path.empty()) {
    std::string error;
    if (Open("", &error)) ShowMessage("opened the built-in character", false);
    return;
  }
  if (loading_) loading_->Cancel();
  loading_ = std::make_unique<ImportProcess>();
  Json event;
  event["event"] = "load_started";
  event["path"] = path;
  trace_.Write(event);
  ImportLimits limits;
  limits.allow_outside_files = args_.pose.allow_outside_files;
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
      recent_.Add(path);
      std::string save_error;
      if (!recent_.Save(&save_error)) std::cerr << "skelview: " << save_error << "\n";
      ShowMessage("opened " + path, false);
      for (const std::string& warning : current_->model.warnings) ShowMessage(warning, false);
      Json event;
      event["event"] = "load_done";
      event["model"] = current_->model.source;
      event["joints"] = current_->model.skeleton.joint_count();
      event["chains"] = edit_.chains.size();
      trace_.Write(event);
      loading_.reset();
      return;
    }
    error = path + ": " + error;
  } else {
    error = loading_->error();
  }
  loading_.reset();
  ShowMessage(error, true);
  Json event;
  event["event"] = "load_failed";
  event["path"] = path;
  event["error"] = error;
  event["model"] = current_->model.source;  // the model that stays
  trace_.Write(event);
}

void Viewer::Adopt(std::unique_ptr<LoadedModel> loaded, const std::string& path) {
  loaded->extent = MeasureModel(loaded->model);
  current_ = std::move(loaded);
  current_path_ = path;
  edit_ = EditState();
  edit_.chains = DefaultChains(current_->model);
  history_.Clear();
  edit_before_.reset();
  clip_ = current_->model.clips.empty() ? -1 : 0;
  clip_time_ = 0.0f;
  playing_ = false;
  selected_joint_ = -1;
  fabrik_root_ = -1;
  active_chain_ = -1;
  hover_chain_ = -1;
  drag_ = Drag::kNone;
  Update(0.0);
  FrameCamera();
}

void Viewer::FrameCamera() {
  const assets::Bounds bounds = assets::ModelBounds(current_->model, state_.models);
  if (!bounds.empty()) camera_.Frame(bounds.min, bounds.max, viewport_.aspect());
}

void Viewer::ShowMessage(const std::string& text, bool error) {
  message_ = text;
  message_is_error_ = error;
  message_time_ = Clock::now();
  (error ? std::cerr : std::cout) << "skelview: " << (error ? "" : "note: ") << text << "\n";
}

renderer::View Viewer::CurrentView() const {
  renderer::View view;
  view.view = camera_.View();
  view.projection = camera_.Projection(viewport_.aspect());
  view.viewport = {viewport_.width, viewport_.height};
  return view;
}

glm::vec2 Viewer::ToPixels(int x, int y) const {
  return glm::vec2(float(x), float(y)) * pixel_ratio_;
}

Ray Viewer::CursorRay(const glm::vec2& cursor_px) const {
  return RayFromPixel(camera_.View(), camera_.Projection(viewport_.aspect()), viewport_,
                      cursor_px.x, cursor_px.y);
}

glm::vec3 Viewer::Effector(int chain) const { return Info(chain).effector; }

EffectorInfo Viewer::Info(int chain) const {
  return InfoFor(current_->model.skeleton, edit_.chains[chain], unsolved_models_);
}

glm::vec3 Viewer::Target(int chain) const {
  return ChainTarget(edit_.chains[chain], Info(chain), edit_.contacts);
}

const ik::TwoBoneIkResult* Viewer::TwoBoneResultOf(int chain) const {
  if (chain < 0 || chain >= static_cast<int>(frame_.chain_requests.size())) return nullptr;
  const RequestIndex& where = frame_.chain_requests[chain];
  if (where.kind != ConstraintKind::kTwoBone || where.index < 0 ||
      where.index >= static_cast<int>(state_.ik.size())) {
    return nullptr;
  }
  return &state_.ik[where.index];
}

bool Viewer::ChainReached(int chain) const {
  if (chain < 0 || chain >= static_cast<int>(frame_.chain_requests.size())) return false;
  const RequestIndex& where = frame_.chain_requests[chain];
  if (where.index < 0) return false;
  switch (where.kind) {
    case ConstraintKind::kTwoBone:
      return where.index < static_cast<int>(state_.ik.size()) && state_.ik[where.index].reached;
    case ConstraintKind::kFabrik:
      return where.index < static_cast<int>(state_.fabrik.size()) &&
             state_.fabrik[where.index].reached;
    case ConstraintKind::kAim:
      return where.index < static_cast<int>(state_.aim.size()) && state_.aim[where.index].reached;
  }
  return false;
}

std::string Viewer::ChainStatus(int chain) const {
  if (chain < 0 || chain >= static_cast<int>(frame_.chain_requests.size())) return "off";
  const RequestIndex& where = frame_.chain_requests[chain];
  if (where.index < 0) return "off";
  char text[160];
  switch (where.kind) {
    case ConstraintKind::kTwoBone: {
      const ik::TwoBoneIkResult& r = state_.ik[where.index];
      std::snprintf(text, sizeof(text), "%s %.1e", ik::CaseName(r.solve_case), double(r.error));
      break;
    }
    case ConstraintKind::kFabrik: {
      const ik::FabrikResult& r = state_.fabrik[where.index];
      std::snprintf(
          text, sizeof(text), "%s %d it %.1e",
          r.degenerate ? ik::FabrikFallbackName(r.fallback) : (r.reached ? "reached" : "missed"),
          r.iterations, double(r.error));
      break;
    }
    case ConstraintKind::kAim: {
      const ik::AimResult& r = state_.aim[where.index];
      std::snprintf(text, sizeof(text), "%s %.2f deg",
                    r.degenerate ? ik::AimFallbackName(r.fallback)
                                 : (r.reached ? "aimed" : (r.limited ? "limited" : "missed")),
                    double(glm::degrees(r.angle_after)));
      break;
    }
  }
  return text;
}

GizmoView Viewer::GizmoFor(int chain) const {
  GizmoView gizmo;
  gizmo.view = camera_.View();
  gizmo.projection = camera_.Projection(viewport_.aspect());
  gizmo.viewport = viewport_;
  gizmo.origin = Target(chain);
  return gizmo;
}

int Viewer::HitChain(const glm::vec2& cursor_px, GizmoPart* part) const {
  *part = GizmoPart::kNone;
  if (!show_handles_) return -1;
  const int count = static_cast<int>(edit_.chains.size());
  if (active_chain_ >= 0 && active_chain_ < count && edit_.chains[active_chain_].enabled) {
    const GizmoPart hit = HitTestGizmo(GizmoFor(active_chain_), gizmo_style_, cursor_px);
    if (hit != GizmoPart::kNone) {
      *part = hit;
      return active_chain_;
    }
  }
  // The other handles are discs; the nearest under the cursor wins.
  int best = -1;
  float best_distance = gizmo_style_.center_radius_px + 3.0f;
  for (int i = 0; i < count; ++i) {
    if (!edit_.chains[i].enabled) continue;
    glm::vec2 px;
    if (!ProjectToPixel(camera_.View(), camera_.Projection(viewport_.aspect()), viewport_,
                        Target(i), &px)) {
      continue;
    }
    const float d = glm::length(px - cursor_px);
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  if (best >= 0) *part = GizmoPart::kCenter;
  return best;
}

void Viewer::BeginEdit() { edit_before_ = edit_; }

void Viewer::CommitEdit() {
  if (!edit_before_) return;
  history_.Record(*edit_before_, edit_);
  edit_before_.reset();
  ++commits_;
}

void Viewer::Undo() {
  if (drag_ == Drag::kGizmo) return;
  if (history_.Undo(&edit_)) {
    if (active_chain_ >= static_cast<int>(edit_.chains.size())) active_chain_ = -1;
    ShowMessage("undo", false);
    WriteTargetsTrace("undo");
  }
}

void Viewer::Redo() {
  if (drag_ == Drag::kGizmo) return;
  if (history_.Redo(&edit_)) {
    if (active_chain_ >= static_cast<int>(edit_.chains.size())) active_chain_ = -1;
    ShowMessage("redo", false);
    WriteTargetsTrace("redo");
  }
}

void Viewer::ResetTarget(int chain) {
  BeginEdit();
  ResetChainTarget(&edit_.chains[chain], Effector(chain));
  CommitEdit();
  WriteTargetsTrace("reset");
}

void Viewer::ResetAllTargets() {
  BeginEdit();
  for (size_t i = 0; i < edit_.chains.size(); ++i) {
    ResetChainTarget(&edit_.chains[i], Effector(static_cast<int>(i)));
  }
  CommitEdit();
  WriteTargetsTrace("reset");
}

void Viewer::HandleEvent(const SDL_Event& event) {
  switch (event.type) {
    case SDL_QUIT:
      quit_ = true;
      break;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
      break;
    case SDL_DROPFILE: {
      const std::string path = event.drop.file;
      SDL_free(event.drop.file);
      StartOpen(path);
      break;
    }
    case SDL_KEYDOWN:
      OnKey(event.key);
      break;
    case SDL_MOUSEBUTTONDOWN:
      OnMouseDown(event.button);
      break;
    case SDL_MOUSEBUTTONUP:
      OnMouseUp(event.button);
      break;
    case SDL_MOUSEMOTION:
      OnMouseMotion(event.motion);
      break;
    case SDL_MOUSEWHEEL:
      if (!ImGui::GetIO().WantCaptureMouse) camera_.Zoom(float(event.wheel.y));
      break;
    default:
      break;
  }
}

void Viewer::OnKey(const SDL_KeyboardEvent& key) {
  const SDL_Keycode code = key.keysym.sym;
  const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
  const bool shift = (key.keysym.mod & KMOD_SHIFT) != 0;
  // Quit, undo and redo work even while a panel field has the keyboard.
  if (ctrl && code == SDLK_q) quit_ = true;
  if (ImGui::GetIO().WantTextInput) return;
  if (ctrl && code == SDLK_z) shift ? Redo() : Undo();
  if (ctrl && code == SDLK_y) Redo();
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  if (ctrl && code == SDLK_r) StartOpen(current_path_);
  if (ctrl && code == SDLK_o) file_browser_.Open("");
  if (ctrl && code == SDLK_e) export_open_ = true;
  if (ctrl) return;
  switch (code) {
    case SDLK_f:
      FrameCamera();
      break;
    case SDLK_F12:
      screenshot_requested_ = true;
      break;
    case SDLK_SPACE:
      if (clip_ >= 0) playing_ = !playing_;
      break;
    case SDLK_LEFT:
    case SDLK_RIGHT:  // step one frame (30 fps)
      if (clip_ >= 0) {
        playing_ = false;
        clip_time_ += (code == SDLK_RIGHT ? 1.0f : -1.0f) / 30.0f;
      }
      break;
    case SDLK_r:
      if (hover_chain_ >= 0) {
        ResetTarget(hover_chain_);
      } else if (active_chain_ >= 0) {
        ResetTarget(active_chain_);
      } else {
        ResetAllTargets();
      }
      break;
    case SDLK_ESCAPE:
      if (drag_ == Drag::kGizmo && edit_before_) {  // cancel the drag
        edit_ = *edit_before_;
        edit_before_.reset();
        drag_ = Drag::kNone;
      }
      break;
    default:
      break;
  }
}

void Viewer::OnMouseDown(const SDL_MouseButtonEvent& button) {
  if (ImGui::GetIO().WantCaptureMouse || drag_ != Drag::kNone) return;
  const glm::vec2 cursor = ToPixels(button.x, button.y);
  cursor_px_ = press_px_ = cursor;
  press_travel_px_ = 0.0f;
  if (button.button == SDL_BUTTON_LEFT) {
    GizmoPart part = GizmoPart::kNone;
    const int chain = HitChain(cursor, &part);
    if (chain >= 0) {  // the gizmo wins over picking and the camera
      active_chain_ = chain;
      if (button.clicks >= 2) {
        ResetTarget(chain);
        return;
      }
      BeginEdit();
      this_drag_frames_ = FrameTimes();
      gizmo_drag_ = GizmoDrag(part, Target(chain), CursorRay(cursor), camera_.Forward());
      drag_ = Drag::kGizmo;
      return;
    }
    const bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
    drag_ = shift ? Drag::kPan : Drag::kOrbit;
  } else if (button.button == SDL_BUTTON_MIDDLE) {
    drag_ = Drag::kPan;
  }
}

void Viewer::OnMouseMotion(const SDL_MouseMotionEvent& motion) {
  const glm::vec2 cursor = ToPixels(motion.x, motion.y);
  const glm::vec2 delta = glm::vec2(float(motion.xrel), float(motion.yrel)) * pixel_ratio_;
  cursor_px_ = cursor;
  press_travel_px_ += glm::length(delta);
  switch (drag_) {
    case Drag::kOrbit:
      camera_.Orbit(delta.x, delta.y);
      break;
    case Drag::kPan:
      camera_.Pan(delta.x, delta.y, viewport_);
      break;
    case Drag::kGizmo:
      if (active_chain_ >= 0) {
        const glm::vec3 target = gizmo_drag_.Update(CursorRay(cursor));
        SetChainTarget(&edit_.chains[active_chain_], target, Info(active_chain_), edit_.contacts);
      }
      break;
    case Drag::kNone:
      if (ImGui::GetIO().WantCaptureMouse) {
        hover_chain_ = -1;
        hover_part_ = GizmoPart::kNone;
      } else {
        hover_chain_ = HitChain(cursor, &hover_part_);
      }
      break;
  }
}

void Viewer::OnMouseUp(const SDL_MouseButtonEvent& button) {
  const Drag ended = drag_;
  drag_ = Drag::kNone;
  if (ended == Drag::kGizmo) {
    if (!edit_before_) return;                // cancelled with Escape
    if (press_travel_px_ < kClickTravelPx) {  // a click on a handle only makes it active
      edit_ = *edit_before_;
      edit_before_.reset();
      return;
    }
    Update(0.0);  // solve for the final target before reporting it
    CommitEdit();
    WriteDragEndTrace(active_chain_);
    return;
  }
  if (ended == Drag::kOrbit && button.button == SDL_BUTTON_LEFT &&
      press_travel_px_ < kClickTravelPx) {
    // A click: select the bone under the cursor, else the joint weighing most on the mesh there.
    PickView view{camera_.View(), camera_.Projection(viewport_.aspect()), viewport_};
    int joint = -1;
    if (scene_options_.skeleton || current_->model.meshes.empty()) {
      joint = PickBone(current_->model, state_.models, view, press_px_, 8.0f);
    }
    if (joint < 0 && scene_options_.mesh) {
      joint = PickJointOnMesh(current_->model, state_.models, CursorRay(press_px_));
    }
    selected_joint_ = joint;
    scroll_to_selected_ = joint >= 0;
  }
}

void Viewer::Update(double dt_seconds) {
  const auto start = Clock::now();
  const assets::Model& model = current_->model;
  if (clip_ >= 0 && clip_ < static_cast<int>(model.clips.size())) {
    const float duration = model.clips[clip_].duration;
    if (playing_) clip_time_ += float(dt_seconds) * speed_;
    clip_time_ = loop_ ? assets::WrapTime(clip_time_, duration, true)
                       : std::clamp(clip_time_, 0.0f, duration);
  }
  const auto solve_start = Clock::now();
  EvaluateEditedFrame(model, ClipTime{clip_, clip_time_}, edit_, &frame_, &state_);
  solve_us_.Add(MillisecondsSince(solve_start) * 1000.0);
  current_->gpu.UpdatePose(state_.models);
  update_ms_.Add(MillisecondsSince(start));
}

void Viewer::DrawFrame3d(const renderer::View& view, bool with_gizmos) {
  scene_options_.selected_joint = selected_joint_;
  DrawScene(*renderer_, current_->gpu, current_->model, current_->extent, requests_, state_,
            scene_options_, view, &lines_, &xray_lines_);
  // The ground plane and the ladder the targets hold on to.
  contact_lines_.Clear();
  contact_shapes_.Clear();
  const SceneContacts& contacts = edit_.contacts;
  if (contacts.ground.enabled) {
    const float half = current_->extent.size * 0.6f;
    const glm::vec3 c = contacts.ground.pivot;
    glm::vec3 corners[4];
    const float dx[4] = {-1, 1, 1, -1}, dz[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; ++k) {
      const float x = c.x + dx[k] * half, z = c.z + dz[k] * half;
      corners[k] = glm::vec3(x, contacts.ground.HeightAt(x, z), z);
    }
    contact_shapes_.AddQuad(corners[0], corners[1], corners[2], corners[3],
                            glm::vec4(0.35f, 0.6f, 0.45f, 0.35f));
    contact_lines_.width = 2.0f;
    for (int k = 0; k < 4; ++k) {
      contact_lines_.AddLine(corners[k], corners[(k + 1) % 4], glm::vec4(0.5f, 0.85f, 0.6f, 0.9f));
    }
  }
  if (contacts.ladder.enabled) {
    contact_lines_.width = 6.0f;
    const std::vector<Segment> rungs = contacts.ladder.Rungs();
    for (const Segment& r : rungs)
      contact_lines_.AddLine(r.a, r.b, glm::vec4(0.75f, 0.5f, 0.3f, 1.0f));
    if (!rungs.empty()) {
      contact_lines_.width = 4.0f;
      contact_lines_.AddLine(rungs.front().a, rungs.back().a, glm::vec4(0.6f, 0.4f, 0.25f, 1.0f));
      contact_lines_.AddLine(rungs.front().b, rungs.back().b, glm::vec4(0.6f, 0.4f, 0.25f, 1.0f));
    }
  }
  if (!contact_shapes_.empty()) {
    renderer_->DrawShapes(contact_shapes_, view, renderer::DepthMode::kTested);
  }
  if (!contact_lines_.empty()) {
    renderer_->DrawLines(contact_lines_, view, renderer::DepthMode::kHiddenDimmed);
  }
  if (!with_gizmos || !show_handles_) return;
  gizmo_lines_.Clear();
  gizmo_shapes_.Clear();
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    if (!edit_.chains[i].enabled) continue;
    const bool reached = ChainReached(i);
    const GizmoView gizmo = GizmoFor(i);
    const GizmoPart hovered = hover_chain_ == i ? hover_part_ : GizmoPart::kNone;
    if (i == active_chain_) {
      const GizmoPart active = drag_ == Drag::kGizmo ? gizmo_drag_.part() : GizmoPart::kNone;
      DrawGizmo(gizmo, gizmo_style_, hovered, active, ReachedColor(reached), &gizmo_lines_,
                &gizmo_shapes_);
    } else {
      const float radius = gizmo_style_.center_radius_px;
      glm::vec4 color = ReachedColor(reached);
      if (hovered != GizmoPart::kNone) color = glm::mix(color, glm::vec4(1.0f), 0.5f);
      gizmo_shapes_.AddDisc(gizmo.origin, radius + 2.0f, glm::vec4(0.05f, 0.05f, 0.05f, 0.9f));
      gizmo_shapes_.AddDisc(gizmo.origin, radius, color);
    }
  }
  if (!gizmo_lines_.empty()) renderer_->DrawLines(gizmo_lines_, view, renderer::DepthMode::kOnTop);
  if (!gizmo_shapes_.empty()) {
    renderer_->DrawShapes(gizmo_shapes_, view, renderer::DepthMode::kOnTop);
  }
}

bool Viewer::ExportTo(const std::string& path, bool bake, std::string* error) {
  const assets::Model& model = current_->model;
  bool ok;
  if (bake && clip_ >= 0) {
    assets::Model baked = model;
    baked.clips = {BakeClip(model, clip_, EstimateFrameRate(model.clips[clip_]), edit_)};
    ok = assets::ExportGltf(baked, path, error);
  } else {
    ok = assets::ExportGltf(model, state_.pose, path, error);
  }
  Json event;
  event["event"] = "export";
  event["path"] = path;
  event["bake"] = bake;
  event["ok"] = ok;
  if (!ok) event["error"] = *error;
  trace_.Write(event);
  return ok;
}

void Viewer::SaveScreenshot() {
  std::string error;
  auto target = renderer::OffscreenTarget::Create(viewport_.width, viewport_.height, &error);
  if (!target) {
    ShowMessage("screenshot: " + error, true);
    return;
  }
  target->Bind();
  DrawFrame3d(CurrentView(), /*with_gizmos=*/true);
  const std::vector<uint8_t> pixels = target->ReadPixels();
  renderer::OffscreenTarget::BindDefault();
  char name[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof(name), "skelview-%Y%m%d-%H%M%S.png", std::localtime(&now));
  if (renderer::WritePng(name, viewport_.width, viewport_.height, pixels, &error)) {
    ShowMessage(std::string("saved screenshot ") + name, false);
    nlohmann::ordered_json event;
    event["event"] = "screenshot";
    event["path"] = name;
    trace_.Write(event);
  } else {
    ShowMessage(error, true);
  }
}

void Viewer::WriteReadyTrace() {
  Json event;
  event["event"] = "ready";
  event["window"] = {int(float(viewport_.width) / pixel_ratio_),
                     int(float(viewport_.height) / pixel_ratio_)};
  event["model"] = current_->model.source;
  Json chains = Json::array();
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    glm::vec2 px(-1.0f);
    ProjectToPixel(camera_.View(), camera_.Projection(viewport_.aspect()), viewport_, Target(i),
                   &px);
    px /= pixel_ratio_;
    const ik::Skeleton& s = current_->model.skeleton;
    chains.push_back({{"end", s.name(edit_.chains[i].chain.end)},
                      {"label", edit_.chains[i].label},
                      {"handle_px", {Rounded(px.x), Rounded(px.y)}},
                      {"target", ToJson(Target(i))}});
  }
  event["chains"] = std::move(chains);
  // Where the model is on screen: its bounds' centre and the projected bounds box.
  const assets::Bounds bounds = assets::ModelBounds(current_->model, state_.models);
  if (!bounds.empty()) {
    glm::vec2 centre(-1.0f), lo(1e9f), hi(-1e9f);
    const glm::mat4 view = camera_.View(), projection = camera_.Projection(viewport_.aspect());
    ProjectToPixel(view, projection, viewport_, bounds.center(), &centre);
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
    centre /= pixel_ratio_;
    lo /= pixel_ratio_;
    hi /= pixel_ratio_;
    event["model_px"] = {{"center", {Rounded(centre.x), Rounded(centre.y)}},
                         {"box", {Rounded(lo.x), Rounded(lo.y), Rounded(hi.x), Rounded(hi.y)}}};
  }
  if (clip_ >= 0) event["anim"] = {{"index", clip_}, {"time", Rounded(clip_time_)}};
  trace_.Write(event);
}

void Viewer::WriteDragEndTrace(int chain) {
  if (chain < 0 || chain >= static_cast<int>(edit_.chains.size())) return;
  const ChainSettings& settings = edit_.chains[chain];
  const ik::Skeleton& skeleton = current_->model.skeleton;
  Json event;
  event["event"] = "drag_end";
  event["end"] = skeleton.name(settings.chain.end);
  event["label"] = settings.label;
  event["part"] = GizmoPartName(gizmo_drag_.part());
  event["target"] = ToJson(Target(chain));
  event["effector"] = ToJson(glm::vec3(state_.models[settings.chain.end][3]));
  event["kind"] = ConstraintKindName(settings.kind);
  event["reached"] = ChainReached(chain);
  event["status"] = ChainStatus(chain);
  if (const ik::TwoBoneIkResult* result = TwoBoneResultOf(chain)) {
    event["case"] = ik::CaseName(result->solve_case);
    event["error"] = Rounded(result->error);
    event["mid_before"] = ToJson(result->b_before);
    event["mid_after"] = ToJson(result->b_final);
  }
  event["frames"] = this_drag_frames_.count;
  event["frame_ms"] = Rounded(float(this_drag_frames_.mean()));
  event["idle_frame_ms"] = Rounded(float(idle_frames_.mean()));
  this_drag_frames_ = FrameTimes();
  event["options"] = {{"hinge", settings.hinge},
                      {"soft", Rounded(settings.soft)},
                      {"weight", Rounded(settings.weight)},
                      {"mode", TargetModeName(settings.mode)}};
  if (settings.use_pole) event["options"]["pole"] = ToJson(settings.pole);
  glm::vec2 px(-1.0f);
  ProjectToPixel(camera_.View(), camera_.Projection(viewport_.aspect()), viewport_, Target(chain),
                 &px);
  px /= pixel_ratio_;
  event["handle_px"] = {Rounded(px.x), Rounded(px.y)};
  if (clip_ >= 0) event["anim"] = {{"index", clip_}, {"time", Rounded(clip_time_)}};
  trace_.Write(event);
}

void Viewer::WriteTargetsTrace(const char* event_name) {
  if (!trace_.is_open()) return;
  Json event;
  event["event"] = event_name;
  Json chains = Json::array();
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    chains.push_back({{"end", current_->model.skeleton.name(edit_.chains[i].chain.end)},
                      {"target", ToJson(Target(i))}});
  }
  event["chains"] = std::move(chains);
  trace_.Write(event);
}

int Viewer::Run() {
  int exit_code = kExitOk;
  if (!Init(&exit_code)) return exit_code;
  auto last = Clock::now();
  while (!quit_) {
    const auto frame_start = Clock::now();
    const double dt = std::chrono::duration<double>(frame_start - last).count();
    last = frame_start;
    PollLoading();
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
      ImGui_ImplSDL2_ProcessEvent(&event);
      HandleEvent(event);
    }
    int window_w = 0, window_h = 0;
    gl_->DrawableSize(&viewport_.width, &viewport_.height);
    SDL_GetWindowSize(gl_->window(), &window_w, &window_h);
    pixel_ratio_ = window_w > 0 ? float(viewport_.width) / float(window_w) : 1.0f;

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
    DrawUi();
    // Keep the model centred in the free part of the window (when the panel leaves room).
    camera_.lens_shift_ndc =
        viewport_.width > 2.0f * panel_right_px_ ? panel_right_px_ / float(viewport_.width) : 0.0f;
    if (frame_count_ == 0)
      FrameCamera();  // now that the panel's size is known  // panels edit the settings; the pose
                      // follows below
    Update(std::min(dt, 0.1));

    const auto draw_start = Clock::now();
    renderer::OffscreenTarget::BindDefault();
    DrawFrame3d(CurrentView(), /*with_gizmos=*/true);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    draw_ms_.Add(MillisecondsSince(draw_start));
    if (screenshot_requested_) {
      screenshot_requested_ = false;
      SaveScreenshot();
    }
    gl_->Swap();
    if (frame_count_ == 0) WriteReadyTrace();
    ++frame_count_;
    const double frame_ms = MillisecondsSince(frame_start);
    frame_ms_.Add(frame_ms);
    FrameTimes& bucket = drag_ == Drag::kGizmo ? drag_frames_ : idle_frames_;
    bucket.sum_ms += frame_ms;
    ++bucket.count;
    if (drag_ == Drag::kGizmo) {
      this_drag_frames_.sum_ms += frame_ms;
      ++this_drag_frames_.count;
    }
    if (args_.max_frames > 0 && frame_count_ >= args_.max_frames) quit_ = true;
  }
  Json exit_event;
  exit_event["event"] = "exit";
  exit_event["frames"] = frame_count_;
  exit_event["idle_frame_ms"] = Rounded(float(idle_frames_.mean()));
  exit_event["drag_frame_ms"] = Rounded(float(drag_frames_.mean()));
  trace_.Write(exit_event);
  return trace_.failed() ? kExitFailure : kExitOk;
}

int RunViewer(const ViewerArgs& args) {
  Viewer viewer(args);
  return viewer.Run();
}

}  // namespace app

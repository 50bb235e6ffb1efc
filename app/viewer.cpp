// The interactive viewer: window, input, panels and the per-frame update of the shown character.
#include "app/viewer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include <SDL2/SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include "app/args.h"
#include "app/camera.h"
#include "app/commands.h"
#include "app/evaluate.h"
#include "app/gl_context.h"
#include "app/scene_draw.h"
#include "app/trace.h"
#include "assets/animation.h"
#include "assets/skinning.h"
#include "renderer/gl.h"
#include "renderer/offscreen.h"
#include "renderer/png.h"
#include "renderer/renderer.h"

namespace app {

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Exponential moving average for the status line, so the numbers are readable.
struct Smoothed {
  double value = 0.0;
  void Add(double sample) { value = value == 0.0 ? sample : value * 0.9 + sample * 0.1; }
};

// A model as shown: the data, its GPU copy and the state of its pose.
struct LoadedModel {
  assets::Model model;
  renderer::GpuModel gpu;
  float size = 1.0f;
};

class Viewer {
 public:
  explicit Viewer(const ViewerArgs& args) : args_(args) {}
  ~Viewer();

  int Run();

 private:
  bool Init(int* exit_code);
  // Loads a file (or the built-in character for "") and makes it current. On failure the current
  // model stays and the message is shown in the window.
  bool Open(const std::string& path, std::string* error);
  void FrameCamera();
  void HandleEvent(const SDL_Event& event);
  void Update(double dt_seconds);
  void DrawUi();
  void DrawStatusLine();
  void DrawScene3d(const renderer::View& view);
  renderer::View CurrentView() const;
  void SaveScreenshot();
  void ShowMessage(const std::string& text, bool error);
  void WriteReadyTrace();

  ViewerArgs args_;
  std::unique_ptr<GlContext> gl_;
  bool imgui_ready_ = false;
  std::optional<renderer::Renderer> renderer_;
  std::unique_ptr<LoadedModel> current_;
  std::string current_path_;
  TraceLog trace_;

  // View state.
  OrbitCamera camera_;
  Viewport viewport_;      // drawable size in pixels
  float pixel_ratio_ = 1;  // drawable pixels per window coordinate (mouse events)
  SceneOptions scene_options_;
  renderer::DebugLines lines_, xray_lines_;

  // Animation playback.
  int clip_ = -1;
  float clip_time_ = 0.0f;
  float speed_ = 1.0f;
  bool playing_ = false;
  bool loop_ = true;

  // The pose of this frame.
  std::vector<IkChainRequest> ik_requests_;
  PoseState state_;

  // Mouse drags of the camera.
  enum class Drag { kNone, kOrbit, kPan };
  Drag drag_ = Drag::kNone;

  // Messages and timing.
  std::string message_;
  bool message_is_error_ = false;
  Clock::time_point message_time_;
  Smoothed frame_ms_, update_ms_, draw_ms_;
  bool quit_ = false;
  long frame_count_ = 0;
  bool screenshot_requested_ = false;
};

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
  if (!args_.size.empty() && !ParseSize(args_.size, &width, &height, &error)) {
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
  if (!LoadModelOrBuiltin(args_.model_path, &loaded->model, &error)) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitBadInput;
    return false;
  }
  gl_ = GlContext::Create(GlContext::Kind::kWindow, "skelview", width, height, &error);
  if (!gl_) {
    std::cerr << "skelview: " << error << "\n";
    *exit_code = kExitFailure;
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
  loaded->size = ModelSize(loaded->model);
  current_ = std::move(loaded);
  current_path_ = args_.model_path;
  for (const std::string& w : current_->model.warnings) ShowMessage(w, false);
  clip_ = current_->model.clips.empty() ? -1 : 0;
  playing_ = clip_ >= 0;
  int w = 0, h = 0;
  gl_->DrawableSize(&viewport_.width, &viewport_.height);
  SDL_GetWindowSize(gl_->window(), &w, &h);
  pixel_ratio_ = w > 0 ? float(viewport_.width) / float(w) : 1.0f;
  Update(0.0);
  FrameCamera();
  return true;
}

bool Viewer::Open(const std::string& path, std::string* error) {
  auto loaded = std::make_unique<LoadedModel>();
  if (!LoadModelOrBuiltin(path, &loaded->model, error)) return false;
  auto gpu = renderer::GpuModel::Create(loaded->model, error);
  if (!gpu) {
    *error = loaded->model.source + ": " + *error;
    return false;
  }
  loaded->gpu = std::move(*gpu);
  loaded->size = ModelSize(loaded->model);
  current_ = std::move(loaded);
  current_path_ = path;
  ik_requests_.clear();
  clip_ = current_->model.clips.empty() ? -1 : 0;
  clip_time_ = 0.0f;
  playing_ = clip_ >= 0;
  scene_options_.selected_joint = -1;
  Update(0.0);
  FrameCamera();
  return true;
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

void Viewer::HandleEvent(const SDL_Event& event) {
  const ImGuiIO& io = ImGui::GetIO();
  switch (event.type) {
    case SDL_QUIT:
      quit_ = true;
      break;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
      break;
    case SDL_DROPFILE: {
      std::string path = event.drop.file;
      SDL_free(event.drop.file);
      std::string error;
      if (Open(path, &error)) {
        ShowMessage("opened " + path, false);
      } else {
        ShowMessage(error, true);
      }
      break;
    }
    case SDL_KEYDOWN: {
      if (io.WantCaptureKeyboard) break;
      const SDL_Keycode key = event.key.keysym.sym;
      const bool ctrl = (event.key.keysym.mod & KMOD_CTRL) != 0;
      if (ctrl && key == SDLK_q) quit_ = true;
      if (ctrl && key == SDLK_r) {
        std::string error;
        if (Open(current_path_, &error)) {
          ShowMessage("reloaded " + current_->model.source, false);
        } else {
          ShowMessage(error, true);
        }
      }
      if (!ctrl && key == SDLK_f) FrameCamera();
      if (key == SDLK_F12) screenshot_requested_ = true;
      if (!ctrl && key == SDLK_SPACE && clip_ >= 0) playing_ = !playing_;
      break;
    }
    case SDL_MOUSEBUTTONDOWN: {
      if (io.WantCaptureMouse) break;
      const bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
      if (event.button.button == SDL_BUTTON_LEFT) drag_ = shift ? Drag::kPan : Drag::kOrbit;
      if (event.button.button == SDL_BUTTON_MIDDLE) drag_ = Drag::kPan;
      break;
    }
    case SDL_MOUSEBUTTONUP:
      drag_ = Drag::kNone;
      break;
    case SDL_MOUSEMOTION: {
      const float dx = float(event.motion.xrel) * pixel_ratio_;
      const float dy = float(event.motion.yrel) * pixel_ratio_;
      if (drag_ == Drag::kOrbit) camera_.Orbit(dx, dy);
      if (drag_ == Drag::kPan) camera_.Pan(dx, dy, viewport_);
      break;
    }
    case SDL_MOUSEWHEEL:
      if (io.WantCaptureMouse) break;
      camera_.Zoom(float(event.wheel.y));
      break;
    default:
      break;
  }
}

void Viewer::Update(double dt_seconds) {
  const auto start = Clock::now();
  const assets::Model& model = current_->model;
  if (clip_ >= 0 && clip_ < static_cast<int>(model.clips.size())) {
    const float duration = model.clips[clip_].duration;
    if (playing_) clip_time_ += float(dt_seconds) * speed_;
    if (loop_) {
      clip_time_ = assets::WrapTime(clip_time_, duration, true);
    } else {
      clip_time_ = std::clamp(clip_time_, 0.0f, duration);
    }
  }
  ClipTime clip_time;
  clip_time.clip = clip_;
  clip_time.time = clip_time_;
  EvaluatePose(model, clip_time, ik_requests_, &state_);
  current_->gpu.UpdatePose(state_.models);
  update_ms_.Add(MillisecondsSince(start));
}

void Viewer::DrawScene3d(const renderer::View& view) {
  DrawScene(*renderer_, current_->gpu, current_->model, ik_requests_, state_, scene_options_,
            view, &lines_, &xray_lines_);
}

void Viewer::SaveScreenshot() {
  std::string error;
  auto target = renderer::OffscreenTarget::Create(viewport_.width, viewport_.height, &error);
  if (!target) {
    ShowMessage("screenshot: " + error, true);
    return;
  }
  target->Bind();
  DrawScene3d(CurrentView());
  const std::vector<uint8_t> pixels = target->ReadPixels();
  renderer::OffscreenTarget::BindDefault();
  char name[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof(name), "skelview-%Y%m%d-%H%M%S.png", std::localtime(&now));
  if (renderer::WritePng(name, viewport_.width, viewport_.height, pixels, &error)) {
    ShowMessage(std::string("saved screenshot ") + name, false);
  } else {
    ShowMessage(error, true);
  }
}

void Viewer::DrawUi() {
  const assets::Model& model = current_->model;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(330, 520), ImGuiCond_FirstUseEver);
  ImGui::Begin("skelview");
  if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::TextWrapped("%s", model.source.c_str());
    int bones = 0;
    for (bool b : model.is_bone) bones += b ? 1 : 0;
    ImGui::Text("%zu meshes, %zu vertices, %zu triangles", model.meshes.size(),
                model.vertex_count(), model.triangle_count());
    ImGui::Text("%d joints (%d bones), %zu clips", model.skeleton.joint_count(), bones,
                model.clips.size());
    for (const std::string& w : model.warnings) ImGui::TextWrapped("warning: %s", w.c_str());
  }
  if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("Mesh", &scene_options_.mesh);
    ImGui::SameLine();
    ImGui::Checkbox("Grid", &scene_options_.grid);
    ImGui::SameLine();
    ImGui::Checkbox("Bones", &scene_options_.skeleton);
    ImGui::Checkbox("Bones on top (x-ray)", &scene_options_.skeleton_xray);
    ImGui::Checkbox("Joint axes", &scene_options_.joint_axes);
    ImGui::SliderFloat("Mesh opacity", &scene_options_.mesh_opacity, 0.05f, 1.0f, "%.2f");
    if (ImGui::Button("Frame model (F)")) FrameCamera();
  }
  if (ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (model.clips.empty()) {
      ImGui::TextDisabled("no clips in this model");
    } else {
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
      if (clip_ >= 0) {
        if (ImGui::Button(playing_ ? "Pause" : "Play")) playing_ = !playing_;
        ImGui::SameLine();
        ImGui::Checkbox("Loop", &loop_);
        ImGui::SliderFloat("Speed", &speed_, -2.0f, 2.0f, "%.2fx");
        ImGui::SliderFloat("Time", &clip_time_, 0.0f, model.clips[clip_].duration, "%.3f s");
      }
    }
  }
  ImGui::End();

  if (!message_.empty() && MillisecondsSince(message_time_) < 8000.0) {
    ImGui::SetNextWindowPos(ImVec2(float(viewport_.width) / pixel_ratio_ * 0.5f, 12.0f),
                            ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("##message", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav);
    const ImVec4 color = message_is_error_ ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                                           : ImVec4(0.85f, 0.9f, 1.0f, 1.0f);
    ImGui::PushTextWrapPos(600.0f);
    ImGui::TextColored(color, "%s", message_.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
  }
  DrawStatusLine();
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
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  const assets::Model& model = current_->model;
  ImGui::Text(
      "frame %.2f ms (%.0f fps) | update %.2f ms | draw %.2f ms | %d joints | %zu vertices | "
      "%zu triangles",
      frame_ms_.value, frame_ms_.value > 0 ? 1000.0 / frame_ms_.value : 0.0, update_ms_.value,
      draw_ms_.value, model.skeleton.joint_count(), model.vertex_count(), model.triangle_count());
  ImGui::End();
  ImGui::PopStyleVar(2);
}

void Viewer::WriteReadyTrace() {
  nlohmann::ordered_json event;
  event["event"] = "ready";
  event["window"] = {viewport_.width, viewport_.height};
  event["model"] = current_->model.source;
  event["chains"] = nlohmann::ordered_json::array();
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
    ImGui::NewFrame();
    Update(std::min(dt, 0.1));
    DrawUi();

    const auto draw_start = Clock::now();
    renderer::OffscreenTarget::BindDefault();
    DrawScene3d(CurrentView());
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
    frame_ms_.Add(MillisecondsSince(frame_start));
    if (args_.max_frames > 0 && frame_count_ >= args_.max_frames) quit_ = true;
  }
  nlohmann::ordered_json exit_event;
  exit_event["event"] = "exit";
  exit_event["frames"] = frame_count_;
  trace_.Write(exit_event);
  return kExitOk;
}

}  // namespace

int RunViewer(const ViewerArgs& args) {
  Viewer viewer(args);
  return viewer.Run();
}

}  // namespace app

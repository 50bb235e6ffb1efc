// The viewer's settings.json (loaded on start, saved on quit) and --show: the display toggles and
// the camera as the settings file and the trace name them.
#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "app/window/viewer_loop.h"
#include "assets/files/text.h"

namespace app {

void Viewer::ApplyDisplay(const DisplaySpec& d) {
  ApplyDisplaySpec(d, current_->model.skeleton, &display_.scene);
  display_.show_handles = d.handles;
  // The window shows the selected joint's weights: the named joint becomes the selection.
  display_.show_weights = display_.scene.weight_joint >= 0;
  if (display_.show_weights) {
    selection_.selected_joint = display_.scene.weight_joint;
  } else if (!d.weights.empty()) {
    ShowMessage("weights=" + d.weights + ": " + current_->model.source +
                    " has no joint by that name; the weights are not shown",
                MessageLevel::kWarning);
  }
  // The window's trail is the selected joint's: trail= selects its joint (weights= wins).
  if (display_.scene.trail_joint >= 0 && selection_.selected_joint < 0) {
    selection_.selected_joint = display_.scene.trail_joint;
  }
  if (!d.trail.empty() && display_.scene.trail_joint < 0) {
    ShowMessage("trail=" + d.trail + ": " + current_->model.source +
                    " has no joint by that name; no trail is drawn",
                MessageLevel::kWarning);
  }
}

DisplaySpec Viewer::CurrentDisplay() const {
  SceneOptions scene = display_.scene;  // its weight joint as this frame draws it
  scene.weight_joint = ShownWeightJoint();
  DisplaySpec d = DisplaySpecOf(scene, current_->model.skeleton);
  d.handles = display_.show_handles;
  return d;
}

CameraSettings Viewer::CurrentCamera() const {
  CameraSettings c;
  c.yaw_degrees = glm::degrees(camera_.yaw);
  c.pitch_degrees = glm::degrees(camera_.pitch);
  c.distance = camera_.distance;
  c.target = camera_.target;
  c.ortho = camera_.ortho;
  return c;
}

void Viewer::SaveUserSettings() {
  // Scripted runs (--frames) and --no-settings leave the user's settings alone.
  if (args_.no_settings || args_.max_frames > 0) return;
  Settings saved = settings_;
  // What --show set is for this run only; toggles the user changed are kept.
  if (args_.show.empty() || !(CurrentDisplay() == show_display_)) saved.display = CurrentDisplay();
  saved.xray = display_.scene.skeleton_xray;
  saved.mesh_opacity = display_.scene.mesh_opacity;
  saved.onion_step = display_.scene.onion_step;
  saved.all_chains = display_.scene.all_chains;
  saved.axes_selected_only = display_.scene.axes_selected_only;
  saved.on_ground = display_.on_ground;
  saved.follow_root = display_.follow_root;
  saved.axis_gizmo = display_.show_axis_gizmo;
  saved.rotate_gizmo = RotateGizmoName(selection_.rotate_gizmo);
  saved.euler_order = EulerOrderName(selection_.euler_order);
  saved.camera = CurrentCamera();
  saved.ui_scale = ui_.scale;
  saved.light_theme = ui_.light;
  if (layout_.panel_width > 0.0f) saved.panel_width = layout_.panel_width;
  saved.timeline = display_.show_timeline;
  saved.timeline_seconds = timeline_.show_seconds;
  int w = 0, h = 0;
  SDL_GetWindowSize(gl_->window(), &w, &h);
  if (w > 0 && h > 0 && !(SDL_GetWindowFlags(gl_->window()) & SDL_WINDOW_MAXIMIZED)) {
    saved.window_width = w;
    saved.window_height = h;
  }
  saved.last_folder = OpenFolder();
  std::string error;
  if (!SaveSettings(ConfigFilePath("settings.json"), saved, &error)) {
    std::cerr << "skelview: " << assets::MessageLine(error) << "\n";
  }
}

float Viewer::UiScale() const {
  if (ui_.scale > 0.0f) return ui_.scale;
  float dpi = 0.0f;
  const int display = SDL_GetWindowDisplayIndex(gl_->window());
  if (display < 0 || SDL_GetDisplayDPI(display, &dpi, nullptr, nullptr) != 0) dpi = 0.0f;
  return AutomaticUiScale(dpi);
}

void Viewer::ApplyUi(bool texture) {
  ConfigureUi(UiScale(), ui_.light);
  if (texture) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  applied_ui_ = ui_;
}

std::string Viewer::OpenFolder() const {
  if (!current_path_.empty()) {
    std::error_code ec;
    const std::filesystem::path folder =
        std::filesystem::absolute(current_path_, ec).lexically_normal().parent_path();
    if (!ec && std::filesystem::is_directory(folder, ec)) return folder.string();
  }
  return settings_.last_folder;
}

}  // namespace app

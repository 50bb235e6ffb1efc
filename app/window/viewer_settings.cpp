// The viewer's settings.json (loaded on start, saved on quit) and --show: the display toggles and
// the camera as the settings file and the trace name them.
#include <SDL.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "app/window/viewer_loop.h"

namespace app {

void Viewer::ApplyDisplay(const DisplaySpec& d) {
  SceneOptions& scene = display_.scene;
  scene.mesh = d.mesh;
  scene.grid = d.grid;
  scene.skeleton = d.bones;
  scene.joint_axes = d.axes;
  display_.show_handles = d.handles;
  scene.ik_overlay = d.knees;
  scene.reach_shell = d.shells;
  scene.joint_limits = d.limits;
  display_.show_weights = !d.weights.empty();
  if (display_.show_weights) {
    const int joint = current_->model.skeleton.Find(d.weights);
    if (joint >= 0) {
      selection_.selected_joint = joint;
    } else {
      display_.show_weights = false;
      ShowMessage("weights=" + d.weights + ": " + current_->model.source +
                      " has no joint by that name; the weights are not shown",
                  MessageLevel::kWarning);
    }
  }
}

DisplaySpec Viewer::CurrentDisplay() const {
  const SceneOptions& scene = display_.scene;
  DisplaySpec d;
  d.mesh = scene.mesh;
  d.grid = scene.grid;
  d.bones = scene.skeleton;
  d.axes = scene.joint_axes;
  d.handles = display_.show_handles;
  d.knees = scene.ik_overlay;
  d.shells = scene.reach_shell;
  d.limits = scene.joint_limits;
  const int joint = selection_.selected_joint;
  if (display_.show_weights && joint >= 0 && joint < current_->model.skeleton.joint_count()) {
    d.weights = current_->model.skeleton.name(joint);
  }
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
  saved.camera = CurrentCamera();
  int w = 0, h = 0;
  SDL_GetWindowSize(gl_->window(), &w, &h);
  if (w > 0 && h > 0 && !(SDL_GetWindowFlags(gl_->window()) & SDL_WINDOW_MAXIMIZED)) {
    saved.window_width = w;
    saved.window_height = h;
  }
  saved.last_folder = OpenFolder();
  std::string error;
  if (!SaveSettings(ConfigFilePath("settings.json"), saved, &error)) {
    std::cerr << "skelview: " << error << "\n";
  }
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

// What the viewer remembers between runs: the display, the camera, the window and UI scale, the
// last folder — human-readable JSON in $XDG_CONFIG_HOME/skelview/settings.json.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>

#include "app/core/display_spec.h"
#include "app/core/json_output.h"

namespace app {

// $XDG_CONFIG_HOME/skelview/NAME, else $HOME/.config/skelview/NAME, else "" (nowhere to keep it).
std::string ConfigFilePath(const std::string& name);

// The camera as settings.json and the trace carry it.
struct CameraSettings {
  float yaw_degrees = 0.0f;
  float pitch_degrees = 0.0f;
  float distance = 1.0f;  // > 0
  glm::vec3 target{0.0f};
  bool ortho = false;
};

struct Settings {
  DisplaySpec display;
  bool xray = true;                      // bones drawn over the mesh
  float mesh_opacity = 1.0f;             // [0.05, 1]
  int onion_step = 1;                    // frames between onion ghosts, >= 1
  bool all_chains = false;               // knee circles and shells of every chain, not the active
  bool axes_selected_only = false;       // joint axes of the selected joint only
  bool on_ground = false;                // the model stands on the grid (lowest rest point at 0)
  bool follow_root = false;              // the camera follows the root joint
  bool axis_gizmo = true;                // the axis gizmo in the view's corner
  std::string rotate_gizmo = "off";      // the selected bone's rotate gizmo: off, global or local
  std::optional<CameraSettings> camera;  // none: frame the model
  float ui_scale = 0.0f;                 // [0.5, 4]; 0: automatic, from the display's DPI
  bool light_theme = false;              // "theme": "light" or "dark"
  // Where the window's parts are: the side panel's width (0: the default) and the timeline.
  float panel_width = 0.0f;
  bool timeline = true;
  bool timeline_seconds = false;            // the timeline's time in seconds, else in frames
  std::string euler_order = "XYZ";          // the Joints panel's rotation order (XYZ ... ZYX)
  int window_width = 0, window_height = 0;  // 0: the default size
  std::string last_folder;
};

// True for the rotate gizmo's modes as settings.json and sessions write them: off, global, local.
bool IsRotateGizmoMode(const std::string& mode);

Json DisplayJson(const DisplaySpec& display);   // the names of --show; weights a joint or null
Json CameraJson(const CameraSettings& camera);  // yaw, pitch (degrees), distance, target, ortho
Json SettingsJson(const Settings& settings);

// Largest settings file read, in bytes (a real one is about 1 KiB).
inline constexpr size_t kMaxSettingsBytes = size_t{1} << 20;
// Largest camera target coordinate and distance settings may hold (as models' coordinates):
// beyond it the view's matrices lose all precision.
inline constexpr float kMaxCameraCoordinate = 1.0e7f;

// A file of the config folder as text: a regular file of at most kMaxSettingsBytes, opened
// without waiting (a FIFO or a link to /dev/zero would hang the start or never end). False with
// why not in *problem.
bool ReadConfigText(const std::string& path, std::string* text, std::string* problem);
// A file of the config folder as a JSON object (read by ReadConfigText): null in *json when there
// is no file (the caller's defaults); false with why not in *problem when it cannot be read, or
// "not " + `kind` when it is not a JSON object.
bool ReadConfigObject(const std::string& path, Json* json, std::string* problem,
                      const std::string& kind = "a JSON object");

// Reads `path` into *settings (starting from the defaults). A missing file gives the defaults and
// no warning; an unreadable or corrupt file, or a field of the wrong type or out of range, gives
// the defaults for what could not be read and one line in *warning naming the file and the
// field. A file that is not a regular file (a FIFO, a link to /dev/zero) or is larger than
// kMaxSettingsBytes is unreadable; it is never waited for. Never fails the start.
void LoadSettings(const std::string& path, Settings* settings, std::string* warning);

// Writes `settings` to `path` atomically (creating its folder); false with the reason.
bool SaveSettings(const std::string& path, const Settings& settings, std::string* error);

}  // namespace app

// The viewer's state and its parts, shared by viewer.cpp (loop, input, update, drawing) and
// viewer_ui.cpp (the Dear ImGui panels). Private to app/.
#pragma once

#include <SDL2/SDL.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/evaluate.h"
#include "app/core/import_process.h"
#include "app/core/trace.h"
#include "app/core/undo_history.h"
#include "app/scene/camera.h"
#include "app/scene/gizmo.h"
#include "app/scene/gl_context.h"
#include "app/scene/scene_draw.h"
#include "app/window/file_browser.h"
#include "app/window/recent_files.h"
#include "app/window/viewer.h"
#include "assets/model.h"
#include "renderer/renderer.h"

namespace app {

using Clock = std::chrono::steady_clock;

inline double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Exponential moving average for the status line, so the numbers are readable.
struct Smoothed {
  double value = 0.0;
  void Add(double sample) { value = value == 0.0 ? sample : value * 0.9 + sample * 0.1; }
};

// A model as shown: the data and its GPU copy.
struct LoadedModel {
  assets::Model model;
  renderer::GpuModel gpu;
  SceneExtent extent;
};

class Viewer {
 public:
  explicit Viewer(const ViewerArgs& args) : args_(args) {}
  ~Viewer();
  int Run();

 private:
  // --- viewer.cpp ---
  bool Init(int* exit_code);
  // Loads a file (or the built-in character for "") and makes it current. On failure the current
  // model stays and *error says why.
  bool Open(const std::string& path, std::string* error);
  // Starts loading `path` in an import worker; the current model stays usable meanwhile and is
  // replaced when the new one is ready ("" opens the built-in character at once).
  void StartOpen(const std::string& path);
  void PollLoading();
  void Adopt(std::unique_ptr<LoadedModel> loaded, const std::string& path);
  void FrameCamera();
  void HandleEvent(const SDL_Event& event);
  void OnMouseDown(const SDL_MouseButtonEvent& button);
  void OnMouseUp(const SDL_MouseButtonEvent& button);
  void OnMouseMotion(const SDL_MouseMotionEvent& motion);
  void OnKey(const SDL_KeyboardEvent& key);
  void Update(double dt_seconds);
  void DrawFrame3d(const renderer::View& view, bool with_gizmos);
  renderer::View CurrentView() const;
  GizmoView GizmoFor(int chain) const;
  Ray CursorRay(const glm::vec2& cursor_px) const;
  glm::vec2 ToPixels(int x, int y) const;  // window coordinates → drawable pixels
  // The chain whose handle is under the cursor and which part; -1 when none.
  int HitChain(const glm::vec2& cursor_px, GizmoPart* part) const;
  glm::vec3 Effector(int chain) const;  // un-solved effector position this frame
  EffectorInfo Info(int chain) const;
  glm::vec3 Target(int chain) const;
  // This frame's result of a chain: its two-bone result (nullptr for other kinds or when not
  // solved), whether it reached its target, and a one-line status for the panel.
  const ik::TwoBoneIkResult* TwoBoneResultOf(int chain) const;
  bool ChainReached(int chain) const;
  std::string ChainStatus(int chain) const;
  void ResetTarget(int chain);
  void ResetAllTargets();
  void SaveScreenshot();
  void ShowMessage(const std::string& text, bool error);
  void WriteReadyTrace();
  void WriteDragEndTrace(int chain);
  // An event carrying every chain's current target (after undo, redo, resets).
  void WriteTargetsTrace(const char* event_name);
  // Undo points: call BeginEdit before a change and CommitEdit when it is complete.
  void BeginEdit();
  void CommitEdit();
  void Undo();
  void Redo();

  // --- viewer_ui.cpp ---
  void DrawUi();
  void DrawMenuBar();
  void DrawLoading();
  void DrawExportDialog();
  // Writes the current pose (as the rest pose) or the current clip baked with the IK and edits.
  bool ExportTo(const std::string& path, bool bake, std::string* error);
  void DrawModelPanel();
  void DrawDisplayPanel();
  void DrawAnimationPanel();
  void DrawChainsPanel();
  void DrawContactsPanel();
  void DrawJointsPanel();
  void DrawJointTree(int joint, const std::string& filter);
  void DrawSelectedJoint();
  void DrawStatusLine();
  void DrawMessage();
  // Wraps the last ImGui item so that editing it makes one undo step.
  void TrackEditOfLastItem();

  ViewerArgs args_;
  std::unique_ptr<GlContext> gl_;
  bool imgui_ready_ = false;
  std::optional<renderer::Renderer> renderer_;
  std::unique_ptr<LoadedModel> current_;
  std::string current_path_;
  TraceLog trace_;
  std::unique_ptr<ImportProcess> loading_;  // a file being imported, if any
  FileBrowser file_browser_;
  RecentFiles recent_{RecentFiles::DefaultStorePath()};
  float menu_height_ = 0.0f;
  float panel_right_px_ = 0.0f;  // right edge of the side panel, drawable pixels
  bool export_open_ = false;
  bool export_bake_ = false;
  char export_path_[1024] = "skelview-export.glb";

  // View state.
  OrbitCamera camera_;
  Viewport viewport_;      // drawable size in pixels
  float pixel_ratio_ = 1;  // drawable pixels per window coordinate (mouse events)
  SceneOptions scene_options_;
  bool show_handles_ = true;
  renderer::DebugLines lines_, xray_lines_, gizmo_lines_;
  renderer::DebugShapes gizmo_shapes_;
  renderer::DebugLines contact_lines_;
  renderer::DebugShapes contact_shapes_;
  GizmoStyle gizmo_style_;

  // Animation playback.
  int clip_ = -1;
  float clip_time_ = 0.0f;
  float speed_ = 1.0f;
  bool playing_ = false;
  bool loop_ = true;

  // What the user edits (undoable) and its history.
  EditState edit_;
  UndoHistory history_;
  std::optional<EditState> edit_before_;  // state when the running edit began
  size_t commits_ = 0;                    // completed edits, to tell them from panel clicks

  // This frame's pose: the un-solved pose and requests (frame_), and the solved state.
  EditedFrame frame_;
  const std::vector<glm::mat4>& unsolved_models_ = frame_.unsolved_models;
  const ik::Pose& unsolved_pose_ = frame_.unsolved_pose;
  const ConstraintRequests& requests_ = frame_.requests;
  PoseState state_;

  // Mouse interaction.
  enum class Drag { kNone, kOrbit, kPan, kGizmo };
  Drag drag_ = Drag::kNone;
  glm::vec2 press_px_{0.0f};
  float press_travel_px_ = 0.0f;
  int active_chain_ = -1;  // chain whose full gizmo is shown
  int hover_chain_ = -1;
  GizmoPart hover_part_ = GizmoPart::kNone;
  GizmoDrag gizmo_drag_;
  glm::vec2 cursor_px_{-1.0f};
  int selected_joint_ = -1;
  int fabrik_root_ = -1;  // joint marked as the root of the next FABRIK chain
  char joint_filter_[128] = "";
  bool scroll_to_selected_ = false;

  // Messages and timing.
  std::string message_;
  bool message_is_error_ = false;
  Clock::time_point message_time_;
  Smoothed frame_ms_, update_ms_, draw_ms_, solve_us_;
  // Frame times while a handle is dragged and while nothing is (for the trace: a drag must be as
  // smooth as an idle frame).
  struct FrameTimes {
    double sum_ms = 0.0;
    long count = 0;
    double mean() const { return count > 0 ? sum_ms / double(count) : 0.0; }
  };
  FrameTimes drag_frames_, idle_frames_, this_drag_frames_;
  bool quit_ = false;
  long frame_count_ = 0;
  bool screenshot_requested_ = false;
};

}  // namespace app

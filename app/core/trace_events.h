// The events of the viewer's --trace log (DESIGN.md, README): each a function of plain view state
// returning the JSON object that TraceLog::Write appends as one line. Positions on screen are in
// window coordinates (origin top-left, the units of the window's size): the window computes them,
// since it knows the camera.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/json_output.h"
#include "app/core/playback.h"
#include "assets/model/model.h"

namespace app {

// Where the model is on screen: its bounds' centre and the box around its projected corners.
struct ModelOnScreen {
  glm::vec2 center{-1.0f};
  glm::vec2 box_min{0.0f}, box_max{0.0f};
};

// Mean frame times, milliseconds (a drag must be as smooth as an idle frame).
struct FrameTimes {
  double sum_ms = 0.0;
  long count = 0;
  void Add(double ms) {
    sum_ms += ms;
    ++count;
  }
  double mean() const { return count > 0 ? sum_ms / double(count) : 0.0; }
};

// C++ heap allocations (operator new) of the viewer's idle frames: no input, no drag, nothing
// playing or loading, after the first frames (when caches and buffers have grown).
struct IdleAllocations {
  long frames = 0;  // idle frames measured
  long total = 0;   // allocations in them
  long max = 0;     // the most in one of them
};

// `ready`, after the first frame: the window's size, the model, per chain its end joint, label,
// handle position (`handles_px[i]`) and target, where the model is (when it has bounds) and the
// clip and time when one plays.
Json ReadyEvent(const glm::ivec2& window_size, const assets::Model& model, const EditState& edit,
                const EditedFrame& frame, const std::vector<glm::vec2>& handles_px,
                const std::optional<ModelOnScreen>& model_px, const Playback& playback);

// `drag_end`, when a handle drag of chain `chain` completes (after the final solve): end joint,
// label, the gizmo part dragged, target, effector, kind, reached, status (two-bone chains: case,
// error, mid joint before and after), the frames of this drag and their mean time against the
// idle frames', the chain's options, the handle's position, the clip and time, and `body`
// (BodyJson) when the body solve ran.
struct DragEnd {
  int chain = -1;
  std::string part;  // GizmoPartName of the part dragged
  glm::vec2 handle_px{-1.0f};
  FrameTimes drag_frames;  // frames of this drag
  double idle_frame_ms = 0.0;
};
Json DragEndEvent(const assets::Model& model, const EditState& edit, const EditedFrame& frame,
                  const PoseState& state, const DragEnd& drag, const Playback& playback);

// An event named `name` ("undo", "redo", "reset") carrying every chain's end joint and target,
// and `morphs`: the blend-shape weights set by hand.
Json TargetsEvent(const char* name, const assets::Model& model, const EditState& edit,
                  const EditedFrame& frame);

// A target key edited in the window: `name` is "key_set", "key_moved" (with `from`, the time it
// was moved from) or "key_deleted"; `chain` (its index), its label and end joint, `time` (the
// key's, seconds), `keys` (the chain's key times after the edit) and `target` (the chain's target
// at the playhead now, world space).
Json KeyEvent(const char* name, const assets::Model& model, const EditState& edit,
              const EditedFrame& frame, int chain, float time, std::optional<float> from = {});

// Opening a file in the background: started, done (the new model, its joints and chains), failed
// (the reason, and the model that stays).
Json LoadStartedEvent(const std::string& path);
Json LoadDoneEvent(const assets::Model& model, size_t chain_count);
Json LoadFailedEvent(const std::string& path, const std::string& error,
                     const std::string& model_source);

// File ▸ Export: where, whether the clip was baked, whether it worked and why not.
Json ExportEvent(const std::string& path, bool bake, bool ok, const std::string& error);
// F12: the PNG written.
Json ScreenshotEvent(const std::string& path);
// `select`: a click in the view selected a joint (its name) or nothing (null).
Json SelectEvent(const ik::Skeleton& skeleton, int joint);
// `camera`, after a finished camera change made by the user (`by`: "orbit", "pan", "zoom",
// "frame", "view" — a view preset or the projection switched): yaw and pitch in degrees, distance
// from the target, the target (world space), ortho (a parallel projection).
Json CameraEvent(const char* by, float yaw_degrees, float pitch_degrees, float distance,
                 const glm::vec3& target, bool ortho = false);
// On quitting: frames drawn, mean idle and drag frame times.
Json ExitEvent(long frames, const FrameTimes& idle, const FrameTimes& drag,
               const IdleAllocations& allocations = {});

}  // namespace app

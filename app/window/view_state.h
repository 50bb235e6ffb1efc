// The viewer's view state as plain structs: what the panels show and edit besides the EditState
// (display toggles, selection, the export dialog, messages, timings), and the model as shown.
#pragma once

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "app/core/character.h"
#include "app/core/flip_risk.h"
#include "app/core/foot_lock.h"
#include "app/core/ghost_poses.h"
#include "app/scene/euler_order.h"
#include "app/scene/gizmo.h"
#include "app/scene/scene_draw.h"
#include "app/window/message_log.h"
#include "assets/model/model.h"
#include "assets/model/weight_check.h"
#include "renderer/gpu_model.h"

namespace app {

using Clock = std::chrono::steady_clock;

inline double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A model as shown: the data (never changed once loaded), its rig's facts and the clips played
// together (character, made when the viewer adopts it), its GPU copy and its size.
struct LoadedModel {
  assets::Model model;
  Character character;
  renderer::GpuModel gpu;
  SceneExtent extent;
  // The generated "Range of motion" clip's index in model.clips (it joins the file's clips when
  // Animation ▸ Generate range of motion makes it), or -1.
  int rom_clip = -1;
  GhostCache ghosts;  // onion skins and the trail of this model
  // Follow root: where the root joint was in the last frame shown (model space), while following.
  bool root_seen = false;
  glm::vec3 root_previous{0.0f};
  assets::WeightProblems weight_problems;  // CheckWeights(model), once per load
  // Per chain of the edit, the solved knee's jump since the last frame (the flip-risk meter);
  // updated once per evaluated frame, started afresh with each model and with each scrub.
  std::vector<KneeJump> knee_jumps;
  ClipTime knee_jumps_time;  // the clip time of the frame they were last updated for
};

// What the view shows (Display panel, View menu).
struct DisplaySettings {
  SceneOptions scene;
  bool show_handles = true;     // the IK target handles
  bool show_weights = false;    // the selected joint's skin weights as a heat map on the mesh
  bool show_timeline = true;    // the timeline along the bottom
  bool on_ground = false;       // the model lifted so that its lowest rest point is on the grid
  bool follow_root = false;     // the camera's target follows the root joint
  bool show_axis_gizmo = true;  // the axes in the view's corner; click one to look along it
};

// The interface's scale (0: automatic, from the display's DPI) and theme.
struct UiOptions {
  float scale = 0.0f;
  bool light = false;
  bool operator==(const UiOptions& o) const { return scale == o.scale && light == o.light; }
  bool operator!=(const UiOptions& o) const { return !(*this == o); }
};

// Which chain and joint the user singled out, and the handle under the cursor.
struct Selection {
  int active_chain = -1;  // chain whose full gizmo is shown
  int hover_chain = -1;
  GizmoPart hover_part = GizmoPart::kNone;
  int hover_handles = 0;  // how many handles' discs are under the cursor (overlapping handles)
  int selected_joint = -1;
  int fabrik_root = -1;             // joint marked as the root of the next FABRIK chain
  bool scroll_to_selected = false;  // the joint tree scrolls to the selected joint once
  // The Euler angles the Joints panel last showed for `euler_joint` (degrees): the next ones are
  // the nearest equivalent triple (ContinuousEulerDegrees), so the fields never jump.
  int euler_joint = -1;
  glm::vec3 euler_shown{0.0f};
  EulerOrder euler_order = EulerOrder::kXYZ;  // the fields' rotation order (settings.json)
  EulerOrder euler_shown_order = EulerOrder::kXYZ;
  // The rotate gizmo on the selected bone (Shift+R cycles it, the Joints panel chooses it).
  enum class RotateGizmoMode { kOff, kGlobal, kLocal };
  RotateGizmoMode rotate_gizmo = RotateGizmoMode::kOff;
  // Auto-key (the IK chains panel): a handle drag's end keys its target at the playhead.
  bool auto_key = false;
};

// The rotate gizmo's mode as settings.json, sessions and the trace name it: off, global, local
// (an unknown name is off).
inline const char* RotateGizmoName(Selection::RotateGizmoMode mode) {
  using Mode = Selection::RotateGizmoMode;
  return mode == Mode::kOff ? "off" : mode == Mode::kGlobal ? "global" : "local";
}
inline Selection::RotateGizmoMode RotateGizmoFromName(const std::string& name) {
  using Mode = Selection::RotateGizmoMode;
  return name == "global" ? Mode::kGlobal : name == "local" ? Mode::kLocal : Mode::kOff;
}

// The joint search field of the Joints panel.
struct JointSearch {
  char filter[128] = "";
};

// File ▸ Export's dialog.
struct ExportDialog {
  bool open = false;
  bool bake = false;  // the clip baked with the IK, else this pose as the rest pose
  char path[1024] = "skelview-export.glb";  // proposed next to the model when the dialog opens
  // The file at `path` exists: the dialog asks before replacing it (while path == replace_path).
  std::string replace_path;
  // A bake is being written (on a thread of its own): its progress, 0..1, and Cancel instead of
  // Export.
  bool busy = false;
  float progress = 0.0f;
};

// File ▸ Save session as...'s dialog.
struct SessionDialog {
  bool open = false;
  char path[1024] = "skelview.skelview";  // proposed next to the model when the dialog opens
  // The file at `path` exists: the dialog asks before replacing it (while path == replace_path).
  std::string replace_path;
};

// Asking before edits that were not exported are thrown away (quitting, opening another file).
struct ConfirmDiscard {
  bool open = false;
  enum class Then { kQuit, kOpen };
  Then then = Then::kQuit;
  std::string path;  // kOpen: the file to open ("": the built-in character)
  // Where its buttons are shown (window coordinates; -1 until the popup is shown in place, after
  // the frames it spends measuring itself), for the trace.
  glm::vec2 discard_px{-1.0f}, cancel_px{-1.0f}, save_px{-1.0f};
};

// Exponential moving average for the status line, so the numbers are readable.
struct Smoothed {
  double value = 0.0;
  void Add(double sample) { value = value == 0.0 ? sample : value * 0.9 + sample * 0.1; }
};

// The status line's timings, milliseconds (solve: microseconds).
struct FrameStats {
  Smoothed frame_ms, update_ms, draw_ms, solve_us;
};

// Where the panels ended up on screen.
struct PanelLayout {
  float menu_height = 0.0f;   // window coordinates
  float panel_right = 0.0f;   // right edge of the side panel, window coordinates (0: collapsed)
  float timeline_top = 0.0f;  // top edge of the timeline, window coordinates (hidden: the height)
  // The side panel's width: what the user left it at (0 before the first frame), and the width
  // it starts with (settings.json; 0: the default).
  float panel_width = 0.0f;
  float panel_start_width = 0.0f;
  // The axis gizmo in the view's top-right corner, window coordinates.
  glm::vec2 axis_gizmo_center{0.0f};
  float axis_gizmo_radius = 0.0f;
  // The menu bar's Animation menu: its title's centre (window coordinates), for the trace.
  glm::vec2 animation_menu_px{-1.0f};
};

// The timeline's own state: shown or not, its units, the drag in progress.
struct TimelineView {
  bool show_seconds = false;  // else frames of the clip's rate
  enum class Drag { kNone, kScrub, kRangeStart, kRangeEnd, kKey, kContactEnd, kContact };
  Drag drag = Drag::kNone;
  // The target key selected on a chain's lane (Delete or X deletes it; -1: none), and where a
  // dragged one is now.
  int key_chain = -1;
  float key_time = 0.0f;
  float key_drag_to = 0.0f;
  // Last frame's lanes of keyed targets, for finding the key under the mouse (reused).
  struct KeyLane {
    int chain = -1;
    float top = 0.0f, bottom = 0.0f;
  };
  std::vector<KeyLane> key_lanes;
  bool was_playing = false;  // before the scrub paused it
  // The clip whose frame rate is cached (EstimateFrameRate reads every key).
  const assets::Clip* rate_clip = nullptr;
  size_t rate_channels = 0;
  float rate_duration = -1.0f;
  float frame_rate = 30.0f;
  // The foot lanes (one per leg, FeetView): last frame's rows, a contact end being dragged (its
  // leg, index, which end and the frame it is at now), and the contact a right-click was on (-1:
  // the empty lane at popup_time).
  struct FootLane {
    int leg = -1;
    float top = 0.0f, bottom = 0.0f;
  };
  std::vector<FootLane> foot_lanes;
  float lanes_x0 = 0.0f, lanes_x1 = 0.0f;  // the track's time 0 and end, window x
  int drag_leg = -1, drag_contact = -1;
  bool drag_end = false;
  int drag_frame = 0;
  int popup_leg = -1, popup_contact = -1;
  float popup_time = 0.0f;
};

// The foot lock as the window shows it (viewer_foot_lock.cpp keeps it up to date from the edit's
// FootLockEdit and plan): the current clip's contacts as the lock uses them, the feet's names,
// the ground, the numbers, and the contact selected on the timeline's foot lanes.
struct FeetView {
  const void* loaded = nullptr;  // the LoadedModel and clip the contacts were found for
  std::vector<int> leg_joints;   // and its legs' joints (start, mid, end each): a limb fix
  int clip = -1;
  float duration = -1.0f;
  bool ready = false;  // contacts found (the model has legs and a clip plays)
  std::string error;   // why not
  ClipContacts found, used;
  std::vector<std::string> feet;  // per leg: the foot joint's name
  std::string ground_spec = "plane";
  Ground ground;
  bool locked = false;    // the edit's lock is planned for this clip
  FootLockReport report;  // before (the used contacts on the ground), after when locked
  struct Contact {
    float start = 0.0f, end = 0.0f;                  // seconds
    float skate_mm = 0.0f, locked_skate_mm = -1.0f;  // locked: -1 when not locked
    float height_mm = 0.0f;                          // mean height above the ground in the source
    float sink_mm = 0.0f, float_mm = 0.0f;  // below / above the leg's planted height, at most
  };
  std::vector<std::vector<Contact>> contacts;  // [leg][contact]
  FootLockEdit edit_seen;                      // what `used` and the numbers were made from
  const FootLockPlan* plan_seen = nullptr;
  int leg = -1, contact = -1;  // the selected contact (-1: none)
  // The Ground section's widgets: the kind (Ground::Kind), its numbers and a mesh file's path.
  int kind = 0;
  float y = 0.0f, degrees = 10.0f, step = 0.15f, depth = 0.3f;
  std::string mesh_path;
  std::string ground_loading;  // the mesh file being read ("": none); the ground stays meanwhile
  // Where the Ground section's kind box, its popup's "Mesh file" item and Browse... are this frame
  // (window coordinates, their centres; -1 when not on screen), for the trace (ground_ui).
  glm::vec2 kind_px{-1.0f}, mesh_item_px{-1.0f}, browse_px{-1.0f};
  int FrameOf(float seconds) const {
    return static_cast<int>(std::lround(double(seconds) * double(used.source.fps)));
  }
};

}  // namespace app

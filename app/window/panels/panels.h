// app/window/panels: the Dear ImGui panels as free functions: they read the view state, edit plain
// data and return requests (open, export, undo, ...) that the viewer's loop carries out.
#pragma once

#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/import_process.h"
#include "app/core/playback.h"
#include "app/scene/legend.h"
#include "app/window/view_state.h"

namespace app {

// What a panel asks of the loop. Panels never call the importer, the exporter, a solver or GL.
enum class RequestKind {
  kOpen,          // open `text` in the background ("": the built-in character, at once)
  kOpenBrowser,   // File ▸ Open...
  kClearRecent,   // empty the recent-files list (and save it)
  kExport,        // write glTF to `text`; `option`: bake the clip; index 1: replacing is confirmed
  kOpenExport,    // File ▸ Export...: the dialog, with a file name proposed next to the model
  kCancelExport,  // stop the bake being exported (nothing is written)
  kDiscardEdits,  // the unsaved-edits question answered "discard": quit or open as asked
  kScreenshot,    // save the view as a PNG after this frame
  kUndo,
  kRedo,
  // Resets, the same path as the R key: one undo step and a `reset` trace event each.
  kResetTarget,      // chain `index`'s target back on its effector
  kResetAllTargets,  // every target back on its effector
  kResetPose,        // every edited joint rotation dropped and every target reset
  kFrameCamera,      // frame the model
  kFrameSelected,    // frame the selected joint and its bone (else the model)
  kFrameVertices,    // frame the problem vertices of kind `index` (assets::WeightProblem)
  kViewPreset,       // look along an axis: index is the ViewPreset
  kToggleOrtho,      // perspective <-> orthographic
  kCancelLoading,
  kQuit,
  kMessage,  // show `text`; `option`: as an error
  // Undo steps: a continuous widget (a drag, a slider) was grabbed / released; a discrete widget
  // (a checkbox, a combo, a button) changed the EditState.
  kEditBegan,
  kEditEnded,
  kEdited,
  // Sessions, poses and mirroring (viewer_session.cpp).
  kSaveSession,            // write the session to `text`; index 1: replacing is confirmed
  kOpenSaveSession,        // File ▸ Save session as...: the dialog, a name proposed by the model
  kSaveAndContinue,        // the unsaved-edits question answered "save": save, then quit or open
  kCopyPose,               // Edit ▸ Copy pose
  kPastePose,              // Edit ▸ Paste pose; `option`: flipped left↔right
  kMirrorPose,             // Edit ▸ Mirror pose
  kMirrorTarget,           // chain `index`'s target (-1: the active chain's) onto the other side
  kGenerateRangeOfMotion,  // Animation ▸ Generate range of motion
  // Keyed targets (one undo step and a trace event each): chain `index` (-1: the active chain)
  // keyed at the playhead (I); its keys at `time` moved to `time_to`; its keys at `time` deleted.
  kSetKey,
  kMoveKey,
  kDeleteKey,
  // The limb fix: chain `index`'s limb takes the selected joint as its `text` ("start", "mid",
  // "end"), remembered per model; kForgetLimbPick: back to what detection found.
  kSetLimbJoint,
  kForgetLimbPick,
  // File ▸ Import clip from… (viewer_retarget.cpp): the browser, then the mapping dialog's answer.
  kImportClip,
  kApplyRetarget,
  kCancelRetarget,
  // The foot lock (viewer_foot_lock.cpp), one undo step and a trace event each: `option` on or
  // off (foot_lock); the ground `text` (a --ground SPEC; a mesh file is read in the background
  // first); contact `contact` of leg `index` edited: `text` "start" or "end" moved to `time`,
  // "add" at `time`, "delete" (contact_edited).
  kLockFeet,
  kSetGround,
  kEditContact,
  // The Ground section's Browse... (the browser choosing a ground mesh) and Cancel (the mesh
  // being read is not used).
  kBrowseGround,
  kCancelGround,
};

struct Request {
  RequestKind kind = RequestKind::kEdited;
  std::string text;      // kOpen, kExport: a path; kMessage: the message
  bool option = false;   // kExport: bake; kMessage: an error
  int index = -1;        // kResetTarget: the chain
  float time = 0.0f;     // kMoveKey, kDeleteKey: the key's time (seconds)
  float time_to = 0.0f;  // kMoveKey: where it goes
  int contact = -1;      // kEditContact: the contact's index in its leg's list
};
// In the order the panels asked. The loop clears and reuses it, so an idle frame allocates nothing.
using Requests = std::vector<Request>;

// What the chain and joint panels read this frame.
struct FrameInput {
  const assets::Model& model;
  const Character& character;  // the model's rig facts and the clips it plays
  const SceneExtent& extent;
  const EditedFrame& frame;  // the un-solved pose; where each chain's result is
  const PoseState& state;    // the solved pose and the solvers' results
  // How many of model.clips the Animation section offers (-1: all). Clips played together are
  // the character's (Character::PlayTogether), not the model's.
  int file_clips = -1;
  // The model's weight problems (assets::CheckWeights), or null: the Weights panel shows none.
  const assets::WeightProblems* weight_problems = nullptr;
  // Per chain, the knee's jump since the last frame of playback or drag (UpdateKneeJumps), or
  // null: not shown.
  const std::vector<KneeJump>* knee_jumps = nullptr;
};

// The menu bar: File (open, recent, reload, export, screenshot, quit), Edit (undo, redo, reset
// all targets, reset pose), View (frame, toggles), Help (shortcuts, message log) and at the right
// the messages badge. Sets layout->menu_height.
struct MenuBarInput {
  const std::vector<std::string>& recent_files;
  const std::string& current_path;  // "" for the built-in character: nothing to reload
  size_t undo_count = 0;
  size_t redo_count = 0;
  bool ortho = false;             // the camera's projection, ticked in View ▸ Orthographic
  bool can_paste = false;         // a pose was copied (Edit ▸ Paste pose)
  bool has_active_chain = false;  // Edit ▸ Mirror target to other side
  bool has_clip_source = false;   // limbs to put through a range of motion
  int lock_feet = -1;             // Animation ▸ Lock feet: -1 not possible, 0 off, 1 on
};
// What the menu bar opens and toggles besides requests.
struct MenuBarState {
  DisplaySettings* display;
  UiOptions* ui;    // View ▸ Interface: scale and theme
  bool* help_open;  // Help ▸ Keyboard and mouse
  MessageLog* log;  // the badge at the right: unseen warnings and errors; a click opens the log
};
void DrawMenuBar(const MenuBarInput& in, const MenuBarState& state, PanelLayout* layout,
                 Requests* out);

// The side panel (window kSidePanelName): docked at the left from below the menu bar to above the
// status line at any window size, scrolling when its sections are taller; its width is the
// user's, at least 320 and at most 60% of the window. Sets layout->panel_right. Draws the
// sections below in order.
inline constexpr const char* kSidePanelName = "skelview";
struct SidePanelEdits {
  DisplaySettings* display;
  Playback* playback;
  EditState* edit;
  Selection* selection;
  JointSearch* search;
  FeetView* feet = nullptr;  // the Foot lock and Ground sections (none: not shown)
};
void DrawSidePanel(const FrameInput& in, const SidePanelEdits& edits, PanelLayout* layout,
                   Requests* out);
// The status line's height at the bottom of the window, window coordinates.
float StatusLineHeight();

// The side panel's sections, in order.
void DrawModelPanel(const assets::Model& model, size_t chain_count);
void DrawDisplayPanel(DisplaySettings* display, Requests* out);
// Weights: the selected joint's heat map (with the joint's name), the influence-count view with
// its colour key, the problem view, and per problem kind (assets::WeightProblem) its vertex count
// and a Frame button (disabled at 0) asking kFrameVertices with index = the kind.
void DrawWeightsPanel(const FrameInput& in, const Selection& selection, DisplaySettings* display,
                      Requests* out);
// The clip (one of the first `file_clips` of the model, -1: all), the clips played with it (they
// go into playback->together, the chosen one first; the loop combines them), the speed; with
// `display`, the onion skins (count, spacing) and the trail of `selected_joint` (while on,
// display->scene.trail_joint follows the selection).
void DrawAnimationPanel(const assets::Model& model, int file_clips, Playback* playback,
                        DisplaySettings* display = nullptr, int selected_joint = -1);
// Blend shapes (only for a model with morph targets): per mesh a slider per target showing its
// weight this frame (keyed weights as they play); moving one sets it by hand (undoable), "clear"
// gives the clip's back.
void DrawBlendShapesPanel(const FrameInput& in, EditState* edit, Requests* out);
// IK chains: per chain enable, status and options (by kind), weight keys at `clip_time`, reset,
// remove; adding chains at the selected joint; reset all targets, reset pose.
void DrawChainsPanel(const FrameInput& in, float clip_time, EditState* edit, Selection* selection,
                     Requests* out);
// Ground and ladder.
void DrawContactsPanel(float model_size, EditState* edit, Requests* out);
// Foot lock: the Lock feet toggle (kLockFeet), the numbers before and after, the selected
// contact's; Ground: the ground the lock stands feet on (kSetGround). `feet` is edited only in its
// widgets' values (the Ground section's kind and numbers).
void DrawFootLockPanel(FeetView* feet, Requests* out);
// The joint tree with search, the selected joint's transforms, its rotation and its limit.
void DrawJointsPanel(const FrameInput& in, EditState* edit, Selection* selection,
                     JointSearch* search, Requests* out);

// The interface's look: `light` or dark theme, sizes scaled by `scale` ([0.5, 4]) and the built-in
// font rasterised at 13 × scale pixels. Call outside a frame; the renderer's font texture must be
// made again afterwards (the viewer does).
void ConfigureUi(float scale, bool light);
// The UI scale for a display of `dpi` dots per inch: 96 → 1, in steps of 0.25 within [1, 3];
// 1 when the DPI is unknown (0 or not finite).
float AutomaticUiScale(float dpi);
// The scale the current font was made for (font size / 13).
float UiScaleOfFont();

// The legend's entries (LegendEntries) in a dark box whose bottom-left corner is at
// `bottom_left` (window coordinates), drawn behind the panels.
void DrawLegend(const LegendEntry* entries, int count, const glm::vec2& bottom_left);

// The axis gizmo (window kAxisGizmoName): the world's axes as the camera `view` sees them, the
// positive ones labelled X, Y, Z, about `center` (window coordinates) at `radius` pixels. Clicking
// an axis asks kViewPreset for the view from that side (from the other side when the view already
// looks along it). AxisGizmoPoint: where axis `axis` (+X, +Y, +Z, -X, -Y, -Z) is drawn.
inline constexpr const char* kAxisGizmoName = "##axis gizmo";
void DrawAxisGizmo(const glm::mat4& view, const glm::vec2& center, float radius, Requests* out);
glm::vec2 AxisGizmoPoint(const glm::mat4& view, const glm::vec2& center, float radius, int axis);

// The name of the handle under the cursor (`label`, its chain's), in a tooltip by the cursor;
// with `under` > 1 (overlapping handles) how to reach the others. Nothing for an empty label.
void DrawHandleTip(const char* label, int under);

// One line of the help overlay: keys or mouse, and what they do.
struct Shortcut {
  const char* keys;
  const char* action;
};
// Every shortcut of the viewer, in the help overlay's order; *count is set to how many.
const Shortcut* Shortcuts(size_t* count);
// The help overlay (window kHelpWindowName), centred, while *open; its close button clears it.
inline constexpr const char* kHelpWindowName = "Keyboard and mouse";
void DrawHelpOverlay(bool* open);

// The timeline (window kTimelineName) along the bottom, right of the side panel and above the
// status line: the controls, a ruler in frames of the clip's rate or seconds, lanes with the
// selected joint's keys (translation, rotation, scale), each chain's IK weight keys and each keyed
// target's keys (diamonds: a click selects one, a drag moves it in time, a right-click offers to
// delete it or go to it), the loop range, and a scrub area. Sets layout->timeline_top. Call after
// DrawSidePanel (it starts right of layout->panel_right). Key edits are asked of `out` (kSetKey,
// kMoveKey, kDeleteKey).
inline constexpr const char* kTimelineName = "Timeline";
struct TimelineInput {
  const assets::Model& model;
  const Character& character;  // the clip playing: Character::clip(playback->clip)
  const EditState& edit;       // the chains' IK weight keys
  int selected_joint = -1;
  int active_chain = -1;  // its lane drawn brighter
  // The feet's contacts as bars in a lane per foot (drag an end, double-click or right-click an
  // empty lane to add, right-click to delete: kEditContact; a click selects one); none when null.
  FeetView* feet = nullptr;
};
void DrawTimeline(const TimelineInput& in, Playback* playback, TimelineView* view,
                  PanelLayout* layout, Requests* out = nullptr);
float TimelineHeight();  // window coordinates, at the current font size

// Windows of their own.
void DrawLoading(const ImportProcess& loading, Requests* out);
void DrawExportDialog(bool has_clip, ExportDialog* dialog, Requests* out);
// File ▸ Save session as...: the path (a name ending in .skelview), replacing a file after asking.
void DrawSessionDialog(SessionDialog* dialog, Requests* out);
// While confirm->open, a modal question: the edits are not saved; Save session (S key;
// kSaveAndContinue), Export... (kOpenExport), Discard (D key; kDiscardEdits) or Cancel (Escape).
// Records where its buttons are.
inline constexpr const char* kConfirmDiscardName = "Unsaved edits";
void DrawConfirmDiscard(ConfirmDiscard* confirm, Requests* out);
// The newest message for eight seconds (not while the log window is open).
void DrawMessage(const MessageLog& log);
// The message log window (kMessageLogName) while log->open: every message with its time,
// colored by level, "Copy all", "Clear", a click on one copies it. Marks the log seen.
inline constexpr const char* kMessageLogName = "Messages";
void DrawMessageLog(MessageLog* log);
void DrawStatusLine(const assets::Model& model, const FrameStats& stats, bool dragging);

}  // namespace app

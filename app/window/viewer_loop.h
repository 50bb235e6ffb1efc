// The viewer's loop, private to app/window. Frame order as in Dear ImGui's SDL2 + OpenGL3
// example: poll events (ImGui first) → new UI frame → panels → carry out their requests → update
// the pose → draw the scene → draw the UI → swap.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/bake.h"
#include "app/core/chain_edit.h"
#include "app/core/file_watch.h"
#include "app/core/ground_load.h"
#include "app/core/import_process.h"
#include "app/core/limb_picks.h"
#include "app/core/mirror_edit.h"
#include "app/core/playback.h"
#include "app/core/session.h"
#include "app/core/settings.h"
#include "app/core/trace.h"
#include "app/core/trace_events.h"
#include "app/core/undo_history.h"
#include "app/scene/bone_rotate.h"
#include "app/scene/camera.h"
#include "app/scene/gizmo.h"
#include "app/scene/gl_context.h"
#include "app/scene/handles.h"
#include "app/window/file_browser.h"
#include "app/window/panels/panels.h"
#include "app/window/panels/retarget_dialog.h"
#include "app/window/recent_files.h"
#include "app/window/view_state.h"
#include "app/window/viewer.h"
#include "renderer/renderer.h"

union SDL_Event;
struct SDL_KeyboardEvent;
struct SDL_MouseButtonEvent;
struct SDL_MouseMotionEvent;

namespace app {

// The model's source while nothing is loaded (the command line's model was bad).
inline constexpr const char* kNothingLoaded = "(nothing loaded)";

class Viewer {
 public:
  explicit Viewer(const ViewerArgs& args) : args_(args) {}
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;
  // Runs until the window closes; returns the exit code (RunViewer's).
  int Run();

 private:
  // viewer_loop.cpp: setting up, one frame, the pose and the 3D view.
  bool Init(int* exit_code);
  bool OpenWindow(int width, int height, int* exit_code);  // GL context, ImGui, renderer
  bool ApplyCommandLine(int* exit_code);  // the command line's clip, time and constraints
  void RunFrame(double dt_seconds);
  void DrawUi();
  void Update(double dt_seconds);
  // Clips played together (playback_.together, the chosen one first): their combination is the
  // character's clip after the model's own (Character::PlayTogether) and playback_.clip points
  // at it; none: the model's clips only.
  void PlayTogether();
  void RefreshHandles();  // handles_ from this frame's targets and results
  // The two-bone request (index into frame_.requests.ik) of the active chain, else of the chain
  // under the cursor; -1 when neither is a two-bone chain.
  int ActiveTwoBoneRequest() const;
  // Copies this frame's selection into display_.scene: the selected joint (and its weights when
  // they are shown) and the two-bone chain whose overlays show.
  void SyncSceneSelection();
  // The joint whose skin weights the mesh shows: the selected joint while the heat map is on,
  // else -1. The one place display_.scene.weight_joint (and the settings' `weights`) come from.
  int ShownWeightJoint() const { return display_.show_weights ? selection_.selected_joint : -1; }
  void FrameSelected();  // the camera on the selected joint's bones (no selection: the model)
  // The camera on a model-space box, seen raised when the model stands on the ground.
  void FrameBox(const glm::vec3& lo, const glm::vec3& hi);
  void DrawViewOverlays();  // the legend and the axis gizmo
  // Onion skins and trail, place on ground and follow root, after the pose of the frame.
  void UpdateAnimationAids();
  void DrawView();
  // The camera's view with the model raised onto the grid (place on ground): model space → eye.
  // Everything drawn or picked in model space goes through it.
  glm::mat4 ModelViewMatrix() const;
  float GroundLiftNow() const;   // world units the model is raised by now (0 when off)
  FreeArea FreeAreaNow() const;  // the view's part the panels leave free, drawable pixels
  renderer::View CurrentView() const;
  HandlesView CurrentHandlesView() const;
  Ray CursorRay(const glm::vec2& cursor_px) const;
  glm::vec2 ToPixels(int x, int y) const;            // window coordinates → drawable pixels
  glm::vec2 ToWindow(const glm::vec3& world) const;  // → window coordinates; -1/ratio if behind

  // viewer_input.cpp: SDL events.
  void HandleEvent(const SDL_Event& event);
  void OnKey(const SDL_KeyboardEvent& key);
  void OnMouseDown(const SDL_MouseButtonEvent& button);
  void OnMouseUp(const SDL_MouseButtonEvent& button);
  void OnMouseMotion(const SDL_MouseMotionEvent& motion);
  void PickJoint(const glm::vec2& cursor_px);
  // Makes the handle after the active one (`step` -1: before it) active among those under the
  // cursor: a second click on overlapping handles, or Tab; Tab with none under the cursor goes
  // through every handle. False when there was no other handle to go to.
  bool CycleActiveHandle(const glm::vec2& cursor_px, int step, bool every_handle);
  void ApplyWheel();  // the wheel of this frame's events zooms unless the panels take it

  // viewer_actions.cpp: what the panels' requests and the keys ask for.
  void CarryOut(const Requests& requests);
  // Loads a file (or the built-in character for "") and makes it current. On failure the current
  // model stays and *error says why.
  bool Open(const std::string& path, std::string* error);
  // Starts loading `path` in an import worker; the current model stays usable meanwhile and is
  // replaced when the new one is ready ("" opens the built-in character at once).
  void StartOpen(const std::string& path);
  void PollLoading();
  void Adopt(std::unique_ptr<LoadedModel> loaded, const std::string& path);
  void AddRecent(const std::string& path);
  void FrameCamera();
  // Looks along an axis (View menu, numpad) and frames the model; traces `camera` by "view".
  void LookAlongAndFrame(ViewPreset preset);
  void Undo();
  void Redo();
  void ResetTarget(int chain);  // an undo step (or part of a running drag), a `reset` event
  void ResetAllTargets();
  void ResetPose();  // edited joint rotations dropped, every target reset: one step, one `reset`
  // Writes glTF; a file already at `path` is replaced only with `replace` (else the dialog asks).
  void Export(const std::string& path, bool bake, bool replace);
  void OpenExportDialog();  // proposes <model>-skelview.glb next to the model
  // The bake being exported: its progress into the dialog; when it ends, what Export reports.
  void PollExport();
  void Exported(const std::string& path, bool bake, bool ok, const std::string& error,
                MessageLevel failure_level = MessageLevel::kError);
  // Quitting and opening another file ask first while there are unexported edits (Unsaved).
  bool Unsaved() const { return edit_ != saved_edit_; }
  void RequestQuit();
  void RequestOpen(const std::string& path);
  void DiscardEdits();  // the question answered: quit or open as asked
  void SaveScreenshot();
  // Logs a message (the toast, the log window) and prints it on stdout (notes) or stderr.
  void ShowMessage(const std::string& text, MessageLevel level);
  // viewer_settings.cpp: settings.json and --show.
  void ApplyDisplay(const DisplaySpec& display);
  DisplaySpec CurrentDisplay() const;
  CameraSettings CurrentCamera() const;
  void SaveUserSettings();  // on quit, unless --no-settings or --frames
  // The interface at ui_'s scale (automatic: from the display's DPI) and theme; with
  // `texture` the renderer's font texture is made again (not before the first frame).
  void ApplyUi(bool texture);
  float UiScale() const;           // ui_.scale, or the automatic one
  std::string OpenFolder() const;  // File ▸ Open starts here: the model's folder, else the last
  // The model's bounds on screen now (window coordinates); none for an empty model.
  std::optional<ModelOnScreen> ModelOnScreenNow() const;
  // viewer_keys.cpp: keyed targets. Each is one undo step (or part of the running drag) and a
  // trace event (key_set, key_moved, key_deleted).
  void SetKeyNow(int chain);  // the chain's target keyed at the playhead (-1: the active chain)
  void MoveKeyNow(int chain, float from, float to);
  void DeleteKeyNow(int chain, float time);
  void DeleteSelectedKey();  // the timeline's selected key (Delete, X)
  // After a handle drag of `chain`, before its undo step ends: auto-key keys its target at the
  // playhead; a keyed target was keyed there by the drag. Either is traced as key_set.
  void KeyAfterDrag(int chain);
  void WriteKeyTrace(const char* name, int chain, float time, std::optional<float> from = {});
  void WriteReadyTrace();
  // `part`: the gizmo part dragged, or "pole" (null: the target gizmo's part).
  void WriteDragEndTrace(int chain, const char* part = nullptr);
  void WriteTargetsTrace(const char* event_name);
  void WriteCameraTrace(const char* by);  // `by`: orbit, pan, zoom, frame  // every chain's target
                                          // (undo, redo, reset)

  // viewer_rotate.cpp: rotating the selected bone in the view (R, Blender's modal rotate) and
  // dragging a chain's pole marker.
  void BeginRotate();               // R: needs a selected joint
  void OnRotateKey(int keycode);    // the keys while rotating
  void ApplyRotate();               // the rotate's offset into the edit
  void FinishRotate(bool confirm);  // Enter or a click / Escape or a right-click
  void ClearRotation();             // Alt+R: the selected joint's edited rotation dropped
  void DrawRotateOverlay();         // the pivot, the line to the cursor, the axis, the header
  Json RotateEvent(const char* name, int joint) const;
  // The rotate gizmo of the selected bone now; false when it is off or nothing is selected.
  bool CurrentRotateGizmo(RotateGizmo* gizmo) const;
  bool BeginRingDrag(const glm::vec2& cursor_px);  // false when no ring is under the cursor
  void CycleRotateGizmo();                         // Shift+R: off, global, local
  void WriteRotateGizmoTrace();
  // The chain whose pole marker is under the cursor (drawable pixels), or -1.
  int HitPole(const glm::vec2& cursor_px) const;
  bool BeginPoleDrag(const glm::vec2& cursor_px);  // false when no pole is under the cursor
  Json PolePixels(int chain) const;  // where the chain's pole marker is (window), or null

  // viewer_session.cpp: sessions, reloading when the model's file changes, the window's title,
  // copying, pasting and mirroring poses and targets.
  Session CurrentSession() const;
  // File ▸ Save session: writes `path` ("": the open session's file, else the dialog asks where);
  // a file already there is replaced only with `replace` (else the dialog asks). True when written.
  bool SaveSession(const std::string& path, bool replace);
  void OpenSessionDialog();  // proposes <model>.skelview next to the model
  void SaveAndContinue();    // the unsaved-edits question answered "save"
  // Opens a session file: reads it, then opens its model in the background (the built-in
  // character at once); the session is attached when the model is adopted (AttachPending).
  void StartOpenSession(const std::string& path);
  // After Adopt: attaches the session or the reload that was waiting for this model.
  void AttachPending(const std::string& loaded_path);
  // Puts an attached session into the view: the edit, the clip, camera, display and selection.
  void ApplySession(const Session& session);
  void PollModelFile();  // reloads when the model's file changed on disk (not with --no-watch)
  void UpdateTitle();    // "NAME* — skelview", only when it changes
  void CopyPoseNow();
  void PastePoseNow(bool flipped);
  void MirrorPoseNow();
  void MirrorTargetNow(int chain);
  // Animation ▸ Generate range of motion: the clip made (once per load, as one of the model's
  // clips), chosen and played. EnsureRangeOfMotion returns its index (-1: nothing to move).
  void GenerateRangeOfMotion();
  int EnsureRangeOfMotion();
  // The limb fix (viewer_limbs.cpp): chain `chain`'s limb gets `joint` as its `part` ("start",
  // "mid", "end"), or goes back to what detection found; remembered per model (limbs.json), the
  // rig's facts found again on the fixed limbs, the limb's chain made anew; a `limb_set` event.
  void SetLimbJoint(int chain, const std::string& part, int joint);
  void ForgetLimbPick(int chain);
  // The character made again from the loaded model and the remembered picks (a warning for each
  // pick that does not apply); the mirror map and extent follow.
  void MakeCharacter(const std::string& path);
  void AfterLimbChange(const std::string& label);
  // After an undo or redo: the character's limbs follow the limb chains' joints (a limb fix undone
  // is forgotten, redone is remembered again).
  void LimbsFollowChains();
  void TraceLimbSet(const std::string& label);  // `limb_set` and the message for limb `label`
  void SaveLimbPicksFile();                     // limbs.json, unless --no-settings
  // viewer_retarget.cpp: File ▸ Import clip from… (the browser, the source's background import,
  // the mapping dialog, the retargeted clip added to the open model).
  // Foot lock (viewer_foot_lock.cpp): the contacts of the clip playing, the lock, the ground.
  void SyncFeet();  // feet_ up to date with the model, the clip and the edit
  void LockFeetNow(bool on);
  void SetGroundNow(const std::string& spec);
  void EditContactNow(const Request& request);
  bool DeleteSelectedContact();                 // false when none is selected
  void Replan();                                // the lock planned again from feet_ (when on)
  Json FeetJson(const char* event_name) const;  // the feet, contacts, lanes: a trace event
  void DrawGround(const renderer::View& view);
  // A mesh ground read in the background (GroundLoad): `chosen` in the Ground section (set as an
  // undo step once it is in) or wanted by the edit (undo, a session: a file gone is the plane).
  void StartGroundLoad(const std::string& spec, bool chosen);
  void PollGround();         // the load's end, the Ground section's controls for the trace
  void DrawGroundBrowser();  // Browse...: the file browser choosing a ground mesh
  void GroundLoaded(const std::string& spec, Ground ground, bool chosen);
  void GroundFailed(const std::string& spec, const std::string& error, bool chosen);
  struct GroundLoading {
    FileBrowser browser;
    std::unique_ptr<GroundLoad> load;
    bool chosen = false;
    bool replan = false;       // the lock was planned while the edit's ground was being read
    std::vector<Ground> kept;  // mesh grounds read, newest first (undo and redo take them)
    glm::vec2 traced_px[3] = {glm::vec2(-1.0f), glm::vec2(-1.0f), glm::vec2(-1.0f)};  // ground_ui
  };
  GroundLoading ground_loading_;
  FeetView feet_;
  renderer::DebugShapes ground_shapes_;
  renderer::DebugLines ground_lines_;

  void CarryOutImportClip(RequestKind kind);
  void PollImportClip();
  void DrawImportClip();
  void ApplyImportClip();

  ViewerArgs args_;
  Settings settings_;  // as loaded (what --show overrides for this run stays saved)
  LimbPickStore
      limb_picks_;  // limbs.json: the user's limb fixes per model (not with --no-settings)
  DisplaySpec show_display_;  // --show, when given
  // The window and what draws into it; GL objects die before the context (~Viewer).
  std::unique_ptr<GlContext> gl_;
  bool imgui_ready_ = false;
  std::optional<renderer::Renderer> renderer_;
  std::unique_ptr<LoadedModel> current_;
  std::string current_path_;
  std::unique_ptr<ImportProcess> loading_;  // a file being imported, if any
  BakeExport bake_export_;                  // a bake being exported, if any
  TraceLog trace_;
  FileBrowser file_browser_;
  // --no-settings: the recent files are neither read nor written (kept for this run only).
  RecentFiles recent_{args_.no_settings ? std::string() : RecentFiles::DefaultStorePath()};

  // What the user edits (undoable), the clip played, and this frame's pose computed from them:
  // the un-solved pose and requests (frame_), the solved state.
  EditState edit_;
  EditRecorder recorder_;
  Playback playback_;
  EditedFrame frame_;
  PoseState state_;

  // View state.
  OrbitCamera camera_;
  float applied_lift_ = 0.0f;  // the lift camera_.target was last adjusted for
  Viewport viewport_;          // drawable size in pixels
  float pixel_ratio_ = 1;      // drawable pixels per window coordinate (mouse events)
  DisplaySettings display_;
  Selection selection_;
  JointSearch joint_search_;
  ExportDialog export_dialog_;
  ConfirmDiscard confirm_;
  bool confirm_traced_ = false;  // the open question is in the trace
  EditState saved_edit_;         // the edit as loaded or last exported
  EditState exported_edit_;      // the edit the export under way writes
  MessageLog log_;
  bool help_open_ = false;  // the help overlay (F1)
  PanelLayout layout_;
  TimelineView timeline_;
  UiOptions ui_, applied_ui_;
  FrameStats stats_;
  Requests requests_;  // the panels' requests of this frame

  // The handles of this frame and scratch geometry for drawing.
  std::vector<Handle> handles_;
  GizmoStyle gizmo_style_;
  SceneOverlays overlays_;
  renderer::DebugLines contact_lines_, gizmo_lines_;
  renderer::DebugShapes contact_shapes_, gizmo_shapes_;

  // Mouse interaction.
  // kGizmo: a target handle; kPole: a pole marker; kRotate: the modal rotate (no button held).
  enum class Drag { kNone, kOrbit, kPan, kGizmo, kPole, kRotate };
  Drag drag_ = Drag::kNone;
  glm::vec2 press_px_{0.0f};
  float press_travel_px_ = 0.0f;
  glm::vec2 cursor_px_{-1.0f};    // where the mouse last was, drawable pixels
  bool press_on_active_ = false;  // the press was on the handle that was already active
  int cycled_from_ = -1;          // the chain a click cycled away from (a double-click's first)
  float pending_wheel_ = 0.0f;    // wheel steps of this frame's events, for ApplyWheel
  bool close_popups_ = false;     // Escape with a menu or popup open: closed in the next frame
  GizmoDrag gizmo_drag_;
  GizmoDrag pole_drag_;  // kPole: on the camera-facing plane through the pole
  int pole_chain_ = -1;  // kPole: the chain whose pole is dragged
  int hover_pole_ = -1;  // the chain whose pole marker is under the cursor
  BoneRotate rotate_;    // kRotate
  int rotate_joint_ = -1;
  bool rotate_had_offset_ = false;  // the joint had an offset before the rotate
  bool rotate_by_ring_ = false;     // the rotate is a drag of a gizmo ring (ends on release)
  RingPart hover_ring_ = RingPart::kNone;
  RingPart drag_ring_ = RingPart::kNone;
  Selection::RotateGizmoMode traced_gizmo_ = Selection::RotateGizmoMode::kOff;

  // Frame times for the trace (a drag must be as smooth as an idle frame), quitting, F12.
  FrameTimes drag_frames_, idle_frames_, this_drag_frames_;
  long frame_count_ = 0;
  bool frame_idle_ = false;  // this frame had no input, drag, playing or loading
  IdleAllocations idle_allocations_;
  bool quit_ = false;
  bool first_load_failed_ = false;  // the command line's model was bad: quitting exits 2
  bool screenshot_requested_ = false;

  // Sessions and reloading (viewer_session.cpp).
  std::string session_path_;  // the session file open or last saved ("": none)
  SessionDialog session_dialog_;
  // Saving from the unsaved-edits question: once the session is written, quit or open as asked.
  std::optional<ConfirmDiscard> after_save_;
  bool load_raw_units_ = false;  // --raw-units, or the session's, for the load under way
  // A session whose model is loading: attached when it is adopted.
  std::optional<SessionFile> pending_session_;
  // The session to attach once the model is in (opening a session, or reloading: then with the
  // previous skeleton, whose changes are reported and whose renamed joints are followed).
  struct PendingReload {
    SessionFile state;  // the view as it was, and the edit last saved (to stay unsaved or not)
    SessionFile saved;
    ik::Skeleton before;
    std::string path;
  };
  std::optional<Json> load_done_extra_;  // what AttachPending adds to the load_done event
  std::optional<PendingReload> pending_reload_;
  bool session_camera_pending_ = false;  // the first frame takes the session's camera
  std::optional<SessionCamera> session_camera_;
  FileWatch model_watch_;
  ik::MirrorMap mirror_;  // the model's, once per load
  PoseClipboard pose_clipboard_;
  struct ClipImport {
    FileBrowser browser;
    std::unique_ptr<ImportProcess> loading;
    std::unique_ptr<assets::Model> source;  // the source model, where source_character sees it
    Character source_character;
    long target_id = -1;  // the open character the dialog was made for
    JointMap saved;       // the map file's entries when the dialog opened
    bool saved_exists = false;
    bool traced = false;  // retarget_mapping written
    RetargetDialog dialog;
  };
  ClipImport clip_import_;
  long title_generation_ = 0;  // bumped when the file named in the title changes
  long title_shown_ = -1;
  bool title_unsaved_ = false;
};

}  // namespace app

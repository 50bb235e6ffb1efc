// The viewer's input: keys, and the mouse on the 3D view — orbit, pan, zoom, dragging target
// handles (undoable, Escape cancels), clicking to select a bone. Events ImGui wants are its own.
#include <SDL2/SDL.h>
#include <imgui.h>

#include <algorithm>

#include "app/core/chain_results.h"
#include "app/scene/picking.h"
#include "app/window/viewer_loop.h"

namespace app {

namespace {

constexpr float kClickTravelPx = 4.0f;  // a press that moves less than this is a click

}  // namespace

void Viewer::HandleEvent(const SDL_Event& event) {
  switch (event.type) {
    case SDL_QUIT:
      RequestQuit();
      break;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_CLOSE) RequestQuit();
      break;
    case SDL_DROPFILE: {
      const std::string path = event.drop.file;
      SDL_free(event.drop.file);
      RequestOpen(path);
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
      // Whether the panels take it is decided in ApplyWheel, once ImGui has seen where the
      // cursor is now: a wheel that arrives with the move onto a panel scrolls only the panel.
      pending_wheel_ += float(event.wheel.y);
      break;
    default:
      break;
  }
}

void Viewer::ApplyWheel() {
  const float steps = pending_wheel_;
  pending_wheel_ = 0.0f;
  if (steps == 0.0f || ImGui::GetIO().WantCaptureMouse) return;
  camera_.Zoom(steps);
  WriteCameraTrace("zoom");
}

void Viewer::OnKey(const SDL_KeyboardEvent& key) {
  const SDL_Keycode code = key.keysym.sym;
  const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
  const bool shift = (key.keysym.mod & KMOD_SHIFT) != 0;
  const bool alt = (key.keysym.mod & KMOD_ALT) != 0;
  // Quit, undo and redo work even while a panel field has the keyboard.
  if (ctrl && code == SDLK_q) RequestQuit();
  // The unsaved-edits question has the keyboard: D discards, Escape cancels.
  if (confirm_.open) {
    if (code == SDLK_d && !ctrl) DiscardEdits();
    if (code == SDLK_s && !ctrl) SaveAndContinue();
    if (code == SDLK_ESCAPE) confirm_.open = false;
    return;
  }
  // An open menu or popup has the keyboard: Escape closes it, nothing reaches the scene.
  if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
    if (code == SDLK_ESCAPE) close_popups_ = true;
    return;
  }
  // A bone being rotated (R) has the keyboard: axes, typed degrees, confirm, cancel.
  if (drag_ == Drag::kRotate) return OnRotateKey(code);
  if (ImGui::GetIO().WantTextInput) return;
  if (ctrl && code == SDLK_z) shift ? Redo() : Undo();
  if (ctrl && code == SDLK_y) Redo();
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  if (ctrl && code == SDLK_r) RequestOpen(current_path_);
  if (ctrl && code == SDLK_o) file_browser_.Open(OpenFolder());
  if (ctrl && code == SDLK_e) OpenExportDialog();
  if (ctrl && code == SDLK_s) shift ? OpenSessionDialog() : void(SaveSession("", false));
  if (ctrl && code == SDLK_c) CopyPoseNow();
  if (ctrl && code == SDLK_v) PastePoseNow(shift);
  if (ctrl && code == SDLK_m) MirrorPoseNow();
  if (ctrl && code == SDLK_l) log_.open = !log_.open;
  // Blender's numpad views (the top-row digits too, for keyboards without a numpad): 1 front,
  // 3 right, 7 top, with Ctrl the opposite side; 5 switches perspective and orthographic.
  switch (code) {
    case SDLK_KP_1:
    case SDLK_1:
      return LookAlongAndFrame(ctrl ? ViewPreset::kBack : ViewPreset::kFront);
    case SDLK_KP_3:
    case SDLK_3:
      return LookAlongAndFrame(ctrl ? ViewPreset::kLeft : ViewPreset::kRight);
    case SDLK_KP_7:
    case SDLK_7:
      return LookAlongAndFrame(ctrl ? ViewPreset::kBottom : ViewPreset::kTop);
    case SDLK_KP_5:
    case SDLK_5:
      if (ctrl) break;
      camera_.ortho = !camera_.ortho;
      return WriteCameraTrace("view");
    default:
      break;
  }
  if (ctrl) return;
  switch (code) {
    case SDLK_f:
      FrameCamera();
      WriteCameraTrace("frame");
      break;
    case SDLK_PERIOD:  // Blender's numpad period: frame selected
    case SDLK_KP_PERIOD:
      FrameSelected();
      WriteCameraTrace("frame");
      break;
    case SDLK_F1:
      help_open_ = !help_open_;
      break;
    case SDLK_SLASH:  // ? on most layouts
    case SDLK_QUESTION:
      if (shift || code == SDLK_QUESTION) help_open_ = !help_open_;
      break;
    case SDLK_F12:
      screenshot_requested_ = true;
      break;
    case SDLK_TAB:  // the next handle under the cursor (overlapping ones), else the next handle
      CycleActiveHandle(cursor_px_, shift ? -1 : 1, true);
      break;
    case SDLK_t:
      display_.show_timeline = !display_.show_timeline;
      break;
    case SDLK_i:  // key the active target at the playhead (Blender's I)
      SetKeyNow(-1);
      break;
    case SDLK_DELETE:  // the timeline's selected key
    case SDLK_x:
      DeleteSelectedKey();
      break;
    case SDLK_m:  // Shift+M: the active chain's target onto the other side
      if (shift) MirrorTargetNow(-1);
      break;
    case SDLK_SPACE:
      TogglePlaying(current_->character, &playback_);
      break;
    case SDLK_LEFT:
    case SDLK_RIGHT:  // step one frame
      if (playback_.clip >= 0) {
        StepPlayback(code == SDLK_RIGHT ? 1 : -1, PlaybackFrameRate(current_->character, playback_),
                     &playback_);
      }
      break;
    case SDLK_r:  // rotate the selected bone; Alt+R: clear its rotation; Shift+R: the gizmo
      if (alt) {
        ClearRotation();
      } else if (shift) {
        CycleRotateGizmo();
      } else {
        rotate_by_ring_ = false;
        BeginRotate();
      }
      break;
    case SDLK_g:  // Alt+G: reset the target under the cursor, else the active one's, else all
      if (!alt) break;
      if (selection_.hover_chain >= 0) {
        ResetTarget(selection_.hover_chain);
      } else if (selection_.active_chain >= 0) {
        ResetTarget(selection_.active_chain);
      } else {
        ResetAllTargets();
      }
      break;
    case SDLK_ESCAPE:  // cancels a drag, else closes the help, the message log, the export dialog
      if ((drag_ == Drag::kGizmo || drag_ == Drag::kPole) && recorder_.Cancel(&edit_)) {
        drag_ = Drag::kNone;
      } else if (help_open_) {
        help_open_ = false;
      } else if (log_.open) {
        log_.open = false;
      } else {
        export_dialog_.open = false;
      }
      break;
    default:
      break;
  }
}

void Viewer::OnMouseDown(const SDL_MouseButtonEvent& button) {
  if (drag_ == Drag::kRotate) {  // a click confirms the rotate, a right-click cancels it
    if (button.button == SDL_BUTTON_LEFT) FinishRotate(true);
    if (button.button == SDL_BUTTON_RIGHT) FinishRotate(false);
    press_travel_px_ = 0.0f;
    return;
  }
  if (ImGui::GetIO().WantCaptureMouse || drag_ != Drag::kNone) return;
  const glm::vec2 cursor = ToPixels(button.x, button.y);
  press_px_ = cursor;
  press_travel_px_ = 0.0f;
  // The rotate gizmo's rings and the pole markers are handles too (they win where they are).
  if (button.button == SDL_BUTTON_LEFT && BeginRingDrag(cursor)) return;
  if (button.button == SDL_BUTTON_LEFT && BeginPoleDrag(cursor)) return;
  if (button.button == SDL_BUTTON_LEFT) {
    GizmoPart part = GizmoPart::kNone;
    int chain = -1;
    if (display_.show_handles) {
      RefreshHandles();
      chain = HitHandles(CurrentHandlesView(), gizmo_style_, handles_, cursor, &part);
    }
    if (chain >= 0) {  // the gizmo wins over picking and the camera
      if (button.clicks >= 2) {
        // A double-click resets the handle it began on, even when its first click went on to an
        // overlapping one.
        if (cycled_from_ >= 0 && cycled_from_ < static_cast<int>(edit_.chains.size())) {
          chain = cycled_from_;
        }
        cycled_from_ = -1;
        selection_.active_chain = chain;
        ResetTarget(chain);
        return;
      }
      cycled_from_ = -1;
      press_on_active_ = chain == selection_.active_chain;
      selection_.active_chain = chain;
      recorder_.Begin();
      this_drag_frames_ = FrameTimes();
      gizmo_drag_ = GizmoDrag(part, handles_[chain].target, CursorRay(cursor), camera_.Forward());
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
  cursor_px_ = cursor;
  const glm::vec2 delta = glm::vec2(float(motion.xrel), float(motion.yrel)) * pixel_ratio_;
  press_travel_px_ += glm::length(delta);
  switch (drag_) {
    case Drag::kOrbit:
      camera_.Orbit(delta.x, delta.y);
      break;
    case Drag::kPan:
      camera_.Pan(delta.x, delta.y, viewport_);
      break;
    case Drag::kGizmo: {
      const int active = selection_.active_chain;
      if (active >= 0) {
        const glm::vec3 target = gizmo_drag_.Update(CursorRay(cursor));
        const EffectorInfo info = ChainInfo(current_->model.skeleton, edit_, frame_, active);
        SetChainTarget(&edit_.chains[active], target, info, edit_.contacts, playback_.time);
      }
      break;
    }
    case Drag::kPole:
      if (pole_chain_ >= 0 && size_t(pole_chain_) < edit_.chains.size()) {
        ChainSettings& chain = edit_.chains[size_t(pole_chain_)];
        chain.pole = pole_drag_.Update(CursorRay(cursor));
        // A keyed pole: the drag keys it at the playhead (the keys drive it).
        if (!chain.pole_keys.empty()) SetKey(&chain.pole_keys, playback_.time, chain.pole);
      }
      break;
    case Drag::kRotate:
      rotate_.MoveCursor(cursor);
      ApplyRotate();
      break;
    case Drag::kNone:
      selection_.hover_chain = -1;
      selection_.hover_part = GizmoPart::kNone;
      selection_.hover_handles = 0;
      if (!ImGui::GetIO().WantCaptureMouse && display_.show_handles) {
        RefreshHandles();
        selection_.hover_chain = HitHandles(CurrentHandlesView(), gizmo_style_, handles_, cursor,
                                            &selection_.hover_part);
        selection_.hover_handles =
            HandlesUnderCursor(CurrentHandlesView(), gizmo_style_, handles_, cursor, nullptr, 0);
      }
      // A pole marker under the cursor is highlighted, and its chain's overlay shows.
      hover_pole_ = ImGui::GetIO().WantCaptureMouse ? -1 : HitPole(cursor);
      hover_ring_ = RingPart::kNone;
      if (RotateGizmo gizmo; !ImGui::GetIO().WantCaptureMouse && CurrentRotateGizmo(&gizmo)) {
        hover_ring_ = HitRotateGizmo(gizmo, cursor);
      }
      if (hover_pole_ >= 0) {
        selection_.hover_chain = hover_pole_;
        selection_.hover_part = GizmoPart::kNone;
        selection_.hover_handles = 0;
      }
      break;
  }
}

void Viewer::OnMouseUp(const SDL_MouseButtonEvent& button) {
  const Drag ended = drag_;
  if (ended == Drag::kRotate) {  // R holds no button; a ring's drag ends when it is released
    if (rotate_by_ring_ && button.button == SDL_BUTTON_LEFT) {
      FinishRotate(press_travel_px_ >= kClickTravelPx);  // a click on a ring turns nothing
    }
    return;
  }
  drag_ = Drag::kNone;
  if (ended == Drag::kPole) {
    if (!recorder_.running()) return;         // cancelled with Escape
    if (press_travel_px_ < kClickTravelPx) {  // a click on the pole only makes its chain active
      recorder_.Cancel(&edit_);
      return;
    }
    Update(0.0);  // solve with the final pole before reporting it
    recorder_.End(edit_);
    WriteDragEndTrace(pole_chain_, "pole");
    return;
  }
  if (ended == Drag::kGizmo) {
    if (!recorder_.running()) return;         // cancelled with Escape
    if (press_travel_px_ < kClickTravelPx) {  // a click on a handle only makes it active...
      recorder_.Cancel(&edit_);
      // ... and a second click where handles overlap makes the next of them active.
      const int before = selection_.active_chain;
      if (press_on_active_ && CycleActiveHandle(press_px_, 1, false)) cycled_from_ = before;
      return;
    }
    Update(0.0);                            // solve for the final target before reporting it
    KeyAfterDrag(selection_.active_chain);  // auto-key (part of the drag's undo step)
    recorder_.End(edit_);
    WriteDragEndTrace(selection_.active_chain);
    return;
  }
  const bool moved = press_travel_px_ >= kClickTravelPx;
  if (ended == Drag::kOrbit && button.button == SDL_BUTTON_LEFT && !moved) PickJoint(press_px_);
  if ((ended == Drag::kOrbit || ended == Drag::kPan) && moved) {
    WriteCameraTrace(ended == Drag::kOrbit ? "orbit" : "pan");
  }
}

bool Viewer::CycleActiveHandle(const glm::vec2& cursor_px, int step, bool every_handle) {
  if (!display_.show_handles || drag_ != Drag::kNone) return false;
  RefreshHandles();
  constexpr int kMost = 64;
  int under[kMost];
  int count = std::min(
      HandlesUnderCursor(CurrentHandlesView(), gizmo_style_, handles_, cursor_px, under, kMost),
      kMost);
  if (count == 0 && every_handle) {  // none under the cursor: every enabled handle in turn
    for (int i = 0; i < static_cast<int>(handles_.size()) && count < kMost; ++i) {
      if (handles_[i].enabled) under[count++] = i;
    }
  }
  const int next = CycleHandle(under, count, selection_.active_chain, step);
  if (next < 0 || next == selection_.active_chain) return false;
  selection_.active_chain = next;
  if (selection_.hover_chain >= 0) selection_.hover_chain = next;  // its name under the cursor
  return true;
}

void Viewer::PickJoint(const glm::vec2& cursor_px) {
  // The bone under the cursor, else the joint weighing most on the mesh there.
  const PickView view{ModelViewMatrix(), camera_.Projection(viewport_.aspect()), viewport_};
  const assets::Model& model = current_->model;
  int joint = -1;
  if (display_.scene.skeleton || model.meshes.empty()) {
    joint = PickBone(model, state_.models, view, cursor_px, 8.0f);
  }
  if (joint < 0 && display_.scene.mesh) {
    joint = PickJointOnMesh(model, state_.models, CursorRay(cursor_px));
  }
  selection_.selected_joint = joint;
  selection_.scroll_to_selected = joint >= 0;
  if (trace_.is_open()) trace_.Write(SelectEvent(model.skeleton, joint));
}

}  // namespace app

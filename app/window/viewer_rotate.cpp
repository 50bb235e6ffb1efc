// Rotating the selected bone in the view, as Blender's modal rotate: R starts it, the cursor's
// sweep about the bone's head turns it about the view axis, X / Y / Z constrain (twice: the bone's
// own axis), typed digits give degrees, R again is the trackball; Enter or a click confirms (one
// undo step, `rotate_end`), Escape or a right-click puts the pose back exactly. The result is the
// joint's rotation offset (EditState::joint_offsets), so the clip plays under it. Alt+R clears the
// selected joint's edited rotation. And the pole markers of two-bone chains as handles: drag one
// and the knee follows.
#include <SDL2/SDL.h>
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "app/core/chain_results.h"
#include "app/window/viewer_loop.h"

namespace app {

namespace {

constexpr float kPolePickPx = 9.0f;  // window units about the pole marker (a 6 px diamond)

// The rotation part of a joint's model matrix (its scale taken out).
glm::quat RotationOf(const glm::mat4& m) {
  glm::mat3 r(m);
  for (int c = 0; c < 3; ++c) {
    const float length = glm::length(r[c]);
    if (length > 1e-12f) r[c] /= length;
  }
  return glm::normalize(glm::quat_cast(r));
}

ImU32 AxisColor(RotateAxis axis) {
  switch (axis) {
    case RotateAxis::kX:
    case RotateAxis::kLocalX:
      return IM_COL32(235, 80, 80, 255);
    case RotateAxis::kY:
    case RotateAxis::kLocalY:
      return IM_COL32(120, 220, 80, 255);
    case RotateAxis::kZ:
    case RotateAxis::kLocalZ:
      return IM_COL32(80, 140, 255, 255);
    default:
      return IM_COL32(255, 255, 255, 255);
  }
}

const char* AxisTitle(RotateAxis axis) {
  switch (axis) {
    case RotateAxis::kView:
      return "about the view";
    case RotateAxis::kX:
      return "about X (global)";
    case RotateAxis::kY:
      return "about Y (global)";
    case RotateAxis::kZ:
      return "about Z (global)";
    case RotateAxis::kLocalX:
      return "about X (local)";
    case RotateAxis::kLocalY:
      return "about Y (local)";
    case RotateAxis::kLocalZ:
      return "about Z (local)";
    case RotateAxis::kTrackball:
      return "trackball";
  }
  return "";
}

}  // namespace

void Viewer::BeginRotate() {
  const int j = selection_.selected_joint;
  const ik::Skeleton& skeleton = current_->model.skeleton;
  if (j < 0 || j >= skeleton.joint_count() || size_t(j) >= state_.models.size() ||
      size_t(j) >= frame_.unsolved_pose.locals.size()) {
    ShowMessage("rotate: click a bone first to select it", MessageLevel::kWarning);
    return;
  }
  if (drag_ != Drag::kNone || recorder_.running()) return;
  RotateStart start;
  // What is seen: the bone's head and its parent's frame as solved, and the view through them.
  const glm::mat4& joint = state_.models[size_t(j)];
  start.head = glm::vec3(joint[3]);
  const int parent = skeleton.parent(j);
  if (parent >= 0) start.parent_rotation = RotationOf(state_.models[size_t(parent)]);
  // The local rotation the offset turns: the pose before the solve (stage 2 of the pipeline).
  start.local_rotation = frame_.unsolved_pose.locals[size_t(j)].rotation;
  const auto found = edit_.joint_offsets.find(j);
  rotate_had_offset_ = found != edit_.joint_offsets.end();
  if (rotate_had_offset_) start.offset = found->second;
  const glm::mat4 eye_to_model = glm::inverse(ModelViewMatrix());
  start.view_forward = glm::normalize(glm::vec3(eye_to_model * glm::vec4(0.0f, 0.0f, -1.0f, 0.0f)));
  start.view_up = glm::normalize(glm::vec3(eye_to_model * glm::vec4(0.0f, 1.0f, 0.0f, 0.0f)));
  ProjectToPixel(ModelViewMatrix(), camera_.Projection(viewport_.aspect()), viewport_, start.head,
                 &start.head_px);
  start.cursor_px = cursor_px_;
  rotate_ = BoneRotate(start);
  rotate_joint_ = j;
  recorder_.Begin();
  this_drag_frames_ = FrameTimes();
  drag_ = Drag::kRotate;
}

void Viewer::ApplyRotate() {
  if (drag_ != Drag::kRotate) return;
  const glm::quat offset = rotate_.Offset();
  const bool none = std::abs(std::abs(offset.w) - 1.0f) < 1e-7f;
  if (none && !rotate_had_offset_) {
    edit_.joint_offsets.erase(rotate_joint_);  // no turn and none before: nothing edited
  } else {
    edit_.joint_offsets[rotate_joint_] = offset;
  }
}

void Viewer::OnRotateKey(int keycode) {
  const SDL_Keycode code = keycode;
  TypedNumber& typed = rotate_.typed();
  const bool trackball = rotate_.axis() == RotateAxis::kTrackball;
  switch (code) {
    case SDLK_x:
    case SDLK_y:
    case SDLK_z:
      rotate_.SetAxis(NextConstraint(rotate_.axis(), code == SDLK_x ? 0 : code == SDLK_y ? 1 : 2));
      break;
    case SDLK_r:  // R R: the trackball (R again: back to the view axis)
      rotate_.SetAxis(trackball ? RotateAxis::kView : RotateAxis::kTrackball);
      break;
    case SDLK_PERIOD:
    case SDLK_KP_PERIOD:
    case SDLK_COMMA:
      if (!trackball) typed.Point();
      break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
      if (!trackball) typed.Negate();
      break;
    case SDLK_BACKSPACE:
      typed.Backspace();
      break;
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
    case SDLK_SPACE:
      FinishRotate(true);
      return;
    case SDLK_ESCAPE:
      FinishRotate(false);
      return;
    default:
      if (!trackball && code >= SDLK_0 && code <= SDLK_9) typed.Digit(int(code - SDLK_0));
      if (!trackball && code >= SDLK_KP_1 && code <= SDLK_KP_9) {
        typed.Digit(int(code - SDLK_KP_1) + 1);
      }
      if (!trackball && code == SDLK_KP_0) typed.Digit(0);
      break;
  }
  ApplyRotate();
}

void Viewer::FinishRotate(bool confirm) {
  if (drag_ != Drag::kRotate) return;
  const int j = rotate_joint_;
  if (confirm) {
    ApplyRotate();
    Update(0.0);  // the pose with the final turn before reporting it
    recorder_.End(edit_);
    drag_ = Drag::kNone;
    if (trace_.is_open()) trace_.Write(RotateEvent("rotate_end", j));
  } else {
    recorder_.Cancel(&edit_);
    drag_ = Drag::kNone;
    Update(0.0);
    if (trace_.is_open()) trace_.Write(RotateEvent("rotate_cancel", j));
  }
}

Json Viewer::RotateEvent(const char* name, int joint) const {
  const ik::Skeleton& skeleton = current_->model.skeleton;
  Json event;
  event["event"] = name;
  event["joint"] = skeleton.name(joint);
  const std::string event_name = name;
  if (event_name != "rotate_clear") {
    event["axis"] = RotateAxisName(rotate_.axis());
    event["degrees"] = Rounded(rotate_.Degrees());
    event["axis_vector"] = ToJson(rotate_.AxisVector());
    event["before"] = ToJson(rotate_.start().local_rotation);
  }
  // The joint's local rotation now (before the solve), and its offset (none: null).
  if (size_t(joint) < frame_.unsolved_pose.locals.size()) {
    event["rotation"] = ToJson(frame_.unsolved_pose.locals[size_t(joint)].rotation);
  }
  const auto offset = edit_.joint_offsets.find(joint);
  event["offset"] = offset == edit_.joint_offsets.end() ? Json() : ToJson(offset->second);
  if (event_name != "rotate_clear") event["by"] = rotate_by_ring_ ? "gizmo" : "key";
  if (event_name == "rotate_end") {
    event["frames"] = this_drag_frames_.count;
    event["frame_ms"] = Rounded(float(this_drag_frames_.mean()));
  }
  if (playback_.clip >= 0) {
    event["anim"] = {{"index", playback_.clip}, {"time", Rounded(playback_.time)}};
  }
  return event;
}

void Viewer::ClearRotation() {
  const int j = selection_.selected_joint;
  if (j < 0 || j >= current_->model.skeleton.joint_count() || drag_ != Drag::kNone) {
    ShowMessage("clear rotation: click a bone first to select it", MessageLevel::kWarning);
    return;
  }
  edit_.joint_offsets.erase(j);
  edit_.joint_rotations.erase(j);
  recorder_.Changed(edit_);
  Update(0.0);
  if (trace_.is_open()) trace_.Write(RotateEvent("rotate_clear", j));
}

bool Viewer::CurrentRotateGizmo(RotateGizmo* gizmo) const {
  const int j = drag_ == Drag::kRotate ? rotate_joint_ : selection_.selected_joint;
  if (selection_.rotate_gizmo == Selection::RotateGizmoMode::kOff || j < 0 ||
      size_t(j) >= state_.models.size()) {
    return false;
  }
  gizmo->view = ModelViewMatrix();
  gizmo->projection = camera_.Projection(viewport_.aspect());
  gizmo->viewport = viewport_;
  if (drag_ == Drag::kRotate) {  // the rings stay where the rotate began
    gizmo->center = rotate_.start().head;
    gizmo->frame = rotate_.start().parent_rotation * rotate_.start().local_rotation;
  } else {
    gizmo->center = glm::vec3(state_.models[size_t(j)][3]);
    gizmo->frame = RotationOf(state_.models[size_t(j)]);
  }
  gizmo->local = selection_.rotate_gizmo == Selection::RotateGizmoMode::kLocal;
  const float scale = UiScaleOfFont() * pixel_ratio_;
  gizmo->radius_px *= scale;
  gizmo->view_radius_px *= scale;
  gizmo->pick_px *= scale;
  return true;
}

bool Viewer::BeginRingDrag(const glm::vec2& cursor_px) {
  RotateGizmo gizmo;
  if (!CurrentRotateGizmo(&gizmo)) return false;
  const RingPart ring = HitRotateGizmo(gizmo, cursor_px);
  if (ring == RingPart::kNone) return false;
  cursor_px_ = cursor_px;
  BeginRotate();
  if (drag_ != Drag::kRotate) return false;
  rotate_.SetAxis(RingConstraint(gizmo, ring));
  rotate_by_ring_ = true;
  drag_ring_ = ring;
  return true;
}

void Viewer::CycleRotateGizmo() {
  using Mode = Selection::RotateGizmoMode;
  Mode& mode = selection_.rotate_gizmo;
  mode = mode == Mode::kOff ? Mode::kGlobal : mode == Mode::kGlobal ? Mode::kLocal : Mode::kOff;
  WriteRotateGizmoTrace();
}

void Viewer::WriteRotateGizmoTrace() {
  traced_gizmo_ = selection_.rotate_gizmo;
  if (!trace_.is_open()) return;
  using Mode = Selection::RotateGizmoMode;
  const Mode mode = selection_.rotate_gizmo;
  Json event;
  event["event"] = "rotate_gizmo";
  event["mode"] = RotateGizmoName(mode);
  const int j = selection_.selected_joint;
  event["joint"] = j >= 0 && j < current_->model.skeleton.joint_count()
                       ? Json(current_->model.skeleton.name(j))
                       : Json();
  RotateGizmo gizmo;
  if (CurrentRotateGizmo(&gizmo)) {  // where it is on screen, window units
    const glm::vec2 center = ToWindow(gizmo.center);
    event["center_px"] = Json::array({Rounded(center.x), Rounded(center.y)});
    event["radius_px"] = Rounded(gizmo.radius_px / pixel_ratio_);
    event["view_radius_px"] = Rounded(gizmo.view_radius_px / pixel_ratio_);
  }
  trace_.Write(event);
}

void Viewer::DrawRotateOverlay() {
  if (traced_gizmo_ != selection_.rotate_gizmo) WriteRotateGizmoTrace();  // the panel changed it
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float scale = UiScaleOfFont();
  // The rotate gizmo's rings: the view ring white, X red, Y green, Z blue; the ring under the
  // cursor or being dragged brighter and thicker.
  if (RotateGizmo gizmo; CurrentRotateGizmo(&gizmo)) {
    glm::vec2 points[kRingSegments];
    ImVec2 line[kRingSegments];
    const RingPart lit =
        drag_ == Drag::kRotate ? (rotate_by_ring_ ? drag_ring_ : RingPart::kNone) : hover_ring_;
    for (RingPart part : {RingPart::kView, RingPart::kX, RingPart::kY, RingPart::kZ}) {
      if (!RingOnScreen(gizmo, part, points)) continue;
      for (int i = 0; i < kRingSegments; ++i) {
        line[i] = ImVec2(points[i].x / pixel_ratio_, points[i].y / pixel_ratio_);
      }
      const RotateAxis axis = RingConstraint(gizmo, part);
      ImU32 color = part == RingPart::kView ? IM_COL32(235, 235, 235, 255) : AxisColor(axis);
      if (part != lit) color = (color & 0x00FFFFFFu) | (0xB0u << IM_COL32_A_SHIFT);
      draw->AddPolyline(line, kRingSegments, color, ImDrawFlags_Closed,
                        (part == lit ? 3.5f : 2.0f) * scale);
    }
  }
  if (drag_ != Drag::kRotate) return;
  const glm::vec2 head = rotate_.start().head_px / pixel_ratio_;
  const glm::vec2 cursor = cursor_px_ / pixel_ratio_;
  const RotateAxis axis = rotate_.axis();
  const ImU32 color = AxisColor(axis);
  // The constraint's axis through the head, across the view.
  if (axis != RotateAxis::kView && axis != RotateAxis::kTrackball) {
    const glm::vec3 along = rotate_.AxisVector();
    const float reach = glm::max(current_->extent.size, 1e-3f);
    const glm::vec2 a = ToWindow(rotate_.start().head - along * reach);
    const glm::vec2 b = ToWindow(rotate_.start().head + along * reach);
    if (glm::length(b - a) > 1.0f) {
      const glm::vec2 d = glm::normalize(b - a) * 4000.0f;
      draw->AddLine(ImVec2(head.x - d.x, head.y - d.y), ImVec2(head.x + d.x, head.y + d.y), color,
                    1.5f * scale);
    }
  }
  // The pivot, and a dashed line from it to the cursor (Blender's).
  draw->AddCircle(ImVec2(head.x, head.y), 7.0f * scale, color, 24, 2.0f * scale);
  const glm::vec2 to = cursor - head;
  const float length = glm::length(to);
  if (length > 1.0f) {
    const glm::vec2 u = to / length;
    const float dash = 6.0f * scale;
    for (float s = 0.0f; s < length; s += 2.0f * dash) {
      const glm::vec2 p = head + u * s, q = head + u * glm::min(s + dash, length);
      draw->AddLine(ImVec2(p.x, p.y), ImVec2(q.x, q.y), IM_COL32(255, 255, 255, 220), 1.5f * scale);
    }
  }
  // The header: what turns, about what, by how much, and the keys.
  char text[256];
  const std::string typed = rotate_.typed_number().text();
  std::snprintf(text, sizeof(text), "Rotate %s %s: %.1f deg%s%s",
                current_->model.skeleton.name(rotate_joint_).c_str(), AxisTitle(axis),
                double(rotate_.Degrees()), typed.empty() ? "" : "   typed: ", typed.c_str());
  const char* keys[] = {
      "X / Y / Z: axis (twice: local)   R: trackball   type degrees (- Backspace)",
      "Enter or click: done   Esc or right-click: cancel"};
  const ImVec2 at(layout_.panel_right + 12.0f * scale, layout_.menu_height + 10.0f * scale);
  const float width = glm::max(ImGui::CalcTextSize(text).x, ImGui::CalcTextSize(keys[0]).x);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  draw->AddRectFilled(ImVec2(at.x - 6.0f * scale, at.y - 4.0f * scale),
                      ImVec2(at.x + width + 6.0f * scale, at.y + 3.0f * line + 4.0f * scale),
                      IM_COL32(20, 20, 24, 200), 4.0f * scale);
  draw->AddText(at, color, text);
  for (int i = 0; i < 2; ++i) {
    draw->AddText(ImVec2(at.x, at.y + float(i + 1) * line), IM_COL32(200, 200, 200, 255), keys[i]);
  }
}

int Viewer::HitPole(const glm::vec2& cursor_px) const {
  if (!display_.show_handles || !display_.scene.ik_overlay) return -1;
  const glm::mat4 view = ModelViewMatrix();
  const glm::mat4 projection = camera_.Projection(viewport_.aspect());
  int best = -1;
  float best_distance = kPolePickPx * pixel_ratio_;
  for (int i = 0; i < static_cast<int>(edit_.chains.size()); ++i) {
    const ChainSettings& chain = edit_.chains[size_t(i)];
    if (!chain.enabled || !chain.use_pole || chain.kind != ConstraintKind::kTwoBone) continue;
    glm::vec2 px;
    if (!ProjectToPixel(view, projection, viewport_, chain.PoleAt(playback_.time), &px)) continue;
    const float distance = glm::length(px - cursor_px);
    if (distance <= best_distance) {
      best_distance = distance;
      best = i;
    }
  }
  return best;
}

bool Viewer::BeginPoleDrag(const glm::vec2& cursor_px) {
  const int chain = HitPole(cursor_px);
  if (chain < 0) return false;
  selection_.active_chain = chain;
  pole_chain_ = chain;
  recorder_.Begin();
  this_drag_frames_ = FrameTimes();
  pole_drag_ = GizmoDrag(GizmoPart::kCenter, edit_.chains[size_t(chain)].PoleAt(playback_.time),
                         CursorRay(cursor_px), camera_.Forward());
  drag_ = Drag::kPole;
  return true;
}

Json Viewer::PolePixels(int chain) const {
  if (chain < 0 || size_t(chain) >= edit_.chains.size()) return Json();
  const ChainSettings& settings = edit_.chains[size_t(chain)];
  if (!settings.use_pole || settings.kind != ConstraintKind::kTwoBone) return Json();
  const glm::vec2 px = ToWindow(settings.PoleAt(playback_.time));
  return Json::array({Rounded(px.x), Rounded(px.y)});
}

}  // namespace app

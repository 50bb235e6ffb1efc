// The timeline's foot-contact lanes: a lane per foot with a bar per contact, and what the mouse
// does there (select a contact, drag its ends, add or delete one from its menu, its numbers in a
// tooltip). The timeline (timeline.cpp) places the lanes and calls these at their turn.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "app/window/panels/timeline_draw.h"

namespace app::timeline {

namespace {

const ImU32 kContactColor = IM_COL32(70, 150, 200, 230);        // a foot contact, not locked
const ImU32 kLockedContactColor = IM_COL32(70, 190, 110, 240);  // locked
const ImU32 kContactEndColor = IM_COL32(235, 240, 250, 255);

}  // namespace

float FootLaneNamesWidth(const FeetView* feet) {
  float widest = 0.0f;
  if (feet && feet->ready) {
    for (const std::string& foot : feet->feet) {
      widest = std::max(widest,
                        ImGui::CalcTextSize(foot.c_str()).x + ImGui::CalcTextSize(" contacts").x);
    }
  }
  return widest;
}

void DrawFootLanes(const FeetView* feet, Lanes* lanes, TimelineView* view) {
  if (!feet || !feet->ready) return;
  ImDrawList* draw = lanes->draw();
  const TimeAxis& axis = lanes->axis();
  const float lane_height = lanes->height();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float fps = std::max(feet->used.source.fps, 1.0f);
  char label[160];
  for (size_t leg = 0; leg < feet->contacts.size() && leg < feet->feet.size(); ++leg) {
    std::snprintf(label, sizeof(label), "%s contacts", feet->feet[leg].c_str());
    const float lane_top = lanes->top();
    if (!lanes->Next(label, text)) return;
    view->foot_lanes.push_back({static_cast<int>(leg), lane_top, lane_top + lane_height});
    const std::vector<FeetView::Contact>& list = feet->contacts[leg];
    for (size_t k = 0; k < list.size(); ++k) {
      float start = list[k].start, end = list[k].end;
      const bool dragged = view->drag == TimelineView::Drag::kContactEnd &&
                           view->drag_leg == static_cast<int>(leg) &&
                           view->drag_contact == static_cast<int>(k);
      if (dragged) (view->drag_end ? end : start) = float(view->drag_frame) / fps;
      const float x0 = std::floor(axis.X(start)), x1 = std::max(std::floor(axis.X(end)), x0 + 2.0f);
      const ImVec2 lo(x0, lane_top + 3.0f), hi(x1 + 1.0f, lane_top + lane_height - 3.0f);
      draw->AddRectFilled(lo, hi, feet->locked ? kLockedContactColor : kContactColor, 2.0f);
      draw->AddLine(ImVec2(x0 + 0.5f, lo.y), ImVec2(x0 + 0.5f, hi.y), kContactEndColor, 2.0f);
      draw->AddLine(ImVec2(x1 + 0.5f, lo.y), ImVec2(x1 + 0.5f, hi.y), kContactEndColor, 2.0f);
      if (feet->leg == static_cast<int>(leg) && feet->contact == static_cast<int>(k)) {
        draw->AddRect(ImVec2(lo.x - 1.0f, lo.y - 2.0f), ImVec2(hi.x + 1.0f, hi.y + 2.0f),
                      kSelectedKeyColor, 2.0f, 0, 2.0f);
      }
    }
  }
}

FootMouse::FootMouse(TimeAxis axis, FeetView* feet, TimelineView* view)
    : axis_(axis),
      feet_(feet),
      view_(view),
      fps_(feet ? std::max(feet->used.source.fps, 1.0f) : 30.0f) {
  if (!feet || !feet->ready) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const TimelineView::FootLane& lane : view->foot_lanes) {
    if (mouse.y < lane.top || mouse.y >= lane.bottom ||
        lane.leg >= static_cast<int>(feet->contacts.size())) {
      continue;
    }
    leg_ = lane.leg;
    const std::vector<FeetView::Contact>& list = feet->contacts[size_t(lane.leg)];
    float best = kHandleGrab + 1.0f;
    for (size_t k = 0; k < list.size(); ++k) {
      const float ds = std::abs(axis.X(list[k].start) - mouse.x);
      const float de = std::abs(axis.X(list[k].end) - mouse.x);
      if (ds <= kHandleGrab && ds < best) {
        best = ds;
        contact_ = static_cast<int>(k);
        edge_ = -1;
      }
      if (de <= kHandleGrab && de < best) {
        best = de;
        contact_ = static_cast<int>(k);
        edge_ = 1;
      }
    }
    for (size_t k = 0; k < list.size() && contact_ < 0; ++k) {
      if (mouse.x >= axis.X(list[k].start) && mouse.x <= axis.X(list[k].end)) {
        contact_ = static_cast<int>(k);
      }
    }
    return;
  }
}

float FootMouse::MouseTime() const {
  return std::round(axis_.Time(ImGui::GetIO().MousePos.x) * fps_) / fps_;
}

void FootMouse::Clicks(Requests* out) {
  if (!(ImGui::IsItemHovered() && leg_ >= 0)) return;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    view_->popup_leg = leg_;
    view_->popup_contact = contact_;
    view_->popup_time = MouseTime();
    if (contact_ >= 0) {
      feet_->leg = leg_;
      feet_->contact = contact_;
      view_->key_chain = -1;
    }
    ImGui::OpenPopup("##contact");
  } else if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && contact_ < 0 && out) {
    Request added{RequestKind::kEditContact, "add", false, leg_};
    added.time = MouseTime();
    out->push_back(added);
  }
}

void FootMouse::Press() {
  feet_->leg = leg_;
  feet_->contact = contact_;
  view_->key_chain = -1;
  view_->drag = TimelineView::Drag::kContact;
  if (edge_ != 0) {
    const ik::FootContact& c = feet_->used.contacts[size_t(leg_)][size_t(contact_)];
    view_->drag = TimelineView::Drag::kContactEnd;
    view_->drag_leg = leg_;
    view_->drag_contact = contact_;
    view_->drag_end = edge_ > 0;
    view_->drag_frame = view_->drag_end ? c.last : c.first;
  }
}

void FootMouse::Deselect() {
  if (feet_) feet_->contact = -1;
}

void FootMouse::DragEnd() {
  view_->drag_frame = static_cast<int>(std::lround(axis_.Time(ImGui::GetIO().MousePos.x) * fps_));
}

void FootMouse::Release(Requests* out) {
  FeetView* feet = feet_;
  TimelineView* view = view_;
  if (view->drag == TimelineView::Drag::kContactEnd && feet && out && feet->ready &&
      view->drag_leg < static_cast<int>(feet->used.contacts.size()) &&
      view->drag_contact < static_cast<int>(feet->used.contacts[size_t(view->drag_leg)].size())) {
    const ik::FootContact& c =
        feet->used.contacts[size_t(view->drag_leg)][size_t(view->drag_contact)];
    if (view->drag_frame != (view->drag_end ? c.last : c.first)) {
      Request moved{RequestKind::kEditContact, view->drag_end ? "end" : "start", false,
                    view->drag_leg};
      moved.contact = view->drag_contact;
      moved.time = float(view->drag_frame) / fps_;
      out->push_back(moved);
    }
  }
}

void FootMouse::Menu(Playback* p, Requests* out) {
  if (!ImGui::BeginPopup("##contact")) return;
  const FeetView* feet = feet_;
  const TimelineView* view = view_;
  if (view->popup_contact >= 0) {
    if (ImGui::MenuItem("Delete contact", "X") && out) {
      Request deleted{RequestKind::kEditContact, "delete", false, view->popup_leg};
      deleted.contact = view->popup_contact;
      out->push_back(deleted);
    }
    if (ImGui::MenuItem("Go to contact") && feet && feet->ready &&
        view->popup_leg < static_cast<int>(feet->contacts.size()) &&
        view->popup_contact < static_cast<int>(feet->contacts[size_t(view->popup_leg)].size())) {
      p->time = feet->contacts[size_t(view->popup_leg)][size_t(view->popup_contact)].start;
    }
  } else if (ImGui::MenuItem("Add contact here") && out) {
    Request added{RequestKind::kEditContact, "add", false, view->popup_leg};
    added.time = view->popup_time;
    out->push_back(added);
  }
  ImGui::EndPopup();
}

void FootMouse::Tooltip() {
  if (!(ImGui::IsItemHovered() && contact_ >= 0 && !ImGui::IsPopupOpen("##contact"))) return;
  const FeetView::Contact& c = feet_->contacts[size_t(leg_)][size_t(contact_)];
  char locked[48] = "";
  if (c.locked_skate_mm >= 0.0f) {
    std::snprintf(locked, sizeof(locked), " (locked %.1f mm)", double(c.locked_skate_mm));
  }
  ImGui::SetTooltip(
      "%s contact %d: %.3f-%.3f s\nskate %.1f mm%s\nheight %.1f mm, sinks %.1f mm, floats "
      "%.1f mm\nDrag an end to move it; right-click or X to delete.",
      feet_->feet[size_t(leg_)].c_str(), contact_ + 1, double(c.start), double(c.end),
      double(c.skate_mm), locked, double(c.height_mm), double(c.sink_mm), double(c.float_mm));
}

}  // namespace app::timeline

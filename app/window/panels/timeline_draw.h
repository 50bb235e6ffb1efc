// What the timeline (timeline.cpp) and its foot-contact lanes (timeline_feet.cpp) share: the
// time axis, the lanes under the ruler, the grab distance and the selection's colour. Private to
// app/window.
#pragma once

#include <imgui.h>

#include <algorithm>

#include "app/window/panels/panel_util.h"

namespace app::timeline {

inline constexpr float kHandleGrab = 6.0f;  // how near a bracket or an end a press grabs it, px
inline constexpr ImU32 kSelectedKeyColor = IM_COL32(255, 250, 205, 255);

// The x of a time on the track and back.
struct TimeAxis {
  float x0 = 0.0f, x1 = 1.0f;  // screen x of time 0 and of the duration
  float duration = 1.0f;
  float X(float t) const { return x0 + (x1 - x0) * (duration > 0.0f ? t / duration : 0.0f); }
  float Time(float x) const {
    return std::clamp((x - x0) / std::max(x1 - x0, 1.0f), 0.0f, 1.0f) * duration;
  }
};

// The lanes under the ruler, top to bottom, drawn into the window's draw list. Lanes and FootMouse
// keep copies of the axis: the timeline's own, never handed to timeline_feet.cpp by address, stays
// in registers through its per-key loops.
class Lanes {
 public:
  // Lanes from `min` (window coordinates) down to `bottom`, their names in the `label_width`
  // left of the track.
  Lanes(const TimeAxis& axis, const ImVec2& min, float label_width, float lane_height,
        float bottom);
  // The next lane with `name` at its left (a message spans the whole lane); false, drawing
  // nothing, when it would not fit above the bottom.
  bool Next(const char* name, ImU32 color, bool message = false);

  ImDrawList* draw() const { return draw_; }
  const TimeAxis& axis() const { return axis_; }
  float top() const { return y_; }  // of the next lane
  float height() const { return lane_height_; }

 private:
  ImDrawList* draw_;
  const TimeAxis axis_;
  ImVec2 min_;
  float label_width_, lane_height_, bottom_;
  ImU32 color_;
  float y_;
};

// The foot lanes (timeline_feet.cpp): a lane per foot with its contacts, below the other lanes.

// The width the foot lanes' names need (0: no lanes).
float FootLaneNamesWidth(const FeetView* feet);
// A lane per foot with a bar per contact (green where locked), the selected one outlined, a
// dragged end where it is being dragged to; records the lanes in view->foot_lanes.
void DrawFootLanes(const FeetView* feet, Lanes* lanes, TimelineView* view);

// The scrub area's mouse on the foot lanes, for one frame: the timeline's Scrub calls each part
// at its place among its own.
class FootMouse {
 public:
  // Finds the foot lane and contact under the mouse in last frame's lanes.
  FootMouse(TimeAxis axis, FeetView* feet, TimelineView* view);
  bool OverLane() const { return leg_ >= 0; }  // over a foot lane (so there are feet)
  bool OverContact() const { return contact_ >= 0; }
  // While the scrub area is hovered, a right-click on a foot lane opens the menu of the contact
  // there or of the empty lane; a double-click on the empty lane adds a contact there (where the
  // first click put the playhead).
  void Clicks(Requests* out);
  // A press on the contact under the mouse selects it and, on one of its ends, drags that end.
  void Press();
  void Deselect();  // no contact selected (a press elsewhere); nothing without feet
  void DragEnd();   // a dragged end follows the mouse, on the contacts' frames
  // The drag ends: a dragged end that moved asks to move it.
  void Release(Requests* out);
  // The contact menu (opened by Clicks): delete or go to the contact, or add one.
  void Menu(Playback* p, Requests* out);
  // The contact under the mouse: its numbers, while the menu is closed.
  void Tooltip();

 private:
  float MouseTime() const;  // on the contacts' frames

  const TimeAxis axis_;
  FeetView* feet_;
  TimelineView* view_;
  float fps_;
  // What is under the mouse: the leg (-1: none), the contact there (-1: the empty lane) and
  // which part: an end within the grab distance (-1 start, +1 end) or the bar (0).
  int leg_ = -1, contact_ = -1, edge_ = 0;
};

}  // namespace app::timeline

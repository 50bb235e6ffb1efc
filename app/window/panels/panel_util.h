// Helpers shared by the panels: asking the loop for something, reporting edits for undo, and the
// text of transforms. Private to app/window/panels.
#pragma once

#include <string>

#include "app/window/panels/panels.h"
#include "ik/core/transform.h"

struct ImVec4;

namespace app {

// The room the side panel leaves right of its widgets for their labels, in font heights.
constexpr float kLabelColumnEms = 8.5f;

// Puts the next item on the same line when `next_width` (window coordinates) still fits left of
// the content's right edge, else lets it start a new line: rows of buttons and checkboxes wrap
// instead of running under the panel's edge.
void SameLineIfFits(float next_width);
// A tooltip for the last item: `text` once the mouse has rested on it for a moment (at once on an
// item without an ID, such as text, and on a disabled item, which says why it is disabled).
void Tip(const char* text);

// Colours that say how something went, readable on the current theme's windows (darker shades
// in the light theme).
enum class Tone { kGood, kWarning, kError, kNote };
ImVec4 ToneColor(Tone tone);

// The width of a button / a checkbox with `label`, window coordinates.
float ButtonWidth(const char* label);
float CheckboxWidth(const char* label);

inline void Ask(Requests* out, RequestKind kind, std::string text = {}, bool option = false,
                int index = -1) {
  out->push_back(Request{kind, std::move(text), option, index});
}

// After a widget that edits while it is held (a drag, a slider): reports when it is grabbed and
// released, so the whole hold becomes one undo step.
void TrackLastItem(Requests* out);

// After a widget that edits at once (a checkbox, a combo, a button): reports the edit when
// `changed`, and returns it.
inline bool Edited(bool changed, Requests* out) {
  if (changed) Ask(out, RequestKind::kEdited);
  return changed;
}

// Rotation as Euler angles in degrees (glm's XYZ order).
glm::vec3 EulerDegrees(const glm::quat& q);

// Four text rows: translation, rotation as Euler degrees and as a quaternion (x y z w), scale.
void TransformRows(const char* label, const ik::Transform& t);

// The effector of chain `chain` in the frame's un-solved pose.
glm::vec3 EffectorOf(const FrameInput& in, const EditState& edit, int chain);

}  // namespace app

// Helpers shared by the panels: asking the loop for something, reporting edits for undo, and the
// text of transforms. Private to app/window/panels.
#pragma once

#include <string>

#include "app/window/panels/panels.h"
#include "ik/transform.h"

namespace app {

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

// Three text rows: translation, rotation (Euler degrees and quaternion), scale.
void TransformRows(const char* label, const ik::Transform& t);

// The effector of chain `chain` in the frame's un-solved pose.
glm::vec3 EffectorOf(const FrameInput& in, const EditState& edit, int chain);

}  // namespace app

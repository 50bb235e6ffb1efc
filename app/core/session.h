// Sessions: what the user set up on a model — every chain and its options, targets, pins, poles,
// limits, body options, joint rotations, blend-shape weights — with the clip, the time, the loop
// range, the ground and ladder, the camera and the display, saved as human-readable JSON
// (`NAME.skelview`) and opened again exactly. Joints, meshes, targets and clips are named, not
// numbered, so a session reattaches to a model that changed (or to another model) by name and
// says what it could not reattach.
//
// The file (format version kSessionVersion; a newer version is refused, an older one read):
//   skelview_session  the format version (a whole number)
//   model             the model file, relative to the session's folder where it is inside it or
//                     near it (else absolute); null for the built-in character
//   raw_units         the model was opened with --raw-units
//   chains[]          label, kind (two_bone, aim, fabrik, body), joints {start, mid, end} by name,
//                     enabled, target {mode (follow, pinned, ground, rung), offset, pinned,
//                     keys[]}, pole {on, position, keys[]}, hinge, body_helps, pin (a body handle
//                     held), soft, weight, weight_keys [[time, weight], ...], end_orientation
//                     (keep_local, keep_model, target), aim {target_joint, spread, falloff,
//                     up {on, position}}, fabrik {tolerance, iterations, show_iterations}
//                     keys[] are {time, position} (seconds, in increasing time; the target's
//                     offset or point as its mode has it, the pole's point) for keyed targets;
//                     empty when not keyed
//   rotations[]       {joint, rotation [x, y, z, w]}: local rotations set by hand
//   translations[]    {joint, translation [x, y, z]}: local translations set by hand (a pasted
//   pose) limits[]          {joint, type hinge: axis, min, max | type cone: axis, cone, twist_min,
//                     twist_max} in degrees, relative to the rest pose
//   body              hips, tilt, spine (weights), turn (degrees), iterations, tolerance, hinge
//   morphs[]          {mesh, target, weight}: blend-shape weights set by hand (names, or "#N")
//   animation         clip (name or null for the rest pose), clip_index, together [names],
//                     generated ("range_of_motion" or null), time, speed, loop, range
//                     [start, end] (end <= start: the whole clip), playing
//   contacts          ground {enabled, height, tilt_x, tilt_z, pivot}, ladder {enabled, base, up,
//                     across, spacing, width, count}, lower_hips
//   camera            yaw, pitch (degrees), distance, target, ortho
//   display           as settings.json's (mesh, grid, bones, axes, handles, knees, shells, limits,
//                     weights, influences, onion, trail, legend, xray, mesh_opacity, onion_step,
//                     all_chains, axes_selected_only, on_ground, follow_root, axis_gizmo,
//                     rotate_gizmo) and timeline
//   selection         joint (name or null), chain (index or -1)
//   foot_lock         (optional) on (the window's Lock feet), ground (a --ground SPEC), clip_index
//                     and contacts [[[first, last], ...] per leg]: the foot contacts edited by
//                     hand, frames at the clip's bake rate (clip_index -1: none edited)
// Numbers are written so that they read back as the same floats.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/display_spec.h"
#include "app/core/json_output.h"
#include "app/core/playback.h"
#include "assets/model/model.h"

namespace app {

inline constexpr int kSessionVersion = 1;
inline constexpr const char* kSessionExtension = ".skelview";
// Larger session files are refused before they are read.
inline constexpr long long kMaxSessionBytes = 64ll << 20;

// True when `path` names a session file (ends in kSessionExtension, any case).
bool IsSessionPath(const std::string& path);

// The camera exactly as the view holds it (angles in radians).
struct SessionCamera {
  float yaw = 0.0f;
  float pitch = 0.0f;
  float distance = 1.0f;  // > 0
  glm::vec3 target{0.0f};
  bool ortho = false;
};

// What the view shows, as settings.json's `display` has it, and the timeline.
struct SessionDisplay {
  DisplaySpec spec;
  bool xray = true;
  float mesh_opacity = 1.0f;  // [0.05, 1]
  int onion_step = 1;
  bool all_chains = false;
  bool axes_selected_only = false;
  bool on_ground = false;
  bool follow_root = false;
  bool axis_gizmo = true;
  std::string rotate_gizmo = "off";  // the selected bone's rotate gizmo: off, global or local
  bool timeline = true;
};

// Everything a session holds, resolved against a model (joint, mesh and clip indices).
struct Session {
  std::string model_path;  // as opened: absolute or relative to the working directory; "" built-in
  bool raw_units = false;
  EditState edit;
  // The clip (a file clip's index, or -1), the clips played with it, the time and loop range.
  Playback playback;
  bool range_of_motion = false;  // the generated "Range of motion" clip plays instead of a file's
  std::optional<SessionCamera> camera;
  SessionDisplay display;
  int selected_joint = -1;
  int active_chain = -1;
  bool lock_feet = false;  // the foot lock on (planned again on opening: edit.foot_lock_edit)
};

// The session as JSON for a file at `session_path` (the model's path is written relative to its
// folder where it lies inside it, or up to two folders above it). `model` is the model the
// session's indices refer to.
Json SessionJson(const assets::Model& model, const Session& session,
                 const std::string& session_path);

// Writes the JSON to `path` atomically (the previous file stays whole when a write fails); false
// with "PATH: reason".
bool WriteSessionFile(const std::string& path, const Json& json, std::string* error);

// A session file read and checked, not yet attached to a model.
struct SessionFile {
  std::string path;
  Json json;
  std::string model_path;  // resolved: relative paths joined to the session's folder; "" built-in
  bool raw_units = false;
};

// Reads `path`: a regular file of at most kMaxSessionBytes holding a JSON object with a
// `skelview_session` version this program reads. False with one line naming the file and the
// reason ("s.skelview: not a skelview session (no skelview_session field)").
bool ReadSessionFile(const std::string& path, SessionFile* out, std::string* error);

// What a session could not reattach to the model.
struct SessionProblems {
  std::vector<std::string> lines;  // one per thing left out, e.g. "chain LeftHand: no joint 'x'"
  bool empty() const { return lines.empty(); }
};

// Joint renames to apply while reattaching (old name → new name), e.g. from RigChanges.
using JointRenames = std::map<std::string, std::string>;

// Attaches a session's JSON to `model` into *out (out->model_path and raw_units from `file`).
// Joints, meshes, blend-shape targets and clips are found by name (after `renames`); what cannot
// be found is left out and named in *problems. False with one line naming the file and the field
// for a malformed session (a field of the wrong type, a number out of range, a non-finite
// number): nothing is half-applied.
bool AttachSession(const SessionFile& file, const assets::Model& model, const JointRenames* renames,
                   Session* out, SessionProblems* problems, std::string* error);

// How a rig changed between two loads of a file: joints added, removed and renamed (a joint gone
// and one new in its place — the same parent, after renames, and nearly the same rest position).
struct RigChanges {
  std::vector<std::string> added;
  std::vector<std::string> removed;
  JointRenames renamed;  // old name → new name
  bool empty() const { return added.empty() && removed.empty() && renamed.empty(); }
  // "joints added: a, b; removed: c; renamed: d → e", or "the joints are the same".
  std::string Describe() const;
};
RigChanges CompareRigs(const ik::Skeleton& before, const ik::Skeleton& after);

}  // namespace app

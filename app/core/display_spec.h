// What the view shows, as the names of `--show LIST` and settings.json's `display`: plain flags
// with no drawing code, shared by the viewer, `render` and the settings file.
#pragma once

#include <optional>
#include <string>

namespace app {

struct DisplaySpec {
  bool mesh = true;
  bool grid = true;
  bool bones = false;
  bool axes = false;    // each joint's local axes
  bool handles = true;  // the IK target handles (viewer only; `render` draws none)
  bool knees = true;    // per chain: knee circle, knee before and after, pole, target
  bool shells = false;  // reach shells
  bool limits = true;   // joint limit arcs and cones
  std::string weights;  // the joint whose skin weights are shown as a heat map ("": none)
  bool operator==(const DisplaySpec& other) const;
};

// `--show LIST`: a comma-separated list of `none, mesh, grid, bones, axes, handles, knees,
// shells, limits, weights=JOINT`; only what is listed is on (`none` alone: nothing). False with
// "--show 'X': ..." in *error for an unknown or repeated name, an empty item, `weights` without a
// joint, or a name this build does not draw yet (influences, onion=N, trail=JOINT, legend — named
// as such rather than accepted and ignored). The joint name is checked against the model later.
bool ParseShowList(const std::string& text, DisplaySpec* out, std::string* error);

// The list that ParseShowList reads back into the same spec ("none" when nothing is on).
std::string ShowListOf(const DisplaySpec& spec);

}  // namespace app

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
  bool axes = false;        // each joint's local axes
  bool handles = true;      // the IK target handles (viewer only; `render` draws none)
  bool knees = true;        // per chain: knee circle, knee before and after, pole, target
  bool shells = false;      // reach shells
  bool limits = true;       // joint limit arcs and cones
  std::string weights;      // the joint whose skin weights are shown as a heat map ("": none)
  bool influences = false;  // each vertex coloured by how many joints move it
  int onion = 0;            // ghosts of the pose this many frames before and after (0: none)
  int onion_step = 1;       // frames between those ghosts (only meaningful with onion > 0)
  std::string trail;        // the joint whose motion over the clip is drawn ("": none)
  bool legend = false;      // a key to every mark drawn
  bool operator==(const DisplaySpec& other) const;
};

// The most ghosts on each side `onion=N` takes, and the most frames between them (`onion=N:K`).
constexpr int kMaxOnion = 16;
constexpr int kMaxOnionStep = 120;

// `--show LIST`: a comma-separated list of `none, mesh, grid, bones, axes, handles, knees,
// shells, limits, weights=JOINT, influences, onion=N[:K], trail=JOINT, legend`; only what is
// listed is on (`none` alone: nothing). `onion=N:K` puts the ghosts K frames apart (default 1).
// False with "--show 'X': ..." in *error for an unknown or repeated name, an empty item, `weights`
// or `trail` without a joint, or `onion` without a count in [1, kMaxOnion] or with a spacing
// outside [1, kMaxOnionStep]. Joint names are checked against the model later.
bool ParseShowList(const std::string& text, DisplaySpec* out, std::string* error);

// The list that ParseShowList reads back into the same spec ("none" when nothing is on).
std::string ShowListOf(const DisplaySpec& spec);

}  // namespace app

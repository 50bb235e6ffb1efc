// File ▸ Import clip from…'s dialog: the automatic joint mapping as a table (source joint, target
// joint, how the pair was found) with each target editable, the mapping's warnings, the clip to
// import, Apply and Cancel. It edits the table (app/core/retarget_table.h); the loop retargets.
#pragma once

#include <string>
#include <vector>

#include "app/core/retarget_table.h"
#include "app/window/panels/panels.h"

namespace app {

inline constexpr const char* kRetargetDialogName = "Import clip";

struct RetargetDialog {
  bool open = false;
  std::string source_path;         // the source model's file
  std::string target_name;         // the open model's file name, for the title line
  std::string map_path;            // where the user's edits are saved ("": the built-in character)
  int reused_edits = 0;            // the saved map's entries applied when the dialog opened
  std::vector<std::string> clips;  // the source's clip names
  int clip = 0;                    // the one to import
  RetargetTable table;
  bool show_unmapped = false;  // rows of source joints that map nowhere
  // Where Apply and Cancel are shown (window coordinates; -1 until drawn), for the trace.
  glm::vec2 apply_px{-1.0f}, cancel_px{-1.0f};
  // Frames the buttons have stayed where they are (the window measures itself and moves into
  // place over its first frames): the trace waits for them to settle.
  int settled_frames = 0;
};

// Draws the dialog while dialog->open: asks kApplyRetarget or kCancelRetarget (also its close
// button); each edit of a target changes dialog->table (SetRowTarget).
void DrawRetargetDialog(const ik::Skeleton& source, const ik::Skeleton& target,
                        RetargetDialog* dialog, Requests* out);

}  // namespace app

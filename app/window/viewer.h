// app/window: the interactive viewer — SDL loop and input, view state, Dear ImGui panels, files.
// An SDL window with the panels over the 3D view; the loop is in viewer_loop.h.
#pragma once

#include <string>

#include "app/core/pose_input.h"

namespace app {

struct ViewerArgs {
  // The model ("" for the built-in character), the clip and time to open at, and constraints to
  // add to the detected limbs (pinned at their targets; an --ik on a detected limb replaces it).
  PoseArgs pose;
  std::string trace_path;    // "" for no trace
  int max_frames = 0;        // quit after this many frames (--frames, >= 1); 0 = run until closed
  std::string size;          // "WxH", "" for the default
  std::string show;          // --show LIST for this run ("" for the saved display)
  bool no_settings = false;  // --no-settings: start from the defaults and save nothing
  // --session FILE (or a MODEL ending in .skelview): the session to open; with a MODEL too, the
  // session is attached to that model instead of its own.
  std::string session_path;
  bool no_watch = false;  // --no-watch: do not reload the model when its file changes on disk
};

// Runs the window until it is closed (or Ctrl+Q). Returns the exit code: 0 after a normal quit,
// 2 when an argument is bad (at once, no window) or the model on the command line could not be
// loaded (the window opens with nothing loaded and the error in its message log; 2 on quitting),
// 1 when no window or GL context can be made or a --trace write failed.
int RunViewer(const ViewerArgs& args);

}  // namespace app

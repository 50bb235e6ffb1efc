// The headless commands of the command line: info, render, pose, export, bench. Each returns the
// process exit code: 0 success, 2 bad input (one line on stderr naming the file or argument and
// the reason), 1 when the machine cannot do it (no OpenGL context, a write that fails).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/args.h"
#include "app/core/evaluate.h"
#include "app/core/pose_input.h"
#include "assets/model/model.h"

namespace app {

// Writes `text` to standard output, every write checked; false with "cannot write to standard
// output: <reason>" in *error (e.g. `pose > /dev/full`: "No space left on device").
bool WriteStandardOutput(const std::string& text, std::string* error);
// Flushes what was printed through stdio / iostreams (help text) and checks that all of it was
// written; false with "cannot write to standard output: <reason>" in *error.
bool FlushStandardOutput(std::string* error);

int RunInfo(const std::string& model_path, bool json, bool allow_outside_files, bool raw_units);
// How `render` looks at the model: `show` a --show list ("" for the default overlays), `view` a
// ViewPreset name ("" for the default three-quarter view), `ortho` a parallel projection,
// `on_ground` the model raised (or lowered) so that the lowest point of its rest pose stands on
// the grid (GroundLift).
struct RenderLook {
  std::string show;
  std::string view;
  bool ortho = false;
  bool on_ground = false;
};
int RunRender(const PoseArgs& args, const std::string& out_path, const std::string& size,
              const RenderLook& look = {});
int RunPose(const PoseArgs& args, bool vertices, const std::string& skinning);
// Without --bake: the posed model (the pose of --anim/--time/--ik as the rest pose, skins kept).
// With --bake: the clip --anim (0 by default) baked with the --ik targets pinned, at the clip's
// frame rate, the rest pose unchanged. render and export refuse (2) an output that is one of the
// model's input files (assets::CheckOutputsSpareInputs) or has an extension they do not write;
// a failed write is 1, and the previous file stays as it was.
// `rom`: the model with a generated range-of-motion clip (MakeModelRangeOfMotion) as its clip.
// `--lock-feet` and `--ground SPEC` (export --bake): the baked clip with its feet locked during
// their contacts, standing on the ground (app/core/foot_lock.h).
struct CleanupArgs {
  bool lock_feet = false;
  std::optional<std::string> ground;
};
int RunExport(const PoseArgs& args, const std::string& out_path, bool bake = false,
              bool rom = false, const CleanupArgs& cleanup = {});

// `skelview contacts`: per foot of the detected legs, the contacts of clip --anim (default 0) and
// how much the foot slides in each, before and after the foot lock, on `ground` (the authored
// floor when absent); text, or JSON with `json`.
int RunContacts(const PoseArgs& args, const std::optional<std::string>& ground, bool json);

// `skelview bench`: a crowd of `characters` animated characters with IK on their limbs, updated
// (sample + IK + FK + palette, on this thread) and drawn offscreen for `frames` frames; prints the
// per-frame update and draw times (median and mean, milliseconds). `out_path` (optional) receives
// the last frame as PNG; `draw` false skips drawing.
struct BenchArgs {
  std::string model_path;
  bool allow_outside_files = false;
  bool raw_units = false;
  int characters = 100;
  int frames = 120;
  int clip = 0;
  std::string size = "960x540";
  std::string out_path;
  bool draw = true;
};
int RunBench(const BenchArgs& args);

}  // namespace app

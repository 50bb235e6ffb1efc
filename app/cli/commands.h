// The headless commands of the command line: info, render, pose, export. Each returns the process
// exit code: 0 success, 2 bad input (one line on stderr naming the file or argument and the
// reason), 1 when the machine cannot do it (no OpenGL context).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/args.h"
#include "app/core/evaluate.h"
#include "app/core/pose_input.h"
#include "assets/model.h"

namespace app {

int RunInfo(const std::string& model_path, bool json);
int RunRender(const PoseArgs& args, const std::string& out_path, const std::string& size);
int RunPose(const PoseArgs& args, bool vertices, const std::string& skinning);
// Without --bake: the posed model (the pose of --anim/--time/--ik as the rest pose, skins kept).
// With --bake: the clip --anim (0 by default) baked with the --ik targets pinned, at the clip's
// frame rate, the rest pose unchanged.
int RunExport(const PoseArgs& args, const std::string& out_path, bool bake = false);

// `skelview bench`: a crowd of `characters` animated characters with IK on their limbs, updated
// (sample + IK + FK + palette, on this thread) and drawn offscreen for `frames` frames; prints the
// per-frame update and draw times (median and mean, milliseconds). `out_path` (optional) receives
// the last frame as PNG; `draw` false skips drawing.
struct BenchArgs {
  std::string model_path;
  int characters = 100;
  int frames = 120;
  int clip = 0;
  std::string size = "960x540";
  std::string out_path;
  bool draw = true;
};
int RunBench(const BenchArgs& args);

}  // namespace app

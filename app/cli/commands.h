// The headless commands of the command line: info, render, pose, export. Each returns the process
// exit code: 0 success, 2 bad input (one line on stderr naming the file or argument and the
// reason), 1 when the machine cannot do it (no OpenGL context).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/args.h"
#include "app/core/evaluate.h"
#include "assets/model.h"

namespace app {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// What every pose-producing command takes.
struct PoseArgs {
  std::string model_path;  // "" for the built-in character
  std::optional<int> anim;
  std::optional<float> time;
  std::vector<std::string> ik;      // raw --ik values
  std::vector<std::string> aim;     // raw --aim values
  std::vector<std::string> fabrik;  // raw --fabrik values
  std::vector<std::string> limit;   // raw --limit values
};

// Loads `path`, or builds the built-in character for "". On failure returns false with the
// importer's message (which names the file).
bool LoadModelOrBuiltin(const std::string& path, assets::Model* model, std::string* error);

// Parses and resolves the --ik, --aim, --fabrik and --limit values of `args` against a skeleton;
// false with a message naming the bad argument.
bool ParseConstraints(const PoseArgs& args, const ik::Skeleton& skeleton,
                      ConstraintRequests* requests, std::string* error);

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

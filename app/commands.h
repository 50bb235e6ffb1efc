// The headless commands of the command line: info, render, pose, export, bench. Each returns the
// process exit code: 0 success, 2 bad input (one line on stderr naming the file or argument and
// the reason), 1 when the machine cannot do it (no OpenGL context, a write that fails).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/args.h"
#include "app/evaluate.h"
#include "assets/model.h"

namespace app {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// What every pose-producing command takes.
struct PoseArgs {
  std::string model_path;  // "" for the built-in character
  // --allow-outside-files: the model may read buffers and images outside its folder
  // (assets::LoadOptions::allow_outside_files).
  bool allow_outside_files = false;
  std::optional<int> anim;
  std::optional<float> time;
  std::vector<std::string> ik;      // raw --ik values
  std::vector<std::string> aim;     // raw --aim values
  std::vector<std::string> fabrik;  // raw --fabrik values
  std::vector<std::string> limit;   // raw --limit values
};

// Loads `path` (in an import worker process, or in this one when SKELVIEW_IMPORT_INPROCESS=1), or
// builds the built-in character for "". `allow_outside_files` is --allow-outside-files. On failure
// returns false with the importer's message (which names the file).
bool LoadModelOrBuiltin(const std::string& path, bool allow_outside_files, assets::Model* model,
                        std::string* error);

// Writes `text` to standard output, every write checked; false with "cannot write to standard
// output: <reason>" in *error (e.g. `pose > /dev/full`: "No space left on device").
bool WriteStandardOutput(const std::string& text, std::string* error);
// Flushes what was printed through stdio / iostreams (help text) and checks that all of it was
// written; false with "cannot write to standard output: <reason>" in *error.
bool FlushStandardOutput(std::string* error);

// Parses and resolves the --ik, --aim, --fabrik and --limit values of `args` against a skeleton;
// false with a message naming the bad argument.
bool ParseConstraints(const PoseArgs& args, const ik::Skeleton& skeleton,
                      ConstraintRequests* requests, std::string* error);

int RunInfo(const std::string& model_path, bool json, bool allow_outside_files);
int RunRender(const PoseArgs& args, const std::string& out_path, const std::string& size);
int RunPose(const PoseArgs& args, bool vertices, const std::string& skinning);
// Without --bake: the posed model (the pose of --anim/--time/--ik as the rest pose, skins kept).
// With --bake: the clip --anim (0 by default) baked with the --ik targets pinned, at the clip's
// frame rate, the rest pose unchanged. render and export refuse (2) an output that is one of the
// model's input files (assets::CheckOutputsSpareInputs) or has an extension they do not write;
// a failed write is 1, and the previous file stays as it was.
int RunExport(const PoseArgs& args, const std::string& out_path, bool bake = false);

// `skelview bench`: a crowd of `characters` animated characters with IK on their limbs, updated
// (sample + IK + FK + palette, on this thread) and drawn offscreen for `frames` frames; prints the
// per-frame update and draw times (median and mean, milliseconds). `out_path` (optional) receives
// the last frame as PNG; `draw` false skips drawing.
struct BenchArgs {
  std::string model_path;
  bool allow_outside_files = false;
  int characters = 100;
  int frames = 120;
  int clip = 0;
  std::string size = "960x540";
  std::string out_path;
  bool draw = true;
};
int RunBench(const BenchArgs& args);

}  // namespace app

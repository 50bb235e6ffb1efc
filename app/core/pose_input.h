// What a pose is made from, on the command line and in the viewer alike: the model (a file,
// imported in a worker process, or the built-in character), the clip and time, the constraint
// arguments; and the exit codes that report bad input.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/evaluate.h"
#include "assets/model/model.h"

namespace app {

class ImportServer;

// Process exit codes (DESIGN.md): 0 success, 2 bad input (one line on stderr naming the file or
// argument and the reason), 1 when the machine cannot do it (no OpenGL context, a failed write).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// What every pose-producing command takes.
struct PoseArgs {
  std::string model_path;  // "" for the built-in character
  // --allow-outside-files: the model may read buffers and images outside its folder
  // (assets::LoadOptions::allow_outside_files).
  bool allow_outside_files = false;
  // --raw-units: keep the file's own units and axes (assets::LoadOptions::raw_units).
  bool raw_units = false;
  std::optional<int> anim;
  // --anim I+J+…: the clips played together with `anim`, in the order given (empty for one clip).
  std::vector<int> anim_together;
  std::optional<float> time;
  std::vector<std::string> ik;      // raw --ik values
  std::vector<std::string> aim;     // raw --aim values
  std::vector<std::string> fabrik;  // raw --fabrik values
  std::vector<std::string> limit;   // raw --limit values
  std::vector<std::string> pin;     // raw --pin values
  std::vector<std::string> move;    // raw --move values
  std::string body;                 // raw --body value ("" when not given)
  std::vector<std::string> morph;   // raw --morph values
  // --session FILE: the session's model (unless MODEL is given), its edit (chains, targets, pins,
  // limits, rotations, morph weights) under the constraints above, and its clip and time unless
  // --anim or --time say otherwise.
  std::string session_path;
  std::string save_session_path;  // --save-session FILE: the pose's constraints as a session
  bool mirror = false;            // --mirror: the final pose mirrored left to right
};

// Loads `path` (in an import worker process, or in this one when SKELVIEW_IMPORT_INPROCESS=1), or
// builds the built-in character for "". `allow_outside_files` is --allow-outside-files,
// `raw_units` --raw-units. `server` (optional) forks the worker (app/core/import_server.h), for
// commands that load many files; `texture_pixels` false checks textures without decoding them
// (LoadOptions::texture_pixels). On failure
// returns false with the importer's message (which names the file).
bool LoadModelOrBuiltin(const std::string& path, bool allow_outside_files, bool raw_units,
                        assets::Model* model, std::string* error, ImportServer* server = nullptr,
                        bool texture_pixels = true);

// Parses and resolves the --ik, --aim, --fabrik, --limit, --pin, --move, --body and --morph values
// of `args` against a character; false with a message naming the bad argument.
bool ParseConstraints(const PoseArgs& args, const Character& character,
                      ConstraintRequests* requests, std::string* error);

// Checks --anim's clip index against `model`'s clips: true when it names one, or when it is -1
// and `rest_allowed` (the bench's rest pose). Otherwise false with one line in *why naming --anim,
// the model's source and the clips it has. The one check of --anim for every command and the
// viewer.
bool ValidateAnim(int anim, const assets::Model& model, bool rest_allowed, std::string* why);

// The clip --anim asks for (args.anim, default 0, with args.anim_together), each checked by
// ValidateAnim against the character's model. One clip: *clip is its index. Several: they play
// together (Character::PlayTogether: their combination, named "A+B", is the character's clip
// after the model's own, which stay as loaded) and *clip is its index, so that every command
// samples and bakes it as any clip. False with ValidateAnim's message for the first bad index.
bool ResolveAnim(const PoseArgs& args, Character* character, int* clip, std::string* why);

}  // namespace app

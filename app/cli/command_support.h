// What the headless commands share (app/cli only): exit-code helpers that print one line, the
// output written at once, and PreparePose (load the model, evaluate the pose a command asked for,
// with --session, --mirror and --save-session). Each command lives in its own file:
// commands.cpp (info, pose), render_command.cpp, contacts_command.cpp (contacts, and the foot
// lock's numbers export prints), export_command.cpp, bench_command.cpp, retarget_command.cpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/core/chain_edit.h"
#include "app/core/character.h"
#include "app/core/evaluate.h"
#include "app/core/foot_lock.h"
#include "app/core/ground.h"
#include "app/core/import_server.h"
#include "assets/model/model.h"

namespace app {

// One line "skelview: MESSAGE" on stderr; the exit code kExitBadInput (2) / kExitFailure (1).
int BadInput(const std::string& message);
int Failure(const std::string& message);
// printf into a string (the command's output, written at once by Print).
__attribute__((format(printf, 2, 3))) void Appendf(std::string* out, const char* format, ...);
// Writes a command's output to standard output; kExitOk, or kExitFailure with the reason on
// stderr when it cannot be written (e.g. `pose > /dev/full`).
int Print(const std::string& text);
// The model's load warnings, one line each on stderr.
void PrintWarnings(const assets::Model& model);

// A model with the pose a command asked for. Not moved once prepared: `character` refers to
// `model`.
struct PreparedPose {
  PreparedPose() = default;
  PreparedPose(const PreparedPose&) = delete;
  PreparedPose& operator=(const PreparedPose&) = delete;
  assets::Model model;
  Character character;  // the model's rig facts and the clips played together
  ClipTime clip_time;
  ConstraintRequests requests;
  PoseState state;
  // --anim I+J+…: the clips played together (their combination is the character's clip
  // clip_time.clip, after the model's own); empty for one clip or none.
  std::vector<int> together;
  // The constraints as an edit (EditForRequests), under the --session's edit when one is given.
  EditState edit;
  bool edited = false;  // a --session or --mirror changed the pose
  // The session's clip is the generated range of motion (appended to the model's clips).
  bool range_of_motion = false;
};

// Loads the model and evaluates the requested pose; returns an exit code (kExitOk to go on).
// `server` (batch commands: one file of many) forks the import worker, and then warnings and
// errors name the file.
int PreparePose(const PoseArgs& given, PreparedPose* prepared, ImportServer* server = nullptr);

// A length in millimetres with one decimal ("12.3").
std::string Millimetres(float value);
// The foot lock of clip `clip` at `fps` on `ground`: its contacts, plan and report; false with the
// message (no legs).
bool LockFeet(const Character& character, int clip, float fps, const Ground& ground,
              ClipContacts* contacts, std::shared_ptr<const FootLockPlan>* plan,
              FootLockReport* report, std::string* error);
// The lock's before/after numbers in one line (contacts' last line, export's message).
std::string NumbersLine(const FootLockReport& report);

}  // namespace app

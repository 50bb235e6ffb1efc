// What the headless commands share: see command_support.h.
#include "app/cli/command_support.h"

#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "app/core/bake.h"
#include "app/core/range_of_motion.h"
#include "app/core/session.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"
#include "ik/body/mirror.h"
#include "ik/core/kinematics.h"

namespace app {

int BadInput(const std::string& message) {
  std::cerr << "skelview: " << assets::MessageLine(message) << "\n";
  return kExitBadInput;
}

int Failure(const std::string& message) {
  std::cerr << "skelview: " << assets::MessageLine(message) << "\n";
  return kExitFailure;
}

void Appendf(std::string* out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (n > 0) {
    const size_t at = out->size();
    out->resize(at + static_cast<size_t>(n) + 1);
    std::vsnprintf(out->data() + at, static_cast<size_t>(n) + 1, format, again);
    out->resize(at + static_cast<size_t>(n));
  }
  va_end(again);
}

int Print(const std::string& text) {
  std::string error;
  if (!WriteStandardOutput(text, &error)) return Failure(error);
  return kExitOk;
}

void PrintWarnings(const assets::Model& model) {
  for (const std::string& w : model.warnings)
    std::cerr << "skelview: warning: " << assets::MessageLine(w) << "\n";
}

namespace {

// --session: the file read (the model comes from it unless MODEL is given).
int ReadSessionArg(PoseArgs* args, std::optional<SessionFile>* file) {
  if (args->session_path.empty()) return kExitOk;
  SessionFile f;
  std::string error;
  if (!ReadSessionFile(args->session_path, &f, &error)) return BadInput(error);
  if (args->model_path.empty()) {
    args->model_path = f.model_path;
    args->raw_units = args->raw_units || f.raw_units;
  }
  *file = std::move(f);
  return kExitOk;
}

// The session's edit with the command line's constraints added (chains appended, limits and
// morph weights over the session's; --body replaces its body options).
EditState MergedEdit(const EditState& session, const EditState& cli, const PoseArgs& args) {
  EditState edit = session;
  edit.chains.insert(edit.chains.end(), cli.chains.begin(), cli.chains.end());
  for (const auto& [joint, limit] : cli.limits.entries()) edit.limits.Set(joint, limit);
  for (const auto& [key, weight] : cli.morph_weights) edit.morph_weights[key] = weight;
  if (!args.body.empty()) edit.body_options = cli.body_options;
  return edit;
}

// --save-session FILE: the model, the edit, the clip and the time as a session.
int SaveSessionArg(const PoseArgs& args, const PreparedPose& prepared) {
  if (args.save_session_path.empty()) return kExitOk;
  const std::string& path = args.save_session_path;
  if (!IsSessionPath(path)) {
    return BadInput("--save-session " + path + ": a session file's name ends in .skelview");
  }
  std::string error;
  if (!assets::CheckOutputsSpareInputs(prepared.model, {path}, &error)) {
    return BadInput("--save-session " + path + ": " + error);
  }
  Session session;
  session.model_path = args.model_path;
  session.raw_units = args.raw_units;
  session.edit = prepared.edit;
  const int file_clips = prepared.character.file_clip_count();
  session.playback.clip = prepared.clip_time.clip < file_clips ? prepared.clip_time.clip : -1;
  session.range_of_motion = prepared.range_of_motion;
  session.playback.together = prepared.together;
  if (!prepared.together.empty()) session.playback.clip = prepared.together[0];
  session.playback.time = prepared.clip_time.time;
  if (!WriteSessionFile(path, SessionJson(prepared.model, session, path), &error)) {
    return Failure(error);
  }
  return kExitOk;
}

}  // namespace

int PreparePose(const PoseArgs& given, PreparedPose* prepared, ImportServer* server) {
  PoseArgs args = given;
  std::optional<SessionFile> session_file;
  if (int code = ReadSessionArg(&args, &session_file); code != kExitOk) return code;
  assets::Model* model = &prepared->model;
  ClipTime* clip_time = &prepared->clip_time;
  ConstraintRequests* requests = &prepared->requests;
  PoseState* state = &prepared->state;
  std::string error;
  if (!LoadModelOrBuiltin(args.model_path, args.allow_outside_files, args.raw_units, model, &error,
                          server)) {
    return BadInput(error);  // names the file
  }
  const std::string file = server ? assets::ShownPath(args.model_path) + ": " : "";
  if (server) {
    for (const std::string& w : model->warnings) {
      std::cerr << "skelview: warning: " << file << w << "\n";
    }
  } else {
    PrintWarnings(*model);
  }
  Session session;
  if (session_file) {
    SessionProblems problems;
    if (!AttachSession(*session_file, *model, nullptr, &session, &problems, &error)) {
      return BadInput(error);
    }
    for (const std::string& line : problems.lines) {
      std::cerr << "skelview: warning: "
                << assets::MessageLine(session_file->path + ": could not reattach " + line) << "\n";
    }
  }
  prepared->character = Character(*model);
  const Character& character = prepared->character;
  if (session_file && !args.anim && !args.time && session.range_of_motion) {
    model->clips.push_back(MakeModelRangeOfMotion(character, session.edit.limits).clip);
    prepared->range_of_motion = true;
  }
  if (session_file && !args.anim && !args.time) {  // the session's clip and time
    if (session.range_of_motion) {
      clip_time->clip = character.file_clip_count() - 1;
    } else if (session.playback.together.size() > 1) {
      clip_time->clip = prepared->character.PlayTogether(session.playback.together);
      prepared->together = session.playback.together;
    } else {
      clip_time->clip = session.playback.clip;
    }
    if (const assets::Clip* clip = character.clip(clip_time->clip)) {
      clip_time->time = std::clamp(session.playback.time, 0.0f, clip->duration);
    }
  }
  if (args.anim || args.time) {
    if (!ResolveAnim(args, &prepared->character, &clip_time->clip, &error)) {
      return BadInput(error);
    }
    if (!args.anim_together.empty()) {
      prepared->together = {args.anim.value_or(0)};
      prepared->together.insert(prepared->together.end(), args.anim_together.begin(),
                                args.anim_together.end());
    }
    const assets::Clip& clip = *character.clip(clip_time->clip);
    std::string note;
    clip_time->time = ClampClipTime(args.time.value_or(0.0f), clip.duration, clip.name, &note);
    if (!note.empty())
      std::cerr << "skelview: warning: " << assets::MessageLine(file + note) << "\n";
  }
  if (!ParseConstraints(args, character, requests, &error)) return BadInput(file + error);
  KeyRequestsAt(clip_time->time, requests);  // keyed targets where they are at the time
  prepared->edit = EditForRequests(character, *requests);
  for (const MorphOverride& o : requests->morph) {
    prepared->edit.morph_weights[{o.mesh, o.target}] = o.weight;
  }
  if (session_file) {  // the session's edit with the constraints, through the frame pipeline
    prepared->edit = MergedEdit(session.edit, prepared->edit, args);
    EditedFrame frame;
    EvaluateEditedFrame(character, *clip_time, prepared->edit, &frame, state);
    prepared->edited = true;
  } else {
    EvaluatePose(character, *clip_time, *requests, state);
  }
  if (args.mirror) {  // the final pose, mirrored
    const ik::MirrorMap map = ik::BuildMirrorMap(model->skeleton, character.limbs());
    ik::MirrorPose(map, model->skeleton, state->pose, &state->pose);
    ik::LocalToModel(model->skeleton, state->pose, &state->models);
    prepared->edited = true;
  }
  return SaveSessionArg(args, *prepared);
}

std::string Millimetres(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", double(value));
  return text;
}

bool LockFeet(const Character& character, int clip, float fps, const Ground& ground,
              ClipContacts* contacts, std::shared_ptr<const FootLockPlan>* plan,
              FootLockReport* report, std::string* error) {
  if (!FindClipContacts(character, clip, fps, contacts, error)) return false;
  FootLockOptions options;
  options.ground = ground;
  *plan = PlanFootLock(character, *contacts, options);
  *report = ReportFootLock(character, *contacts, ground, *plan);
  return true;
}

std::string NumbersLine(const FootLockReport& r) {
  return "skate max " + Millimetres(r.after.max_skate_mm) + " mm, mean " +
         Millimetres(r.after.mean_skate_mm) + " mm (was " + Millimetres(r.before.max_skate_mm) +
         ", " + Millimetres(r.before.mean_skate_mm) + "); penetration " +
         Millimetres(r.after.penetration_mm) + " mm (was " + Millimetres(r.before.penetration_mm) +
         "), float " + Millimetres(r.after.float_mm) + " mm (was " +
         Millimetres(r.before.float_mm) + "); knee jump " + Millimetres(r.knee_jump_deg) +
         " deg/frame";
}

bool WriteStandardOutput(const std::string& text, std::string* error) {
  // Straight to the file descriptor, so a failure carries its errno; stdio's buffer is flushed
  // first to keep anything printed before in order.
  std::cout.flush();
  std::fflush(stdout);
  const char* data = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = write(STDOUT_FILENO, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error =
          std::string("cannot write to standard output: ") + std::strerror(n < 0 ? errno : EIO);
      return false;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

bool FlushStandardOutput(std::string* error) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int flush_errno = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return true;
  *error = std::string("cannot write to standard output: ") +
           (!flushed && flush_errno != 0 ? std::strerror(flush_errno) : "write error");
  return false;
}

}  // namespace app

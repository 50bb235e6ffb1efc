// info / render / pose / export / bench: load, evaluate the pose, and print, draw or write it.
#include "app/cli/commands.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>

#include "app/core/bake.h"
#include "app/core/check_inputs.h"
#include "app/core/crowd.h"
#include "app/core/display_spec.h"
#include "app/core/evaluate.h"
#include "app/core/foot_lock.h"
#include "app/core/ghost_poses.h"
#include "app/core/ground.h"
#include "app/core/import_process.h"
#include "app/core/import_server.h"
#include "app/core/json_output.h"
#include "app/core/mirror_edit.h"
#include "app/core/range_of_motion.h"
#include "app/core/session.h"
#include "app/scene/gl_context.h"
#include "app/scene/legend.h"
#include "app/scene/scene_draw.h"
#include "assets/builtin/builtin_character.h"
#include "assets/export/exporter.h"
#include "assets/files/file_output.h"
#include "assets/files/image_file.h"
#include "assets/files/text.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "assets/model/skinning.h"
#include "assets/model/weight_check.h"
#include "ik/body/limbs.h"
#include "ik/body/mirror.h"
#include "ik/core/kinematics.h"
#include "renderer/offscreen.h"
#include "renderer/renderer.h"

namespace app {

namespace {

int BadInput(const std::string& message) {
  std::cerr << "skelview: " << assets::MessageLine(message) << "\n";
  return kExitBadInput;
}

int Failure(const std::string& message) {
  std::cerr << "skelview: " << assets::MessageLine(message) << "\n";
  return kExitFailure;
}

// printf into a string (the command's output, written at once by Print).
__attribute__((format(printf, 2, 3))) void Appendf(std::string* out, const char* format, ...) {
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

// Writes a command's output to standard output; kExitOk, or kExitFailure with the reason on
// stderr when it cannot be written (e.g. `pose > /dev/full`).
int Print(const std::string& text) {
  std::string error;
  if (!WriteStandardOutput(text, &error)) return Failure(error);
  return kExitOk;
}

void PrintWarnings(const assets::Model& model) {
  for (const std::string& w : model.warnings)
    std::cerr << "skelview: warning: " << assets::MessageLine(w) << "\n";
}

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

// Loads the model and evaluates the requested pose; returns an exit code (kExitOk to go on).
// `server` (batch commands: one file of many) forks the import worker, and then warnings and
// errors name the file.
int PreparePose(const PoseArgs& given, PreparedPose* prepared, ImportServer* server = nullptr) {
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

}  // namespace

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

int RunInfo(const std::string& model_path, bool json, bool allow_outside_files, bool raw_units) {
  assets::Model model;
  std::string error;
  if (!LoadModelOrBuiltin(model_path, allow_outside_files, raw_units, &model, &error)) {
    return BadInput(error);
  }
  PrintWarnings(model);
  if (json) {
    return Print(DumpJson(InfoJson(model), 2) + "\n");
  }
  std::string text;
  const ik::Skeleton& skeleton = model.skeleton;
  int bones = 0;
  for (bool b : model.is_bone) bones += b ? 1 : 0;
  // Names and paths come from files: shown escaped, so that no byte of theirs reaches the terminal
  // as a control sequence.
  auto shown = [](const std::string& name) { return assets::Escaped(name); };
  Appendf(&text, "model:     %s\n", shown(model.source).c_str());
  if (!model.avatar.empty()) {
    const assets::AvatarMeta& avatar = model.avatar;
    auto or_none = [&](const std::string& s) { return s.empty() ? "(not given)" : shown(s); };
    Appendf(&text, "avatar:    %s, %zu humanoid bones\n", avatar.format.c_str(),
            skeleton.humanoid().size());
    Appendf(&text, "  title:   %s\n", or_none(avatar.title).c_str());
    Appendf(&text, "  author:  %s\n", or_none(avatar.author).c_str());
    Appendf(&text, "  licence: %s\n", or_none(avatar.license).c_str());
  }
  Appendf(&text, "meshes:    %zu (%zu vertices, %zu triangles)\n", model.meshes.size(),
          model.vertex_count(), model.triangle_count());
  for (const assets::Mesh& mesh : model.meshes) {
    Appendf(&text, "  %-24s %7zu vertices %7zu triangles  %s, %zu bones\n",
            shown(mesh.name).c_str(), mesh.positions.size(), mesh.indices.size() / 3,
            mesh.skinned ? "skinned" : "static", mesh.bone_joints.size());
  }
  size_t morphed = 0, targets = 0;
  for (const assets::Mesh& mesh : model.meshes) {
    morphed += mesh.targets.empty() ? 0 : 1;
    targets += mesh.targets.size();
  }
  if (morphed > 0) {
    Appendf(&text, "morph targets: %zu on %zu %s\n", targets, morphed,
            morphed == 1 ? "mesh" : "meshes");
    // Each mesh's targets with their default weights ("#I" for an unnamed target).
    for (const assets::Mesh& mesh : model.meshes) {
      if (mesh.targets.empty()) continue;
      std::string list;
      for (size_t t = 0; t < mesh.targets.size(); ++t) {
        const std::string& name = mesh.targets[t].name;
        const float weight = t < mesh.target_weights.size() ? mesh.target_weights[t] : 0.0f;
        list += (t > 0 ? ", " : "") + (name.empty() ? "#" + std::to_string(t) : shown(name)) + " " +
                ShortestFloatText(weight);
      }
      Appendf(&text, "  %-24s %s\n", shown(mesh.name).c_str(), list.c_str());
    }
  }
  const assets::InfluenceStats& influences = model.influences;
  if (influences.over_four > 0) {
    Appendf(&text, "influences: %llu vertices use more than 4 joints (up to 8 kept)\n",
            static_cast<unsigned long long>(influences.over_four));
  }
  if (influences.over_eight > 0) {
    Appendf(&text, "            %llu had more than 8: %llu influences dropped\n",
            static_cast<unsigned long long>(influences.over_eight),
            static_cast<unsigned long long>(influences.dropped));
  }
  const assets::WeightProblems problems = assets::CheckWeights(model);
  Appendf(
      &text, "weight problems: %llu unweighted, %llu not summing to 1, %llu over 8 influences\n",
      static_cast<unsigned long long>(problems.count(assets::WeightProblem::kUnweighted)),
      static_cast<unsigned long long>(problems.count(assets::WeightProblem::kNotNormalized)),
      static_cast<unsigned long long>(problems.count(assets::WeightProblem::kTooManyInfluences)));
  Appendf(&text, "joints:    %d (%d deforming bones)\n", skeleton.joint_count(), bones);
  // Indented by depth (parents come first, so one pass), at most kMaxIndent levels: a chain
  // thousands of joints deep must not print millions of spaces.
  constexpr int kMaxIndent = 32;
  std::vector<int> depth(static_cast<size_t>(skeleton.joint_count()), 0);
  for (int i = 0; i < skeleton.joint_count(); ++i) {
    const int parent = skeleton.parent(i);
    depth[i] = parent < 0 ? 0 : depth[parent] + 1;
    const bool bone = i < static_cast<int>(model.is_bone.size()) && model.is_bone[i];
    const std::string deep =
        depth[i] > kMaxIndent ? "(depth " + std::to_string(depth[i]) + ") " : "";
    Appendf(&text, "  %*s%s%s%s\n", 2 * std::min(depth[i], kMaxIndent), "", deep.c_str(),
            shown(skeleton.name(i)).c_str(), bone ? "" : "  (node)");
  }
  Appendf(&text, "clips:     %zu\n", model.clips.size());
  for (size_t c = 0; c < model.clips.size(); ++c) {
    Appendf(&text, "  %zu: %s, %.3f s, %zu animated joints\n", c,
            shown(model.clips[c].name).c_str(), static_cast<double>(model.clips[c].duration),
            model.clips[c].channels.size());
  }
  const std::vector<ik::Limb> limbs = ik::DetectLimbs(skeleton, &model.is_bone);
  Appendf(&text, "limbs:     %zu\n", limbs.size());
  for (const ik::Limb& limb : limbs) {
    Appendf(&text, "  %-9s %s / %s / %s  (by %s)\n", limb.label.c_str(),
            shown(skeleton.name(limb.chain.start)).c_str(),
            shown(skeleton.name(limb.chain.mid)).c_str(),
            shown(skeleton.name(limb.chain.end)).c_str(), ik::LimbFoundByName(limb.found_by));
    if (limb.target >= 0 || limb.pole >= 0) {
      Appendf(&text, "            rig controls: target %s, pole %s\n",
              limb.target >= 0 ? shown(skeleton.name(limb.target)).c_str() : "(none)",
              limb.pole >= 0 ? shown(skeleton.name(limb.pole)).c_str() : "(none)");
    }
  }
  return Print(text);
}

int RunPose(const PoseArgs& args, bool vertices, const std::string& skinning) {
  if (skinning != "cpu" && skinning != "gpu") {
    return BadInput("--skinning '" + assets::ShownArgument(skinning) + "': expected cpu or gpu");
  }
  PreparedPose prepared;
  if (int code = PreparePose(args, &prepared); code != kExitOk) return code;
  const assets::Model& model = prepared.model;
  const ClipTime& clip_time = prepared.clip_time;
  const ConstraintRequests& requests = prepared.requests;
  const PoseState& state = prepared.state;
  Json doc;
  doc["model"] = model.source;
  if (clip_time.clip >= 0) {
    doc["anim"] = {{"index", clip_time.clip},
                   {"name", prepared.character.clip(clip_time.clip)->name},
                   {"time", Rounded(clip_time.time)}};
    // Several clips together: "index" is the first, "together" all of them in order.
    if (!prepared.together.empty()) {
      doc["anim"]["index"] = prepared.together[0];
      doc["anim"]["together"] = prepared.together;
    }
  } else {
    doc["anim"] = nullptr;
  }
  doc["joints"] = JointsJson(model, state);
  doc["ik"] = IkJson(model, requests.ik, state);
  if (!requests.aim.empty()) doc["aim"] = AimJson(model, requests.aim, state);
  if (!requests.fabrik.empty()) doc["fabrik"] = FabrikJson(model, requests.fabrik, state);
  if (state.body_ran) doc["body"] = BodyJson(model, requests, state);
  if (vertices) {
    std::vector<std::vector<glm::vec3>> positions(model.meshes.size());
    if (skinning == "gpu") {
      std::string error;
      auto gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
      if (!gl) return Failure("--skinning gpu: " + error);
      auto skinned = renderer::SkinOnGpu(model, state.models, &error, &state.morph_weights);
      if (!skinned) return Failure("--skinning gpu: " + error);
      positions = std::move(skinned->positions);
    } else {
      for (size_t m = 0; m < model.meshes.size(); ++m) {
        const assets::Mesh& mesh = model.meshes[m];
        assets::SkinMesh(
            mesh, state.models,
            m < state.morph_weights.size() ? state.morph_weights[m] : mesh.target_weights,
            &positions[m], nullptr);
      }
    }
    doc["skinning"] = skinning;
    doc["meshes"] = MeshesJson(model, positions);
  }
  return Print(DumpJson(doc, 1) + "\n");
}

namespace {

// What every image of one `render` command shares, parsed once.
struct RenderPlan {
  int width = 1280, height = 720;
  DisplaySpec display;
  ViewPreset preset = ViewPreset::kFront;
  RenderLook look;
};

// The scene options of `prepared` for the plan's --show list, after checking that `out_path` is
// not one of the model's files; an exit code (kExitOk to go on).
int PrepareSceneOptions(const PreparedPose& prepared, const RenderPlan& plan,
                        const std::string& out_path, SceneOptions* options) {
  const assets::Model& model = prepared.model;
  const ConstraintRequests& requests = prepared.requests;
  const DisplaySpec& display = plan.display;
  std::string error;
  if (const std::string problem = assets::OutputProblem(out_path); !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + problem);
  }
  if (!assets::CheckOutputsSpareInputs(model, {out_path}, &error)) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + error);
  }
  options->ik_overlay = !requests.ik.empty() || !requests.aim.empty() || !requests.fabrik.empty();
  options->all_chains = true;  // no chain is active on the command line: each explains itself
  if (!plan.look.show.empty()) {
    ApplyDisplaySpec(display, model.skeleton, options);
    if (!display.weights.empty() && options->weight_joint < 0) {
      return BadInput("--show weights=" + display.weights + ": the model has no joint named '" +
                      display.weights + "'");
    }
    if (!display.trail.empty() && options->trail_joint < 0) {
      return BadInput("--show trail=" + display.trail + ": the model has no joint named '" +
                      display.trail + "'");
    }
  }
  return kExitOk;
}

// Draws `prepared` into `target` (plan.width x plan.height) and writes it to `out_path`; an exit
// code.
int DrawAndWrite(renderer::Renderer* renderer, renderer::OffscreenTarget* target,
                 const PreparedPose& prepared, const RenderPlan& plan, SceneOptions options,
                 const std::string& out_path) {
  const assets::Model& model = prepared.model;
  const ConstraintRequests& requests = prepared.requests;
  const PoseState& state = prepared.state;
  const RenderLook& look = plan.look;
  const int width = plan.width, height = plan.height;
  std::string error;
  auto gpu_model = renderer::GpuModel::Create(model, &error);
  if (!gpu_model) return BadInput(model.source + ": " + error);
  gpu_model->UpdatePose(state.models);
  gpu_model->UpdateMorphWeights(state.morph_weights);
  target->Bind();
  const float aspect = float(width) / float(height);
  OrbitCamera camera = DefaultCamera(model, state.models, aspect);
  camera.ortho = look.ortho;
  if (!look.view.empty()) {
    LookAlong(plan.preset, &camera);
    const assets::Bounds bounds = assets::ModelBounds(model, state.models, &state.morph_weights);
    if (!bounds.empty()) camera.Frame(bounds.min, bounds.max, aspect);
  }
  const SceneExtent extent = MeasureModel(model, &prepared.character.limbs());
  options.ground_lift = look.on_ground ? extent.ground_lift : 0.0f;
  camera.target.y += options.ground_lift;  // the model framed where it stands
  renderer::View view;
  view.view = LiftedView(camera.View(), options.ground_lift);
  view.projection = camera.Projection(aspect);
  view.viewport = {width, height};
  // Onion skins and trail, the clip played as the viewer plays it by default (looping), the
  // constraints pinned where the command line put them.
  GhostCache ghosts;
  Playback playback;
  playback.clip = prepared.clip_time.clip;
  playback.time = prepared.clip_time.time;
  ghosts.Update(prepared.character, playback, EditForRequests(prepared.character, requests),
                options.onion_count, options.onion_step, options.trail_joint);
  AnimationOverlays animation;
  animation.ghosts = &ghosts.ghosts();
  animation.trail = &ghosts.trail();
  animation.time = playback.time;
  if (options.trail_joint >= 0) {
    animation.trail_now = glm::vec3(state.models[static_cast<size_t>(options.trail_joint)][3]);
    animation.mark_now = true;
  }
  SceneOverlays overlays;
  DrawScene(*renderer, *gpu_model, model, extent, requests, state, options, view, &overlays,
            &animation);
  if (options.legend) {
    LegendEntry entries[kMaxLegendEntries];
    const int count = LegendEntries(model, extent, requests, state, options, entries);
    renderer::View pixels;
    BuildLegendImage(entries, count, width, height, &overlays.marks, &pixels);
    renderer->DrawShapes(overlays.marks, pixels, renderer::DepthMode::kOnTop);
  }
  const std::vector<uint8_t> pixels = target->ReadPixels();
  if (!assets::WriteImage(out_path, width, height, pixels, &error)) return Failure(error);
  return kExitOk;
}

// The headless GL objects of a render: a context, the renderer and one offscreen target.
struct RenderGl {
  std::unique_ptr<GlContext> gl;
  std::optional<renderer::Renderer> renderer;
  std::optional<renderer::OffscreenTarget> target;
};

// Creates them for the plan's size; an exit code.
int CreateRenderGl(const RenderPlan& plan, RenderGl* out) {
  std::string error;
  out->gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
  if (!out->gl) return Failure("render: " + error);
  if (!CheckImageSize(plan.width, plan.height, out->gl->MaxImageSide(), &error)) {
    return BadInput(error);
  }
  out->renderer = renderer::Renderer::Create(&error);
  if (!out->renderer) return Failure("render: " + error);
  out->target = renderer::OffscreenTarget::Create(plan.width, plan.height, &error);
  if (!out->target) return Failure("render: " + error);
  return kExitOk;
}

constexpr char kNamePattern[] = "{name}";

// The {name} of each input of a batch render: its path below the folder given (the file name
// for a file given), without its extension, '/' turned into '_'; inputs whose names would
// collide keep their extension ("CesiumMan.gltf", "CesiumMan.glb").
std::vector<std::string> BatchNames(const std::string& given,
                                    const std::vector<std::string>& inputs) {
  std::error_code error;
  const bool folder = std::filesystem::is_directory(given, error);
  auto name = [&](const std::string& input, bool keep_extension) {
    std::filesystem::path relative = folder ? std::filesystem::path(input).lexically_relative(given)
                                            : std::filesystem::path(input).filename();
    if (!keep_extension) relative.replace_extension();
    std::string text = relative.generic_string();
    for (char& c : text) {
      if (c == '/') c = '_';
    }
    return text;
  };
  std::map<std::string, int> uses;
  for (const std::string& input : inputs) ++uses[name(input, false)];
  std::vector<std::string> names;
  for (const std::string& input : inputs) {
    const std::string plain = name(input, false);
    names.push_back(uses[plain] > 1 ? name(input, true) : plain);
  }
  return names;
}

// `render MODEL|DIR -o OUT` with {name} in OUT: every model file of DIR (or MODEL itself) drawn
// in this one process, each imported by a worker forked by one import server. A file that fails
// is named on stderr and the others are still drawn; the exit code is 2 when any file was bad
// input, else 1 when any image could not be written.
int RunRenderBatch(const PoseArgs& args, const std::string& out_pattern, const RenderPlan& plan) {
  const std::vector<std::string> inputs = CollectInputs({args.model_path});
  if (inputs.empty())
    return BadInput(assets::ShownPath(args.model_path) + ": no model files in it");
  const std::vector<std::string> names = BatchNames(args.model_path, inputs);
  std::vector<std::string> outputs;
  std::map<std::string, std::string> output_of;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string out = out_pattern;
    for (size_t at; (at = out.find(kNamePattern)) != std::string::npos;) {
      out.replace(at, sizeof(kNamePattern) - 1, names[i]);
    }
    if (const auto [it, fresh] = output_of.emplace(out, inputs[i]); !fresh) {
      return BadInput("-o " + assets::ShownPath(out_pattern) + ": " +
                      assets::ShownPath(it->second) + " and " + assets::ShownPath(inputs[i]) +
                      " would both be drawn to " + assets::ShownPath(out));
    }
    outputs.push_back(out);
  }
  RenderGl gl;
  if (const int code = CreateRenderGl(plan, &gl); code != kExitOk) return code;
  ImportServer server;
  std::string server_error;
  server.Start("", &server_error);  // without it, each file gets a new worker process
  bool bad_input = false, write_failed = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    PoseArgs file_args = args;
    file_args.model_path = inputs[i];
    PreparedPose prepared;
    SceneOptions options;
    int code = PreparePose(file_args, &prepared, server.running() ? &server : nullptr);
    if (code == kExitOk) code = PrepareSceneOptions(prepared, plan, outputs[i], &options);
    if (code == kExitOk) {
      code = DrawAndWrite(&*gl.renderer, &*gl.target, prepared, plan, options, outputs[i]);
    }
    bad_input = bad_input || code == kExitBadInput;
    write_failed = write_failed || code == kExitFailure;
  }
  return bad_input ? kExitBadInput : write_failed ? kExitFailure : kExitOk;
}

}  // namespace

int RunRender(const PoseArgs& args, const std::string& out_path, const std::string& size,
              const RenderLook& look) {
  RenderPlan plan;
  plan.look = look;
  std::string error;
  if (!size.empty() && !ParseSize(size, &plan.width, &plan.height, &error)) {
    return BadInput(error);
  }
  if (!look.show.empty() && !ParseShowList(look.show, &plan.display, &error)) {
    return BadInput(error);
  }
  if (!look.view.empty() && !ParseViewPreset(look.view, &plan.preset)) {
    return BadInput("--view '" + assets::ShownArgument(look.view) +
                    "': expected front, back, left, right, top or bottom");
  }
  if (out_path.empty()) return BadInput("render needs -o OUT.png");
  if (const std::string problem = assets::ImageExtensionProblem(out_path); !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + problem);
  }
  const bool batch = out_path.find(kNamePattern) != std::string::npos;
  std::error_code fs_error;
  if (!batch && !args.model_path.empty() &&
      std::filesystem::is_directory(args.model_path, fs_error)) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": drawing every model of the folder " +
                    assets::ShownPath(args.model_path) +
                    " needs {name} in the output path (e.g. -o thumbs/{name}.png)");
  }
  if (batch) {
    if (args.model_path.empty()) {
      return BadInput("-o " + assets::ShownPath(out_path) +
                      ": {name} needs a MODEL file or folder");
    }
    return RunRenderBatch(args, out_path, plan);
  }
  PreparedPose prepared;
  if (int code = PreparePose(args, &prepared); code != kExitOk) return code;
  SceneOptions options;
  if (int code = PrepareSceneOptions(prepared, plan, out_path, &options); code != kExitOk) {
    return code;
  }
  RenderGl gl;
  if (const int code = CreateRenderGl(plan, &gl); code != kExitOk) return code;
  return DrawAndWrite(&*gl.renderer, &*gl.target, prepared, plan, options, out_path);
}

namespace {

std::string Millimetres(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", double(value));
  return text;
}

// The foot lock of clip `clip` at `fps` on `ground`: its contacts, plan and report; false with the
// message (no legs).
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

Json NumbersJson(const FeetNumbers& n) {
  Json j = Json::object();
  j["max_skate_mm"] = n.max_skate_mm;
  j["mean_skate_mm"] = n.mean_skate_mm;
  j["penetration_mm"] = n.penetration_mm;
  j["float_mm"] = n.float_mm;
  j["knee_step_deg"] = n.knee_step_deg;
  return j;
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

}  // namespace

int RunContacts(const PoseArgs& args, const std::optional<std::string>& ground_spec, bool json) {
  Ground ground;
  std::string error;
  if (ground_spec && !ParseGroundSpec(*ground_spec, &ground, &error)) return BadInput(error);
  PoseArgs pose_args = args;
  if (!pose_args.anim) pose_args.anim = 0;
  PreparedPose prepared;
  if (int code = PreparePose(pose_args, &prepared); code != kExitOk) return code;
  const Character& character = prepared.character;
  const assets::Model& model = prepared.model;
  const int clip = prepared.clip_time.clip;
  const std::string& clip_name = character.clip(clip)->name;
  BakePlan bake;
  if (!PlanBake(character, clip, &bake, &error)) return BadInput(error);
  ClipContacts contacts;
  std::shared_ptr<const FootLockPlan> plan;
  FootLockReport report;
  if (!LockFeet(character, clip, bake.fps, ground, &contacts, &plan, &report, &error)) {
    return BadInput(error);
  }
  const FeetSamples& s = contacts.source;
  // Each contact's mean height above the ground in the source.
  auto height_mm = [&](size_t leg, const ik::FootContact& c) {
    double sum = 0.0;
    for (int f = c.first; f <= c.last; ++f)
      sum += double(ground.HeightAbove(s.ankle[leg][static_cast<size_t>(f)]));
    return static_cast<float>(sum / double(c.last - c.first + 1)) * 1000.0f;
  };
  if (json) {
    Json doc = Json::object();
    Json feet = Json::array();
    for (size_t i = 0; i < s.legs.size(); ++i) {
      Json foot = Json::object();
      foot["joint"] = model.skeleton.name(s.legs[i].chain.end);
      Json list = Json::array();
      for (size_t k = 0; k < contacts.contacts[i].size(); ++k) {
        const ik::FootContact& c = contacts.contacts[i][k];
        Json entry = Json::object();
        entry["start"] = s.Time(c.first);
        entry["end"] = s.Time(c.last);
        entry["skate_mm"] = report.before.skate_mm[i][k];
        entry["height_mm"] = height_mm(i, c);
        entry["locked_skate_mm"] = report.after.skate_mm[i][k];
        list.push_back(entry);
      }
      foot["contacts"] = list;
      foot["leg"] = s.legs[i].label;
      feet.push_back(foot);
    }
    doc["feet"] = feet;
    doc["max_skate_mm"] = report.before.max_skate_mm;
    doc["clip"] = clip_name;
    doc["fps"] = s.fps;
    doc["in_place"] = contacts.in_place;
    doc["travel"] = Json::array({contacts.travel.x, contacts.travel.y, contacts.travel.z});
    doc["ground"] = ground.spec;
    doc["before"] = NumbersJson(report.before);
    doc["after"] = NumbersJson(report.after);
    doc["knee_jump_deg"] = report.knee_jump_deg;
    return Print(DumpJson(doc, 2) + "\n");
  }
  std::string out;
  char fps[32];
  std::snprintf(fps, sizeof(fps), "%g", double(s.fps));
  char speed[64];
  std::snprintf(speed, sizeof(speed), "%.3g", double(glm::length(contacts.travel)));
  out += "clip " + std::to_string(clip) + " '" + assets::ShownArgument(clip_name) + "' at " + fps +
         " fps, " +
         (contacts.in_place ? "in place (travel " + std::string(speed) + " units/s)"
                            : std::string("in the world")) +
         ", ground " + assets::ShownArgument(ground.spec) + "\n";
  for (size_t i = 0; i < s.legs.size(); ++i) {
    out += assets::ShownArgument(model.skeleton.name(s.legs[i].chain.end)) + ": " +
           std::to_string(contacts.contacts[i].size()) + " contacts\n";
    for (size_t k = 0; k < contacts.contacts[i].size(); ++k) {
      const ik::FootContact& c = contacts.contacts[i][k];
      Appendf(&out, "  %.3f-%.3f s  skate %.1f mm (locked %.1f mm)  height %.1f mm\n",
              double(s.Time(c.first)), double(s.Time(c.last)), double(report.before.skate_mm[i][k]),
              double(report.after.skate_mm[i][k]), double(height_mm(i, c)));
    }
  }
  out += "locked: " + NumbersLine(report) + "\n";
  return Print(out);
}

int RunExport(const PoseArgs& args, const std::string& out_path, bool bake, bool rom,
              const CleanupArgs& cleanup) {
  if (rom && bake) return BadInput("--rom and --bake: choose one (--rom writes its own clip)");
  if (args.mirror && (bake || rom)) {
    return BadInput("--mirror applies to one pose: not with --bake or --rom");
  }
  if (out_path.empty()) return BadInput("export needs -o OUT.glb");
  if (cleanup.lock_feet && !bake) return BadInput("--lock-feet: needs --bake (it fixes a clip)");
  if (cleanup.ground && !cleanup.lock_feet) {
    return BadInput("--ground: needs --lock-feet (the ground planted feet stand on)");
  }
  Ground ground;
  {
    std::string error;
    if (cleanup.ground && !ParseGroundSpec(*cleanup.ground, &ground, &error)) {
      return BadInput(error);
    }
  }
  {
    const std::string ext = std::filesystem::path(out_path).extension().string();
    std::string lower = ext;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower != ".glb" && lower != ".gltf") {
      return BadInput("-o " + assets::ShownPath(out_path) + ": unsupported extension '" + ext +
                      "' (use .glb or .gltf)");
    }
  }
  // A FIFO nobody reads would block the write forever: refused before the work.
  for (const std::string& file : assets::ExportedFiles(out_path)) {
    if (const std::string problem = assets::OutputProblem(file); !problem.empty()) {
      return BadInput("-o " + assets::ShownPath(out_path) + ": " +
                      (file == out_path ? "" : "its .bin " + assets::ShownPath(file) + ": ") +
                      problem);
    }
  }
  PoseArgs pose_args = args;
  if (bake && !pose_args.anim) pose_args.anim = 0;
  PreparedPose prepared;
  if (int code = PreparePose(pose_args, &prepared); code != kExitOk) return code;
  const assets::Model& model = prepared.model;
  const ClipTime& clip_time = prepared.clip_time;
  const ConstraintRequests& requests = prepared.requests;
  const PoseState& state = prepared.state;
  const Character& character = prepared.character;
  std::string error;
  // --morph sets the exported default weights, on a copy: the loaded model stays as it was.
  assets::Model morphed;
  if (!requests.morph.empty()) {
    morphed = model;
    for (const MorphOverride& o : requests.morph) {
      morphed.meshes[static_cast<size_t>(o.mesh)].target_weights[static_cast<size_t>(o.target)] =
          o.weight;
    }
  }
  const assets::Model& exported = requests.morph.empty() ? model : morphed;
  if (!assets::CheckOutputsSpareInputs(model, assets::ExportedFiles(out_path), &error)) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + error);
  }
  assets::ExportFailure failure = assets::ExportFailure::kNone;
  bool ok;
  if (bake) {
    // The played clip baked in its place and the model's other clips kept (README). Clips played
    // together (--anim I+J) are the character's: baked as one, in the place of the first.
    const int baked_index = prepared.together.empty() ? clip_time.clip : prepared.together[0];
    const assets::Clip& clip = *character.clip(clip_time.clip);
    BakePlan plan;
    assets::Clip baked_clip;
    EditState edit = prepared.edit;
    FootLockReport report;
    ok = PlanBake(character, clip_time.clip, &plan, &error);
    if (ok && cleanup.lock_feet) {
      // The feet locked on the clip the bake samples (the character's: clips played together
      // included), at the bake's rate.
      ClipContacts contacts;
      ok = LockFeet(character, clip_time.clip, plan.fps, ground, &contacts, &edit.foot_lock,
                    &report, &error);
    }
    ok = ok && BakeClip(character, clip_time.clip, plan.fps, edit, BakeProgress(), &baked_clip);
    if (!ok) {
      failure = assets::ExportFailure::kRefused;
    } else {
      assets::Model baked = exported;
      baked.clips[static_cast<size_t>(baked_index)] = std::move(baked_clip);
      ok = assets::ExportGltf(baked, out_path, &error, &failure);
    }
    if (ok && cleanup.lock_feet) {
      std::cerr << "skelview: " << assets::MessageLine("locked feet: " + NumbersLine(report))
                << "\n";
    }
    if (ok) {
      if (!plan.note.empty()) {
        std::cerr << "skelview: warning: " << assets::MessageLine(plan.note) << "\n";
      }
      char fps[32];
      std::snprintf(fps, sizeof(fps), "%g", double(plan.fps));
      std::cerr << "skelview: "
                << assets::MessageLine("baked '" + clip.name + "' at " + fps + " fps into " +
                                       out_path)
                << "\n";
    }
  } else if (rom) {
    const RangeOfMotion generated = MakeModelRangeOfMotion(character, prepared.edit.limits);
    if (generated.motions.empty()) {
      return BadInput(
          assets::MessageLine(model.source + ": --rom: no legs, arms or spine found to move"));
    }
    assets::Model with_rom = exported;
    with_rom.clips = {generated.clip};
    ok = assets::ExportGltf(with_rom, out_path, &error, &failure);
    if (ok) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%.1f", double(generated.clip.duration));
      std::cerr << "skelview: "
                << assets::MessageLine("wrote '" + generated.clip.name + "' (" +
                                       std::to_string(generated.motions.size()) + " motions, " +
                                       seconds + " s) into " + out_path)
                << "\n";
    }
  } else if (clip_time.clip >= 0 || !requests.ik.empty() || !requests.aim.empty() ||
             !requests.fabrik.empty() || prepared.edited) {
    // The pose with its blend-shape weights (the clip's at --time, with --morph); no clips.
    ok = assets::ExportGltf(exported, state.pose, out_path, &error, &failure, &state.morph_weights);
  } else {
    ok = assets::ExportGltf(exported, out_path, &error, &failure);
  }
  if (!ok) return failure == assets::ExportFailure::kWriteFailed ? Failure(error) : BadInput(error);
  return kExitOk;
}

}  // namespace app

namespace app {

namespace {

struct Stats {
  double median = 0.0, mean = 0.0, min = 0.0, max = 0.0;
};

Stats Summarize(std::vector<double> samples) {
  Stats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.median = samples[samples.size() / 2];
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  return s;
}

}  // namespace

int RunBench(const BenchArgs& args) {
  if (args.characters < 1 || args.characters > 100000) {
    return BadInput("--characters " + std::to_string(args.characters) +
                    ": expected a number from 1 to 100000");
  }
  if (args.frames < 1 || args.frames > 100000) {
    return BadInput("--frames " + std::to_string(args.frames) + ": expected 1 to 100000");
  }
  int width = 0, height = 0;
  std::string error;
  if (!ParseSize(args.size, &width, &height, &error)) return BadInput(error);
  if (const std::string problem = assets::ImageExtensionProblem(args.out_path);
      !args.out_path.empty() && !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(args.out_path) + ": " + problem);
  }
  if (const std::string problem = assets::OutputProblem(args.out_path);
      !args.out_path.empty() && !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(args.out_path) + ": " + problem);
  }
  assets::Model model;
  if (!LoadModelOrBuiltin(args.model_path, args.allow_outside_files, args.raw_units, &model,
                          &error)) {
    return BadInput(error);
  }
  if (!args.out_path.empty() && !assets::CheckOutputsSpareInputs(model, {args.out_path}, &error)) {
    return BadInput("-o " + assets::ShownPath(args.out_path) + ": " + error);
  }
  if (!ValidateAnim(args.clip, model, true, &error)) return BadInput(error);
  const Character character(model);
  const SceneExtent extent = MeasureModel(model, &character.limbs());
  const float spacing = std::max(extent.size * 0.6f, 1e-3f);
  Crowd crowd(character, args.characters, args.clip, spacing);

  std::unique_ptr<GlContext> gl;
  std::optional<renderer::Renderer> renderer;
  std::optional<renderer::GpuModel> gpu;
  std::optional<renderer::OffscreenTarget> target;
  renderer::View view;
  if (args.draw) {
    gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
    if (!gl) return Failure("bench: " + error);
    if (!CheckImageSize(width, height, gl->MaxImageSide(), &error)) return BadInput(error);
    renderer = renderer::Renderer::Create(&error);
    if (!renderer) return Failure("bench: " + error);
    gpu = renderer::GpuModel::Create(model, &error);
    if (!gpu) return BadInput(model.source + ": " + error);
    target = renderer::OffscreenTarget::Create(width, height, &error, /*samples=*/0);
    if (!target) return Failure("bench: " + error);
    crowd.Update(0.0f);
    assets::Bounds bounds;
    for (int c = 0; c < crowd.size(); ++c) {
      const assets::Bounds b = assets::ModelBounds(model, crowd.models(c));
      if (!b.empty()) {
        bounds.Add(b.min);
        bounds.Add(b.max);
      }
    }
    OrbitCamera camera;
    camera.yaw = 0.6f;
    camera.pitch = 0.45f;
    if (!bounds.empty()) camera.Frame(bounds.min, bounds.max, float(width) / float(height));
    view.view = camera.View();
    view.projection = camera.Projection(float(width) / float(height));
    view.viewport = {width, height};
  }

  using Clock = std::chrono::steady_clock;
  std::vector<double> update_ms, draw_ms;
  long reached = 0, solves = 0;
  for (int f = 0; f < args.frames; ++f) {
    const auto start = Clock::now();
    crowd.Update(1.0f / 60.0f);
    update_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    reached += crowd.reached_count();
    solves += long(crowd.size()) * crowd.chain_count();
    if (!args.draw) continue;
    const auto draw_start = Clock::now();
    target->Bind();
    renderer->BeginFrame(view);
    for (int c = 0; c < crowd.size(); ++c) {
      gpu->UpdatePose(crowd.models(c));
      renderer->DrawModel(*gpu, view);
    }
    renderer::GridParams grid = renderer::GridForModelSize(extent.size * 4.0f);
    renderer->DrawGrid(view, grid);
    renderer::Finish();
    draw_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - draw_start).count());
  }
  if (args.draw && !args.out_path.empty()) {
    if (!assets::WriteImage(args.out_path, width, height, target->ReadPixels(), &error)) {
      return Failure(error);
    }
  }
  const Stats update = Summarize(update_ms), draw = Summarize(draw_ms);
  std::string text;
  Appendf(&text, "model:      %s (%d joints, %zu vertices)\n",
          assets::Escaped(model.source).c_str(), model.skeleton.joint_count(),
          model.vertex_count());
  Appendf(&text, "characters: %d, %d IK chains each, %d frames\n", crowd.size(),
          crowd.chain_count(), args.frames);
  Appendf(&text,
          "update:     median %.3f ms, mean %.3f ms, min %.3f ms per frame "
          "(%.3f us per character; sample + IK + FK + palette, one thread)\n",
          update.median, update.mean, update.min, 1000.0 * update.median / crowd.size());
  if (args.draw) {
    Appendf(&text, "draw:       median %.2f ms, mean %.2f ms per frame at %dx%d (%s)\n",
            draw.median, draw.mean, width, height, renderer::GlDescription().c_str());
  }
  Appendf(&text, "ik:         %ld of %ld solves reached their target\n", reached, solves);
  return Print(text);
}

}  // namespace app

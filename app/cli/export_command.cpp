// `skelview export`: the posed model, a baked clip (feet locked on request) or a generated range of
// motion, written as glTF by our own writer.
#include <filesystem>
#include <iostream>
#include <string>

#include "app/cli/command_support.h"
#include "app/core/bake.h"
#include "app/core/range_of_motion.h"
#include "assets/export/exporter.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"

namespace app {

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

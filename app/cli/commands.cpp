// `skelview info` and `skelview pose`: load a model and print what it holds, or the pose asked for.
// The other commands have files of their own (command_support.h lists them).
#include "app/cli/commands.h"

#include <string>
#include <vector>

#include "app/cli/command_support.h"
#include "app/core/json_output.h"
#include "app/core/pose_input.h"
#include "app/scene/gl_context.h"
#include "assets/files/text.h"
#include "assets/model/skinning.h"
#include "assets/model/weight_check.h"
#include "ik/body/limbs.h"
#include "renderer/renderer.h"

namespace app {

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

}  // namespace app

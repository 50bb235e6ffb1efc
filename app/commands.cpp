// info / render / pose / export: load, evaluate the pose, and print, draw or write it.
#include "app/commands.h"

#include <cstdio>
#include <iostream>

#include "app/evaluate.h"
#include "app/gl_context.h"
#include "app/json_output.h"
#include "app/scene_draw.h"
#include "assets/builtin_character.h"
#include "assets/exporter.h"
#include "assets/importer.h"
#include "assets/skinning.h"
#include "ik/limbs.h"
#include "renderer/offscreen.h"
#include "renderer/png.h"
#include "renderer/renderer.h"

namespace app {

namespace {

int BadInput(const std::string& message) {
  std::cerr << "skelview: " << message << "\n";
  return kExitBadInput;
}

int Failure(const std::string& message) {
  std::cerr << "skelview: " << message << "\n";
  return kExitFailure;
}

void PrintWarnings(const assets::Model& model) {
  for (const std::string& w : model.warnings) std::cerr << "skelview: warning: " << w << "\n";
}

// Loads the model and evaluates the requested pose; returns an exit code (kExitOk to go on).
int PreparePose(const PoseArgs& args, assets::Model* model, ClipTime* clip_time,
                std::vector<IkChainRequest>* requests, PoseState* state) {
  std::string error;
  if (!LoadModelOrBuiltin(args.model_path, model, &error)) return BadInput(error);
  PrintWarnings(*model);
  if (args.anim || args.time) {
    const int clip_count = static_cast<int>(model->clips.size());
    const int anim = args.anim.value_or(0);
    if (clip_count == 0) {
      return BadInput("--anim " + std::to_string(anim) + ": " + model->source +
                      " has no animation clips");
    }
    if (anim < 0 || anim >= clip_count) {
      return BadInput("--anim " + std::to_string(anim) + ": " + model->source + " has " +
                      std::to_string(clip_count) + " clip(s), numbered 0 to " +
                      std::to_string(clip_count - 1));
    }
    clip_time->clip = anim;
    clip_time->time = args.time.value_or(0.0f);
  }
  std::vector<IkSpec> specs;
  for (const std::string& text : args.ik) {
    IkSpec spec;
    if (!ParseIkSpec(text, &spec, &error)) return BadInput(error);
    specs.push_back(spec);
  }
  if (!ResolveIkSpecs(model->skeleton, specs, requests, &error)) return BadInput(error);
  EvaluatePose(*model, *clip_time, *requests, state);
  return kExitOk;
}

}  // namespace

bool LoadModelOrBuiltin(const std::string& path, assets::Model* model, std::string* error) {
  if (path.empty()) {
    *model = assets::MakeBuiltinCharacter();
    return true;
  }
  assets::LoadResult result = assets::LoadModel(path);
  if (!result.ok()) {
    *error = result.error;
    return false;
  }
  *model = std::move(*result.model);
  return true;
}

int RunInfo(const std::string& model_path, bool json) {
  assets::Model model;
  std::string error;
  if (!LoadModelOrBuiltin(model_path, &model, &error)) return BadInput(error);
  PrintWarnings(model);
  if (json) {
    std::cout << InfoJson(model).dump(2) << "\n";
    return kExitOk;
  }
  const ik::Skeleton& skeleton = model.skeleton;
  int bones = 0;
  for (bool b : model.is_bone) bones += b ? 1 : 0;
  std::printf("model:     %s\n", model.source.c_str());
  std::printf("meshes:    %zu (%zu vertices, %zu triangles)\n", model.meshes.size(),
              model.vertex_count(), model.triangle_count());
  for (const assets::Mesh& mesh : model.meshes) {
    std::printf("  %-24s %7zu vertices %7zu triangles  %s, %zu bones\n", mesh.name.c_str(),
                mesh.positions.size(), mesh.indices.size() / 3,
                mesh.skinned ? "skinned" : "static", mesh.bone_joints.size());
  }
  std::printf("joints:    %d (%d deforming bones)\n", skeleton.joint_count(), bones);
  for (int i = 0; i < skeleton.joint_count(); ++i) {
    const bool bone = i < static_cast<int>(model.is_bone.size()) && model.is_bone[i];
    std::printf("  %*s%s%s\n", 2 * skeleton.Depth(i), "", skeleton.name(i).c_str(),
                bone ? "" : "  (node)");
  }
  std::printf("clips:     %zu\n", model.clips.size());
  for (size_t c = 0; c < model.clips.size(); ++c) {
    std::printf("  %zu: %s, %.3f s, %zu animated joints\n", c, model.clips[c].name.c_str(),
                static_cast<double>(model.clips[c].duration), model.clips[c].channels.size());
  }
  const std::vector<ik::Limb> limbs = ik::DetectLimbs(skeleton, &model.is_bone);
  std::printf("limbs:     %zu\n", limbs.size());
  for (const ik::Limb& limb : limbs) {
    std::printf("  %-9s %s / %s / %s  (by %s)\n", limb.label.c_str(),
                skeleton.name(limb.chain.start).c_str(), skeleton.name(limb.chain.mid).c_str(),
                skeleton.name(limb.chain.end).c_str(), limb.by_name ? "name" : "symmetry");
  }
  return kExitOk;
}

int RunPose(const PoseArgs& args, bool vertices, const std::string& skinning) {
  if (skinning != "cpu" && skinning != "gpu") {
    return BadInput("--skinning '" + skinning + "': expected cpu or gpu");
  }
  assets::Model model;
  ClipTime clip_time;
  std::vector<IkChainRequest> requests;
  PoseState state;
  if (int code = PreparePose(args, &model, &clip_time, &requests, &state); code != kExitOk) {
    return code;
  }
  Json doc;
  doc["model"] = model.source;
  if (clip_time.clip >= 0) {
    doc["anim"] = {{"index", clip_time.clip},
                   {"name", model.clips[clip_time.clip].name},
                   {"time", Rounded(clip_time.time)}};
  } else {
    doc["anim"] = nullptr;
  }
  doc["joints"] = JointsJson(model, state);
  doc["ik"] = IkJson(model, requests, state);
  if (vertices) {
    std::vector<std::vector<glm::vec3>> positions(model.meshes.size());
    if (skinning == "gpu") {
      std::string error;
      auto gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
      if (!gl) return Failure("--skinning gpu: " + error);
      auto skinned = renderer::SkinOnGpu(model, state.models, &error);
      if (!skinned) return Failure("--skinning gpu: " + error);
      positions = std::move(skinned->positions);
    } else {
      for (size_t m = 0; m < model.meshes.size(); ++m) {
        assets::SkinMesh(model.meshes[m], state.models, &positions[m], nullptr);
      }
    }
    doc["skinning"] = skinning;
    doc["meshes"] = MeshesJson(model, positions);
  }
  std::cout << doc.dump(1) << "\n";
  return kExitOk;
}

int RunRender(const PoseArgs& args, const std::string& out_path, const std::string& size) {
  int width = 1280, height = 720;
  std::string error;
  if (!size.empty() && !ParseSize(size, &width, &height, &error)) return BadInput(error);
  if (out_path.empty()) return BadInput("render needs -o OUT.png");
  assets::Model model;
  ClipTime clip_time;
  std::vector<IkChainRequest> requests;
  PoseState state;
  if (int code = PreparePose(args, &model, &clip_time, &requests, &state); code != kExitOk) {
    return code;
  }
  auto gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
  if (!gl) return Failure("render: " + error);
  auto renderer = renderer::Renderer::Create(&error);
  if (!renderer) return Failure("render: " + error);
  auto gpu_model = renderer::GpuModel::Create(model, &error);
  if (!gpu_model) return BadInput(model.source + ": " + error);
  gpu_model->UpdatePose(state.models);
  auto target = renderer::OffscreenTarget::Create(width, height, &error);
  if (!target) return Failure("render: " + error);
  target->Bind();
  const float aspect = float(width) / float(height);
  const OrbitCamera camera = DefaultCamera(model, state.models, aspect);
  renderer::View view;
  view.view = camera.View();
  view.projection = camera.Projection(aspect);
  view.viewport = {width, height};
  SceneOptions options;
  options.ik_overlay = !requests.empty();
  renderer::DebugLines lines, xray;
  DrawScene(*renderer, *gpu_model, model, requests, state, options, view, &lines, &xray);
  const std::vector<uint8_t> pixels = target->ReadPixels();
  if (!renderer::WritePng(out_path, width, height, pixels, &error)) return BadInput(error);
  return kExitOk;
}

int RunExport(const PoseArgs& args, const std::string& out_path) {
  if (out_path.empty()) return BadInput("export needs -o OUT.glb");
  assets::Model model;
  ClipTime clip_time;
  std::vector<IkChainRequest> requests;
  PoseState state;
  if (int code = PreparePose(args, &model, &clip_time, &requests, &state); code != kExitOk) {
    return code;
  }
  std::string error;
  const bool posed = clip_time.clip >= 0 || !requests.empty();
  const bool ok = posed ? assets::ExportGltf(model, state.pose, out_path, &error)
                        : assets::ExportGltf(model, out_path, &error);
  if (!ok) return BadInput(error);
  return kExitOk;
}

}  // namespace app

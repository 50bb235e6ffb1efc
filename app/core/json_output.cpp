// Builds the command line's JSON documents.
#include "app/core/json_output.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "assets/model/weight_check.h"
#include "ik/body/limbs.h"
#include "ik/core/transform.h"

namespace app {

std::string DumpJson(const Json& json, int indent) {
  return json.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

double Rounded(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.8g", static_cast<double>(value));
  return std::strtod(buffer, nullptr);
}

std::string ShortestFloatText(float value) {
  char buffer[32];
  for (int digits = 1; digits <= 9; ++digits) {  // 9 significant digits round-trip any float
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, static_cast<double>(value));
    if (std::strtof(buffer, nullptr) == value) break;
  }
  return buffer;
}

Json ToJson(const glm::vec3& v) { return Json::array({Rounded(v.x), Rounded(v.y), Rounded(v.z)}); }

Json ToJson(const glm::quat& q) {
  return Json::array({Rounded(q.x), Rounded(q.y), Rounded(q.z), Rounded(q.w)});
}

namespace {

glm::quat WorldRotation(const glm::mat4& model) {
  ik::Transform t;
  if (!ik::Transform::FromMatrix(model, &t)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  return t.rotation;
}

Json NameOrNull(const ik::Skeleton& skeleton, int joint) {
  return joint < 0 ? Json(nullptr) : Json(skeleton.name(joint));
}

}  // namespace

Json JointsJson(const assets::Model& model, const PoseState& state) {
  const ik::Skeleton& skeleton = model.skeleton;
  Json joints = Json::array();
  for (int i = 0; i < skeleton.joint_count(); ++i) {
    const ik::Transform& local = state.pose.locals[i];
    Json joint;
    joint["name"] = skeleton.name(i);
    joint["index"] = i;
    joint["parent"] = NameOrNull(skeleton, skeleton.parent(i));
    joint["bone"] = i < static_cast<int>(model.is_bone.size()) && model.is_bone[i];
    joint["world"] = ToJson(glm::vec3(state.models[i][3]));
    joint["world_rotation"] = ToJson(WorldRotation(state.models[i]));
    joint["local_rotation"] = ToJson(local.rotation);
    joint["local_translation"] = ToJson(local.translation);
    joint["local_scale"] = ToJson(local.scale);
    joints.push_back(std::move(joint));
  }
  return joints;
}

Json IkJson(const assets::Model& model, const std::vector<IkChainRequest>& requests,
            const PoseState& state) {
  const ik::Skeleton& skeleton = model.skeleton;
  Json entries = Json::array();
  for (size_t i = 0; i < requests.size() && i < state.ik.size(); ++i) {
    const IkChainRequest& request = requests[i];
    const ik::TwoBoneIkResult& r = state.ik[i];
    Json e;
    e["end"] = skeleton.name(request.chain.end);
    e["mid"] = skeleton.name(request.chain.mid);
    e["start"] = skeleton.name(request.chain.start);
    e["target"] = ToJson(request.target.position);
    if (request.options.pole_model) e["pole"] = ToJson(*request.options.pole_model);
    e["case"] = ik::CaseName(r.solve_case);
    e["reached"] = r.reached;
    e["error"] = Rounded(r.error);
    e["fallback"] = ik::FallbackName(r.fallback);
    e["knee_circle"] = {{"center", ToJson(r.circle.center)},
                        {"normal", ToJson(r.circle.normal)},
                        {"radius", Rounded(r.circle.radius)}};
    e["start_position"] = ToJson(r.a);
    e["mid_before"] = ToJson(r.b_before);
    e["mid_after"] = ToJson(r.b_final);
    e["end_before"] = ToJson(r.c_before);
    e["end_after"] = ToJson(r.c_final);
    entries.push_back(std::move(e));
  }
  return entries;
}

Json AimJson(const assets::Model& model, const std::vector<AimRequest>& requests,
             const PoseState& state) {
  const ik::Skeleton& skeleton = model.skeleton;
  Json entries = Json::array();
  for (size_t i = 0; i < requests.size() && i < state.aim.size(); ++i) {
    const ik::AimResult& r = state.aim[i];
    Json e;
    e["bone"] = skeleton.name(requests[i].joint);
    e["target"] = ToJson(r.degenerate ? requests[i].target : r.target_model);
    if (requests[i].target_joint >= 0) e["target_joint"] = skeleton.name(requests[i].target_joint);
    e["reached"] = r.reached;
    e["iterations"] = 1;
    e["error"] = Rounded(r.angle_after);
    e["angle_before"] = Rounded(r.angle_before);
    e["fallback"] = ik::AimFallbackName(r.fallback);
    e["degenerate"] = r.degenerate;
    e["limited"] = r.limited;
    e["joints_turned"] = r.joints_turned;
    e["axis_after"] = ToJson(r.axis_after_model);
    entries.push_back(std::move(e));
  }
  return entries;
}

Json FabrikJson(const assets::Model& model, const std::vector<FabrikRequest>& requests,
                const PoseState& state) {
  const ik::Skeleton& skeleton = model.skeleton;
  Json entries = Json::array();
  for (size_t i = 0; i < requests.size() && i < state.fabrik.size(); ++i) {
    const ik::FabrikResult& r = state.fabrik[i];
    Json e;
    e["root"] = skeleton.name(requests[i].root);
    e["end"] = skeleton.name(requests[i].end);
    e["target"] = ToJson(requests[i].target);
    e["reached"] = r.reached;
    e["unreachable"] = r.unreachable;
    e["iterations"] = r.iterations;
    e["error"] = Rounded(r.error);
    e["tolerance"] = Rounded(r.tolerance_model);
    e["fallback"] = ik::FabrikFallbackName(r.fallback);
    e["degenerate"] = r.degenerate;
    e["limited"] = r.limited;
    Json positions = Json::array();
    for (const glm::vec3& p : r.positions) positions.push_back(ToJson(p));
    e["positions"] = std::move(positions);
    entries.push_back(std::move(e));
  }
  return entries;
}

Json BodyJson(const assets::Model& model, const ConstraintRequests& requests,
              const PoseState& state) {
  if (!state.body_ran || !state.body.valid) return nullptr;
  const ik::Skeleton& skeleton = model.skeleton;
  const ik::FullBodyResult& r = state.body;
  Json body;
  body["reached"] = r.reached;
  body["iterations"] = r.iterations;
  body["max_error"] = Rounded(r.max_error);
  body["tolerance"] = Rounded(r.tolerance_model);
  body["limited"] = r.limited;
  body["hips"] = state.body_hips >= 0 ? NameOrNull(skeleton, state.body_hips) : Json(nullptr);
  body["hips_offset"] = ToJson(r.hips_offset_model);
  Json effectors = Json::array();
  for (size_t i = 0; i < r.effectors.size(); ++i) {
    const ik::BodyEffectorReport& e = r.effectors[i];
    Json entry;
    entry["kind"] = ik::BodyEffectorKindName(e.kind);
    entry["joint"] = NameOrNull(skeleton, e.joint);
    const int source = i < state.body_sources.size() ? state.body_sources[i] : 0;
    if (source >= 0) {
      const bool pin = source < static_cast<int>(requests.body.effectors.size()) &&
                       requests.body.effectors[source].kind == ik::BodyEffector::Kind::kPin;
      entry["from"] = pin ? "pin" : "move";
    } else {
      entry["from"] = "ik";
      entry["ik_index"] = -1 - source;
    }
    entry["target"] = ToJson(e.target_model);
    entry["position"] = ToJson(e.position_model);
    entry["error"] = Rounded(e.error);
    entry["reached"] = e.reached;
    effectors.push_back(entry);
  }
  body["effectors"] = effectors;
  Json moved = Json::array();
  for (const ik::BodyJointChange& change : r.moved) {
    moved.push_back({{"joint", NameOrNull(skeleton, change.joint)},
                     {"translation", ToJson(change.translation_model)},
                     {"turn", Rounded(glm::degrees(change.turn))}});
  }
  body["moved"] = moved;
  return body;
}

Json MeshesJson(const assets::Model& model,
                const std::vector<std::vector<glm::vec3>>& skinned_positions) {
  Json meshes = Json::array();
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    Json mesh;
    mesh["name"] = model.meshes[m].name;
    mesh["skinned"] = model.meshes[m].skinned;
    Json positions = Json::array();
    if (m < skinned_positions.size()) {
      for (const glm::vec3& p : skinned_positions[m]) positions.push_back(ToJson(p));
    }
    mesh["positions"] = std::move(positions);
    meshes.push_back(std::move(mesh));
  }
  return meshes;
}

Json InfoJson(const assets::Model& model) {
  const ik::Skeleton& skeleton = model.skeleton;
  Json info;
  info["source"] = model.source;
  int bones = 0;
  for (bool b : model.is_bone) bones += b ? 1 : 0;
  info["counts"] = {{"meshes", model.meshes.size()},
                    {"vertices", model.vertex_count()},
                    {"triangles", model.triangle_count()},
                    {"joints", skeleton.joint_count()},
                    {"bones", bones},
                    {"clips", model.clips.size()},
                    {"materials", model.materials.size()},
                    {"textures", model.textures.size()}};
  Json meshes = Json::array();
  for (const assets::Mesh& mesh : model.meshes) {
    // Morph targets with their names ("" when unnamed) and default weights, the latter as the
    // float's shortest decimal (0.72, not the widened 0.7200000286102295).
    Json targets = Json::array();
    for (size_t t = 0; t < mesh.targets.size(); ++t) {
      const float weight = t < mesh.target_weights.size() ? mesh.target_weights[t] : 0.0f;
      targets.push_back(
          {{"name", mesh.targets[t].name},
           {"default_weight", std::isfinite(weight)
                                  ? std::strtod(ShortestFloatText(weight).c_str(), nullptr)
                                  : 0.0}});
    }
    meshes.push_back({{"name", mesh.name},
                      {"skinned", mesh.skinned},
                      {"vertices", mesh.positions.size()},
                      {"triangles", mesh.indices.size() / 3},
                      {"bones", mesh.bone_joints.size()},
                      {"tangents", !mesh.tangents.empty()},
                      {"morph_targets", std::move(targets)}});
  }
  info["meshes"] = std::move(meshes);
  // Counted in the file's vertices; see assets::InfluenceStats.
  info["influences"] = {{"vertices_over_four", model.influences.over_four},
                        {"vertices_over_eight", model.influences.over_eight},
                        {"dropped", model.influences.dropped}};
  // Counted in the loaded meshes' vertices; see assets::CheckWeights.
  const assets::WeightProblems problems = assets::CheckWeights(model);
  Json weight_problems = Json::object();
  for (int k = 0; k < assets::kWeightProblemKinds; ++k) {
    const auto kind = static_cast<assets::WeightProblem>(k);
    weight_problems[assets::WeightProblemKey(kind)] = problems.count(kind);
  }
  info["weights_problems"] = std::move(weight_problems);
  Json joints = Json::array();
  for (int i = 0; i < skeleton.joint_count(); ++i) {
    joints.push_back({{"name", skeleton.name(i)},
                      {"index", i},
                      {"parent", NameOrNull(skeleton, skeleton.parent(i))},
                      {"depth", skeleton.Depth(i)},
                      {"bone", i < static_cast<int>(model.is_bone.size()) && model.is_bone[i]}});
  }
  info["joints"] = std::move(joints);
  Json clips = Json::array();
  for (size_t c = 0; c < model.clips.size(); ++c) {
    clips.push_back({{"index", c},
                     {"name", model.clips[c].name},
                     {"duration", Rounded(model.clips[c].duration)},
                     {"channels", model.clips[c].channels.size()}});
  }
  info["clips"] = std::move(clips);
  Json limbs = Json::array();
  for (const ik::Limb& limb : ik::DetectLimbs(skeleton, &model.is_bone)) {
    limbs.push_back({{"label", limb.label},
                     {"kind", ik::LimbKindName(limb.kind)},
                     {"side", ik::LimbSideName(limb.side)},
                     {"start", skeleton.name(limb.chain.start)},
                     {"mid", skeleton.name(limb.chain.mid)},
                     {"end", skeleton.name(limb.chain.end)},
                     {"found_by", ik::LimbFoundByName(limb.found_by)},
                     // The rig's own IK control joints offered as the limb's target and pole.
                     {"target", limb.target >= 0 ? Json(skeleton.name(limb.target)) : Json()},
                     {"pole", limb.pole >= 0 ? Json(skeleton.name(limb.pole)) : Json()}});
  }
  info["limbs"] = std::move(limbs);
  // An avatar file's description and declared humanoid bones (VRM); null for other files.
  if (model.avatar.empty()) {
    info["avatar"] = nullptr;
  } else {
    Json humanoid = Json::object();
    for (const ik::HumanoidBone& b : skeleton.humanoid()) humanoid[b.bone] = skeleton.name(b.joint);
    info["avatar"] = {{"format", model.avatar.format},
                      {"title", model.avatar.title},
                      {"author", model.avatar.author},
                      {"license", model.avatar.license},
                      {"humanoid", std::move(humanoid)}};
  }
  info["warnings"] = model.warnings;
  return info;
}

}  // namespace app

// Session files written: every float exact, joints and meshes by name, paths relative where they
// can be.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "app/core/ground.h"
#include "app/core/session.h"
#include "app/core/session_text.h"
#include "app/core/settings.h"
#include "assets/files/file_output.h"
#include "ik/core/rotation.h"

namespace app {

using session_text::Degrees;
using session_text::EndOrientationName;
using session_text::Named;
using session_text::Radians;

namespace {

namespace fs = std::filesystem;

// A float as the double that prints as its shortest decimal form and reads back as it.
double Exact(float value) { return std::strtod(ShortestFloatText(value).c_str(), nullptr); }
Json Exact(const glm::vec3& v) { return Json::array({Exact(v.x), Exact(v.y), Exact(v.z)}); }
Json Exact(const glm::quat& q) {
  return Json::array({Exact(q.x), Exact(q.y), Exact(q.z), Exact(q.w)});
}
// Radians as degrees that read back (times π/180, rounded to float) as the same radians.

Json NameOrNull(const ik::Skeleton& skeleton, int joint) {
  return joint >= 0 && joint < skeleton.joint_count() ? Json(skeleton.name(joint)) : Json(nullptr);
}

Json KeysJson(const std::vector<PointKey>& keys) {
  Json out = Json::array();
  for (const PointKey& key : keys) {
    out.push_back({{"time", Exact(key.time)}, {"position", Exact(key.value)}});
  }
  return out;
}

Json ChainJson(const ik::Skeleton& skeleton, const ChainSettings& c) {
  Json chain;
  chain["label"] = c.label;
  chain["kind"] = ConstraintKindName(c.kind);
  chain["joints"] = {{"start", NameOrNull(skeleton, c.chain.start)},
                     {"mid", NameOrNull(skeleton, c.chain.mid)},
                     {"end", NameOrNull(skeleton, c.chain.end)}};
  chain["enabled"] = c.enabled;
  chain["target"] = {{"mode", TargetModeName(c.mode)},
                     {"offset", Exact(c.offset)},
                     {"pinned", Exact(c.pinned)},
                     {"keys", KeysJson(c.target_keys)}};
  chain["pole"] = {
      {"on", c.use_pole}, {"position", Exact(c.pole)}, {"keys", KeysJson(c.pole_keys)}};
  chain["hinge"] = c.hinge;
  chain["body_helps"] = c.body_helps;
  chain["pin"] = c.body_pin;
  chain["soft"] = Exact(c.soft);
  chain["weight"] = Exact(c.weight);
  Json keys = Json::array();
  for (const glm::vec2& key : c.weight_keys) keys.push_back({Exact(key.x), Exact(key.y)});
  chain["weight_keys"] = std::move(keys);
  chain["end_orientation"] = EndOrientationName(c.end_orientation);
  chain["aim"] = {{"target_joint", NameOrNull(skeleton, c.target_joint)},
                  {"spread", c.spread},
                  {"falloff", Exact(c.spread_falloff)},
                  {"up", {{"on", c.use_up}, {"position", Exact(c.up)}}}};
  chain["fabrik"] = {{"tolerance", Exact(c.tolerance)},
                     {"iterations", c.max_iterations},
                     {"show_iterations", c.show_iterations}};
  return chain;
}

Json LimitJson(const ik::Skeleton& skeleton, int joint, const ik::JointLimit& limit) {
  Json json;
  json["joint"] = NameOrNull(skeleton, joint);
  json["type"] = ik::LimitTypeName(limit.type);
  if (limit.type == ik::JointLimit::Type::kHinge) {
    json["axis"] = Exact(limit.axis_local);
    json["min"] = Degrees(limit.min_angle);
    json["max"] = Degrees(limit.max_angle);
  } else {
    json["axis"] = Exact(limit.twist_axis_local);
    json["cone"] = Degrees(limit.cone_angle);
    json["twist_min"] = Degrees(limit.twist_min);
    json["twist_max"] = Degrees(limit.twist_max);
  }
  return json;
}

Json DisplayJsonOf(const SessionDisplay& d) {
  Json json = DisplayJson(d.spec);
  json["xray"] = d.xray;
  json["mesh_opacity"] = Exact(d.mesh_opacity);
  json["onion_step"] = d.onion_step;
  json["all_chains"] = d.all_chains;
  json["axes_selected_only"] = d.axes_selected_only;
  json["on_ground"] = d.on_ground;
  json["follow_root"] = d.follow_root;
  json["axis_gizmo"] = d.axis_gizmo;
  json["rotate_gizmo"] = d.rotate_gizmo;
  json["timeline"] = d.timeline;
  return json;
}

Json ClipNameOrNull(const assets::Model& model, int clip) {
  return clip >= 0 && size_t(clip) < model.clips.size() ? Json(model.clips[size_t(clip)].name)
                                                        : Json(nullptr);
}

// The model's path as the session at `session_path` stores it.
Json ModelPathJson(const std::string& model_path, const std::string& session_path) {
  if (model_path.empty()) return nullptr;
  std::error_code ec;
  const fs::path model = fs::absolute(model_path, ec).lexically_normal();
  if (ec) return model_path;
  const fs::path folder = fs::absolute(session_path, ec).lexically_normal().parent_path();
  if (ec) return model.string();
  const fs::path relative = model.lexically_relative(folder);
  int ups = 0;
  for (const fs::path& part : relative) ups += part == ".." ? 1 : 0;
  if (relative.empty() || ups > 2) return model.string();
  return relative.string();
}

}  // namespace

Json SessionJson(const assets::Model& model, const Session& s, const std::string& session_path) {
  const ik::Skeleton& skeleton = model.skeleton;
  const EditState& edit = s.edit;
  Json json;
  json["skelview_session"] = kSessionVersion;
  json["model"] = ModelPathJson(s.model_path, session_path);
  json["raw_units"] = s.raw_units;
  Json chains = Json::array();
  for (const ChainSettings& chain : edit.chains) chains.push_back(ChainJson(skeleton, chain));
  json["chains"] = std::move(chains);
  Json rotations = Json::array();
  for (const auto& [joint, rotation] : edit.joint_rotations) {
    rotations.push_back({{"joint", NameOrNull(skeleton, joint)}, {"rotation", Exact(rotation)}});
  }
  json["rotations"] = std::move(rotations);
  Json offsets = Json::array();  // bones rotated in the view: turns after the animated rotation
  for (const auto& [joint, offset] : edit.joint_offsets) {
    offsets.push_back({{"joint", NameOrNull(skeleton, joint)}, {"offset", Exact(offset)}});
  }
  json["rotation_offsets"] = std::move(offsets);
  Json translations = Json::array();
  for (const auto& [joint, translation] : edit.joint_translations) {
    translations.push_back(
        {{"joint", NameOrNull(skeleton, joint)}, {"translation", Exact(translation)}});
  }
  json["translations"] = std::move(translations);
  Json limits = Json::array();
  for (const auto& [joint, limit] : edit.limits.entries()) {
    limits.push_back(LimitJson(skeleton, joint, limit));
  }
  json["limits"] = std::move(limits);
  const ik::FullBodyOptions& body = edit.body_options;
  json["body"] = {{"hips", Exact(body.hips_translation_weight)},
                  {"tilt", Exact(body.hips_rotation_weight)},
                  {"spine", Exact(body.spine_weight)},
                  {"turn", Degrees(body.max_body_turn)},
                  {"iterations", body.max_iterations},
                  {"tolerance", Exact(body.tolerance)},
                  {"hinge", body.hinge}};
  Json morphs = Json::array();
  for (const auto& [key, weight] : edit.morph_weights) {
    const auto [mesh, target] = key;
    if (mesh < 0 || size_t(mesh) >= model.meshes.size()) continue;
    const assets::Mesh& m = model.meshes[size_t(mesh)];
    if (target < 0 || size_t(target) >= m.targets.size()) continue;
    morphs.push_back({{"mesh", Named(m.name, size_t(mesh))},
                      {"target", Named(m.targets[size_t(target)].name, size_t(target))},
                      {"weight", Exact(weight)}});
  }
  json["morphs"] = std::move(morphs);
  const Playback& p = s.playback;
  Json together = Json::array();
  for (int clip : p.together) together.push_back(ClipNameOrNull(model, clip));
  const int clip = s.range_of_motion ? -1 : p.clip;
  json["animation"] = {{"clip", ClipNameOrNull(model, clip)},
                       {"clip_index", clip},
                       {"together", std::move(together)},
                       {"generated", s.range_of_motion ? Json("range_of_motion") : Json(nullptr)},
                       {"time", Exact(p.time)},
                       {"speed", Exact(p.speed)},
                       {"loop", p.loop},
                       {"range", {Exact(p.range_start), Exact(p.range_end)}},
                       {"playing", p.playing}};
  const SceneContacts& c = edit.contacts;
  json["contacts"] = {{"ground",
                       {{"enabled", c.ground.enabled},
                        {"height", Exact(c.ground.height)},
                        {"tilt_x", Exact(c.ground.tilt_x_degrees)},
                        {"tilt_z", Exact(c.ground.tilt_z_degrees)},
                        {"pivot", Exact(c.ground.pivot)}}},
                      {"ladder",
                       {{"enabled", c.ladder.enabled},
                        {"base", Exact(c.ladder.base)},
                        {"up", Exact(c.ladder.up)},
                        {"across", Exact(c.ladder.across)},
                        {"spacing", Exact(c.ladder.spacing)},
                        {"width", Exact(c.ladder.width)},
                        {"count", c.ladder.count}}},
                      {"lower_hips", c.lower_hips}};
  const FootLockEdit& lock = edit.foot_lock_edit;
  Json feet = Json::array();
  for (const std::vector<glm::ivec2>& leg : lock.contacts) {
    Json list = Json::array();
    for (const glm::ivec2& contact : leg) list.push_back({contact.x, contact.y});
    feet.push_back(list);
  }
  json["foot_lock"] = {
      {"on", s.lock_feet}, {"ground", lock.ground}, {"clip_index", lock.clip}, {"contacts", feet}};
  if (s.camera) {
    const SessionCamera& cam = *s.camera;
    json["camera"] = {{"yaw", Degrees(cam.yaw)},
                      {"pitch", Degrees(cam.pitch)},
                      {"distance", Exact(cam.distance)},
                      {"target", Exact(cam.target)},
                      {"ortho", cam.ortho}};
  } else {
    json["camera"] = nullptr;
  }
  json["display"] = DisplayJsonOf(s.display);
  json["selection"] = {{"joint", NameOrNull(skeleton, s.selected_joint)},
                       {"chain", s.active_chain}};
  return json;
}

bool WriteSessionFile(const std::string& path, const Json& json, std::string* error) {
  // Names and paths come from files and need not be UTF-8: replaced, never a throw.
  const std::string text = json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  std::string reason;
  if (!assets::WriteFileAtomically(path, text.data(), text.size(), &reason)) {
    *error = reason;
    return false;
  }
  return true;
}

}  // namespace app

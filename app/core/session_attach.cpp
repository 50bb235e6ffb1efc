// Session files attached to a model: every field read strictly (a malformed field fails the whole
// file, naming it), joints, meshes, targets and clips found by name.
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
#include "app/core/session_fields.h"
#include "app/core/session_text.h"
#include "app/core/settings.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"
#include "ik/core/rotation.h"

namespace app {

using session_text::Degrees;
using session_text::EndOrientationName;
using session_text::Fields;
using session_text::Named;
using session_text::Radians;

namespace {

// Joints by name, through the renames.
class JointNames {
 public:
  JointNames(const ik::Skeleton& skeleton, const JointRenames* renames)
      : skeleton_(skeleton), renames_(renames) {}
  // The joint named `name` (renamed where it was), or -1.
  int Find(const std::string& name) const {
    if (renames_) {
      if (auto it = renames_->find(name); it != renames_->end()) return skeleton_.Find(it->second);
    }
    return skeleton_.Find(name);
  }

 private:
  const ik::Skeleton& skeleton_;
  const JointRenames* renames_;
};

bool ParseTargetMode(const std::string& text, TargetMode* mode) {
  for (TargetMode m :
       {TargetMode::kFollow, TargetMode::kPinned, TargetMode::kGround, TargetMode::kRung}) {
    if (text == TargetModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

bool ParseKind(const std::string& text, ConstraintKind* kind) {
  for (ConstraintKind k : {ConstraintKind::kTwoBone, ConstraintKind::kAim, ConstraintKind::kFabrik,
                           ConstraintKind::kBody}) {
    if (text == ConstraintKindName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

bool ParseEndOrientation(const std::string& text, ik::EndOrientation* out) {
  for (ik::EndOrientation e : {ik::EndOrientation::kKeepLocal, ik::EndOrientation::kKeepModel,
                               ik::EndOrientation::kTarget}) {
    if (text == EndOrientationName(e)) {
      *out = e;
      return true;
    }
  }
  return false;
}

// Keys of a target or pole ({time, position}), in increasing time.
void ReadKeys(Fields* f, const Json& object, const std::string& path, std::vector<PointKey>* out) {
  const Json& keys = f->Array(object, path, "keys");
  out->clear();
  for (size_t k = 0; k < keys.size() && f->ok(); ++k) {
    const std::string at = Fields::Index(Fields::Join(path, "keys"), k);
    double time = 0.0;
    PointKey key;
    if (!f->Double(keys[k], at, "time", -1e9, 1e9, &time) && f->ok()) f->Fail(at, "expected time");
    if (f->ok() && !f->Member(keys[k], at, "position")) f->Fail(at, "expected position");
    f->Vec3(keys[k], at, "position", &key.value);
    key.time = static_cast<float>(time);
    if (f->ok() && k > 0 && !(key.time > out->back().time)) {
      f->Fail(at, "expected a time after the key before's");
    }
    out->push_back(key);
  }
}

// One chain; false (with *problem) when its joints are not in the model.
bool ReadChain(Fields* f, const Json& json, const std::string& path, const JointNames& joints,
               const assets::Model& model, ChainSettings* out, std::string* problem) {
  ChainSettings c;
  f->String(json, path, "label", &c.label);
  std::string kind = ConstraintKindName(c.kind);
  f->String(json, path, "kind", &kind);
  if (f->ok() && !ParseKind(kind, &c.kind)) {
    f->Fail(Fields::Join(path, "kind"), "expected two_bone, aim, fabrik or body");
  }
  const Json& names = f->Object(json, path, "joints");
  std::string start, mid, end;
  f->Name(names, Fields::Join(path, "joints"), "start", &start);
  f->Name(names, Fields::Join(path, "joints"), "mid", &mid);
  f->Name(names, Fields::Join(path, "joints"), "end", &end);
  f->Bool(json, path, "enabled", &c.enabled);
  const std::string target_path = Fields::Join(path, "target");
  const Json& target = f->Object(json, path, "target");
  std::string mode = TargetModeName(c.mode);
  f->String(target, target_path, "mode", &mode);
  if (f->ok() && !ParseTargetMode(mode, &c.mode)) {
    f->Fail(Fields::Join(target_path, "mode"), "expected follow, pinned, ground or rung");
  }
  f->Vec3(target, target_path, "offset", &c.offset);
  f->Vec3(target, target_path, "pinned", &c.pinned);
  const Json& pole = f->Object(json, path, "pole");
  f->Bool(pole, Fields::Join(path, "pole"), "on", &c.use_pole);
  f->Vec3(pole, Fields::Join(path, "pole"), "position", &c.pole);
  f->Bool(json, path, "hinge", &c.hinge);
  f->Bool(json, path, "body_helps", &c.body_helps);
  f->Bool(json, path, "pin", &c.body_pin);
  f->Float(json, path, "soft", 0.0, 1.0, &c.soft);
  f->Float(json, path, "weight", 0.0, 1.0, &c.weight);
  const Json& weight_keys = f->Array(json, path, "weight_keys");
  for (size_t k = 0; k < weight_keys.size() && f->ok(); ++k) {
    float tw[2];
    if (f->Floats(weight_keys[k], Fields::Index(Fields::Join(path, "weight_keys"), k), 2, tw)) {
      c.weight_keys.push_back({tw[0], std::clamp(tw[1], 0.0f, 1.0f)});
    }
  }
  std::string orientation = EndOrientationName(c.end_orientation);
  f->String(json, path, "end_orientation", &orientation);
  if (f->ok() && !ParseEndOrientation(orientation, &c.end_orientation)) {
    f->Fail(Fields::Join(path, "end_orientation"), "expected keep_local, keep_model or target");
  }
  const std::string aim_path = Fields::Join(path, "aim");
  const Json& aim = f->Object(json, path, "aim");
  std::string target_joint;
  f->Name(aim, aim_path, "target_joint", &target_joint);
  f->Int(aim, aim_path, "spread", 0, 64, &c.spread);
  f->Float(aim, aim_path, "falloff", 0.0, 1.0, &c.spread_falloff);
  const Json& up = f->Object(aim, aim_path, "up");
  f->Bool(up, Fields::Join(aim_path, "up"), "on", &c.use_up);
  f->Vec3(up, Fields::Join(aim_path, "up"), "position", &c.up);
  const std::string fabrik_path = Fields::Join(path, "fabrik");
  const Json& fabrik = f->Object(json, path, "fabrik");
  f->Float(fabrik, fabrik_path, "tolerance", 1e-9, 1.0, &c.tolerance);
  f->Int(fabrik, fabrik_path, "iterations", 1, 100000, &c.max_iterations);
  f->Bool(fabrik, fabrik_path, "show_iterations", &c.show_iterations);
  if (!f->ok()) return false;
  const std::string name = c.label.empty() ? path : "chain " + c.label;
  // The joints, by name; a chain whose joints are gone is left out.
  auto joint = [&](const std::string& joint_name, const char* role, int* index) {
    if (joint_name.empty()) return true;
    *index = joints.Find(joint_name);
    if (*index >= 0) return true;
    *problem = name + ": no joint '" + joint_name + "' (" + role + ") in " + model.source;
    return false;
  };
  c.chain = ik::TwoBoneChain{-1, -1, -1};
  if (!joint(start, "start", &c.chain.start) || !joint(mid, "mid", &c.chain.mid) ||
      !joint(end, "end", &c.chain.end)) {
    return false;
  }
  if (c.chain.end < 0) {
    *problem = name + ": no end joint";
    return false;
  }
  const ik::Skeleton& skeleton = model.skeleton;
  // The chain's shape must still hold in this model: a two-bone chain down one line of joints.
  bool shape = true;
  if (c.kind == ConstraintKind::kTwoBone) {
    shape = c.chain.start >= 0 && c.chain.mid >= 0 &&
            skeleton.IsAncestorOrSelf(c.chain.start, c.chain.mid) &&
            skeleton.IsAncestorOrSelf(c.chain.mid, c.chain.end) && c.chain.start != c.chain.mid &&
            c.chain.mid != c.chain.end;
  } else if (c.kind == ConstraintKind::kFabrik) {
    shape = c.chain.start >= 0 && skeleton.IsAncestorOrSelf(c.chain.start, c.chain.end) &&
            c.chain.start != c.chain.end;
  }
  if (!shape) {
    *problem = name + ": its joints no longer form a " + ConstraintKindName(c.kind) + " chain in " +
               model.source;
    return false;
  }
  if (!target_joint.empty()) {
    c.target_joint = joints.Find(target_joint);
    if (c.target_joint < 0) {
      *problem = name + ": no joint '" + target_joint + "' to aim at; it aims at its target";
    }
  }
  *out = c;
  return true;
}

bool ReadLimit(Fields* f, const Json& json, const std::string& path, ik::JointLimit* out) {
  std::string type;
  f->String(json, path, "type", &type);
  ik::JointLimit limit;
  double a = 0.0, b = 0.0, c = 0.0;
  glm::vec3 axis(0.0f);
  f->Vec3(json, path, "axis", &axis);
  if (type == "hinge") {
    f->Double(json, path, "min", -180.0, 180.0, &a);
    f->Double(json, path, "max", -180.0, 180.0, &b);
    limit = ik::JointLimit::Hinge(axis, Radians(a), Radians(b));
  } else if (type == "cone") {
    a = 180.0, b = -180.0, c = 180.0;
    f->Double(json, path, "cone", 0.0, 180.0, &a);
    f->Double(json, path, "twist_min", -180.0, 180.0, &b);
    f->Double(json, path, "twist_max", -180.0, 180.0, &c);
    limit = ik::JointLimit::Cone(axis, Radians(a), Radians(b), Radians(c));
  } else if (f->ok()) {
    f->Fail(Fields::Join(path, "type"), "expected hinge or cone");
  }
  if (!f->ok()) return false;
  std::string why;
  if (!limit.Validate(&why)) {
    f->Fail(path, why);
    return false;
  }
  *out = limit;
  return true;
}

// Mesh index by session name (a name, or "#N"), or -1.
int FindMesh(const assets::Model& model, const std::string& name) {
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    if (Named(model.meshes[m].name, m) == name) return static_cast<int>(m);
  }
  return -1;
}

int FindTarget(const assets::Mesh& mesh, const std::string& name) {
  for (size_t t = 0; t < mesh.targets.size(); ++t) {
    if (Named(mesh.targets[t].name, t) == name) return static_cast<int>(t);
  }
  return -1;
}

// A clip of the model by the session's name and index: the index when its name matches, else the
// first clip of that name; -1 when none.
int FindClip(const assets::Model& model, const std::string& name, int index) {
  if (index >= 0 && size_t(index) < model.clips.size() && model.clips[size_t(index)].name == name) {
    return index;
  }
  for (size_t c = 0; c < model.clips.size(); ++c) {
    if (model.clips[c].name == name) return static_cast<int>(c);
  }
  return -1;
}

void ReadDisplay(Fields* f, const Json& d, SessionDisplay* out) {
  const std::string path = "display";
  DisplaySpec& s = out->spec;
  f->Bool(d, path, "mesh", &s.mesh);
  f->Bool(d, path, "grid", &s.grid);
  f->Bool(d, path, "bones", &s.bones);
  f->Bool(d, path, "axes", &s.axes);
  f->Bool(d, path, "handles", &s.handles);
  f->Bool(d, path, "knees", &s.knees);
  f->Bool(d, path, "shells", &s.shells);
  f->Bool(d, path, "limits", &s.limits);
  f->Name(d, path, "weights", &s.weights);
  f->Bool(d, path, "influences", &s.influences);
  f->Int(d, path, "onion", 0, kMaxOnion, &s.onion);
  f->Name(d, path, "trail", &s.trail);
  f->Bool(d, path, "legend", &s.legend);
  f->Bool(d, path, "xray", &out->xray);
  f->Float(d, path, "mesh_opacity", 0.05, 1.0, &out->mesh_opacity);
  f->Int(d, path, "onion_step", 1, kMaxOnionStep, &out->onion_step);
  s.onion_step = out->onion_step;
  f->Bool(d, path, "all_chains", &out->all_chains);
  f->Bool(d, path, "axes_selected_only", &out->axes_selected_only);
  f->Bool(d, path, "on_ground", &out->on_ground);
  f->Bool(d, path, "follow_root", &out->follow_root);
  f->Bool(d, path, "axis_gizmo", &out->axis_gizmo);
  std::string gizmo = out->rotate_gizmo;
  f->String(d, path, "rotate_gizmo", &gizmo);
  if (IsRotateGizmoMode(gizmo)) {
    out->rotate_gizmo = gizmo;
  } else {
    f->Fail(path + ".rotate_gizmo", "expected \"off\", \"global\" or \"local\"");
  }
  f->Bool(d, path, "timeline", &out->timeline);
}

}  // namespace

bool AttachSession(const SessionFile& file, const assets::Model& model, const JointRenames* renames,
                   Session* out, SessionProblems* problems, std::string* error) {
  const Json& json = file.json;
  Fields f(file.path, error);
  const JointNames joints(model.skeleton, renames);
  Session s;
  s.model_path = file.model_path;
  s.raw_units = file.raw_units;
  SessionProblems found;

  const Json& chains = f.Array(json, "", "chains");
  for (size_t i = 0; i < chains.size() && f.ok(); ++i) {
    const std::string path = Fields::Index("chains", i);
    ChainSettings chain;
    std::string problem;
    const bool attached = ReadChain(&f, chains[i], path, joints, model, &chain, &problem);
    if (f.ok()) {
      ReadKeys(&f, f.Object(chains[i], path, "target"), path + ".target", &chain.target_keys);
      ReadKeys(&f, f.Object(chains[i], path, "pole"), path + ".pole", &chain.pole_keys);
    }
    if (!problem.empty()) found.lines.push_back(problem);
    if (attached && f.ok()) s.edit.chains.push_back(chain);
  }
  const Json& rotations = f.Array(json, "", "rotations");
  for (size_t i = 0; i < rotations.size() && f.ok(); ++i) {
    const std::string path = Fields::Index("rotations", i);
    std::string name;
    glm::quat q(1.0f, 0.0f, 0.0f, 0.0f);
    f.Name(rotations[i], path, "joint", &name);
    f.Quat(rotations[i], path, "rotation", &q);
    if (!f.ok()) break;
    const int joint = joints.Find(name);
    if (joint < 0) {
      found.lines.push_back("rotation of '" + name + "': no such joint in " + model.source);
      continue;
    }
    // A unit quaternion as written (so that it reads back exactly), others normalized.
    const float length = glm::length(q);
    s.edit.joint_rotations[joint] = std::abs(length - 1.0f) < 1e-5f ? q : q / length;
  }
  const Json& offsets = f.Array(json, "", "rotation_offsets");
  for (size_t i = 0; i < offsets.size() && f.ok(); ++i) {
    const std::string path = Fields::Index("rotation_offsets", i);
    std::string name;
    glm::quat q(1.0f, 0.0f, 0.0f, 0.0f);
    f.Name(offsets[i], path, "joint", &name);
    f.Quat(offsets[i], path, "offset", &q);
    if (!f.ok()) break;
    const int joint = joints.Find(name);
    if (joint < 0) {
      found.lines.push_back("rotation offset of '" + name + "': no such joint in " + model.source);
      continue;
    }
    const float length = glm::length(q);
    s.edit.joint_offsets[joint] = std::abs(length - 1.0f) < 1e-5f ? q : q / length;
  }
  const Json& translations = f.Array(json, "", "translations");
  for (size_t i = 0; i < translations.size() && f.ok(); ++i) {
    const std::string path = Fields::Index("translations", i);
    std::string name;
    glm::vec3 t(0.0f);
    f.Name(translations[i], path, "joint", &name);
    f.Vec3(translations[i], path, "translation", &t);
    if (!f.ok()) break;
    const int joint = joints.Find(name);
    if (joint < 0) {
      found.lines.push_back("translation of '" + name + "': no such joint in " + model.source);
      continue;
    }
    s.edit.joint_translations[joint] = t;
  }
  const Json& limits = f.Array(json, "", "limits");
  for (size_t i = 0; i < limits.size() && f.ok(); ++i) {
    const std::string path = Fields::Index("limits", i);
    std::string name;
    f.Name(limits[i], path, "joint", &name);
    ik::JointLimit limit;
    if (!ReadLimit(&f, limits[i], path, &limit)) break;
    const int joint = joints.Find(name);
    if (joint < 0) {
      found.lines.push_back("limit of '" + name + "': no such joint in " + model.source);
      continue;
    }
    s.edit.limits.Set(joint, limit);
  }
  const Json& body = f.Object(json, "", "body");
  ik::FullBodyOptions& options = s.edit.body_options;
  f.Float(body, "body", "hips", 0.0, 1000.0, &options.hips_translation_weight);
  f.Float(body, "body", "tilt", 0.0, 1000.0, &options.hips_rotation_weight);
  f.Float(body, "body", "spine", 0.0, 1000.0, &options.spine_weight);
  double turn = Degrees(options.max_body_turn);
  if (f.Double(body, "body", "turn", 0.0, 180.0, &turn)) options.max_body_turn = Radians(turn);
  f.Int(body, "body", "iterations", 1, 100, &options.max_iterations);
  f.Float(body, "body", "tolerance", 1e-7, 0.1, &options.tolerance);
  f.Bool(body, "body", "hinge", &options.hinge);
  const Json& morphs = f.Array(json, "", "morphs");
  for (size_t i = 0; i < morphs.size() && f.ok(); ++i) {
    const std::string path = Fields::Index("morphs", i);
    std::string mesh_name, target_name;
    float weight = 0.0f;
    f.String(morphs[i], path, "mesh", &mesh_name);
    f.String(morphs[i], path, "target", &target_name);
    f.Float(morphs[i], path, "weight", -1e6, 1e6, &weight);
    if (!f.ok()) break;
    const int mesh = FindMesh(model, mesh_name);
    const int target = mesh >= 0 ? FindTarget(model.meshes[size_t(mesh)], target_name) : -1;
    if (target < 0) {
      found.lines.push_back("blend shape " + mesh_name + ":" + target_name + ": no such " +
                            (mesh < 0 ? "mesh" : "target") + " in " + model.source);
      continue;
    }
    s.edit.morph_weights[{mesh, target}] = weight;
  }

  const std::string anim_path = "animation";
  const Json& anim = f.Object(json, "", "animation");
  Playback& p = s.playback;
  std::string clip_name;
  bool clip_given = false;
  int clip_index = -1;
  f.Name(anim, anim_path, "clip", &clip_name, &clip_given);
  f.Int(anim, anim_path, "clip_index", -1, 1 << 30, &clip_index);
  std::string generated;
  f.Name(anim, anim_path, "generated", &generated);
  if (f.ok() && !generated.empty() && generated != "range_of_motion") {
    f.Fail(anim_path + ".generated", "expected range_of_motion or null");
  }
  s.range_of_motion = generated == "range_of_motion";
  const Json& together = f.Array(anim, anim_path, "together");
  std::vector<std::string> together_names;
  for (size_t i = 0; i < together.size() && f.ok(); ++i) {
    if (together[i].is_string()) {
      together_names.push_back(together[i].get<std::string>());
    } else {
      f.Fail(Fields::Index(anim_path + ".together", i), "expected a clip's name");
    }
  }
  f.Float(anim, anim_path, "time", -1e9, 1e9, &p.time);
  f.Float(anim, anim_path, "speed", -100.0, 100.0, &p.speed);
  f.Bool(anim, anim_path, "loop", &p.loop);
  if (const Json* range = f.Member(anim, anim_path, "range")) {
    float r[2];
    if (f.Floats(*range, anim_path + ".range", 2, r)) {
      p.range_start = r[0];
      p.range_end = r[1];
    }
  }
  f.Bool(anim, anim_path, "playing", &p.playing);
  p.clip = model.clips.empty() ? -1 : 0;  // as a model opens, unless the session says
  if (f.ok() && !s.range_of_motion && clip_given) {
    if (clip_name.empty() && clip_index < 0) {
      p.clip = -1;
    } else {
      const int clip = FindClip(model, clip_name, clip_index);
      if (clip < 0) {
        found.lines.push_back(
            "clip '" + clip_name + "': no such clip in " + model.source + "; playing " +
            (model.clips.empty() ? std::string("the rest pose") : "'" + model.clips[0].name + "'"));
        p.time = 0.0f;
      } else {
        p.clip = clip;
      }
    }
  }
  if (f.ok() && together_names.size() >= 2) {
    for (const std::string& name : together_names) {
      const int clip = FindClip(model, name, -1);
      if (clip < 0) {
        found.lines.push_back("clip '" + name + "' (played together): no such clip in " +
                              model.source);
        continue;
      }
      p.together.push_back(clip);
    }
    if (p.together.size() < 2) p.together.clear();
  }

  const std::string contacts_path = "contacts";
  const Json& contacts = f.Object(json, "", "contacts");
  SceneContacts& c = s.edit.contacts;
  const Json& ground = f.Object(contacts, contacts_path, "ground");
  const std::string ground_path = contacts_path + ".ground";
  f.Bool(ground, ground_path, "enabled", &c.ground.enabled);
  f.Float(ground, ground_path, "height", -1e9, 1e9, &c.ground.height);
  f.Float(ground, ground_path, "tilt_x", -60.0, 60.0, &c.ground.tilt_x_degrees);
  f.Float(ground, ground_path, "tilt_z", -60.0, 60.0, &c.ground.tilt_z_degrees);
  f.Vec3(ground, ground_path, "pivot", &c.ground.pivot);
  const Json& ladder = f.Object(contacts, contacts_path, "ladder");
  const std::string ladder_path = contacts_path + ".ladder";
  f.Bool(ladder, ladder_path, "enabled", &c.ladder.enabled);
  f.Vec3(ladder, ladder_path, "base", &c.ladder.base);
  f.Vec3(ladder, ladder_path, "up", &c.ladder.up);
  f.Vec3(ladder, ladder_path, "across", &c.ladder.across);
  f.Float(ladder, ladder_path, "spacing", 0.0, 1e9, &c.ladder.spacing);
  f.Float(ladder, ladder_path, "width", 0.0, 1e9, &c.ladder.width);
  f.Int(ladder, ladder_path, "count", 0, 1000, &c.ladder.count);
  f.Bool(contacts, contacts_path, "lower_hips", &c.lower_hips);

  if (const Json* lock = f.Member(json, "", "foot_lock"); lock && !lock->is_null()) {
    FootLockEdit& edit = s.edit.foot_lock_edit;
    f.Bool(*lock, "foot_lock", "on", &s.lock_feet);
    f.String(*lock, "foot_lock", "ground", &edit.ground);
    f.Int(*lock, "foot_lock", "clip_index", -1, 1 << 20, &edit.clip);
    const Json& legs = f.Array(*lock, "foot_lock", "contacts");
    for (size_t i = 0; f.ok() && i < legs.size(); ++i) {
      const std::string leg_path = "foot_lock.contacts[" + std::to_string(i) + "]";
      if (!legs[i].is_array()) {
        f.Fail(leg_path, "expected an array of [first, last] frames");
        break;
      }
      std::vector<glm::ivec2> list;
      for (const Json& pair : legs[i]) {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
            !pair[1].is_number_integer() || pair[0].get<long long>() < 0 ||
            pair[1].get<long long>() < pair[0].get<long long>() ||
            pair[1].get<long long>() > (1 << 24)) {
          f.Fail(leg_path, "expected [first, last] frames, 0 <= first <= last");
          break;
        }
        list.push_back({static_cast<int>(pair[0].get<long long>()),
                        static_cast<int>(pair[1].get<long long>())});
      }
      edit.contacts.push_back(std::move(list));
    }
    if (edit.contacts.empty()) edit.clip = -1;
    Ground parsed;
    std::string why;
    std::error_code gone;
    if (f.ok() && IsGroundMeshSpec(edit.ground)) {
      // A mesh is read by whoever uses it (the window: in the background); one that is gone is
      // the authored floor.
      if (!std::filesystem::is_regular_file(edit.ground, gone)) {
        found.lines.push_back("foot_lock: --ground '" + assets::ShownArgument(edit.ground) +
                              "': no such file");
        edit.ground = "plane";
      }
    } else if (f.ok() && !ParseGroundSpec(edit.ground, &parsed, &why)) {
      found.lines.push_back("foot_lock: " + why);
      edit.ground = "plane";
    }
  }
  if (const Json* camera = f.Member(json, "", "camera"); camera && !camera->is_null()) {
    SessionCamera cam;
    double yaw = 0.0, pitch = 0.0;
    f.Double(*camera, "camera", "yaw", -1e9, 1e9, &yaw);
    f.Double(*camera, "camera", "pitch", -90.0, 90.0, &pitch);
    cam.yaw = Radians(yaw);
    cam.pitch = Radians(pitch);
    f.Float(*camera, "camera", "distance", 1e-9, 1e12, &cam.distance);
    f.Vec3(*camera, "camera", "target", &cam.target);
    f.Bool(*camera, "camera", "ortho", &cam.ortho);
    s.camera = cam;
  }
  ReadDisplay(&f, f.Object(json, "", "display"), &s.display);
  for (std::string* joint_name : {&s.display.spec.weights, &s.display.spec.trail}) {
    if (joint_name->empty() || !f.ok()) continue;
    const int joint = joints.Find(*joint_name);
    if (joint < 0) {
      found.lines.push_back("display: no joint '" + *joint_name + "' in " + model.source);
      joint_name->clear();
    } else {
      *joint_name = model.skeleton.name(joint);
    }
  }
  const Json& selection = f.Object(json, "", "selection");
  std::string selected;
  f.Name(selection, "selection", "joint", &selected);
  f.Int(selection, "selection", "chain", -1, 1 << 30, &s.active_chain);
  if (!selected.empty() && f.ok()) {
    s.selected_joint = joints.Find(selected);
    if (s.selected_joint < 0) {
      found.lines.push_back("selection: no joint '" + selected + "' in " + model.source);
    }
  }
  if (s.active_chain >= static_cast<int>(s.edit.chains.size())) s.active_chain = -1;
  if (!f.ok()) return false;
  *out = std::move(s);
  *problems = std::move(found);
  return true;
}

}  // namespace app

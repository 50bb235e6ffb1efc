// VRM avatars' meta and humanoid map from the glTF JSON (assets/gltf/vrm.h).
#include "assets/gltf/vrm.h"

#include <algorithm>
#include <set>

#include "assets/files/messages.h"

namespace assets::vrm {

namespace {

using gltf::Json;

// A meta text as one short line; empty when the member is absent or not a string.
std::string MetaText(const Json& meta, const char* key) {
  const Json* value = gltf::Member(meta, key);
  if (!value || !value->is_string()) return std::string();
  const std::string& text = value->get_ref<const std::string&>();
  return Excerpt(text, kMaxMetaBytes);
}

// VRM 0.x: meta.title, meta.author, meta.licenseName (with otherLicenseUrl for "Other").
AvatarMeta Meta0(const Json& meta) {
  AvatarMeta m;
  m.format = "VRM 0.x";
  m.title = MetaText(meta, "title");
  m.author = MetaText(meta, "author");
  m.license = MetaText(meta, "licenseName");
  const std::string other = MetaText(meta, "otherLicenseUrl");
  if (!other.empty() && (m.license.empty() || m.license == "Other")) {
    m.license = m.license.empty() ? other : m.license + " (" + other + ")";
  }
  return m;
}

// VRM 1.0: meta.name, meta.authors (an array of strings), meta.licenseUrl.
AvatarMeta Meta1(const Json& meta) {
  AvatarMeta m;
  m.format = "VRM 1.0";
  m.title = MetaText(meta, "name");
  std::string authors;
  for (const Json& author : gltf::ArrayMember(meta, "authors")) {
    if (!author.is_string() || author.get_ref<const std::string&>().empty()) continue;
    authors += (authors.empty() ? "" : ", ") + author.get<std::string>();
  }
  m.author = Excerpt(authors, kMaxMetaBytes);
  m.license = MetaText(meta, "licenseUrl");
  return m;
}

// Adds one map entry, or says why it is left out.
void AddBone(const std::string& bone, const Json* node, Avatar* out, std::set<std::string>* bones,
             std::set<int64_t>* nodes, std::vector<std::string>* problems) {
  if (!IsHumanoidBoneName(bone)) {
    problems->push_back(Quoted(bone) + " is not a humanoid bone VRM defines");
    return;
  }
  const bool valid_node = node && node->is_number_integer() && node->get<int64_t>() >= 0;
  if (!valid_node) {
    problems->push_back(Quoted(bone) + " gives no valid node index");
    return;
  }
  const int64_t index = node->get<int64_t>();
  if (!bones->insert(bone).second) {
    problems->push_back(Quoted(bone) + " is listed twice");
    return;
  }
  if (!nodes->insert(index).second) {
    problems->push_back(Quoted(bone) + " is on node " + std::to_string(index) +
                        ", which another humanoid bone is on");
    return;
  }
  out->bones.push_back({bone, index});
}

}  // namespace

bool IsHumanoidBoneName(const std::string& name) {
  static const std::set<std::string> kNames = [] {
    std::set<std::string> names = {"hips", "spine", "chest", "upperChest", "neck", "head", "jaw"};
    for (const char* side : {"left", "right"}) {
      const std::string s = side;
      for (const char* part : {"Eye", "UpperLeg", "LowerLeg", "Foot", "Toes", "Shoulder",
                               "UpperArm", "LowerArm", "Hand"}) {
        names.insert(s + part);
      }
      // 0.x: Thumb Proximal/Intermediate/Distal; 1.0: Thumb Metacarpal/Proximal/Distal.
      for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Little"}) {
        for (const char* joint : {"Metacarpal", "Proximal", "Intermediate", "Distal"}) {
          const bool thumb = std::string(finger) == "Thumb";
          if (!thumb && std::string(joint) == "Metacarpal") continue;
          names.insert(s + finger + joint);
        }
      }
    }
    return names;
  }();
  return kNames.count(name) > 0;
}

bool ReadAvatar(const Json& root, Avatar* out) {
  *out = Avatar();
  const Json* extensions = gltf::Member(root, "extensions");
  if (!extensions || !extensions->is_object()) return false;
  const Json* vrm1 = gltf::Member(*extensions, "VRMC_vrm");
  const Json* vrm0 = gltf::Member(*extensions, "VRM");
  if (vrm1 && !vrm1->is_object()) vrm1 = nullptr;
  if (vrm0 && !vrm0->is_object()) vrm0 = nullptr;
  if (!vrm1 && !vrm0) return false;
  static const Json kEmpty = Json::object();
  const Json& vrm = vrm1 ? *vrm1 : *vrm0;
  const Json* meta = gltf::Member(vrm, "meta");
  const Json& meta_object = meta && meta->is_object() ? *meta : kEmpty;
  out->meta = vrm1 ? Meta1(meta_object) : Meta0(meta_object);
  const Json* humanoid = gltf::Member(vrm, "humanoid");
  const Json* human_bones = humanoid ? gltf::Member(*humanoid, "humanBones") : nullptr;
  std::set<std::string> bones;
  std::set<int64_t> nodes;
  std::vector<std::string> problems;
  if (human_bones && vrm1 && human_bones->is_object()) {
    // 1.0: {"hips": {"node": 3}, ...}
    for (const auto& [bone, entry] : human_bones->items()) {
      AddBone(bone, entry.is_object() ? gltf::Member(entry, "node") : nullptr, out, &bones, &nodes,
              &problems);
    }
  } else if (human_bones && !vrm1 && human_bones->is_array()) {
    // 0.x: [{"bone": "hips", "node": 3}, ...]
    for (const Json& entry : *human_bones) {
      if (!entry.is_object()) {
        problems.push_back("an entry is not an object");
        continue;
      }
      AddBone(gltf::StringMember(entry, "bone"), gltf::Member(entry, "node"), out, &bones, &nodes,
              &problems);
    }
  } else {
    out->warnings.push_back("the " + out->meta.format +
                            " avatar has no humanoid bone map; its limbs are found from the rig");
  }
  if (!problems.empty()) {
    out->warnings.push_back(Plural(problems.size(), "entry", "entries") + " of the " +
                            out->meta.format + " humanoid bone map left out (e.g. " +
                            problems.front() + ")");
  }
  return true;
}

}  // namespace assets::vrm

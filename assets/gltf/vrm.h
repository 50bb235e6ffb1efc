// VRM avatars (glTF 2.0 with the VRM extensions): the avatar's meta and its humanoid bone map,
// read from the glTF document's JSON. VRM 0.x keeps them in `extensions.VRM`, VRM 1.0 in
// `extensions.VRMC_vrm`. Internal to assets/: the glTF reader maps the bones' nodes to joints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assets/gltf/gltf_document.h"
#include "assets/model/model.h"

namespace assets::vrm {

// Longest meta text kept, in bytes (a longer one is cut, with "...").
inline constexpr size_t kMaxMetaBytes = 240;

struct HumanBone {
  std::string bone;   // its VRM name ("hips", "leftUpperLeg", ...)
  int64_t node = -1;  // glTF node index (not yet checked against the file's nodes)
};

struct Avatar {
  AvatarMeta meta;               // format "VRM 0.x" or "VRM 1.0", texts as one-line excerpts
  std::vector<HumanBone> bones;  // the valid entries (0.x: in file order; 1.0: by bone name)
  std::vector<std::string> warnings;
};

// True when the document declares a VRM avatar (either extension as an object); *out then holds
// what it says. Entries of the humanoid map that name no humanoid bone VRM defines, repeat a bone
// or a node, or give no node index are left out with a warning; meta fields that are not strings
// are empty. VRM 1.0 wins over 0.x in a file that has both.
bool ReadAvatar(const gltf::Json& root, Avatar* out);

// True for the humanoid bone names of VRM 0.x and 1.0 (the body, eyes, jaw, toes and fingers).
bool IsHumanoidBoneName(const std::string& name);

}  // namespace assets::vrm

// Joint names read as words: split the way limb detection, mirroring and retargeting read them,
// and the humanoid role (VRM's names) or finger that a name gives in the common conventions.
#pragma once

#include <string>
#include <vector>

namespace ik {

// One word of a name: name.substr(begin, end - begin), and its lower-case text.
struct NameWord {
  size_t begin = 0, end = 0;
  std::string lower;
};

// Words of a joint name, split at non-alphanumeric characters, lower/upper case changes and
// digits: "mixamorig:LeftUpLeg" → mixamorig, Left, Up, Leg; "thigh.L" → thigh, L;
// "B_Hip_Left" → B, Hip, Left; "IKFoot" → IK, Foot (the last capital of a run starts the next word
// when a lower-case letter follows).
std::vector<NameWord> NameWords(const std::string& name);

// The words' lower-case texts.
std::vector<std::string> NameTokens(const std::string& name);

// The humanoid role a joint's name gives it in the common conventions (Mixamo, Unreal, Blender,
// 3ds Max Biped, VRM and VRoid), by VRM's humanoid names ("hips", "leftUpperLeg", "rightHand",
// ...; "spine" for any spine or chest joint, "neck", "head"), or "". Names of helpers (end, nub,
// IK, target, pole, control, twist, roll), fingers, eyes and the jaw give "".
std::string HumanoidRoleFromName(const std::string& name);

// The finger a joint's name names ("Thumb", "Index", "Middle", "Ring", "Little"), or "".
std::string FingerFromName(const std::string& name);

}  // namespace ik

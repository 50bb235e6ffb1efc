// Internal: joint names split into words, as limb detection and mirroring read them.
#pragma once

#include <string>
#include <vector>

namespace ik {
namespace internal {

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

}  // namespace internal
}  // namespace ik

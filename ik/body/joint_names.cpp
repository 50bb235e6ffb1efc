// Joint names read as words, and the roles they give.
#include "ik/body/joint_names.h"

#include <algorithm>
#include <cctype>

namespace ik {

namespace {

bool Has(const std::vector<std::string>& words, const char* w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

}  // namespace

std::vector<NameWord> NameWords(const std::string& name) {
  std::vector<NameWord> words;
  NameWord current;
  bool open = false;
  auto flush = [&](size_t at) {
    if (open) {
      current.end = at;
      words.push_back(current);
    }
    current = NameWord();
    open = false;
  };
  const size_t n = name.size();
  for (size_t i = 0; i < n; ++i) {
    const unsigned char ch = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(ch)) {
      flush(i);
      continue;
    }
    if (open) {
      const unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      const bool lower_to_upper = std::islower(prev) && std::isupper(ch);
      const bool acronym_end = std::isupper(prev) && std::isupper(ch) && i + 1 < n &&
                               std::islower(static_cast<unsigned char>(name[i + 1]));
      const bool digit_change = (std::isdigit(prev) != 0) != (std::isdigit(ch) != 0);
      if (lower_to_upper || acronym_end || digit_change) flush(i);
    }
    if (!open) {
      current.begin = i;
      open = true;
    }
    current.lower.push_back(static_cast<char>(std::tolower(ch)));
  }
  flush(n);
  return words;
}

std::vector<std::string> NameTokens(const std::string& name) {
  std::vector<std::string> tokens;
  for (NameWord& word : NameWords(name)) tokens.push_back(std::move(word.lower));
  return tokens;
}

std::string HumanoidRoleFromName(const std::string& name) {
  const std::vector<std::string> w = NameTokens(name);
  for (const char* bad : {"end",  "nub",     "tip",    "top",    "ik",    "target", "pole",
                          "ctrl", "control", "twist",  "roll",   "thumb", "index",  "middle",
                          "ring", "pinky",   "little", "finger", "eye",   "jaw"}) {
    if (Has(w, bad)) return "";
  }
  const bool left = Has(w, "left") || Has(w, "l");
  const bool right = Has(w, "right") || Has(w, "r");
  if (left == right) {
    if (Has(w, "hips") || Has(w, "pelvis") || Has(w, "hip")) return "hips";
    if (Has(w, "neck")) return "neck";
    if (Has(w, "head")) return "head";
    if (Has(w, "spine") || Has(w, "chest")) return "spine";
    return "";
  }
  const std::string side = left ? "left" : "right";
  if (Has(w, "shoulder") || Has(w, "clavicle") || Has(w, "collar")) return side + "Shoulder";
  if (Has(w, "forearm") || Has(w, "lowerarm") || Has(w, "elbow") ||
      ((Has(w, "fore") || Has(w, "lower")) && Has(w, "arm"))) {
    return side + "LowerArm";
  }
  if (Has(w, "upperarm") || Has(w, "arm")) return side + "UpperArm";
  if (Has(w, "hand") || Has(w, "wrist")) return side + "Hand";
  if (Has(w, "thigh") || Has(w, "upleg") || Has(w, "upperleg") || Has(w, "hip") ||
      ((Has(w, "up") || Has(w, "upper")) && Has(w, "leg"))) {
    return side + "UpperLeg";
  }
  if (Has(w, "calf") || Has(w, "shin") || Has(w, "knee") || Has(w, "lowerleg") || Has(w, "leg")) {
    return side + "LowerLeg";
  }
  if (Has(w, "foot") || Has(w, "ankle")) return side + "Foot";
  if (Has(w, "toe") || Has(w, "toes") || Has(w, "toebase") || Has(w, "ball")) {
    return side + "Toes";
  }
  return "";
}

std::string FingerFromName(const std::string& name) {
  const std::vector<std::string> w = NameTokens(name);
  if (Has(w, "thumb")) return "Thumb";
  if (Has(w, "index")) return "Index";
  if (Has(w, "middle")) return "Middle";
  if (Has(w, "ring")) return "Ring";
  if (Has(w, "pinky") || Has(w, "little")) return "Little";
  return "";
}

}  // namespace ik

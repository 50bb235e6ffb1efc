// Parsing of the command line's value formats (--ik specs, --size), separate from CLI11 so each
// format is unit-tested. Every parser returns false with a message naming the bad argument.
#pragma once

#include <optional>
#include <string>

#include <glm/glm.hpp>

namespace app {

// One `--ik END=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S][,hinge]` argument. Positions are in the
// scene's world space as loaded.
struct IkSpec {
  std::string end;  // end-effector joint name
  glm::vec3 target{0.0f};
  std::optional<glm::vec3> pole;
  float weight = 1.0f;  // 0..1
  float soft = 0.0f;    // 0..1, fraction of the chain length eased near full extension
  bool hinge = false;
};

bool ParseIkSpec(const std::string& text, IkSpec* out, std::string* error);

// "WxH" with 1 <= W, H <= 16384.
bool ParseSize(const std::string& text, int* width, int* height, std::string* error);

// A finite float, the whole string.
bool ParseFloat(const std::string& text, float* out);

}  // namespace app

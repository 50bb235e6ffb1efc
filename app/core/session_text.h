// What a session's writer and reader share (app/core's session files only): angles in degrees,
// the names of enum values and of unnamed meshes and targets.
#pragma once

#include <string>

#include "ik/two_bone/two_bone_ik.h"

namespace app {
namespace session_text {

constexpr double kDegreesPerRadian = 180.0 / 3.14159265358979323846;
inline double Degrees(float radians) { return double(radians) * kDegreesPerRadian; }
inline float Radians(double degrees) { return static_cast<float>(degrees / kDegreesPerRadian); }

inline const char* EndOrientationName(ik::EndOrientation e) {
  switch (e) {
    case ik::EndOrientation::kKeepLocal:
      return "keep_local";
    case ik::EndOrientation::kKeepModel:
      return "keep_model";
    case ik::EndOrientation::kTarget:
      return "target";
  }
  return "keep_local";
}

// A mesh's or target's name in a session: its name, or "#N" when it has none.
inline std::string Named(const std::string& name, size_t index) {
  return name.empty() ? "#" + std::to_string(index) : name;
}

}  // namespace session_text
}  // namespace app

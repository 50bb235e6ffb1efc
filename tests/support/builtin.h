// The built-in character, made once per test binary and shared read-only by the tests that pose,
// play or draw it.
#pragma once

#include "assets/builtin/builtin_character.h"

namespace testsupport {

inline const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

}  // namespace testsupport

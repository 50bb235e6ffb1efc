// Lengths in the model's units, for the IK chains panel.
#include <cstdio>

#include "app/window/panels/chain_parts.h"

namespace app {

const char* LengthUnits(const assets::Model& model) {
  // glTF is in metres by definition (the built-in character too). FBX is scaled to metres at
  // import (UnitScaleFactor, as Blender places it) unless --raw-units, and Collada by its <unit>;
  // the Model does not record whether that happened, so they and the other formats say "units".
  const std::string& source = model.source;
  const auto ends_with = [&](const char* ext) {
    const std::string e = ext;
    if (source.size() < e.size()) return false;
    for (size_t i = 0; i < e.size(); ++i) {
      const char c = source[source.size() - e.size() + i];
      if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != e[i]) return false;
    }
    return true;
  };
  // glTF and VRM (glTF with the avatar extensions) are in metres.
  return source == "<built-in>" || ends_with(".glb") || ends_with(".gltf") || ends_with(".vrm")
             ? "m"
             : "units";
}

std::string Length(float value, const char* units) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.3g %s", double(value), units);
  return text;
}

}  // namespace app

// Lengths in the model's units, for the IK chains panel.
#include <cstdio>

#include "app/window/panels/chain_parts.h"

namespace app {

const char* LengthUnits(const assets::Model& model) {
  // glTF is in metres by definition (the built-in character too); other formats keep the file's
  // own units, which Assimp does not report.
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
  return source == "<built-in>" || ends_with(".glb") || ends_with(".gltf") ? "m" : "units";
}

std::string Length(float value, const char* units) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.3g %s", double(value), units);
  return text;
}

}  // namespace app

// `skelview retarget SOURCE --onto TARGET -o OUT.glb`: a clip of one rig played on another
// (app/core/retarget.h), written as the target model with the clip added, and a report in numbers.
#pragma once

#include <string>

namespace app {

struct RetargetArgs {
  std::string source;  // a model file, or "builtin" for the built-in character
  std::string target;  // --onto, the same
  std::string out;     // -o: .glb or .gltf
  int anim = 0;        // --anim: the source's clip
  std::string map;     // --map MAP.json: {"source joint": "target joint"}; "" for none
  std::string report;  // --report REPORT.json; "" for none
  bool allow_outside_files = false;
  bool raw_units = false;
};

// Exit codes: 0 written; 2 bad input (an unreadable model, --anim out of range, a bad map, rigs
// that differ in kind, an output that would overwrite an input), one line on stderr naming the
// file or argument; 1 when a write fails. Prints the mapping and the measures as text.
int RunRetarget(const RetargetArgs& args);

}  // namespace app

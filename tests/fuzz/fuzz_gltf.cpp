// libFuzzer target: the glTF path (our glTF reader and the Model it builds; glTF 1.0 goes on to
// Assimp and the converter). Inputs starting with the binary magic are written as .glb, others as
// .gltf.
#include <cstring>

#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool glb = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
  fuzz::LoadBytes(data, size, glb ? ".glb" : ".gltf");
  return 0;
}

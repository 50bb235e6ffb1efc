// libFuzzer target: the glTF path (our glTF reader, then Assimp's glTF 2.0 reader, then the
// converter). Inputs starting with the binary magic are written as .glb, others as .gltf.
#include <cstring>

#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool glb = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
  fuzz::LoadBytes(data, size, glb ? ".glb" : ".gltf");
  return 0;
}

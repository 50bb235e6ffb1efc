// libFuzzer target: Assimp's other readers through LoadModel. The first byte picks the file
// extension (and so the reader), the rest is the file.
#include "tests/fuzz/fuzz_common.h"

namespace {
const char* const kExtensions[] = {".fbx", ".x",   ".obj",     ".dae", ".off",  ".ply",
                                   ".stl", ".smd", ".md5mesh", ".bvh", ".ms3d", ".b3d"};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t pick = data[0] % (sizeof(kExtensions) / sizeof(kExtensions[0]));
  fuzz::LoadBytes(data + 1, size - 1, kExtensions[pick]);
  return 0;
}

// Writes a ground mesh (tests/core/ground_gltf.h: a 4 m square of 16 × 16 quads, rising DEGREES
// along +Z) as a .glb file, for the window tests that choose it as the foot lock's ground.
// Usage: write_ground_mesh OUT.glb DEGREES. Exit 2 with a message when the file cannot be written.
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/core/ground_gltf.h"

int main(int argc, char** argv) {
  char* end = nullptr;
  const float degrees = argc == 3 ? std::strtof(argv[2], &end) : 0.0f;
  if (argc != 3 || end == argv[2] || *end != '\0') {
    std::cerr << "usage: write_ground_mesh OUT.glb DEGREES\n";
    return 2;
  }
  if (!testground::WriteGroundGlb(argv[1], 2.0f, 16, degrees)) {
    std::cerr << "write_ground_mesh: " << argv[1] << ": could not write the file\n";
    return 2;
  }
  return 0;
}

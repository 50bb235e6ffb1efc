// Shared by the libFuzzer harnesses: runs LoadModel on fuzzer bytes written to a scratch file,
// and checks that whatever loads is a Model the rest of skelview can use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "assets/model/model.h"

namespace fuzz {

// Writes `size` bytes to a scratch file named "input<extension>" in the model folder of a
// directory private to this process ($SKELVIEW_FUZZ_DIR or /tmp), runs assets::LoadModel on it
// and checks the result with CheckModel and CheckSourceFiles. Aborts (a finding) on a broken
// invariant. The model folder also holds the side files seeds refer to (ScratchFiles), and the
// folder above it files that must never be read.
void LoadBytes(const uint8_t* data, size_t size, const std::string& extension);

// The side files around the fuzzed model, by name relative to the model's folder:
//   side.bin       the bytes of testgltf::SkinnedStrip()'s buffer (seeds use its layout)
//   sub/side.bin   the same in a subfolder
//   side.tga       a 2x2 image;  side.mtl  a material using side.tga
//   link_in        symlink to side.bin;  link_out  symlink to ../outside.bin
//   link_dir       symlink to .. (the folder above);  fifo  a FIFO (reading it would block)
// and above the folder: outside.bin (same bytes as side.bin), outside.tga, outside.mtl. A load
// that opens any of those, or blocks on the FIFO, is a finding.

// Aborts when `model` breaks an invariant every loaded Model keeps: indices in range, finite
// values, unit normals, weights summing to 1, and a clip that samples to a finite pose.
void CheckModel(const assets::Model& model);

// Aborts unless model.source_files starts with `model_path` (real) and lists only files inside
// `folder` (real), each once.
void CheckSourceFiles(const assets::Model& model, const std::string& model_path,
                      const std::string& folder);

}  // namespace fuzz

// Shared by the libFuzzer harnesses: runs LoadModel on fuzzer bytes written to a scratch file,
// and checks that whatever loads is a Model the rest of skelview can use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "assets/model.h"

namespace fuzz {

// Writes `size` bytes to a scratch file named "input<extension>" in a directory private to this
// process ($SKELVIEW_FUZZ_DIR or /tmp), runs assets::LoadModel on it and checks the result with
// CheckModel. Aborts (a finding) on a broken invariant.
void LoadBytes(const uint8_t* data, size_t size, const std::string& extension);

// Aborts when `model` breaks an invariant every loaded Model keeps: indices in range, finite
// values, unit normals, weights summing to 1, and a clip that samples to a finite pose.
void CheckModel(const assets::Model& model);

}  // namespace fuzz

// libFuzzer target: DeserializeModel on arbitrary bytes. Whatever it accepts must be a usable
// Model, and serialising it again must give back exactly the same bytes.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "assets/files/model_io.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  assets::Model model;
  std::string error;
  if (!assets::DeserializeModel(bytes, &model, &error)) {
    if (error.empty()) std::abort();
    return 0;
  }
  fuzz::CheckModel(model);
  if (assets::SerializeModel(model) != bytes) {
    std::fprintf(stderr, "round trip changed the bytes\n");
    std::abort();
  }
  return 0;
}

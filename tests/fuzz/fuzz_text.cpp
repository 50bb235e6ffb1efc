// libFuzzer target: the text helpers every name and message goes through (assets/files/text.h). For
// any bytes: ValidUtf8 gives valid UTF-8 (the input itself when it was valid); Escaped gives one
// line without control characters, within its limit, that is valid UTF-8 whenever the input was.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "assets/files/text.h"

namespace {

void Require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "invariant broken: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool valid = assets::IsValidUtf8(text);
  const std::string repaired = assets::ValidUtf8(text);
  Require(assets::IsValidUtf8(repaired), "ValidUtf8 gives UTF-8");
  Require(!valid || repaired == text, "valid text is kept");
  Require(assets::ValidUtf8(repaired) == repaired, "repairing twice changes nothing");
  const size_t limit = size > 0 ? 4 + data[0] % 200 : 0;
  for (const std::string& shown : {assets::Escaped(text), assets::Escaped(text, limit),
                                   assets::MessageLine(text), assets::ShownArgument(text)}) {
    for (char c : shown) {
      const unsigned char u = static_cast<unsigned char>(c);
      Require(u >= 0x20 && u != 0x7F, "no control character shown");
    }
    Require(assets::IsValidUtf8(shown), "shown text is UTF-8 (bad bytes are escaped)");
    Require(shown.find("\xC2\x9B") == std::string::npos, "no C1 control shown");
  }
  Require(assets::Escaped(text, limit).size() <= std::max<size_t>(limit, 3), "within the limit");
  Require(assets::MessageLine(text).size() <= assets::kMaxMessageLineBytes, "short message");
  return 0;
}

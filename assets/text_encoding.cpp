// UTF-8 validation by the Unicode standard's table of well-formed byte sequences (Table 3-7).
#include "assets/text_encoding.h"

#include <cstdint>
#include <cstdio>

namespace assets {

namespace {

// Length of the valid UTF-8 sequence at text[at], or 0 when the byte there starts none.
size_t ValidSequenceLength(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t b0 = byte(at);
  if (b0 < 0x80) return 1;
  size_t length = 0;
  uint8_t low = 0x80, high = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) low = 0xA0;   // no overlong forms
    if (b0 == 0xED) high = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) low = 0x90;   // no overlong forms
    if (b0 == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

template <typename Replace>
std::string Rewrite(std::string_view text, Replace replace) {
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    const size_t n = ValidSequenceLength(text, at);
    if (n == 0) {
      replace(static_cast<uint8_t>(text[at]), &out);
      ++at;
    } else {
      out.append(text.substr(at, n));
      at += n;
    }
  }
  return out;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const size_t n = ValidSequenceLength(text, at);
    if (n == 0) return false;
    at += n;
  }
  return true;
}

std::string ReplaceInvalidUtf8(std::string_view text) {
  return Rewrite(text, [](uint8_t, std::string* out) { out->append("\xEF\xBF\xBD"); });
}

std::string EscapeInvalidUtf8(std::string_view text) {
  return Rewrite(text, [](uint8_t b, std::string* out) {
    char escaped[8];
    std::snprintf(escaped, sizeof(escaped), "\\x%02X", static_cast<unsigned>(b));
    out->append(escaped);
  });
}

}  // namespace assets

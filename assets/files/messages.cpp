// One-line, bounded excerpts of text for messages.
#include "assets/files/messages.h"

#include <algorithm>

namespace assets {

std::string Excerpt(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 3);
  size_t i = 0;
  for (; i < text.size() && out.size() < max_bytes; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
      continue;
    }
    out.push_back(static_cast<char>(c));
  }
  // Skip control characters left at the end: they would not have been shown.
  while (i < text.size() && (static_cast<unsigned char>(text[i]) < 0x20 ||
                             static_cast<unsigned char>(text[i]) == 0x7f)) {
    ++i;
  }
  if (i < text.size()) {
    // Cut: drop a partial UTF-8 sequence at the end (continuation bytes and their lead byte).
    if (!out.empty() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
        out.pop_back();
      if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "...";
  }
  return out;
}

std::string Quoted(std::string_view text, size_t max_bytes) {
  return "'" + Excerpt(text, max_bytes) + "'";
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace assets

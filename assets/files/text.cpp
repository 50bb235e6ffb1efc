// UTF-8 validation and repair, and escaping for one-line messages.
#include "assets/files/text.h"

#include <cstdint>
#include <vector>

namespace assets {

namespace {

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 when the byte there does
// not start one (RFC 3629: the ranges of table 3-7 of the Unicode standard).
size_t SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // no overlong forms
    if (c == 0xED) high = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;   // no overlong forms
    if (c == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

void AppendHex(unsigned char c, std::string* out) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  out->append("\\x");
  out->push_back(kDigits[c >> 4]);
  out->push_back(kDigits[c & 15]);
}

// One character of `text` at `i` (`length` bytes, 0 for a stray byte) as it is shown.
void AppendShown(std::string_view text, size_t i, size_t length, std::string* out) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  if (length == 0) {
    AppendHex(c, out);
  } else if (length == 1) {
    if (c == '\n') {
      out->append("\\n");
    } else if (c == '\r') {
      out->append("\\r");
    } else if (c == '\t') {
      out->append("\\t");
    } else if (c < 0x20 || c == 0x7F) {
      AppendHex(c, out);
    } else {
      out->push_back(static_cast<char>(c));
    }
  } else if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
    // U+0080-U+009F: C1 controls (U+009B is a terminal's CSI).
    AppendHex(c, out);
    AppendHex(static_cast<unsigned char>(text[i + 1]), out);
  } else {
    out->append(text.substr(i, length));
  }
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = SequenceLength(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string ValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    const size_t length = SequenceLength(text, i);
    if (length == 0) {
      out.append(kReplacement);
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string Escaped(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(text.size());
  // Where each shown character starts in `out`, so a cut never splits one (nor an escape).
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size();) {
    const size_t length = SequenceLength(text, i);
    if (max_bytes > 0) starts.push_back(out.size());
    AppendShown(text, i, length, &out);
    i += length == 0 ? 1 : length;
  }
  if (max_bytes == 0 || out.size() <= max_bytes) return out;
  // Keep the first and the last part; "..." stands for the middle.
  const size_t keep = max_bytes > 3 ? max_bytes - 3 : 0;
  const size_t head_budget = keep / 2, tail_budget = keep - head_budget;
  size_t head = 0;  // characters [0, head) kept
  while (head < starts.size() &&
         (head + 1 < starts.size() ? starts[head + 1] : out.size()) <= head_budget) {
    ++head;
  }
  size_t tail = starts.size();  // characters [tail, end) kept
  while (tail > head && out.size() - starts[tail - 1] <= tail_budget) --tail;
  const size_t head_end = head < starts.size() ? starts[head] : out.size();
  const size_t tail_begin = tail < starts.size() ? starts[tail] : out.size();
  return out.substr(0, head_end) + "..." + out.substr(tail_begin);
}

std::string ShownArgument(std::string_view text) { return Escaped(text, kMaxShownArgumentBytes); }

std::string ShownPath(std::string_view path) { return Escaped(path, kMaxShownPathBytes); }

std::string MessageLine(std::string_view text) { return Escaped(text, kMaxMessageLineBytes); }

}  // namespace assets

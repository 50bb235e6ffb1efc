// Text from files, file names and the command line made safe to store and show: names become
// valid UTF-8 at import (JSON needs it), and whatever reaches a message or the terminal is one
// line without control characters, of bounded length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assets {

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above
// U+10FFFF).
bool IsValidUtf8(std::string_view text);

// `text` with every byte that does not belong to a well-formed UTF-8 sequence replaced by U+FFFD
// (one per byte, so that different bad names mostly stay different); `text` itself when valid.
std::string ValidUtf8(std::string_view text);

// `text` for a message or the terminal, on one line: control characters (C0, DEL and the C1 range
// U+0080-U+009F, which terminals act on) are written as \n, \r, \t or \xNN, bytes that are not
// UTF-8 as \xNN. When the result would exceed `max_bytes` (0: no limit) its middle is cut, at
// character boundaries, and replaced by "...", so the start and the end (a file's name) stay.
std::string Escaped(std::string_view text, size_t max_bytes = 0);

// Longest command-line value quoted back in an error message, in bytes.
inline constexpr size_t kMaxShownArgumentBytes = 120;
// Longest path quoted in a message, in bytes.
inline constexpr size_t kMaxShownPathBytes = 400;

// A command-line value (or a name) quoted back in a message: Escaped(text,
// kMaxShownArgumentBytes).
std::string ShownArgument(std::string_view text);

// A path for a message: Escaped(path, kMaxShownPathBytes).
std::string ShownPath(std::string_view path);

// Longest message line printed, in bytes (its parts are bounded before: this is the last guard).
inline constexpr size_t kMaxMessageLineBytes = 1000;

// A message as printed on stderr or kept in the message log: Escaped(text, kMaxMessageLineBytes),
// always one line.
std::string MessageLine(std::string_view text);

}  // namespace assets

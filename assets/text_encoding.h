// UTF-8 validity of text that comes from files (names, paths): files promise no encoding, while
// JSON, SARIF and XML outputs must be UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace assets {

// True when `text` is valid UTF-8: no stray continuation bytes, no truncated or overlong
// sequences, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
bool IsValidUtf8(std::string_view text);

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
std::string ReplaceInvalidUtf8(std::string_view text);

// `text` with every byte that is not part of a valid UTF-8 sequence written as \xNN (for naming
// such a name in a message: the bytes stay visible).
std::string EscapeInvalidUtf8(std::string_view text);

}  // namespace assets

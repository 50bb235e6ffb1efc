// Text quoted into load errors and warnings (names, URIs, a library's own messages): kept to one
// short line, because a corrupt file can make a library quote megabytes of itself. Internal to
// assets/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assets {

// Longest name or URI quoted from a file into a message, in bytes.
inline constexpr size_t kMaxQuotedBytes = 120;
// Longest message of a library (Assimp's errors) quoted into ours, in bytes.
inline constexpr size_t kMaxLibraryMessageBytes = 240;
// Longest reason of a load error, and longest warning, in bytes (the file's path comes on top).
inline constexpr size_t kMaxMessageBytes = 480;

// `text` as one line of at most `max_bytes` bytes plus "...": control characters become spaces
// (runs of them one space) and the cut falls on a UTF-8 character boundary.
std::string Excerpt(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

// Excerpt in single quotes, for a name or URI in a message: 'name'.
std::string Quoted(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

// "1 animation", "3 animations": `n` and the noun for that count.
std::string Plural(size_t n, const char* one, const char* many);

}  // namespace assets

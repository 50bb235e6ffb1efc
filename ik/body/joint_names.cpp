// Joint names split into words.
#include "ik/body/joint_names.h"

#include <cctype>

namespace ik {
namespace internal {

std::vector<NameWord> NameWords(const std::string& name) {
  std::vector<NameWord> words;
  NameWord current;
  bool open = false;
  auto flush = [&](size_t at) {
    if (open) {
      current.end = at;
      words.push_back(current);
    }
    current = NameWord();
    open = false;
  };
  const size_t n = name.size();
  for (size_t i = 0; i < n; ++i) {
    const unsigned char ch = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(ch)) {
      flush(i);
      continue;
    }
    if (open) {
      const unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      const bool lower_to_upper = std::islower(prev) && std::isupper(ch);
      const bool acronym_end = std::isupper(prev) && std::isupper(ch) && i + 1 < n &&
                               std::islower(static_cast<unsigned char>(name[i + 1]));
      const bool digit_change = (std::isdigit(prev) != 0) != (std::isdigit(ch) != 0);
      if (lower_to_upper || acronym_end || digit_change) flush(i);
    }
    if (!open) {
      current.begin = i;
      open = true;
    }
    current.lower.push_back(static_cast<char>(std::tolower(ch)));
  }
  flush(n);
  return words;
}

std::vector<std::string> NameTokens(const std::string& name) {
  std::vector<std::string> tokens;
  for (NameWord& word : NameWords(name)) tokens.push_back(std::move(word.lower));
  return tokens;
}

}  // namespace internal
}  // namespace ik

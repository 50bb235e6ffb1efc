// --show lists: parsing and writing the display names.
#include "app/core/display_spec.h"

#include <vector>

namespace app {

namespace {

struct Flag {
  const char* name;
  bool DisplaySpec::*field;
};
constexpr Flag kFlags[] = {
    {"mesh", &DisplaySpec::mesh},       {"grid", &DisplaySpec::grid},
    {"bones", &DisplaySpec::bones},     {"axes", &DisplaySpec::axes},
    {"handles", &DisplaySpec::handles}, {"knees", &DisplaySpec::knees},
    {"shells", &DisplaySpec::shells},   {"limits", &DisplaySpec::limits},
};

// Names the issue tracker asked for that nothing draws yet: refused by name, never ignored.
constexpr const char* kNotYetDrawn[] = {"influences", "onion", "trail", "legend"};

}  // namespace

bool DisplaySpec::operator==(const DisplaySpec& o) const {
  for (const Flag& flag : kFlags) {
    if (this->*flag.field != o.*flag.field) return false;
  }
  return weights == o.weights;
}

bool ParseShowList(const std::string& text, DisplaySpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--show '" + text + "': " + why +
             " (expected a comma-separated list of none, mesh, grid, bones, axes, handles, "
             "knees, shells, limits, weights=JOINT)";
    return false;
  };
  DisplaySpec spec;
  for (const Flag& flag : kFlags) spec.*flag.field = false;
  std::vector<std::string> seen;
  size_t start = 0;
  bool none = false;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    const size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    if (name.empty()) return fail("an empty item");
    for (const std::string& s : seen) {
      if (s == name) return fail("'" + name + "' is listed twice");
    }
    seen.push_back(name);
    if (name == "none" && eq == std::string::npos) {
      none = true;
      continue;
    }
    if (name == "weights") {
      if (eq == std::string::npos || eq + 1 == item.size()) {
        return fail("weights needs a joint: weights=JOINT");
      }
      spec.weights = item.substr(eq + 1);
      continue;
    }
    bool known = false;
    for (const Flag& flag : kFlags) {
      if (name == flag.name && eq == std::string::npos) {
        spec.*flag.field = true;
        known = true;
      }
    }
    if (known) continue;
    for (const char* later : kNotYetDrawn) {
      if (name == later) return fail("'" + name + "' is not drawn by this version of skelview");
    }
    return fail("unknown item '" + item + "'");
  }
  if (none && seen.size() > 1) return fail("none cannot be combined with other items");
  *out = spec;
  return true;
}

std::string ShowListOf(const DisplaySpec& spec) {
  std::string list;
  for (const Flag& flag : kFlags) {
    if (spec.*flag.field) list += (list.empty() ? "" : ",") + std::string(flag.name);
  }
  if (!spec.weights.empty()) list += (list.empty() ? "" : ",") + ("weights=" + spec.weights);
  return list.empty() ? "none" : list;
}

}  // namespace app

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
    {"mesh", &DisplaySpec::mesh},
    {"grid", &DisplaySpec::grid},
    {"bones", &DisplaySpec::bones},
    {"axes", &DisplaySpec::axes},
    {"handles", &DisplaySpec::handles},
    {"knees", &DisplaySpec::knees},
    {"shells", &DisplaySpec::shells},
    {"limits", &DisplaySpec::limits},
    {"influences", &DisplaySpec::influences},
    {"legend", &DisplaySpec::legend},
};

}  // namespace

bool DisplaySpec::operator==(const DisplaySpec& o) const {
  for (const Flag& flag : kFlags) {
    if (this->*flag.field != o.*flag.field) return false;
  }
  return weights == o.weights && onion == o.onion && trail == o.trail;
}

bool ParseShowList(const std::string& text, DisplaySpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--show '" + text + "': " + why +
             " (expected a comma-separated list of none, mesh, grid, bones, axes, handles, "
             "knees, shells, limits, weights=JOINT, influences, onion=N, trail=JOINT, legend)";
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
    if (name == "weights" || name == "trail") {
      if (eq == std::string::npos || eq + 1 == item.size()) {
        return fail(name + " needs a joint: " + name + "=JOINT");
      }
      (name == "weights" ? spec.weights : spec.trail) = item.substr(eq + 1);
      continue;
    }
    if (name == "onion") {
      const std::string count = eq == std::string::npos ? "" : item.substr(eq + 1);
      const bool digits = !count.empty() && count.size() <= 2 &&
                          count.find_first_not_of("0123456789") == std::string::npos;
      const int n = digits ? std::stoi(count) : 0;
      if (n < 1 || n > kMaxOnion) {
        return fail("onion needs a count of ghosts on each side from 1 to " +
                    std::to_string(kMaxOnion) + ": onion=N");
      }
      spec.onion = n;
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
  auto add = [&list](const std::string& item) { list += (list.empty() ? "" : ",") + item; };
  if (!spec.weights.empty()) add("weights=" + spec.weights);
  if (spec.onion > 0) add("onion=" + std::to_string(spec.onion));
  if (!spec.trail.empty()) add("trail=" + spec.trail);
  return list.empty() ? "none" : list;
}

}  // namespace app

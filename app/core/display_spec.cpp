// --show lists: parsing and writing the display names.
#include "app/core/display_spec.h"

#include <vector>

#include "assets/files/text.h"

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

// A whole number of at most three digits, or -1.
int SmallNumber(const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 3 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  return digits ? std::stoi(text) : -1;
}

}  // namespace

bool DisplaySpec::operator==(const DisplaySpec& o) const {
  for (const Flag& flag : kFlags) {
    if (this->*flag.field != o.*flag.field) return false;
  }
  return weights == o.weights && onion == o.onion && onion_step == o.onion_step && trail == o.trail;
}

bool ParseShowList(const std::string& text, DisplaySpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--show '" + assets::ShownArgument(text) + "': " + why +
             " (expected a comma-separated list of none, mesh, grid, bones, axes, handles, "
             "knees, shells, limits, weights=JOINT, influences, onion=N[:K], trail=JOINT, legend)";
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
      if (s == name) return fail("'" + assets::ShownArgument(name) + "' is listed twice");
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
      const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
      const size_t colon = value.find(':');
      const int n = SmallNumber(value.substr(0, colon));
      if (n < 1 || n > kMaxOnion) {
        return fail("onion needs a count of ghosts on each side from 1 to " +
                    std::to_string(kMaxOnion) + ": onion=N, or onion=N:K for K frames apart");
      }
      const int k = colon == std::string::npos ? 1 : SmallNumber(value.substr(colon + 1));
      if (k < 1 || k > kMaxOnionStep) {
        return fail("onion=N:K needs K, the frames between ghosts, from 1 to " +
                    std::to_string(kMaxOnionStep));
      }
      spec.onion = n;
      spec.onion_step = k;
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
    return fail("unknown item '" + assets::ShownArgument(item) + "'");
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
  if (spec.onion > 0) {
    add("onion=" + std::to_string(spec.onion) +
        (spec.onion_step != 1 ? ":" + std::to_string(spec.onion_step) : ""));
  }
  if (!spec.trail.empty()) add("trail=" + spec.trail);
  return list.empty() ? "none" : list;
}

}  // namespace app

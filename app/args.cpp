// Parsers for --ik and --size values.
#include "app/args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace app {

namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return parts;
}

}  // namespace

bool ParseFloat(const std::string& text, float* out) {
  if (text.empty()) return false;
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end != begin + text.size() || errno == ERANGE || !std::isfinite(value)) return false;
  if (std::fabs(value) > 3.0e38) return false;
  *out = static_cast<float>(value);
  return true;
}

bool ParseIkSpec(const std::string& text, IkSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--ik '" + text + "': " + why +
             " (expected END=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S][,hinge])";
    return false;
  };
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return fail("missing the end joint name before '='");
  IkSpec spec;
  spec.end = text.substr(0, eq);
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  if (parts.size() < 3) return fail("the target needs three coordinates");
  for (int k = 0; k < 3; ++k) {
    if (!ParseFloat(parts[k], &spec.target[k])) {
      return fail("target coordinate '" + parts[k] + "' is not a finite number");
    }
  }
  for (size_t i = 3; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const size_t key_end = part.find('=');
    const std::string key = part.substr(0, key_end);
    const std::string value = key_end == std::string::npos ? "" : part.substr(key_end + 1);
    if (key == "pole") {
      if (i + 2 >= parts.size()) return fail("pole needs three coordinates");
      glm::vec3 pole;
      const std::string coords[3] = {value, parts[i + 1], parts[i + 2]};
      for (int k = 0; k < 3; ++k) {
        if (!ParseFloat(coords[k], &pole[k])) {
          return fail("pole coordinate '" + coords[k] + "' is not a finite number");
        }
      }
      spec.pole = pole;
      i += 2;
    } else if (key == "weight") {
      if (!ParseFloat(value, &spec.weight) || spec.weight < 0.0f || spec.weight > 1.0f) {
        return fail("weight '" + value + "' is not a number in [0, 1]");
      }
    } else if (key == "soft") {
      if (!ParseFloat(value, &spec.soft) || spec.soft < 0.0f || spec.soft > 1.0f) {
        return fail("soft '" + value + "' is not a number in [0, 1]");
      }
    } else if (key == "hinge" && key_end == std::string::npos) {
      spec.hinge = true;
    } else {
      return fail("unknown option '" + part + "'");
    }
  }
  *out = spec;
  return true;
}

bool ParseSize(const std::string& text, int* width, int* height, std::string* error) {
  const size_t x = text.find_first_of("xX");
  float w = 0, h = 0;
  if (x == std::string::npos || !ParseFloat(text.substr(0, x), &w) ||
      !ParseFloat(text.substr(x + 1), &h) || w != std::floor(w) || h != std::floor(h) || w < 1 ||
      h < 1 || w > 16384 || h > 16384) {
    *error = "--size '" + text + "': expected WxH with whole numbers from 1 to 16384";
    return false;
  }
  *width = static_cast<int>(w);
  *height = static_cast<int>(h);
  return true;
}

}  // namespace app

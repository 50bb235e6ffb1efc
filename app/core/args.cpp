// Parsers for --ik, --aim, --fabrik, --limit, --size and numeric option values.
#include "app/core/args.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "assets/files/text.h"

namespace app {

namespace {

// How coordinates are bounded, for messages.
constexpr char kCoordinateRange[] = "-1e7..1e7";

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

bool ParseCoordinate(const std::string& text, float* out) {
  float value = 0.0f;
  if (!ParseFloat(text, &value) || std::abs(value) > kMaxCoordinateArgument) return false;
  *out = value;
  return true;
}

bool ParseIkSpec(const std::string& text, IkSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--ik '" + assets::ShownArgument(text) + "': " + why +
             " (expected END[@T]=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S][,hinge|,nohinge][,body])";
    return false;
  };
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return fail("missing the end joint name before '='");
  IkSpec spec;
  if (!SplitKeyTime("--ik", text, &spec.end, &spec.time, error)) return false;
  if (spec.end.empty()) return fail("missing the end joint name before '@'");
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  if (parts.size() < 3) return fail("the target needs three coordinates");
  for (int k = 0; k < 3; ++k) {
    if (!ParseCoordinate(parts[k], &spec.target[k])) {
      return fail("target coordinate '" + assets::ShownArgument(parts[k]) +
                  "' is not a finite number within " + kCoordinateRange);
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
        if (!ParseCoordinate(coords[k], &pole[k])) {
          return fail("pole coordinate '" + assets::ShownArgument(coords[k]) +
                      "' is not a finite number within " + kCoordinateRange);
        }
      }
      spec.pole = pole;
      i += 2;
    } else if (key == "weight") {
      if (!ParseFloat(value, &spec.weight) || spec.weight < 0.0f || spec.weight > 1.0f) {
        return fail("weight '" + assets::ShownArgument(value) + "' is not a number in [0, 1]");
      }
    } else if (key == "soft") {
      if (!ParseFloat(value, &spec.soft) || spec.soft < 0.0f || spec.soft > 1.0f) {
        return fail("soft '" + assets::ShownArgument(value) + "' is not a number in [0, 1]");
      }
    } else if ((key == "hinge" || key == "nohinge") && key_end == std::string::npos) {
      if (spec.hinge.has_value()) return fail("hinge and nohinge given together");
      spec.hinge = key == "hinge";
    } else if (key == "body" && key_end == std::string::npos) {
      spec.body = true;
    } else {
      return fail("unknown option '" + assets::ShownArgument(part) + "'");
    }
  }
  *out = spec;
  return true;
}

namespace {

bool ParseVec3(const std::vector<std::string>& parts, size_t at, glm::vec3* out) {
  if (at + 3 > parts.size()) return false;
  for (int k = 0; k < 3; ++k)
    if (!ParseCoordinate(parts[at + k], &(*out)[k])) return false;
  return true;
}

// True when strtod reads all of `text` (finite or not: "nan", "inf", "1e39" count), so that a
// non-finite coordinate is reported as such rather than read as a joint name.
bool LooksLikeNumber(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

bool ParseInt(const std::string& text, int* out) {
  float value = 0.0f;
  if (!ParseFloat(text, &value) || value != std::floor(value) || std::abs(value) > 1e9f) {
    return false;
  }
  *out = static_cast<int>(value);
  return true;
}

}  // namespace

bool ParseAimSpec(const std::string& text, AimSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--aim '" + assets::ShownArgument(text) + "': " + why +
             " (expected BONE=X,Y,Z or BONE=JOINT, then [,weight=W][,spread=N][,falloff=F]"
             "[,up=X,Y,Z][,axis=X,Y,Z])";
    return false;
  };
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return fail("missing the bone name before '='");
  AimSpec spec;
  spec.bone = text.substr(0, eq);
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  size_t i = 0;
  if (!parts.empty() && LooksLikeNumber(parts[0])) {
    glm::vec3 target;
    if (!ParseVec3(parts, 0, &target))
      return fail("the target needs three finite coordinates within " +
                  std::string(kCoordinateRange));
    spec.target = target;
    i = 3;
  } else {
    if (parts.empty() || parts[0].empty()) return fail("missing the target");
    spec.target_joint = parts[0];
    i = 1;
  }
  for (; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const size_t key_end = part.find('=');
    const std::string key = part.substr(0, key_end);
    const std::string value = key_end == std::string::npos ? "" : part.substr(key_end + 1);
    if (key == "weight") {
      if (!ParseFloat(value, &spec.weight) || spec.weight < 0.0f || spec.weight > 1.0f) {
        return fail("weight '" + assets::ShownArgument(value) + "' is not a number in [0, 1]");
      }
    } else if (key == "spread") {
      if (!ParseInt(value, &spec.spread) || spec.spread < 0 || spec.spread > 64) {
        return fail("spread '" + assets::ShownArgument(value) +
                    "' is not a whole number from 0 to 64");
      }
    } else if (key == "falloff") {
      if (!ParseFloat(value, &spec.falloff) || spec.falloff <= 0.0f || spec.falloff > 1.0f) {
        return fail("falloff '" + assets::ShownArgument(value) + "' is not a number in (0, 1]");
      }
    } else if (key == "up" || key == "axis") {
      std::vector<std::string> coords = {value};
      if (i + 2 < parts.size()) coords.insert(coords.end(), {parts[i + 1], parts[i + 2]});
      glm::vec3 v;
      if (!ParseVec3(coords, 0, &v))
        return fail(key + " needs three finite coordinates within " +
                    std::string(kCoordinateRange));
      (key == "up" ? spec.up : spec.axis) = v;
      i += 2;
    } else {
      return fail("unknown option '" + assets::ShownArgument(part) + "'");
    }
  }
  *out = spec;
  return true;
}

bool ParseFabrikSpec(const std::string& text, FabrikSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--fabrik '" + assets::ShownArgument(text) + "': " + why +
             " (expected ROOT:END=X,Y,Z[,tolerance=T][,iterations=N])";
    return false;
  };
  const size_t eq = text.rfind('=', text.find(','));
  if (eq == std::string::npos || eq == 0) return fail("missing ROOT:END before '='");
  FabrikSpec spec;
  spec.chain = text.substr(0, eq);
  if (spec.chain.find(':') == std::string::npos) return fail("the chain must be ROOT:END");
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  if (!ParseVec3(parts, 0, &spec.target))
    return fail("the target needs three finite coordinates within " +
                std::string(kCoordinateRange));
  for (size_t i = 3; i < parts.size(); ++i) {
    const size_t key_end = parts[i].find('=');
    const std::string key = parts[i].substr(0, key_end);
    const std::string value = key_end == std::string::npos ? "" : parts[i].substr(key_end + 1);
    if (key == "tolerance") {
      if (!ParseFloat(value, &spec.tolerance) || spec.tolerance <= 0.0f || spec.tolerance > 0.1f) {
        return fail("tolerance '" + assets::ShownArgument(value) + "' is not a number in (0, 0.1]");
      }
    } else if (key == "iterations") {
      if (!ParseInt(value, &spec.iterations) || spec.iterations < 1 || spec.iterations > 10000) {
        return fail("iterations '" + assets::ShownArgument(value) +
                    "' is not a whole number from 1 to 10000");
      }
    } else {
      return fail("unknown option '" + assets::ShownArgument(parts[i]) + "'");
    }
  }
  *out = spec;
  return true;
}

bool ParseLimitSpec(const std::string& text, LimitSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--limit '" + assets::ShownArgument(text) + "': " + why +
             " (expected JOINT=hinge,AX,AY,AZ,MIN,MAX or JOINT=cone,ANGLE[,TWISTMIN,TWISTMAX], "
             "degrees)";
    return false;
  };
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) return fail("missing the joint name before '='");
  LimitSpec spec;
  spec.joint = text.substr(0, eq);
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  if (parts[0] == "hinge") {
    float lo = 0.0f, hi = 0.0f;
    if (parts.size() != 6 || !ParseVec3(parts, 1, &spec.axis) || !ParseFloat(parts[4], &lo) ||
        !ParseFloat(parts[5], &hi)) {
      return fail("a hinge needs an axis and two angles");
    }
    if (glm::length(spec.axis) < 1e-6f) return fail("the hinge axis is zero");
    if (lo > hi || lo < -180.0f || hi > 180.0f)
      return fail("the angles must be -180 <= MIN <= MAX <= 180");
    spec.hinge = true;
    spec.min_degrees = lo;
    spec.max_degrees = hi;
  } else if (parts[0] == "cone") {
    if (parts.size() != 2 && parts.size() != 4)
      return fail("a cone needs an angle (and a twist range)");
    if (!ParseFloat(parts[1], &spec.cone_degrees) || spec.cone_degrees < 0.0f ||
        spec.cone_degrees > 180.0f) {
      return fail("the cone angle must be in [0, 180]");
    }
    if (parts.size() == 4 &&
        (!ParseFloat(parts[2], &spec.twist_min_degrees) ||
         !ParseFloat(parts[3], &spec.twist_max_degrees) ||
         spec.twist_min_degrees > spec.twist_max_degrees || spec.twist_min_degrees < -180.0f ||
         spec.twist_max_degrees > 180.0f)) {
      return fail("the twist range must be -180 <= MIN <= MAX <= 180");
    }
    spec.hinge = false;
  } else {
    return fail("the limit type must be hinge or cone");
  }
  *out = spec;
  return true;
}

bool ParseSize(const std::string& text, int* width, int* height, std::string* error) {
  const size_t x = text.find_first_of("xX");
  long w = 0, h = 0;
  std::string ignored;
  if (x == std::string::npos ||
      !ParseWholeNumber("--size", text.substr(0, x), 1, kMaxSizeArgument, &w, &ignored) ||
      !ParseWholeNumber("--size", text.substr(x + 1), 1, kMaxSizeArgument, &h, &ignored)) {
    *error = "--size '" + assets::ShownArgument(text) +
             "': expected WxH with whole numbers from 1 to " + std::to_string(kMaxSizeArgument);
    return false;
  }
  *width = static_cast<int>(w);
  *height = static_cast<int>(h);
  return true;
}

bool CheckImageSize(int width, int height, int max_side, std::string* error) {
  if (width <= max_side && height <= max_side) return true;
  *error = "--size " + std::to_string(width) + "x" + std::to_string(height) + ": larger than the " +
           std::to_string(max_side) + "x" + std::to_string(max_side) +
           " pixels this OpenGL driver can render";
  return false;
}

bool CheckWindowSize(int width, int height, std::string* error) {
  if (width <= kMaxWindowSide && height <= kMaxWindowSide) return true;
  *error = "--size " + std::to_string(width) + "x" + std::to_string(height) + ": larger than the " +
           std::to_string(kMaxWindowSide) + "x" + std::to_string(kMaxWindowSide) +
           " pixels SDL opens a window at";
  return false;
}

bool ParseAnimList(const std::string& text, std::vector<int>* clips, std::string* error) {
  clips->clear();
  size_t start = 0;
  for (;;) {
    const size_t plus = text.find('+', start);
    const std::string part =
        text.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    long clip = 0;
    std::string ignored;
    // Digits only: a sign would be read as a separator or a negative number.
    const bool digits = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || !ParseWholeNumber("--anim", part, 0, INT_MAX, &clip, &ignored)) {
      *error = "--anim '" + assets::ShownArgument(text) +
               "': expected clip numbers from 0, one or several joined with + (e.g. 0+1)";
      clips->clear();
      return false;
    }
    clips->push_back(static_cast<int>(clip));
    if (plus == std::string::npos) return true;
    start = plus + 1;
  }
}

bool ParseWholeNumber(const std::string& option, const std::string& text, long min, long max,
                      long* out, std::string* error) {
  size_t digits = text.empty() ? 0 : (text[0] == '-' || text[0] == '+' ? 1 : 0);
  bool ok = digits < text.size();
  for (size_t i = digits; i < text.size() && ok; ++i) {
    ok = text[i] >= '0' && text[i] <= '9';
  }
  long value = 0;
  if (ok) {
    errno = 0;
    char* end = nullptr;
    value = std::strtol(text.c_str(), &end, 10);
    ok = errno != ERANGE && end == text.c_str() + text.size() && value >= min && value <= max;
  }
  if (!ok) {
    *error = option + " '" + assets::ShownArgument(text) + "': expected a whole number from " +
             std::to_string(min) + " to " + std::to_string(max);
    return false;
  }
  *out = value;
  return true;
}

bool ParseSeconds(const std::string& option, const std::string& text, float* out,
                  std::string* error) {
  if (!ParseFloat(text, out)) {
    *error = option + " '" + assets::ShownArgument(text) + "': expected a finite number of seconds";
    return false;
  }
  if (*out == 0.0f) *out = 0.0f;  // no "-0" in the output
  return true;
}

namespace {

std::string ShortNumber(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", static_cast<double>(value));
  return text;
}

}  // namespace

float ClampClipTime(float time, float duration, const std::string& clip_name, std::string* note) {
  note->clear();
  const float end = std::max(duration, 0.0f);
  const float clamped = std::clamp(time, 0.0f, end);
  if (clamped != time) {
    *note = "--time " + ShortNumber(time) + ": clamped to " + ShortNumber(clamped) + " (clip '" +
            assets::ShownArgument(clip_name) + "' runs from 0 to " + ShortNumber(end) + " s)";
  }
  return clamped == 0.0f ? 0.0f : clamped;
}

namespace {

// "KEY=VALUE" → key and value; a part without '=' has an empty value and no_value set.
struct KeyValue {
  std::string key, value;
  bool has_value = false;
};
KeyValue SplitKeyValue(const std::string& part) {
  const size_t at = part.find('=');
  if (at == std::string::npos) return {part, "", false};
  return {part.substr(0, at), part.substr(at + 1), true};
}

}  // namespace

bool SplitKeyTime(const std::string& option, const std::string& text, std::string* name,
                  std::optional<float>* time, std::string* error) {
  // The name is what comes before '=' (or ',' for a --pin without a point).
  const std::string head = text.substr(0, text.find('='));
  const size_t at = head.rfind('@');
  time->reset();
  *name = head;
  if (at == std::string::npos || !LooksLikeNumber(head.substr(at + 1))) return true;
  const std::string shown = head.substr(at + 1);
  float seconds = 0.0f;
  if (!ParseFloat(shown, &seconds) || std::abs(seconds) > 1e9f) {
    *error = option + " '" + assets::ShownArgument(text) + "': the key time '" +
             assets::ShownArgument(shown) + "' is not a finite number of seconds within +-1e9";
    return false;
  }
  *name = head.substr(0, at);
  *time = seconds;
  return true;
}

bool ParsePinSpec(const std::string& text, PinSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--pin '" + assets::ShownArgument(text) + "': " + why +
             " (expected JOINT[@T][=X,Y,Z][,weight=W])";
    return false;
  };
  PinSpec spec;
  const size_t eq = text.find('=');
  const size_t comma = text.find(',');
  if (eq == std::string::npos || (comma != std::string::npos && comma < eq)) {
    // JOINT or JOINT,weight=W: held where the pose has it.
    if (!SplitKeyTime("--pin", text, &spec.joint, &spec.time, error)) return false;
    spec.joint = spec.joint.substr(0, spec.joint.find(','));
    if (spec.joint.empty()) return fail("missing the joint name");
    if (spec.time) return fail("a key (@T) needs the point: JOINT@T=X,Y,Z");
    if (comma != std::string::npos) {
      const KeyValue kv = SplitKeyValue(text.substr(comma + 1));
      if (kv.key != "weight")
        return fail("unknown option '" + assets::ShownArgument(text.substr(comma + 1)) + "'");
      if (!ParseFloat(kv.value, &spec.weight) || spec.weight <= 0.0f || spec.weight > 1000.0f) {
        return fail("weight '" + assets::ShownArgument(kv.value) +
                    "' is not a number in (0, 1000]");
      }
    }
    *out = spec;
    return true;
  }
  if (eq == 0) return fail("missing the joint name before '='");
  if (!SplitKeyTime("--pin", text, &spec.joint, &spec.time, error)) return false;
  if (spec.joint.empty()) return fail("missing the joint name before '@'");
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  glm::vec3 target;
  if (!ParseVec3(parts, 0, &target))
    return fail("the point needs three finite coordinates within " + std::string(kCoordinateRange));
  spec.target = target;
  for (size_t i = 3; i < parts.size(); ++i) {
    const KeyValue kv = SplitKeyValue(parts[i]);
    if (kv.key != "weight") return fail("unknown option '" + assets::ShownArgument(parts[i]) + "'");
    if (!ParseFloat(kv.value, &spec.weight) || spec.weight <= 0.0f || spec.weight > 1000.0f) {
      return fail("weight '" + assets::ShownArgument(kv.value) + "' is not a number in (0, 1000]");
    }
  }
  *out = spec;
  return true;
}

bool ParseMoveSpec(const std::string& text, MoveSpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--move '" + assets::ShownArgument(text) + "': " + why + " (expected JOINT=X,Y,Z)";
    return false;
  };
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return fail("missing the joint name before '='");
  MoveSpec spec;
  spec.joint = text.substr(0, eq);
  const std::vector<std::string> parts = Split(text.substr(eq + 1), ',');
  if (parts.size() != 3 || !ParseVec3(parts, 0, &spec.target)) {
    return fail("the point needs exactly three finite coordinates within " +
                std::string(kCoordinateRange));
  }
  *out = spec;
  return true;
}

bool ParseBodySpec(const std::string& text, BodySpec* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "--body '" + assets::ShownArgument(text) + "': " + why +
             " (expected [hips=W][,tilt=W][,spine=W][,turn=DEG][,iterations=N])";
    return false;
  };
  BodySpec spec;
  for (const std::string& part : Split(text, ',')) {
    const KeyValue kv = SplitKeyValue(part);
    float value = 0.0f;
    if (!kv.has_value || !ParseFloat(kv.value, &value)) {
      return fail("'" + assets::ShownArgument(part) + "' is not KEY=NUMBER");
    }
    if (kv.key == "hips" || kv.key == "tilt" || kv.key == "spine") {
      if (value < 0.0f || value > 1000.0f) return fail(kv.key + " must be in [0, 1000]");
      (kv.key == "hips" ? spec.hips : kv.key == "tilt" ? spec.tilt : spec.spine) = value;
    } else if (kv.key == "turn") {
      if (value < 0.0f || value > 180.0f) return fail("turn must be in [0, 180] degrees");
      spec.turn_degrees = value;
    } else if (kv.key == "iterations") {
      int n = 0;
      if (!ParseInt(kv.value, &n) || n < 1 || n > 100) {
        return fail("iterations must be a whole number from 1 to 100");
      }
      spec.iterations = n;
    } else {
      return fail("unknown key '" + assets::ShownArgument(kv.key) + "'");
    }
  }
  *out = spec;
  return true;
}

}  // namespace app

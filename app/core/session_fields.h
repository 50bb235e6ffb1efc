// How a session's fields are read (app/core's session files only): strictly, each checked for its
// type and range, the first bad one stopping the reading with its path named.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>

#include "app/core/json_output.h"

namespace app {
namespace session_text {

// Reads a session's fields strictly: the first bad field stops the reading and is named.
class Fields {
 public:
  Fields(const std::string& file, std::string* error) : file_(file), error_(error) {}
  bool ok() const { return ok_; }

  // The member `key` of `object`, or null when it is absent (`path` names `object`).
  const Json* Member(const Json& object, const std::string& path, const char* key) {
    if (!ok_) return nullptr;
    if (!object.is_object()) {
      Fail(path, "expected an object");
      return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }
  // Each reader leaves *out as it is when the member is absent.
  void Bool(const Json& object, const std::string& path, const char* key, bool* out) {
    if (const Json* v = Member(object, path, key)) {
      if (v->is_boolean()) {
        *out = v->get<bool>();
      } else {
        Fail(Join(path, key), "expected true or false");
      }
    }
  }
  void Float(const Json& object, const std::string& path, const char* key, double min, double max,
             float* out) {
    double x = 0.0;
    if (Double(object, path, key, min, max, &x)) *out = static_cast<float>(x);
  }
  bool Double(const Json& object, const std::string& path, const char* key, double min, double max,
              double* out) {
    const Json* v = Member(object, path, key);
    if (!v) return false;
    const double x = v->is_number() ? v->get<double>() : std::nan("");
    if (!std::isfinite(x) || x < min || x > max) {
      Fail(Join(path, key), "expected a number from " + Number(min) + " to " + Number(max));
      return false;
    }
    *out = x;
    return true;
  }
  void Int(const Json& object, const std::string& path, const char* key, long long min,
           long long max, int* out) {
    const Json* v = Member(object, path, key);
    if (!v) return;
    if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > max) {
      Fail(Join(path, key),
           "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max));
      return;
    }
    *out = static_cast<int>(v->get<long long>());
  }
  void String(const Json& object, const std::string& path, const char* key, std::string* out) {
    if (const Json* v = Member(object, path, key)) {
      if (v->is_string()) {
        *out = v->get<std::string>();
      } else {
        Fail(Join(path, key), "expected a string");
      }
    }
  }
  // A string or null ("" for null).
  void Name(const Json& object, const std::string& path, const char* key, std::string* out,
            bool* given = nullptr) {
    if (const Json* v = Member(object, path, key)) {
      if (given) *given = true;
      if (v->is_null()) {
        out->clear();
      } else if (v->is_string()) {
        *out = v->get<std::string>();
      } else {
        Fail(Join(path, key), "expected a name or null");
      }
    }
  }
  void Vec3(const Json& object, const std::string& path, const char* key, glm::vec3* out) {
    if (const Json* v = Member(object, path, key)) Floats(*v, Join(path, key), 3, &(*out)[0]);
  }
  void Quat(const Json& object, const std::string& path, const char* key, glm::quat* out) {
    const Json* v = Member(object, path, key);
    if (!v) return;
    float xyzw[4] = {0, 0, 0, 1};
    if (!Floats(*v, Join(path, key), 4, xyzw)) return;
    const glm::quat q(xyzw[3], xyzw[0], xyzw[1], xyzw[2]);
    if (!(glm::length(q) > 1e-6f)) {
      Fail(Join(path, key), "a rotation needs a non-zero quaternion");
      return;
    }
    *out = q;
  }
  // An array member ("" when absent: an empty array).
  const Json& Array(const Json& object, const std::string& path, const char* key) {
    static const Json kEmpty = Json::array();
    const Json* v = Member(object, path, key);
    if (!v) return kEmpty;
    if (!v->is_array()) {
      Fail(Join(path, key), "expected an array");
      return kEmpty;
    }
    return *v;
  }
  const Json& Object(const Json& object, const std::string& path, const char* key) {
    static const Json kEmpty = Json::object();
    const Json* v = Member(object, path, key);
    if (!v) return kEmpty;
    if (!v->is_object()) {
      Fail(Join(path, key), "expected an object");
      return kEmpty;
    }
    return *v;
  }
  bool Floats(const Json& v, const std::string& path, size_t count, float* out) {
    if (!ok_) return false;
    bool good = v.is_array() && v.size() == count;
    for (size_t k = 0; good && k < count; ++k) {
      good = v[k].is_number() && std::isfinite(v[k].get<double>()) &&
             std::abs(v[k].get<double>()) <= 1e30;
    }
    if (!good) {
      Fail(path, "expected " + std::to_string(count) + " finite numbers");
      return false;
    }
    for (size_t k = 0; k < count; ++k) out[k] = v[k].get<float>();
    return true;
  }
  void Fail(const std::string& path, const std::string& why) {
    if (!ok_) return;
    ok_ = false;
    *error_ = file_ + ": " + path + ": " + why;
  }
  static std::string Join(const std::string& path, const char* key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string Index(const std::string& path, size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

 private:
  // Whole bounds as whole numbers ("-90"), others in the float's shortest form.
  static std::string Number(double x) {
    if (std::abs(x) < 1e15 && x == std::floor(x)) return std::to_string(static_cast<long long>(x));
    return ShortestFloatText(static_cast<float>(x));
  }
  const std::string& file_;
  std::string* error_;
  bool ok_ = true;
};

}  // namespace session_text
}  // namespace app

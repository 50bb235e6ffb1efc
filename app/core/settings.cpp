// settings.json: reading tolerantly (a bad field keeps its default and is named), writing
// atomically.
#include "app/core/settings.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "assets/files/file_output.h"
#include "assets/files/text.h"

namespace app {

std::string ConfigFilePath(const std::string& name) {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    return std::string(xdg) + "/skelview/" + name;
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::string(home) + "/.config/skelview/" + name;
  }
  return {};
}

bool IsRotateGizmoMode(const std::string& mode) {
  return mode == "off" || mode == "global" || mode == "local";
}

Json DisplayJson(const DisplaySpec& d) {
  Json json;
  json["mesh"] = d.mesh;
  json["grid"] = d.grid;
  json["bones"] = d.bones;
  json["axes"] = d.axes;
  json["handles"] = d.handles;
  json["knees"] = d.knees;
  json["shells"] = d.shells;
  json["limits"] = d.limits;
  json["weights"] = d.weights.empty() ? Json(nullptr) : Json(d.weights);
  json["influences"] = d.influences;
  json["onion"] = d.onion;
  json["trail"] = d.trail.empty() ? Json(nullptr) : Json(d.trail);
  json["legend"] = d.legend;
  return json;
}

Json CameraJson(const CameraSettings& c) {
  return Json{{"yaw", Rounded(c.yaw_degrees)},
              {"pitch", Rounded(c.pitch_degrees)},
              {"distance", Rounded(c.distance)},
              {"target", ToJson(c.target)},
              {"ortho", c.ortho}};
}

Json SettingsJson(const Settings& s) {
  Json json;
  json["display"] = DisplayJson(s.display);
  json["display"]["xray"] = s.xray;
  json["display"]["mesh_opacity"] = Rounded(s.mesh_opacity);
  json["display"]["onion_step"] = s.onion_step;
  json["display"]["all_chains"] = s.all_chains;
  json["display"]["axes_selected_only"] = s.axes_selected_only;
  json["display"]["on_ground"] = s.on_ground;
  json["display"]["follow_root"] = s.follow_root;
  json["display"]["axis_gizmo"] = s.axis_gizmo;
  json["display"]["rotate_gizmo"] = s.rotate_gizmo;
  if (s.camera) json["camera"] = CameraJson(*s.camera);
  json["ui_scale"] = s.ui_scale > 0.0f ? Json(Rounded(s.ui_scale)) : Json("auto");
  json["theme"] = s.light_theme ? "light" : "dark";
  json["layout"] = {{"timeline", s.timeline},
                    {"timeline_units", s.timeline_seconds ? "seconds" : "frames"}};
  if (s.panel_width > 0.0f) json["layout"]["panel_width"] = Rounded(s.panel_width);
  if (s.window_width > 0 && s.window_height > 0) {
    json["window"] = {{"width", s.window_width}, {"height", s.window_height}};
  }
  if (!s.last_folder.empty()) json["last_folder"] = s.last_folder;
  json["euler_order"] = s.euler_order;
  return json;
}

namespace {

// Reads fields of one object, collecting the names of those it could not take.
class Reader {
 public:
  Reader(const Json& object, std::string prefix, std::string* bad)
      : object_(object), prefix_(std::move(prefix)), bad_(bad) {}
  void Bool(const char* key, bool* out) {
    if (const Json* v = Find(key)) v->is_boolean() ? void(*out = v->get<bool>()) : Bad(key);
  }
  void Number(const char* key, float min, float max, float* out) {
    const Json* v = Find(key);
    if (!v) return;
    const double x = v->is_number() ? v->get<double>() : std::nan("");
    if (std::isfinite(x) && x >= double(min) && x <= double(max)) {
      *out = static_cast<float>(x);
    } else {
      Bad(key);
    }
  }
  void Int(const char* key, int min, int max, int* out) {
    const Json* v = Find(key);
    if (!v) return;
    if (v->is_number_integer() && v->get<long long>() >= min && v->get<long long>() <= max) {
      *out = static_cast<int>(v->get<long long>());
    } else {
      Bad(key);
    }
  }
  void String(const char* key, std::string* out) {
    if (const Json* v = Find(key)) v->is_string() ? void(*out = v->get<std::string>()) : Bad(key);
  }
  const Json* Find(const char* key) const {
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  void Bad(const char* key) { *bad_ += (bad_->empty() ? "" : ", ") + prefix_ + key; }

 private:
  const Json& object_;
  std::string prefix_;
  std::string* bad_;
};

const Json& ObjectOrEmpty(const Json& json) {
  static const Json kEmpty = Json::object();
  return json.is_object() ? json : kEmpty;  // a reference either way: Reader keeps it
}

}  // namespace

bool ReadConfigText(const std::string& path, std::string* text, std::string* problem) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    *problem = std::string("cannot read it: ") + std::strerror(errno);
    return false;
  }
  struct stat st {};
  bool ok = fstat(fd, &st) == 0;
  if (ok && !S_ISREG(st.st_mode)) {
    *problem = "not a regular file";
    ok = false;
  } else if (ok && st.st_size > static_cast<off_t>(kMaxSettingsBytes)) {
    *problem =
        "larger than the " + std::to_string(kMaxSettingsBytes >> 10) + " KiB a config file may be";
    ok = false;
  }
  if (ok) {
    // At most one byte more than allowed, in case the file grew since fstat.
    text->resize(kMaxSettingsBytes + 1);
    size_t got = 0;
    while (got < text->size()) {
      const ssize_t n = read(fd, text->data() + got, text->size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        *problem = std::string("cannot read it: ") + std::strerror(errno);
        ok = false;
      }
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text->resize(got);
    if (ok && got > kMaxSettingsBytes) {
      *problem = "larger than the " + std::to_string(kMaxSettingsBytes >> 10) +
                 " KiB a config file may be";
      ok = false;
    }
  }
  close(fd);
  return ok;
}

bool ReadConfigObject(const std::string& path, Json* json, std::string* problem,
                      const std::string& kind) {
  *json = nullptr;
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return true;
  std::string text;
  if (!ReadConfigText(path, &text, problem)) return false;
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    *problem = "not " + kind;
    return false;
  }
  *json = std::move(parsed);
  return true;
}

void LoadSettings(const std::string& path, Settings* settings, std::string* warning) {
  *settings = Settings();
  warning->clear();
  Json json;
  std::string problem;
  if (!ReadConfigObject(path, &json, &problem)) {
    *warning = assets::ShownPath(path) + ": " + problem + "; starting with the default settings";
    return;
  }
  if (json.is_null()) return;  // no file: the defaults
  std::string bad;
  Reader top(json, "", &bad);
  if (const Json* display = top.Find("display")) {
    if (display->is_object()) {
      Reader d(*display, "display.", &bad);
      DisplaySpec& s = settings->display;
      d.Bool("mesh", &s.mesh);
      d.Bool("grid", &s.grid);
      d.Bool("bones", &s.bones);
      d.Bool("axes", &s.axes);
      d.Bool("handles", &s.handles);
      d.Bool("knees", &s.knees);
      d.Bool("shells", &s.shells);
      d.Bool("limits", &s.limits);
      d.Bool("xray", &settings->xray);
      d.Number("mesh_opacity", 0.05f, 1.0f, &settings->mesh_opacity);
      if (const Json* w = d.Find("weights"); w && !w->is_null()) d.String("weights", &s.weights);
      d.Bool("influences", &s.influences);
      d.Bool("legend", &s.legend);
      d.Int("onion", 0, kMaxOnion, &s.onion);
      d.Int("onion_step", 1, 1000, &settings->onion_step);
      if (const Json* t = d.Find("trail"); t && !t->is_null()) d.String("trail", &s.trail);
      d.Bool("all_chains", &settings->all_chains);
      d.Bool("axes_selected_only", &settings->axes_selected_only);
      d.Bool("on_ground", &settings->on_ground);
      d.Bool("follow_root", &settings->follow_root);
      d.Bool("axis_gizmo", &settings->axis_gizmo);
      if (const Json* g = d.Find("rotate_gizmo")) {
        if (g->is_string() && IsRotateGizmoMode(*g)) {
          settings->rotate_gizmo = *g;
        } else {
          d.Bad("rotate_gizmo");
        }
      }
    } else {
      top.Bad("display");
    }
  }
  if (const Json* camera = top.Find("camera")) {
    CameraSettings c;
    std::string camera_bad;
    Reader r(ObjectOrEmpty(*camera), "camera.", &camera_bad);
    if (!camera->is_object()) camera_bad = "camera";
    r.Number("yaw", -1e6f, 1e6f, &c.yaw_degrees);
    r.Number("pitch", -90.0f, 90.0f, &c.pitch_degrees);
    r.Number("distance", 1e-6f, kMaxCameraCoordinate, &c.distance);
    r.Bool("ortho", &c.ortho);
    if (const Json* t = r.Find("target")) {
      bool ok = t->is_array() && t->size() == 3;
      for (size_t k = 0; ok && k < 3; ++k) {
        ok = (*t)[k].is_number() && std::isfinite((*t)[k].get<double>()) &&
             std::abs((*t)[k].get<double>()) <= double(kMaxCameraCoordinate);
        if (ok) c.target[static_cast<int>(k)] = (*t)[k].get<float>();
      }
      if (!ok) r.Bad("target");
    }
    // A camera is taken whole or not at all: half of one would look at nothing useful.
    if (camera_bad.empty()) {
      settings->camera = c;
    } else {
      bad += (bad.empty() ? "" : ", ") + camera_bad;
    }
  }
  if (const Json* scale = top.Find("ui_scale");
      scale && !(scale->is_string() && *scale == "auto")) {
    top.Number("ui_scale", 0.5f, 4.0f, &settings->ui_scale);
  }
  if (const Json* theme = top.Find("theme")) {
    if (theme->is_string() && (*theme == "light" || *theme == "dark")) {
      settings->light_theme = *theme == "light";
    } else {
      top.Bad("theme");
    }
  }
  if (const Json* layout = top.Find("layout")) {
    Reader r(ObjectOrEmpty(*layout), "layout.", &bad);
    if (!layout->is_object()) top.Bad("layout");
    r.Number("panel_width", 100.0f, 16384.0f, &settings->panel_width);
    r.Bool("timeline", &settings->timeline);
    if (const Json* units = r.Find("timeline_units")) {
      if (units->is_string() && (*units == "seconds" || *units == "frames")) {
        settings->timeline_seconds = *units == "seconds";
      } else {
        r.Bad("timeline_units");
      }
    }
  }
  top.String("last_folder", &settings->last_folder);
  if (const Json* order = top.Find("euler_order")) {
    static const char* const kOrders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
    const auto known = [&](const Json& o) {
      for (const char* name : kOrders) {
        if (o == name) return true;
      }
      return false;
    };
    if (order->is_string() && known(*order)) {
      settings->euler_order = *order;
    } else {
      top.Bad("euler_order");
    }
  }
  if (const Json* window = top.Find("window")) {
    float w = 0.0f, h = 0.0f;
    std::string window_bad;
    Reader r(ObjectOrEmpty(*window), "window.", &window_bad);
    r.Number("width", 1.0f, 16384.0f, &w);
    r.Number("height", 1.0f, 16384.0f, &h);
    if (window->is_object() && window_bad.empty() && w >= 1.0f && h >= 1.0f) {
      settings->window_width = static_cast<int>(w);
      settings->window_height = static_cast<int>(h);
    } else {
      bad += (bad.empty() ? "" : ", ") + (window_bad.empty() ? std::string("window") : window_bad);
    }
  }
  if (!bad.empty())
    *warning = assets::ShownPath(path) + ": ignored " + bad + " (wrong type or out of range)";
}

bool SaveSettings(const std::string& path, const Settings& settings, std::string* error) {
  if (path.empty()) return true;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string text = DumpJson(SettingsJson(settings), 2) + "\n";
  std::string reason;
  if (!assets::WriteFileAtomically(path, text.data(), text.size(), &reason)) {
    *error = "cannot save the settings: " + reason;
    return false;
  }
  return true;
}

}  // namespace app

// settings.json: what is saved reads back, a missing file is the defaults, a bad one warns and
// keeps what it can.
#include "app/core/settings.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "tests/test_paths.h"

namespace {

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = testpaths::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Settings, WhatIsSavedReadsBack) {
  app::Settings s;
  s.display.bones = true;
  s.display.mesh = false;
  s.display.weights = "mixamorig:LeftArm";
  s.display.influences = true;
  s.display.onion = 3;
  s.display.trail = "mixamorig:LeftHand";
  s.display.legend = true;
  s.onion_step = 2;
  s.all_chains = true;
  s.axes_selected_only = true;
  s.on_ground = true;
  s.follow_root = true;
  s.axis_gizmo = false;
  s.rotate_gizmo = "local";
  s.euler_order = "ZXY";
  s.xray = false;
  s.mesh_opacity = 0.5f;
  s.camera = app::CameraSettings{30.0f, -15.0f, 4.25f, glm::vec3(0.5f, 1.0f, -2.0f), true};
  s.ui_scale = 1.5f;
  s.light_theme = true;
  s.panel_width = 420.0f;
  s.timeline = false;
  s.timeline_seconds = true;
  s.window_width = 1000;
  s.window_height = 620;
  s.last_folder = "/home/rigger/models";
  const std::string path = testpaths::TempDir() + "/settings_dir/skelview/settings.json";
  std::filesystem::remove_all(testpaths::TempDir() + "/settings_dir");
  std::string error;
  ASSERT_TRUE(app::SaveSettings(path, s, &error)) << error;
  app::Settings loaded;
  std::string warning;
  app::LoadSettings(path, &loaded, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(loaded.display, s.display);
  EXPECT_EQ(loaded.xray, false);
  EXPECT_EQ(loaded.mesh_opacity, 0.5f);
  EXPECT_EQ(loaded.onion_step, 2);
  EXPECT_TRUE(loaded.all_chains && loaded.axes_selected_only && loaded.on_ground &&
              loaded.follow_root);
  EXPECT_FALSE(loaded.axis_gizmo);
  EXPECT_EQ(loaded.rotate_gizmo, "local");
  EXPECT_EQ(loaded.euler_order, "ZXY");
  ASSERT_TRUE(loaded.camera.has_value());
  EXPECT_EQ(loaded.camera->yaw_degrees, 30.0f);
  EXPECT_EQ(loaded.camera->pitch_degrees, -15.0f);
  EXPECT_EQ(loaded.camera->distance, 4.25f);
  EXPECT_EQ(loaded.camera->target, glm::vec3(0.5f, 1.0f, -2.0f));
  EXPECT_TRUE(loaded.camera->ortho);
  EXPECT_EQ(loaded.ui_scale, 1.5f);
  EXPECT_TRUE(loaded.light_theme);
  EXPECT_EQ(loaded.panel_width, 420.0f);
  EXPECT_FALSE(loaded.timeline);
  EXPECT_TRUE(loaded.timeline_seconds);
  EXPECT_EQ(loaded.window_width, 1000);
  EXPECT_EQ(loaded.window_height, 620);
  EXPECT_EQ(loaded.last_folder, "/home/rigger/models");
  // Human-readable: indented JSON with the names of --show.
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  EXPECT_NE(text.find("\n  \"display\": {\n    \"mesh\": false"), std::string::npos) << text;
}

TEST(Settings, AMissingFileIsTheDefaultsWithoutAWarning) {
  app::Settings loaded;
  loaded.ui_scale = 3.0f;
  std::string warning = "stale";
  app::LoadSettings(testpaths::TempDir() + "/no-such-settings.json", &loaded, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(loaded.ui_scale, 0.0f) << "automatic";
  EXPECT_FALSE(loaded.camera.has_value());
  EXPECT_EQ(loaded.display, app::DisplaySpec());
}

TEST(Settings, ACorruptFileWarnsNamingItAndGivesTheDefaults) {
  for (const char* text : {"{\"display\": {\"bones\": tr", "[1, 2]", "", "\xff\xfe"}) {
    const std::string path = Write("corrupt_settings.json", text);
    app::Settings loaded;
    std::string warning;
    app::LoadSettings(path, &loaded, &warning);
    EXPECT_NE(warning.find(path), std::string::npos) << text;
    EXPECT_NE(warning.find("default"), std::string::npos) << warning;
    EXPECT_EQ(loaded.display, app::DisplaySpec());
  }
}

TEST(Settings, BadFieldsAreNamedAndKeepTheirDefaultsWhileTheRestIsRead) {
  const std::string path = Write("bad_fields.json", R"({
    "display": {"bones": true, "axes": "yes", "mesh_opacity": 7, "onion": 2.5, "onion_step": 0,
                "trail": "LeftHand", "rotate_gizmo": "sideways"},
    "camera": {"yaw": 10, "pitch": 20, "distance": -1, "target": [0, 1, 0]},
    "ui_scale": 2, "window": {"width": 0, "height": 500}, "last_folder": 5, "euler_order": "XYX",
    "theme": "pink", "layout": {"panel_width": 300, "timeline": 1, "timeline_units": "beats"}})");
  app::Settings loaded;
  std::string warning;
  app::LoadSettings(path, &loaded, &warning);
  EXPECT_TRUE(loaded.display.bones);
  EXPECT_FALSE(loaded.display.axes);
  EXPECT_EQ(loaded.mesh_opacity, 1.0f);
  EXPECT_EQ(loaded.display.onion, 0);
  EXPECT_EQ(loaded.onion_step, 1);
  EXPECT_EQ(loaded.display.trail, "LeftHand");
  EXPECT_FALSE(loaded.camera.has_value()) << "half a camera is no camera";
  EXPECT_EQ(loaded.ui_scale, 2.0f);
  EXPECT_EQ(loaded.window_width, 0);
  EXPECT_EQ(loaded.last_folder, "");
  EXPECT_FALSE(loaded.light_theme);
  EXPECT_EQ(loaded.panel_width, 300.0f);
  EXPECT_TRUE(loaded.timeline);
  EXPECT_FALSE(loaded.timeline_seconds);
  EXPECT_EQ(loaded.rotate_gizmo, "off");
  EXPECT_EQ(loaded.euler_order, "XYZ");
  for (const char* field :
       {"display.axes", "display.rotate_gizmo", "euler_order", "display.mesh_opacity",
        "display.onion", "display.onion_step", "camera.distance", "window.width", "last_folder",
        "theme", "layout.timeline", "layout.timeline_units"}) {
    EXPECT_NE(warning.find(field), std::string::npos) << field << " in " << warning;
  }
}

TEST(Settings, AFifoAnEndlessDeviceOrAHugeFileIsNeverWaitedForOrReadWhole) {
  const std::string dir = testpaths::TempDir() + "/settings_kinds";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ASSERT_EQ(mkfifo((dir + "/fifo.json").c_str(), 0600), 0);
  std::filesystem::create_symlink("/dev/zero", dir + "/zero.json");
  Write("settings_kinds/huge.json", "{\"pad\": \"" + std::string(2 << 20, 'x') + "\"}");
  for (const auto& [name, expected] : std::vector<std::pair<std::string, std::string>>{
           {"fifo.json", "not a regular file"},
           {"zero.json", "not a regular file"},
           {"huge.json", "larger than the 1024 KiB a config file may be"}}) {
    app::Settings loaded;
    loaded.ui_scale = 3.0f;
    std::string warning;
    app::LoadSettings(dir + "/" + name, &loaded, &warning);  // returns: nothing blocks
    EXPECT_NE(warning.find(dir + "/" + name + ": " + expected), std::string::npos) << warning;
    EXPECT_EQ(loaded.ui_scale, app::Settings().ui_scale) << "the defaults";
  }
}

TEST(Settings, ACameraFarBeyondAnyModelIsIgnored) {
  const std::string path =
      Write("far_camera.json",
            R"({"camera": {"yaw": 10, "pitch": 5, "distance": 3, "target": [1e30, 0, 0]}})");
  app::Settings loaded;
  std::string warning;
  app::LoadSettings(path, &loaded, &warning);
  EXPECT_NE(warning.find("ignored camera.target"), std::string::npos) << warning;
  EXPECT_FALSE(loaded.camera.has_value()) << "a camera is taken whole or not at all";
  const std::string far = Write("far_distance.json", R"({"camera": {"distance": 1e9}})");
  app::LoadSettings(far, &loaded, &warning);
  EXPECT_NE(warning.find("camera.distance"), std::string::npos) << warning;
  // Within the bound a camera is taken.
  const std::string near =
      Write("near_camera.json", R"({"camera": {"distance": 2, "target": [1e6, 0, -1e6]}})");
  app::LoadSettings(near, &loaded, &warning);
  EXPECT_EQ(warning, "");
  ASSERT_TRUE(loaded.camera.has_value());
  EXPECT_EQ(loaded.camera->target, glm::vec3(1e6f, 0.0f, -1e6f));
}

TEST(Settings, ALastFolderThatIsNotUtf8IsSavedNotAborted) {
  const std::string path = testpaths::TempDir() + "/latin1_folder/settings.json";
  app::Settings settings;
  settings.last_folder = "/home/user/mod\xE8les";
  std::string error;
  ASSERT_TRUE(app::SaveSettings(path, settings, &error)) << error;
  app::Settings loaded;
  std::string warning;
  app::LoadSettings(path, &loaded, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(loaded.last_folder, "/home/user/mod\xEF\xBF\xBDles");
}

TEST(Settings, UiScaleIsAutomaticUnlessANumberIsSaved) {
  app::Settings s;
  const std::string path = testpaths::TempDir() + "/auto_scale.json";
  std::string error, warning;
  ASSERT_TRUE(app::SaveSettings(path, s, &error)) << error;
  app::Settings loaded;
  loaded.ui_scale = 3.0f;
  app::LoadSettings(path, &loaded, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(loaded.ui_scale, 0.0f);
  EXPECT_EQ(app::SettingsJson(s)["ui_scale"], "auto");
  EXPECT_EQ(app::SettingsJson(s)["theme"], "dark");
}

TEST(Settings, TheConfigFolderFollowsXdgThenHome) {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const std::string saved_xdg = xdg ? xdg : "";
  setenv("XDG_CONFIG_HOME", "/tmp/xdg-settings-test", 1);
  EXPECT_EQ(app::ConfigFilePath("settings.json"), "/tmp/xdg-settings-test/skelview/settings.json");
  unsetenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (home && *home) {
    EXPECT_EQ(app::ConfigFilePath("settings.json"),
              std::string(home) + "/.config/skelview/settings.json");
  }
  if (!saved_xdg.empty()) setenv("XDG_CONFIG_HOME", saved_xdg.c_str(), 1);
}

}  // namespace

// End-to-end tests of the command line: run the built skelview binary as a script would and check
// exit codes, messages, JSON and images.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/glm.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "app/core/args.h"
#include "app/core/bake.h"
#include "app/core/body_solve.h"
#include "app/core/evaluate.h"
#include "assets/builtin/builtin_character.h"
#include "tests/assets/gltf_reference.h"
#include "tests/run_process.h"
#include "tests/support/bad_input.h"
#include "tests/test_paths.h"

namespace {

using nlohmann::json;
using testing::HasSubstr;

std::string TempPath(const std::string& name) { return testpaths::TempDir() + "/" + name; }

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::string bytes(static_cast<size_t>(std::max<std::streamoff>(in.tellg(), 0)), '\0');
  in.seekg(0);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

using testsupport::ExpectBadInput;

json RunJson(const std::vector<std::string>& args) {
  const testproc::Result r = testproc::Skelview(args, 60.0);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.err;
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

// The pixels of a PNG written by `render`.
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  glm::ivec4 At(int x, int y) const {
    const unsigned char* p = &rgba[(size_t(y) * width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
  }
};

Image LoadPng(const std::string& path) {
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4);
  if (data) {
    image.rgba.assign(data, data + size_t(image.width) * image.height * 4);
    stbi_image_free(data);
  }
  return image;
}

TEST(CliInfo, BuiltinCharacterIsAHumanoid) {
  const json info = RunJson({"info", "--json"});
  ASSERT_FALSE(info.is_discarded());
  EXPECT_EQ(info["source"], "<built-in>");
  EXPECT_GE(info["counts"]["joints"].get<int>(), 20);
  EXPECT_GE(info["counts"]["vertices"].get<int>(), 2000);
  EXPECT_GE(info["counts"]["clips"].get<int>(), 1);
  std::vector<std::string> names;
  for (const json& j : info["joints"]) names.push_back(j["name"]);
  for (const char* expected : {"Hips", "Spine", "Neck", "Head", "LeftArm", "LeftForeArm",
                               "LeftHand", "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}) {
    EXPECT_THAT(names, testing::Contains(std::string(expected)));
  }
}

TEST(CliInfo, JsonListsTheDetectedLimbs) {
  const json info = RunJson({"info", "--json"});
  ASSERT_TRUE(info["limbs"].is_array());
  std::vector<std::string> limbs;
  for (const json& l : info["limbs"]) {
    limbs.push_back(l["start"].get<std::string>() + "/" + l["mid"].get<std::string>() + "/" +
                    l["end"].get<std::string>());
  }
  EXPECT_THAT(limbs, testing::ElementsAre(
                         "LeftUpLeg/LeftLeg/LeftFoot", "RightUpLeg/RightLeg/RightFoot",
                         "LeftArm/LeftForeArm/LeftHand", "RightArm/RightForeArm/RightHand"));
  const std::string cesium =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(cesium, "CesiumMan.glb");
  EXPECT_EQ(RunJson({"info", cesium, "--json"})["limbs"].size(), 4u);
}

TEST(CliInfo, TextOutputListsTheJointTree) {
  const testproc::Result r = testproc::Skelview({"info"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("joints:"));
  EXPECT_THAT(r.out, HasSubstr("        LeftFoot"));  // indented under LeftLeg
  EXPECT_THAT(r.out, HasSubstr("Walk"));
}

TEST(CliPose, PrintsJointsWithWorldPositions) {
  const json pose = RunJson({"pose"});
  ASSERT_FALSE(pose.is_discarded());
  ASSERT_TRUE(pose["joints"].is_array());
  bool found_head = false;
  for (const json& j : pose["joints"]) {
    ASSERT_EQ(j["world"].size(), 3u);
    ASSERT_EQ(j["world_rotation"].size(), 4u);
    ASSERT_EQ(j["local_rotation"].size(), 4u);
    ASSERT_EQ(j["local_translation"].size(), 3u);
    ASSERT_EQ(j["local_scale"].size(), 3u);
    if (j["name"] == "Head") {
      found_head = true;
      EXPECT_GT(j["world"][1].get<double>(), 1.3);  // a 1.75 m figure's head
      EXPECT_EQ(j["parent"], "Neck");
    }
  }
  EXPECT_TRUE(found_head);
  EXPECT_TRUE(pose["ik"].empty());
}

TEST(CliPose, IkMovesTheFootToTheTarget) {
  const json pose = RunJson({"pose", "--ik", "LeftFoot=0.15,0.3,0.2"});
  ASSERT_FALSE(pose.is_discarded());
  ASSERT_EQ(pose["ik"].size(), 1u);
  const json& ik = pose["ik"][0];
  EXPECT_EQ(ik["end"], "LeftFoot");
  EXPECT_EQ(ik["mid"], "LeftLeg");
  EXPECT_EQ(ik["start"], "LeftUpLeg");
  EXPECT_EQ(ik["case"], "reachable");
  EXPECT_TRUE(ik["reached"].get<bool>());
  EXPECT_LT(ik["error"].get<double>(), 1e-5);
  EXPECT_GT(ik["knee_circle"]["radius"].get<double>(), 0.0);
  for (const json& j : pose["joints"]) {
    if (j["name"] != "LeftFoot") continue;
    EXPECT_NEAR(j["world"][0].get<double>(), 0.15, 1e-5);
    EXPECT_NEAR(j["world"][1].get<double>(), 0.3, 1e-5);
    EXPECT_NEAR(j["world"][2].get<double>(), 0.2, 1e-5);
  }
  // The knee moved, and it stays on the knee circle.
  const auto v = [](const json& a) { return glm::vec3(a[0], a[1], a[2]); };
  EXPECT_GT(glm::length(v(ik["mid_after"]) - v(ik["mid_before"])), 1e-3f);
  const glm::vec3 knee = v(ik["mid_after"]);
  const glm::vec3 center = v(ik["knee_circle"]["center"]);
  const glm::vec3 normal = v(ik["knee_circle"]["normal"]);
  EXPECT_NEAR(glm::length(knee - center), ik["knee_circle"]["radius"].get<float>(), 1e-4f);
  EXPECT_NEAR(glm::dot(knee - center, normal), 0.0f, 1e-4f);
}

// `pose` runs the one frame pipeline: its joints are the window's frame for an edit pinning the
// same constraints (a two-bone chain, an aim, a FABRIK chain, a cone limit) on a clip's frame.
TEST(CliPose, ThePoseIsTheWindowsFrameForTheSameConstraints) {
  const std::vector<std::string> ik = {"LeftFoot=0.15,0.3,0.2"};
  const std::vector<std::string> aims = {"Head=0.3,1.6,0.6"};
  const std::vector<std::string> fabriks = {"Spine:Neck=0.05,1.45,0.1"};
  const std::vector<std::string> limits = {"Spine1=cone,30"};
  const json pose = RunJson({"pose", "--anim", "0", "--time", "0.4", "--ik", ik[0], "--aim",
                             aims[0], "--fabrik", fabriks[0], "--limit", limits[0]});
  ASSERT_FALSE(pose.is_discarded());
  ASSERT_EQ(pose["ik"].size(), 1u);

  const assets::Model model = assets::MakeBuiltinCharacter();
  const app::Character character(model);
  std::string error;
  std::vector<app::IkSpec> ik_specs(1);
  std::vector<app::AimSpec> aim_specs(1);
  std::vector<app::FabrikSpec> fabrik_specs(1);
  std::vector<app::LimitSpec> limit_specs(1);
  ASSERT_TRUE(app::ParseIkSpec(ik[0], &ik_specs[0], &error)) << error;
  ASSERT_TRUE(app::ParseAimSpec(aims[0], &aim_specs[0], &error)) << error;
  ASSERT_TRUE(app::ParseFabrikSpec(fabriks[0], &fabrik_specs[0], &error)) << error;
  ASSERT_TRUE(app::ParseLimitSpec(limits[0], &limit_specs[0], &error)) << error;
  app::ConstraintRequests requests;
  ASSERT_TRUE(app::ResolveIkSpecs(character, ik_specs, &requests.ik, &error)) << error;
  ASSERT_TRUE(app::ResolveConstraintSpecs(model.skeleton, aim_specs, fabrik_specs, limit_specs,
                                          &requests, &error))
      << error;
  app::EditedFrame frame;
  app::PoseState window;
  app::EvaluateEditedFrame(character, app::ClipTime{0, 0.4f},
                           app::EditForRequests(character, requests), &frame, &window);
  ASSERT_EQ(window.fabrik.size(), 1u);
  ASSERT_EQ(window.aim.size(), 1u);
  ASSERT_EQ(pose["joints"].size(), size_t(model.skeleton.joint_count()));
  for (const json& j : pose["joints"]) {
    const int joint = model.skeleton.Find(j["name"].get<std::string>());
    ASSERT_GE(joint, 0);
    const glm::vec3 world(window.models[size_t(joint)][3]);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(j["world"][k].get<double>(), double(world[k]), 1e-6) << j["name"];
    }
  }
}

TEST(CliPose, UnreachableTargetReportsTooFar) {
  const json pose = RunJson({"pose", "--ik", "RightHand=-3,1.4,0"});
  ASSERT_EQ(pose["ik"].size(), 1u);
  EXPECT_EQ(pose["ik"][0]["case"], "too_far");
  EXPECT_FALSE(pose["ik"][0]["reached"].get<bool>());
}

TEST(CliPose, GpuSkinningMatchesCpuSkinningInAnAnimatedIkPose) {
  const std::vector<std::string> base = {
      "pose", "--anim", "0", "--time", "0.3", "--ik", "LeftHand=0.45,1.2,0.25", "--vertices"};
  std::vector<std::string> cpu_args = base, gpu_args = base;
  cpu_args.insert(cpu_args.end(), {"--skinning", "cpu"});
  gpu_args.insert(gpu_args.end(), {"--skinning", "gpu"});
  const json cpu = RunJson(cpu_args);
  const json gpu = RunJson(gpu_args);
  ASSERT_FALSE(cpu.is_discarded());
  ASSERT_FALSE(gpu.is_discarded());
  EXPECT_EQ(gpu["skinning"], "gpu");
  ASSERT_EQ(cpu["meshes"].size(), gpu["meshes"].size());
  ASSERT_GE(cpu["meshes"].size(), 1u);
  size_t compared = 0;
  double worst = 0.0;
  for (size_t m = 0; m < cpu["meshes"].size(); ++m) {
    const json& a = cpu["meshes"][m]["positions"];
    const json& b = gpu["meshes"][m]["positions"];
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        worst = std::max(worst, std::abs(a[i][k].get<double>() - b[i][k].get<double>()));
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, 2000u);
  EXPECT_LT(worst, 1e-4 * 1.75);  // 1e-4 of the model's size
}

TEST(CliRender, WritesAnImageWithTheModelInIt) {
  const std::string out = TempPath("render.png");
  const testproc::Result r = testproc::Skelview(
      {"render", "-o", out, "--size", "320x240", "--anim", "0", "--time", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image image = LoadPng(out);
  ASSERT_EQ(image.width, 320);
  ASSERT_EQ(image.height, 240);
  // The model is in the middle of the frame: the centre column holds bright, non-background
  // pixels with shading (several distinct tones), and the corners show the dark background.
  const glm::ivec4 corner = image.At(2, 2);
  int model_pixels = 0;
  int brightest = 0, darkest = 255;
  for (int y = 0; y < image.height; ++y) {
    for (int x = image.width / 2 - 20; x < image.width / 2 + 20; ++x) {
      const glm::ivec4 p = image.At(x, y);
      const int luminance = (p.r + p.g + p.b) / 3;
      if (luminance > 110) {
        ++model_pixels;
        brightest = std::max(brightest, luminance);
        darkest = std::min(darkest, luminance);
      }
    }
  }
  EXPECT_LT((corner.r + corner.g + corner.b) / 3, 90);
  EXPECT_GT(model_pixels, 400);
  EXPECT_GT(brightest - darkest, 30) << "flat silhouette instead of lit shading";
}

TEST(CliRender, JpgExtensionWritesAJpeg) {
  const std::string out = TempPath("render.jpg");
  std::filesystem::remove(out);
  const testproc::Result r = testproc::Skelview({"render", "-o", out, "--size", "160x120"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string bytes = ReadFile(out);
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(bytes.substr(0, 3), std::string("\xFF\xD8\xFF", 3)) << "not a JPEG file";
  const Image image = LoadPng(out);  // stb reads either format
  EXPECT_EQ(image.width, 160);
  EXPECT_EQ(image.height, 120);
}

TEST(CliRender, AnUnknownImageExtensionIsRefusedAndNothingIsWritten) {
  const std::string out = TempPath("render.bmp");
  std::filesystem::remove(out);
  ExpectBadInput({"render", "-o", out}, "-o " + out + ": unknown image extension '.bmp'");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliPose, ATimeOutsideTheClipReportsTheTimePosed) {
  for (const auto& [asked, posed] : {std::pair<std::string, double>{"-5", 0.0}, {"99", 1.0}}) {
    const testproc::Result r = testproc::Skelview({"pose", "--anim", "0", "--time", asked});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["anim"]["time"], posed) << asked;
    EXPECT_THAT(r.err, HasSubstr("--time " + asked + ": clamped to"));
    // The joints are those of the time reported.
    const json at_posed = RunJson({"pose", "--anim", "0", "--time", posed == 0.0 ? "0" : "1"});
    EXPECT_EQ(doc["joints"], at_posed["joints"]) << asked;
  }
}

// The bounding box of the bright (model) pixels of an image: {min x, min y, max x, max y}.
glm::ivec4 BrightBox(const std::string& path) {
  const Image image = LoadPng(path);
  glm::ivec4 box(image.width, image.height, -1, -1);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const glm::ivec4 p = image.At(x, y);
      if ((p.r + p.g + p.b) / 3 > 110) {
        box = glm::ivec4(std::min(box.x, x), std::min(box.y, y), std::max(box.z, x),
                         std::max(box.w, y));
      }
    }
  }
  return box;
}

TEST(CliRender, ViewPresetsLookAlongTheirAxesAndShowDrawsOnlyWhatIsListed) {
  // The built-in character stands 1.75 m tall with its arms out: seen from the side it is tall
  // and thin, from the top wide and short.
  std::map<std::string, glm::ivec4> boxes;
  for (const char* view : {"front", "right", "top"}) {
    const std::string out = TempPath(std::string("view_") + view + ".png");
    const testproc::Result r = testproc::Skelview(
        {"render", "-o", out, "--size", "300x300", "--view", view, "--ortho", "--show", "mesh"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    boxes[view] = BrightBox(out);
    ASSERT_GE(boxes[view].z, boxes[view].x) << view << ": no model pixels";
  }
  auto width = [&](const char* v) { return boxes[v].z - boxes[v].x + 1; };
  auto height = [&](const char* v) { return boxes[v].w - boxes[v].y + 1; };
  EXPECT_GT(height("right"), 3 * width("right"));
  EXPECT_GT(width("top"), 3 * height("top"));
  EXPECT_NEAR(width("front"), width("top"), 0.05 * width("front"));  // the same arm span
  // `--show none` draws nothing bright; `--show mesh,weights=JOINT` colours the mesh.
  const std::string none = TempPath("show_none.png");
  ASSERT_EQ(
      testproc::Skelview({"render", "-o", none, "--size", "200x200", "--show", "none"}).exit_code,
      0);
  EXPECT_LT(BrightBox(none).z, 0);
  const std::string weights = TempPath("show_weights.png");
  ASSERT_EQ(testproc::Skelview({"render", "-o", weights, "--size", "200x200", "--view", "front",
                                "--show", "mesh,weights=LeftUpLeg"})
                .exit_code,
            0);
  const Image image = LoadPng(weights);
  int red = 0, blue = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const glm::ivec4 p = image.At(x, y);
      red += p.r > 180 && p.g < 90 && p.b < 90;
      blue += p.b > 100 && p.r < 60 && p.g < 60;
    }
  }
  EXPECT_GT(red, 30) << "the thigh's weight 1 is red";
  EXPECT_GT(blue, 300) << "the rest of the body is weight 0, blue";
}

TEST(CliRender, BadViewAndShowExitTwo) {
  ExpectBadInput({"render", "-o", TempPath("never.png"), "--view", "diagonal"},
                 "--view 'diagonal'");
  ExpectBadInput({"render", "-o", TempPath("never.png"), "--show", "onion=40"},
                 "onion needs a count of ghosts on each side from 1 to 16");
  ExpectBadInput({"render", "-o", TempPath("never.png"), "--show", "bones,trail=Nope"},
                 "--show trail=Nope: the model has no joint named 'Nope'");
  ExpectBadInput({"render", "-o", TempPath("never.png"), "--show", "mesh,weights=Nope"},
                 "--show weights=Nope: the model has no joint named 'Nope'");
  EXPECT_FALSE(std::filesystem::exists(TempPath("never.png")));
}

// `--show ...,legend`: a dark box with light text at the image's bottom-left; without it the
// same corner shows the floor.
TEST(CliRender, TheLegendExplainsTheMarksInTheCorner) {
  auto light_pixels_in_corner = [](const std::string& show) {
    const std::string out = TempPath("legend-" + std::to_string(show.size()) + ".png");
    const testproc::Result r =
        testproc::Skelview({"render", "-o", out, "--size", "640x480", "--show", show, "--ik",
                            "LeftHand=0.5,1.3,0.3,pole=0.5,1.0,-0.5"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const Image image = LoadPng(out);
    int light = 0, dark = 0;
    for (int y = image.height - 150; y < image.height - 14; ++y) {
      for (int x = 14; x < 200; ++x) {
        const glm::ivec4 p = image.At(x, y);
        light += p.r > 200 && p.g > 200 && p.b > 200;
        dark += p.r < 40 && p.g < 40 && p.b < 40;
      }
    }
    return std::make_pair(light, dark);
  };
  const auto [light_without, dark_without] = light_pixels_in_corner("mesh,grid,bones,knees");
  const auto [light_with, dark_with] = light_pixels_in_corner("mesh,grid,bones,knees,legend");
  EXPECT_EQ(light_without, 0);
  EXPECT_GT(light_with, 400) << "the labels' text";
  EXPECT_GT(dark_with, dark_without + 5000) << "the legend's box";
}

TEST(CliExport, BuiltinCharacterRoundTripsThroughGltf) {
  const std::string out = TempPath("builtin.glb");
  const testproc::Result r = testproc::Skelview({"export", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json original = RunJson({"pose", "--vertices"});
  const json loaded = RunJson({"pose", out, "--vertices"});
  ASSERT_FALSE(original.is_discarded());
  ASSERT_FALSE(loaded.is_discarded());
  // Same joints (by name) at the same places.
  std::map<std::string, glm::vec3> loaded_joints;
  for (const json& j : loaded["joints"]) {
    loaded_joints[j["name"]] = glm::vec3(j["world"][0], j["world"][1], j["world"][2]);
  }
  for (const json& j : original["joints"]) {
    const auto it = loaded_joints.find(j["name"]);
    ASSERT_NE(it, loaded_joints.end()) << j["name"];
    EXPECT_LT(glm::length(it->second - glm::vec3(j["world"][0], j["world"][1], j["world"][2])),
              1e-5f)
        << j["name"];
  }
  // Same skinned vertices.
  ASSERT_EQ(loaded["meshes"].size(), original["meshes"].size());
  const json& a = original["meshes"][0]["positions"];
  const json& b = loaded["meshes"][0]["positions"];
  ASSERT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (int k = 0; k < 3; ++k)
      worst = std::max(worst, std::abs(a[i][k].get<double>() - b[i][k].get<double>()));
  EXPECT_LT(worst, 1e-4 * 1.75);
}

TEST(CliBadInput, MissingFile) {
  ExpectBadInput({"info", "/nonexistent/dir/model.glb"}, "/nonexistent/dir/model.glb");
  ExpectBadInput({"pose", "/nonexistent/model.gltf"}, "/nonexistent/model.gltf");
  ExpectBadInput({"render", "/nonexistent/model.fbx", "-o", TempPath("x.png")},
                 "/nonexistent/model.fbx");
}

TEST(CliBadInput, DirectoryInsteadOfFile) {
  ExpectBadInput({"info", testpaths::TempDir()}, testpaths::TempDir());
}

TEST(CliBadInput, UnreadableFile) {
  const std::string path = TempPath("unreadable.glb");
  ASSERT_EQ(testproc::Skelview({"export", "-o", path}).exit_code, 0);
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  std::vector<std::string> argv = {testpaths::SkelviewBinary(), "info", path};
  if (geteuid() == 0) {
    // Root reads any file: run skelview as the unprivileged user nobody instead.
    argv.insert(argv.begin(),
                {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
  }
  const testproc::Result r = testproc::Run(argv, 20.0);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(path));
  EXPECT_THAT(r.err, HasSubstr("ermission denied"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliBadInput, RandomBytes) {
  const std::string path = TempPath("noise.glb");
  std::mt19937 rng(7);
  std::string bytes(4096, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  WriteFile(path, bytes);
  ExpectBadInput({"info", path}, path);
  ExpectBadInput({"pose", path}, path);
}

TEST(CliBadInput, TruncatedGlb) {
  const std::string full = TempPath("full.glb");
  ASSERT_EQ(testproc::Skelview({"export", "-o", full}).exit_code, 0);
  const std::string bytes = ReadFile(full);
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t keep : {size_t(10), size_t(100), bytes.size() / 2, bytes.size() - 7}) {
    const std::string path = TempPath("truncated-" + std::to_string(keep) + ".glb");
    WriteFile(path, bytes.substr(0, keep));
    ExpectBadInput({"info", path}, path);
  }
}

TEST(CliBadInput, ImporterCrashIsContained) {
  // The worker that imports the file dies of a segfault (fault injection): skelview itself
  // reports it and exits 2.
  const std::string path = TempPath("crash-me.glb");
  ASSERT_EQ(testproc::Skelview({"export", "-o", path}).exit_code, 0);
  const testproc::Result r =
      testproc::Skelview({"info", path}, 30.0, {"SKELVIEW_TEST_WORKER_CRASH=1"});
  ASSERT_TRUE(r.exited) << "skelview itself died: signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  // SIGSEGV, or SIGABRT where AddressSanitizer catches the fault and aborts.
  EXPECT_THAT(r.err, HasSubstr("the importer crashed on " + path + " (SIG"));
}

TEST(CliBadInput, BadArguments) {
  ExpectBadInput({"pose", "--ik", "NoSuchJoint=0,0,0"}, "NoSuchJoint");
  ExpectBadInput({"pose", "--ik", "LeftFoot=1,2"}, "LeftFoot=1,2");
  ExpectBadInput({"pose", "--ik", "Hips=0,1,0"}, "Hips");  // fewer than two ancestors
  ExpectBadInput({"pose", "--anim", "9"}, "--anim 9");
  ExpectBadInput({"pose", "--skinning", "tpu"}, "--skinning");
  ExpectBadInput({"render", "-o", TempPath("y.png"), "--size", "0x5"}, "--size");
  ExpectBadInput({"pose", "--no-such-option"}, "--no-such-option");
  ExpectBadInput({"render"}, "--output");
}

TEST(CliModels, StaticModelWithoutSkinRenders) {
  // A model without a skin: shown static, attached to its node.
  const std::string path = TempPath("cube.obj");
  WriteFile(path,
            "v -0.5 0 -0.5\nv 0.5 0 -0.5\nv 0.5 1 -0.5\nv -0.5 1 -0.5\n"
            "v -0.5 0 0.5\nv 0.5 0 0.5\nv 0.5 1 0.5\nv -0.5 1 0.5\n"
            "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\nf 5 1 4 8\n");
  const json info = RunJson({"info", path, "--json"});
  ASSERT_FALSE(info.is_discarded());
  ASSERT_EQ(info["meshes"].size(), 1u);
  EXPECT_FALSE(info["meshes"][0]["skinned"].get<bool>());
  const json pose = RunJson({"pose", path, "--vertices"});
  ASSERT_EQ(pose["meshes"][0]["positions"].size(), info["meshes"][0]["vertices"].get<size_t>());
  const std::string out = TempPath("cube.png");
  ASSERT_EQ(testproc::Skelview({"render", path, "-o", out, "--size", "160x120"}).exit_code, 0);
  const Image image = LoadPng(out);
  ASSERT_EQ(image.width, 160);
  const glm::ivec4 centre = image.At(80, 60);
  EXPECT_GT((centre.r + centre.g + centre.b) / 3, 90) << "the cube should fill the centre";
}

TEST(CliModels, SkeletonWithoutMeshShowsItsJoints) {
  // A glTF with nodes only: loads as a skeleton, renders its bones.
  const std::string path = TempPath("bones.gltf");
  WriteFile(path, R"({
    "asset": {"version": "2.0"},
    "scene": 0,
    "scenes": [{"nodes": [0]}],
    "nodes": [
      {"name": "root", "children": [1], "translation": [0, 0.2, 0]},
      {"name": "upper", "children": [2], "translation": [0, 0.5, 0]},
      {"name": "lower", "children": [3], "translation": [0.4, 0.3, 0]},
      {"name": "tip", "translation": [0.3, -0.2, 0]}
    ]
  })");
  const json info = RunJson({"info", path, "--json"});
  ASSERT_FALSE(info.is_discarded());
  EXPECT_EQ(info["counts"]["meshes"], 0);
  std::vector<std::string> names;
  for (const json& j : info["joints"]) names.push_back(j["name"]);
  EXPECT_THAT(names, testing::IsSupersetOf({"root", "upper", "lower", "tip"}));
  // The bones are drawn: a render has bright bone-coloured pixels.
  const std::string out = TempPath("bones.png");
  ASSERT_EQ(testproc::Skelview({"render", path, "-o", out, "--size", "200x200"}).exit_code, 0);
  const Image image = LoadPng(out);
  int bone_pixels = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const glm::ivec4 p = image.At(x, y);
      if (p.g > 120 && p.g > p.r + 40 && p.g > p.b + 40) ++bone_pixels;  // middle bones' green
    }
  EXPECT_GT(bone_pixels, 50);
  // And IK works on it: tip's chain is upper-lower-tip.
  const json pose = RunJson({"pose", path, "--ik", "tip=0.5,0.6,0.1"});
  ASSERT_EQ(pose["ik"].size(), 1u);
  EXPECT_EQ(pose["ik"][0]["start"], "upper");
  EXPECT_TRUE(pose["ik"][0]["reached"].get<bool>());
}

TEST(CliModels, SharedModelsPoseAndRender) {
  const std::string cesium =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(cesium, "CesiumMan.glb");
  const json pose = RunJson({"pose", cesium, "--anim", "0", "--time", "0.5", "--vertices"});
  ASSERT_FALSE(pose.is_discarded());
  EXPECT_GE(pose["joints"].size(), 19u);
  for (const json& mesh : pose["meshes"])
    for (const json& p : mesh["positions"])
      for (int k = 0; k < 3; ++k) ASSERT_TRUE(p[k].is_number()) << "non-finite vertex";
  const std::string out = TempPath("cesium.png");
  ASSERT_EQ(testproc::Skelview({"render", cesium, "-o", out, "--size", "200x200"}).exit_code, 0);
  EXPECT_EQ(LoadPng(out).width, 200);
}

}  // namespace

namespace {

// Largest coordinate difference between the meshes of two `pose --vertices` documents.
double WorstVertexDifference(const nlohmann::json& a, const nlohmann::json& b) {
  double worst = 0.0;
  EXPECT_EQ(a["meshes"].size(), b["meshes"].size());
  for (size_t m = 0; m < a["meshes"].size() && m < b["meshes"].size(); ++m) {
    const auto& pa = a["meshes"][m]["positions"];
    const auto& pb = b["meshes"][m]["positions"];
    EXPECT_EQ(pa.size(), pb.size());
    for (size_t i = 0; i < pa.size() && i < pb.size(); ++i)
      for (int k = 0; k < 3; ++k)
        worst = std::max(worst, std::abs(pa[i][k].get<double>() - pb[i][k].get<double>()));
  }
  return worst;
}

TEST(CliExport, PosedExportShowsTheSamePoseAsItsRestPose) {
  const std::string out = TempPath("posed.glb");
  const std::vector<std::string> pose_args = {"--anim", "0",    "--time",
                                              "0.4",    "--ik", "LeftFoot=0.2,0.35,0.15,hinge"};
  std::vector<std::string> export_args = {"export", "-o", out};
  export_args.insert(export_args.end(), pose_args.begin(), pose_args.end());
  ASSERT_EQ(testproc::Skelview(export_args).exit_code, 0);
  std::vector<std::string> shown = {"pose", "--vertices"};
  shown.insert(shown.end(), pose_args.begin(), pose_args.end());
  const json expected = RunJson(shown);
  const json exported = RunJson({"pose", out, "--vertices"});  // its rest pose
  ASSERT_FALSE(exported.is_discarded());
  EXPECT_LT(WorstVertexDifference(expected, exported), 1e-4 * 1.75);
}

TEST(CliExport, BakedClipReplaysTheIkFrameByFrame) {
  const std::string out = TempPath("baked.glb");
  const std::string ik = "RightFoot=-0.1,0.25,0.1,hinge";
  const testproc::Result r =
      testproc::Skelview({"export", "-o", out, "--anim", "0", "--bake", "--ik", ik});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("30 fps"));
  for (const char* time : {"0", "0.2", "0.5333333", "1"}) {
    const json expected =
        RunJson({"pose", "--anim", "0", "--time", time, "--ik", ik, "--vertices"});
    const json baked = RunJson({"pose", out, "--anim", "0", "--time", time, "--vertices"});
    ASSERT_FALSE(baked.is_discarded());
    EXPECT_LT(WorstVertexDifference(expected, baked), 1e-4 * 1.75) << "at t=" << time;
    // The planted foot stays on its target in the baked clip.
    for (const json& j : baked["joints"]) {
      if (j["name"] != "RightFoot") continue;
      EXPECT_NEAR(j["world"][1].get<double>(), 0.25, 1e-4) << "at t=" << time;
    }
  }
}

}  // namespace

namespace {

glm::vec3 JointWorld(const nlohmann::json& pose, const std::string& name) {
  for (const auto& j : pose["joints"]) {
    if (j["name"] == name) return glm::vec3(j["world"][0], j["world"][1], j["world"][2]);
  }
  ADD_FAILURE() << "no joint " << name;
  return glm::vec3(0.0f);
}

TEST(CliConstraints, SeedExampleLeftCalfPointsAtRightAnkle) {
  // The seed's points-at example on the built-in character: the left calf (LeftLeg, whose bone
  // runs to LeftFoot) turns, in its own frame, to point at the right ankle (RightFoot).
  const json pose = RunJson({"pose", "--aim", "LeftLeg=RightFoot"});
  ASSERT_FALSE(pose.is_discarded());
  ASSERT_EQ(pose["aim"].size(), 1u);
  const json& aim = pose["aim"][0];
  EXPECT_EQ(aim["target_joint"], "RightFoot");
  EXPECT_TRUE(aim["reached"].get<bool>());
  EXPECT_LT(aim["error"].get<double>(), 1e-5);
  EXPECT_GT(aim["angle_before"].get<double>(), 0.1);
  const glm::vec3 knee = JointWorld(pose, "LeftLeg");
  const glm::vec3 calf = glm::normalize(JointWorld(pose, "LeftFoot") - knee);
  const glm::vec3 to_ankle = glm::normalize(JointWorld(pose, "RightFoot") - knee);
  // The angle between them, from the cross product (a dot product cannot resolve 1e-4 rad in
  // float).
  EXPECT_LT(std::atan2(glm::length(glm::cross(calf, to_ankle)), glm::dot(calf, to_ankle)), 1e-4f);
  // The thigh did not move: only the calf's frame turned.
  const json rest = RunJson({"pose"});
  EXPECT_LT(glm::length(JointWorld(rest, "LeftLeg") - knee), 1e-6f);
}

TEST(CliConstraints, FabrikReachesAlongTheSpine) {
  const json rest = RunJson({"pose"});
  const glm::vec3 head = JointWorld(rest, "Head");
  const glm::vec3 target = head + glm::vec3(0.08f, -0.05f, 0.1f);
  char spec[160];
  std::snprintf(spec, sizeof(spec), "Spine:Head=%.6f,%.6f,%.6f", double(target.x), double(target.y),
                double(target.z));
  const json pose = RunJson({"pose", "--fabrik", spec});
  ASSERT_EQ(pose["fabrik"].size(), 1u);
  const json& f = pose["fabrik"][0];
  EXPECT_TRUE(f["reached"].get<bool>()) << f.dump();
  EXPECT_GE(f["iterations"].get<int>(), 1);
  EXPECT_LE(f["iterations"].get<int>(), 64);
  EXPECT_LT(glm::length(JointWorld(pose, "Head") - target), 1e-3f);
  // Bone lengths along the chain are kept.
  const std::pair<const char*, const char*> segments[] = {
      {"Spine", "Spine1"}, {"Spine1", "Spine2"}, {"Spine2", "Neck"}, {"Neck", "Head"}};
  for (const auto& [a, b] : segments) {
    EXPECT_NEAR(glm::length(JointWorld(pose, b) - JointWorld(pose, a)),
                glm::length(JointWorld(rest, b) - JointWorld(rest, a)), 1e-5f)
        << a << "-" << b;
  }
}

TEST(CliConstraints, BadSpecsExitTwoNamingTheArgument) {
  ExpectBadInput({"pose", "--aim", "Head=0,0"}, "--aim 'Head=0,0'");
  ExpectBadInput({"pose", "--aim", "NoBone=0,1,0"}, "NoBone");
  ExpectBadInput({"pose", "--aim", "Head=NoJoint"}, "NoJoint");
  ExpectBadInput({"pose", "--fabrik", "Head:Spine=0,1,0"}, "Head:Spine");  // END above ROOT
  ExpectBadInput({"pose", "--fabrik", "Spine=0,1,0"}, "ROOT:END");
  ExpectBadInput({"pose", "--limit", "Neck=cone,400"}, "--limit");
  ExpectBadInput({"pose", "--limit", "Neck=hinge,0,0,0,-10,10"}, "axis");
}

TEST(CliBody, MovingTheHipsKeepsPinnedFeetAndReportsEachPin) {
  const json rest = RunJson({"pose"});
  const glm::vec3 hips = JointWorld(rest, "Hips") + glm::vec3(0.0f, -0.2f, 0.05f);
  char move[120];
  std::snprintf(move, sizeof(move), "Hips=%.6f,%.6f,%.6f", double(hips.x), double(hips.y),
                double(hips.z));
  const json pose = RunJson({"pose", "--pin", "LeftFoot", "--pin", "RightFoot", "--move", move});
  ASSERT_FALSE(pose.is_discarded());
  ASSERT_TRUE(pose.contains("body")) << pose.dump();
  const json& body = pose["body"];
  EXPECT_EQ(body["reached"], true);
  EXPECT_EQ(body["hips"], "Hips");
  EXPECT_GE(body["iterations"].get<int>(), 1);
  ASSERT_EQ(body["effectors"].size(), 3u);
  EXPECT_EQ(body["effectors"][0]["kind"], "move");
  for (int e = 1; e < 3; ++e) {
    const json& pin = body["effectors"][e];
    EXPECT_EQ(pin["kind"], "pin");
    EXPECT_EQ(pin["from"], "pin");
    EXPECT_LT(pin["error"].get<double>(), 1e-4);
    const std::string foot = pin["joint"];
    EXPECT_LT(glm::length(JointWorld(pose, foot) - JointWorld(rest, foot)), 1e-4f) << foot;
  }
  EXPECT_LT(glm::length(JointWorld(pose, "Hips") - hips), 1e-4f);
  EXPECT_FALSE(body["moved"].empty());
  // Without pins or moves there is no body solve and no `body` field.
  EXPECT_FALSE(rest.contains("body"));
}

TEST(CliBody, AFarHandTargetIsReachedWhenTheBodyHelps) {
  const char* far = "RightHand=-0.75,0.75,0.55";
  const json alone = RunJson({"pose", "--ik", far});
  ASSERT_EQ(alone["ik"].size(), 1u);
  EXPECT_EQ(alone["ik"][0]["reached"], false);
  const json helped = RunJson(
      {"pose", "--ik", std::string(far) + ",body", "--pin", "LeftFoot", "--pin", "RightFoot"});
  EXPECT_EQ(helped["ik"][0]["reached"], true) << helped["ik"][0].dump();
  EXPECT_EQ(helped["body"]["reached"], true) << helped["body"].dump();
  EXPECT_EQ(helped["body"]["effectors"][0]["kind"], "pin");
  EXPECT_EQ(helped["body"]["effectors"][2]["kind"], "target");
  EXPECT_EQ(helped["body"]["effectors"][2]["from"], "ik");
  EXPECT_EQ(helped["body"]["effectors"][2]["ik_index"], 0);
}

TEST(CliBody, BadBodyArgumentsExitTwoNamingThem) {
  ExpectBadInput({"pose", "--pin", "NoSuchJoint"}, "--pin NoSuchJoint");
  ExpectBadInput({"pose", "--pin", "LeftLeg"}, "use that end instead");
  ExpectBadInput({"pose", "--move", "Hips=0,1"}, "--move 'Hips=0,1'");
  ExpectBadInput({"pose", "--ik", "Head=0,2,0,body"}, "not the end of an arm or leg");
  ExpectBadInput(
      {"render", "-o", TempPath("never.png"), "--pin", "LeftFoot", "--ik", "LeftFoot=0,0.1,0"},
      "already given by --ik LeftFoot");
  ExpectBadInput({"export", "-o", TempPath("never.glb"), "--body", "spine=2000"}, "--body");
  EXPECT_FALSE(std::filesystem::exists(TempPath("never.png")));
}

TEST(CliBody, ExportBakesTheBodySolveIntoTheClip) {
  const std::string out = TempPath("body_baked.glb");
  const std::vector<std::string> body = {"--pin",     "LeftFoot", "--pin",
                                         "RightFoot", "--move",   "Hips=0,0.8,0.1"};
  std::vector<std::string> args = {"export", "-o", out, "--anim", "0", "--bake"};
  args.insert(args.end(), body.begin(), body.end());
  const testproc::Result r = testproc::Skelview(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* time : {"0", "0.5333333"}) {
    std::vector<std::string> posed = {"pose", "--anim", "0", "--time", time};
    posed.insert(posed.end(), body.begin(), body.end());
    const json expected = RunJson(posed);
    const json baked = RunJson({"pose", out, "--anim", "0", "--time", time});
    for (const char* joint : {"Hips", "LeftFoot", "RightFoot", "LeftLeg", "Head"}) {
      EXPECT_LT(glm::length(JointWorld(expected, joint) - JointWorld(baked, joint)), 1e-4f)
          << joint << " at t=" << time;
    }
    EXPECT_LT(glm::length(JointWorld(baked, "Hips") - glm::vec3(0.0f, 0.8f, 0.1f)), 1e-4f);
  }
}

TEST(CliConstraints, HingeLimitOnTheKneeBoundsTheTwoBoneSolver) {
  // A knee allowed only 0..20 degrees of extra bend cannot fold the leg up to the hip.
  const json free_leg = RunJson({"pose", "--ik", "LeftFoot=0.1,0.55,-0.25,hinge"});
  const json limited = RunJson(
      {"pose", "--ik", "LeftFoot=0.1,0.55,-0.25,hinge", "--limit", "LeftLeg=hinge,1,0,0,0,20"});
  EXPECT_TRUE(free_leg["ik"][0]["reached"].get<bool>());
  EXPECT_FALSE(limited["ik"][0]["reached"].get<bool>());
}

}  // namespace

namespace {

std::string ImportData(const std::string& relative) {
  return testpaths::SourceDir() + "/tests/data/import/" + relative;
}

TEST(CliImportCrashes, FuzzerFoundCrashInsideAssimpIsContained) {
  // Assimp 5.2.5 double-frees its scene on this FBX (found by tests/fuzz): the import worker
  // dies, skelview reports it in one line and exits 2, in well under 5 s.
  const std::string path = ImportData("crashes/fbx_skin_cluster_double_free.fbx");
  const testproc::Result r = testproc::Skelview({"info", path}, 5.0);
  ASSERT_FALSE(r.timed_out);
  ASSERT_TRUE(r.exited) << "skelview itself died: signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("the importer crashed on " + path));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliImportCrashes, HugeClaimedCountsHitTheWorkersMemoryLimit) {
  // A 32-byte .x claiming 260 million vertices makes Assimp allocate gigabytes; the worker's
  // address-space limit turns that into a refusal (not applied under AddressSanitizer, where the
  // allocation simply succeeds and the file is refused afterwards).
  const std::string path = ImportData("crashes/x_mesh_count_allocates_3gb.x");
  const testproc::Result r = testproc::Skelview({"info", path}, 20.0);
  ASSERT_TRUE(r.exited) << "signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(path));
}

TEST(CliImportCrashes, MalformedFilesExitTwoWithinFiveSeconds) {
  // Bit flips of an exported .glb (fixed seed), truncations, and a huge accessor count.
  const std::string good = TempPath("flip-source.glb");
  ASSERT_EQ(testproc::Skelview({"export", "-o", good}).exit_code, 0);
  const std::string bytes = ReadFile(good);
  std::mt19937 rng(1234);
  int refused = 0, loaded = 0;
  for (int variant = 0; variant < 12; ++variant) {
    std::string flipped = bytes;
    // Flip bits in the JSON chunk (the first 2 KiB) and in the binary data.
    for (int k = 0; k < 6; ++k) {
      const size_t at = k < 3 ? 20 + rng() % 2000 : rng() % flipped.size();
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << (rng() % 8)));
    }
    const std::string path = TempPath("flipped-" + std::to_string(variant) + ".glb");
    WriteFile(path, flipped);
    const testproc::Result r = testproc::Skelview({"info", path}, 5.0);
    ASSERT_FALSE(r.timed_out) << path;
    ASSERT_TRUE(r.exited) << path << ": signal " << r.signal;
    if (r.exit_code == 0) {
      ++loaded;  // a flip in vertex data can leave a valid file
    } else {
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(path));
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
  const std::string huge = TempPath("huge-count.gltf");
  WriteFile(huge, R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
    "nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
    "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}],
    "bufferViews":[{"buffer":0,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":2147483647,"type":"VEC3"}]})");
  const testproc::Result r = testproc::Skelview({"info", huge}, 5.0);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(huge));
}

// ---- Weight problems in `info` (issue 13) ----

using gltfref::Base64;

// Two triangles skinned to a chain of ten joints: vertex 1 has no weight, vertex 2 weights
// summing to 0.6, vertex 3 nine influences; the others are clean.
std::string WeightProblemsGltf() {
  std::vector<uint8_t> data;
  const auto put = [&](const void* p, size_t n) {
    data.insert(data.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  };
  json views = json::array(), accessors = json::array();
  const auto add = [&](const void* p, size_t n, int type, const char* kind, size_t count) {
    views.push_back({{"buffer", 0}, {"byteOffset", data.size()}, {"byteLength", n}});
    put(p, n);
    accessors.push_back({{"bufferView", views.size() - 1},
                         {"componentType", type},
                         {"type", kind},
                         {"count", count}});
    return static_cast<int>(accessors.size() - 1);
  };
  const float positions[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 3, 0, 0, 2, 1, 0};
  const int position = add(positions, sizeof(positions), 5126, "VEC3", 6);
  accessors[position]["min"] = {0, 0, 0};
  accessors[position]["max"] = {3, 1, 0};
  const uint16_t indices[6] = {0, 1, 2, 3, 4, 5};
  const int index = add(indices, sizeof(indices), 5123, "SCALAR", 6);
  uint16_t joints[3][24] = {};
  float weights[3][24] = {};
  weights[0][0] = 1.0f;                        // vertex 0: clean
  weights[0][8] = 0.3f, weights[0][9] = 0.3f;  // vertex 2: sums to 0.6
  joints[0][9] = 1;
  for (int k = 0; k < 9; ++k) {  // vertex 3: nine influences
    joints[k / 4][12 + k % 4] = static_cast<uint16_t>(k);
    weights[k / 4][12 + k % 4] = 1.0f / 9.0f;
  }
  weights[0][16] = 1.0f, weights[0][20] = 1.0f;  // vertices 4 and 5: clean
  json attributes = {{"POSITION", position}};
  for (int set = 0; set < 3; ++set) {
    attributes["JOINTS_" + std::to_string(set)] =
        add(joints[set], sizeof(joints[set]), 5123, "VEC4", 6);
    attributes["WEIGHTS_" + std::to_string(set)] =
        add(weights[set], sizeof(weights[set]), 5126, "VEC4", 6);
  }
  json nodes = json::array();
  for (int j = 0; j < 10; ++j) {
    json node = {{"name", "j" + std::to_string(j)}};
    if (j + 1 < 10) node["children"] = {j + 1};
    nodes.push_back(node);
  }
  nodes.push_back({{"name", "body"}, {"mesh", 0}, {"skin", 0}});
  const json doc = {
      {"asset", {{"version", "2.0"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0, 10}}}}},
      {"nodes", nodes},
      {"meshes", {{{"primitives", {{{"attributes", attributes}, {"indices", index}}}}}}},
      {"skins", {{{"joints", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}}}},
      {"bufferViews", views},
      {"accessors", accessors},
      {"buffers",
       {{{"byteLength", data.size()},
         {"uri", "data:application/octet-stream;base64," + Base64(data)}}}}};
  return doc.dump();
}

TEST(CliInfo, ReportsWeightProblemsByKind) {
  const std::string path = TempPath("weight-problems.gltf");
  WriteFile(path, WeightProblemsGltf());
  const json info = RunJson({"info", path, "--json"});
  ASSERT_FALSE(info.is_discarded());
  EXPECT_EQ(info["weights_problems"],
            json({{"unweighted", 1}, {"not_normalized", 1}, {"too_many_influences", 1}}));
  const testproc::Result text = testproc::Skelview({"info", path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("weight problems: 1 unweighted, 1 not summing to 1, 1 over 8"));
  // The built-in character is clean.
  EXPECT_EQ(RunJson({"info", "--json"})["weights_problems"],
            json({{"unweighted", 0}, {"not_normalized", 0}, {"too_many_influences", 0}}));
}

TEST(CliInfo, TheLoadWarningAndTheWeightProblemsCountTheSameVertices) {
  // CesiumMan: the load warning said 210 vertices had weights not summing to 1 (the welded
  // vertices), `info` and the Weights panel 177 (the file's distinct positions). One count now.
  const std::string cesium =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(cesium, "CesiumMan.glb");
  const testproc::Result text = testproc::Skelview({"info", cesium});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string warning = " vertices had weights not summing to 1";
  const size_t at = text.err.find(warning);
  ASSERT_NE(at, std::string::npos) << text.err;
  const size_t start = text.err.rfind(' ', at - 1) + 1;
  const std::string warned = text.err.substr(start, at - start);
  EXPECT_THAT(text.out,
              HasSubstr("weight problems: 0 unweighted, " + warned + " not summing to 1"));
  const json info = RunJson({"info", cesium, "--json"});
  EXPECT_EQ(std::to_string(info["weights_problems"]["not_normalized"].get<int>()), warned);
  bool in_warnings = false;
  for (const json& w : info["warnings"]) {
    in_warnings = in_warnings || w.get<std::string>().find(warned + warning) != std::string::npos;
  }
  EXPECT_TRUE(in_warnings) << info["warnings"].dump();
}

}  // namespace

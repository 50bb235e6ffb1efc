// Session files: everything written reads back exactly; the model's path is stored relative to
// the session where it can be; bad files are refused naming the file and the field; a session
// reattaches to a changed model by joint names and says what it left out; rig changes between
// two loads are found (joints added, removed, renamed).
#include "app/core/session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "assets/builtin/builtin_character.h"
#include "tests/test_paths.h"

namespace app {
namespace {

namespace fs = std::filesystem;

// The built-in character with two blend-shape targets on its mesh.
assets::Model Character() {
  assets::Model model = assets::MakeBuiltinCharacter();
  assets::Mesh& mesh = model.meshes[0];
  for (const char* name : {"Smile", ""}) {
    assets::MorphTarget target;
    target.name = name;
    target.positions.assign(mesh.positions.size(), glm::vec3(0.0f, 0.01f, 0.0f));
    mesh.targets.push_back(target);
  }
  mesh.target_weights = {0.0f, 0.0f};
  return model;
}

// A session that sets every field away from its default, with values that print long.
Session FullSession(const assets::Model& model) {
  Session s;
  s.model_path = "";
  EditState& e = s.edit;
  e.chains = DefaultChains(app::Character(model));
  ChainSettings& leg = e.chains[0];
  leg.mode = TargetMode::kPinned;
  leg.pinned = {0.1f, 0.0123456789f, -0.3f};
  leg.offset = {1.0f / 3.0f, 0.2f, 0.7f};
  leg.use_pole = true;
  leg.pole = {0.3f, 0.5f, 1.0f / 7.0f};
  leg.hinge = false;
  leg.soft = 0.25f;
  leg.weight = 0.6f;
  leg.weight_keys = {{0.0f, 0.0f}, {0.4f, 1.0f}, {1.0f / 3.0f, 0.5f}};
  leg.end_orientation = ik::EndOrientation::kKeepModel;
  leg.enabled = false;
  leg.body_helps = true;
  leg.target_keys = {{0.0f, {0.1f, 0.2f, 0.3f}}, {1.0f / 3.0f, {0.1f, 1.0f / 7.0f, 0.3f}}};
  leg.pole_keys = {{0.25f, {0.3f, 0.5f, 1.0f / 9.0f}}};
  ChainSettings aim;
  std::string why;
  EXPECT_TRUE(MakeAim(model, model.skeleton.Find("Head"), &aim, &why)) << why;
  aim.target_joint = model.skeleton.Find("LeftHand");
  aim.spread = 2;
  aim.spread_falloff = 0.3f;
  aim.use_up = true;
  aim.up = {0.0f, 3.0f, 0.1f};
  e.chains.push_back(aim);
  ChainSettings fabrik;
  EXPECT_TRUE(
      MakeFabrik(model, model.skeleton.Find("Spine"), model.skeleton.Find("Head"), &fabrik, &why))
      << why;
  fabrik.tolerance = 3e-4f;
  fabrik.max_iterations = 17;
  fabrik.show_iterations = true;
  fabrik.mode = TargetMode::kPinned;
  fabrik.pinned = {0.0f, 1.7f, 0.2f};
  e.chains.push_back(fabrik);
  for (ChainSettings& c : e.chains) {
    if (c.kind == ConstraintKind::kBody) c.body_pin = true;
  }
  e.joint_rotations[model.skeleton.Find("Neck")] =
      glm::normalize(glm::quat(0.9f, 0.1f, 0.2f, 0.3f));
  e.joint_translations[model.skeleton.Find("Hips")] = {0.01f, 0.9f, -0.02f};
  e.joint_offsets[model.skeleton.Find("LeftForeArm")] =
      glm::normalize(glm::quat(0.8f, -0.3f, 0.1f, 0.2f));
  e.limits.Set(model.skeleton.Find("LeftLeg"),
               ik::JointLimit::Hinge({1.0f, 0.0f, 0.0f}, -0.1f, 2.3f));
  e.limits.Set(model.skeleton.Find("LeftArm"),
               ik::JointLimit::Cone({0.0f, 1.0f, 0.0f}, 1.1f, -0.4f, 0.7f));
  e.body_options.hips_translation_weight = 0.3f;
  e.body_options.hips_rotation_weight = 2.0f;
  e.body_options.spine_weight = 0.7f;
  e.body_options.max_body_turn = 0.9f;
  e.body_options.max_iterations = 9;
  e.body_options.tolerance = 2e-5f;
  e.body_options.hinge = false;
  e.morph_weights[{0, 0}] = 0.72f;
  e.morph_weights[{0, 1}] = 0.1f;
  e.contacts.ground.enabled = true;
  e.contacts.ground.height = 0.05f;
  e.contacts.ground.tilt_x_degrees = 12.5f;
  e.contacts.ground.tilt_z_degrees = -3.0f;
  e.contacts.ground.pivot = {0.1f, 0.0f, 0.2f};
  e.contacts.ladder.enabled = true;
  e.contacts.ladder.base = {0.0f, 0.5f, 0.4f};
  e.contacts.ladder.spacing = 0.27f;
  e.contacts.ladder.width = 0.55f;
  e.contacts.ladder.count = 9;
  e.contacts.lower_hips = false;
  s.playback.clip = model.FindClip("Idle");
  s.playback.time = 0.123456789f;
  s.playback.speed = -0.5f;
  s.playback.loop = false;
  s.playback.range_start = 0.1f;
  s.playback.range_end = 0.9f;
  s.playback.playing = true;
  s.camera = SessionCamera{0.7853982f, -0.3f, 2.345678f, {0.1f, 0.9f, -0.05f}, true};
  s.display.spec.bones = true;
  s.display.spec.mesh = false;
  s.display.spec.weights = "LeftArm";
  s.display.spec.onion = 3;
  s.display.spec.trail = "LeftHand";
  s.display.spec.legend = true;
  s.display.onion_step = 4;
  s.display.spec.onion_step = 4;
  s.display.mesh_opacity = 0.4f;
  s.display.on_ground = true;
  s.display.follow_root = true;
  s.display.timeline = false;
  s.display.rotate_gizmo = "local";
  s.selected_joint = model.skeleton.Find("Spine1");
  s.active_chain = 2;
  // The foot lock on a ramp, with contacts edited by hand.
  s.lock_feet = true;
  s.edit.foot_lock_edit.ground = "ramp,degrees=12";
  s.edit.foot_lock_edit.clip = s.playback.clip;
  s.edit.foot_lock_edit.contacts = {{{0, 5}, {20, 25}}, {{10, 16}}};
  return s;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

bool Attach(const std::string& path, const assets::Model& model, Session* out,
            SessionProblems* problems, std::string* error, const JointRenames* renames = nullptr) {
  SessionFile file;
  if (!ReadSessionFile(path, &file, error)) return false;
  return AttachSession(file, model, renames, out, problems, error);
}

TEST(Session, EverythingWrittenReadsBackExactly) {
  const assets::Model model = Character();
  const Session s = FullSession(model);
  const std::string path = testpaths::TempDir() + "/full.skelview";
  std::string error;
  ASSERT_TRUE(WriteSessionFile(path, SessionJson(model, s, path), &error)) << error;
  Session back;
  SessionProblems problems;
  ASSERT_TRUE(Attach(path, model, &back, &problems, &error)) << error;
  EXPECT_TRUE(problems.empty()) << problems.lines[0];
  EXPECT_TRUE(back.edit == s.edit);
  for (size_t i = 0; i < s.edit.chains.size(); ++i) {
    EXPECT_TRUE(back.edit.chains[i] == s.edit.chains[i]) << s.edit.chains[i].label;
  }
  EXPECT_EQ(back.edit.limits.entries().size(), 2u);
  EXPECT_EQ(back.playback.clip, s.playback.clip);
  EXPECT_EQ(back.playback.time, s.playback.time);
  EXPECT_EQ(back.playback.speed, s.playback.speed);
  EXPECT_EQ(back.playback.loop, s.playback.loop);
  EXPECT_EQ(back.playback.range_start, s.playback.range_start);
  EXPECT_EQ(back.playback.range_end, s.playback.range_end);
  EXPECT_EQ(back.playback.playing, s.playback.playing);
  ASSERT_TRUE(back.camera.has_value());
  EXPECT_EQ(back.camera->yaw, s.camera->yaw);
  EXPECT_EQ(back.camera->pitch, s.camera->pitch);
  EXPECT_EQ(back.camera->distance, s.camera->distance);
  EXPECT_EQ(back.camera->target, s.camera->target);
  EXPECT_EQ(back.camera->ortho, s.camera->ortho);
  EXPECT_TRUE(back.display.spec == s.display.spec);
  EXPECT_EQ(back.display.mesh_opacity, s.display.mesh_opacity);
  EXPECT_EQ(back.display.onion_step, s.display.onion_step);
  EXPECT_EQ(back.display.on_ground, s.display.on_ground);
  EXPECT_EQ(back.display.follow_root, s.display.follow_root);
  EXPECT_EQ(back.display.timeline, s.display.timeline);
  EXPECT_EQ(back.display.rotate_gizmo, "local");
  EXPECT_EQ(back.selected_joint, s.selected_joint);
  EXPECT_EQ(back.active_chain, s.active_chain);
  EXPECT_TRUE(back.lock_feet);
  EXPECT_EQ(back.edit.foot_lock_edit.contacts, s.edit.foot_lock_edit.contacts);
  EXPECT_EQ(back.model_path, "");  // the built-in character
  // Written again, the same bytes: nothing drifts from one save to the next.
  const std::string again = testpaths::TempDir() + "/again.skelview";
  ASSERT_TRUE(WriteSessionFile(again, SessionJson(model, back, again), &error)) << error;
  EXPECT_EQ(ReadText(path), ReadText(again));
}

TEST(Session, IsHumanReadableJsonNamingJointsNotNumbers) {
  const assets::Model model = Character();
  const Json json = SessionJson(model, FullSession(model), "/tmp/x.skelview");
  EXPECT_EQ(json["skelview_session"], kSessionVersion);
  EXPECT_TRUE(json["model"].is_null());
  EXPECT_EQ(json["chains"][0]["joints"]["end"], "LeftFoot");
  EXPECT_EQ(json["chains"][0]["target"]["mode"], "pinned");
  EXPECT_TRUE(json["chains"][0]["target"]["keys"].is_array());
  EXPECT_TRUE(json["chains"][0]["pole"]["keys"].is_array());
  EXPECT_EQ(json["rotations"][0]["joint"], "Neck");
  const Json& limits = json["limits"];
  const auto hinge = std::find_if(limits.begin(), limits.end(),
                                  [](const Json& l) { return l["joint"] == "LeftLeg"; });
  ASSERT_NE(hinge, limits.end());
  EXPECT_EQ((*hinge)["type"], "hinge");
  EXPECT_NEAR((*hinge)["max"].get<double>(), 2.3 * 180.0 / 3.14159265358979, 1e-4);
  EXPECT_EQ(json["morphs"][1]["target"], "#1");  // unnamed: by index
  EXPECT_EQ(json["animation"]["clip"], "Idle");
  EXPECT_NEAR(json["camera"]["yaw"].get<double>(), 45.0, 1e-4);
  EXPECT_EQ(json["animation"]["time"].get<double>(), 0.12345679);  // the float's shortest form
}

TEST(Session, ModelPathIsRelativeToTheSessionWhereItCanBe) {
  const assets::Model model = Character();
  const fs::path dir = testpaths::TempDir();
  fs::create_directories(dir / "models" / "hero");
  fs::create_directories(dir / "a" / "b" / "c" / "d");
  Session s;
  s.model_path = (dir / "models" / "hero" / "hero.glb").string();
  const std::string near = (dir / "models" / "hero.skelview").string();
  EXPECT_EQ(SessionJson(model, s, near)["model"], "hero/hero.glb");
  const std::string above = (dir / "a" / "b" / "s.skelview").string();
  EXPECT_EQ(SessionJson(model, s, above)["model"], "../../models/hero/hero.glb");
  const std::string far = (dir / "a" / "b" / "c" / "d" / "s.skelview").string();
  EXPECT_EQ(SessionJson(model, s, far)["model"], s.model_path);  // four folders up: absolute
  // Read back, a relative path is the session's folder's.
  std::string error;
  ASSERT_TRUE(WriteSessionFile(above, SessionJson(model, s, above), &error)) << error;
  SessionFile file;
  ASSERT_TRUE(ReadSessionFile(above, &file, &error)) << error;
  EXPECT_EQ(fs::path(file.model_path), fs::path(s.model_path).lexically_normal());
}

TEST(Session, BadFilesAreRefusedNamingTheFileAndWhy) {
  const std::string dir = testpaths::TempDir();
  SessionFile file;
  std::string error;
  EXPECT_FALSE(ReadSessionFile(dir + "/missing.skelview", &file, &error));
  EXPECT_NE(error.find("missing.skelview: cannot open"), std::string::npos) << error;
  EXPECT_FALSE(ReadSessionFile(dir, &file, &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(ReadSessionFile(Write(dir + "/text.skelview", "hello"), &file, &error));
  EXPECT_NE(error.find("text.skelview: not a skelview session"), std::string::npos) << error;
  EXPECT_FALSE(ReadSessionFile(Write(dir + "/other.skelview", "{\"a\": 1}"), &file, &error));
  EXPECT_NE(error.find("no skelview_session field"), std::string::npos) << error;
  EXPECT_FALSE(
      ReadSessionFile(Write(dir + "/newer.skelview", "{\"skelview_session\": 99, \"model\": null}"),
                      &file, &error));
  EXPECT_NE(error.find("session format 99 is newer than this skelview reads (1)"),
            std::string::npos)
      << error;
  EXPECT_FALSE(ReadSessionFile(
      Write(dir + "/nomodel.skelview", "{\"skelview_session\": 1, \"model\": 3}"), &file, &error));
  EXPECT_NE(error.find("nomodel.skelview: model: expected"), std::string::npos) << error;
  // Too large: refused before anything is read.
  const std::string big = dir + "/big.skelview";
  std::ofstream(big).close();
  fs::resize_file(big, static_cast<uintmax_t>(kMaxSessionBytes) + 1);
  EXPECT_FALSE(ReadSessionFile(big, &file, &error));
  EXPECT_NE(error.find("more than a session can be"), std::string::npos) << error;
}

TEST(Session, AMalformedFieldFailsTheWholeSessionNamingIt) {
  const assets::Model model = Character();
  const std::string dir = testpaths::TempDir();
  Json json = SessionJson(model, FullSession(model), dir + "/s.skelview");
  struct Case {
    const char* pointer;
    Json value;
    const char* expected;
  };
  const Case cases[] = {
      {"/chains/0/target/offset", Json::array({1, "x", 3}),
       "chains[0].target.offset: expected 3 finite numbers"},
      {"/chains/1/target/mode", "flying", "chains[1].target.mode: expected follow, pinned"},
      {"/chains/0/weight", 2.5, "chains[0].weight: expected a number from 0 to 1"},
      {"/rotations/0/rotation", Json::array({0, 0, 0, 0}), "a non-zero quaternion"},
      {"/limits/0/type", "ball", "limits[0].type: expected hinge or cone"},
      {"/animation/time", "soon", "animation.time: expected a number"},
      {"/camera/pitch", 120, "camera.pitch: expected a number from -90 to 90"},
      {"/display/onion", 40, "display.onion: expected a whole number from 0 to 16"},
      {"/display/rotate_gizmo", "sideways",
       "display.rotate_gizmo: expected \"off\", \"global\" or \"local\""},
      {"/chains/0/target/keys", Json::array({{{"time", 1}}}), "chains[0].target.keys[0]"},
      {"/foot_lock/contacts/0/0", Json::array({5, 2}),
       "foot_lock.contacts[0]: expected [first, last] frames"},
      {"/foot_lock/on", "yes", "foot_lock.on: expected"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pointer);
    Json bad = json;
    bad[Json::json_pointer(c.pointer)] = c.value;
    const std::string path = Write(dir + "/bad.skelview", bad.dump());
    Session out;
    SessionProblems problems;
    std::string error;
    EXPECT_FALSE(Attach(path, model, &out, &problems, &error));
    EXPECT_NE(error.find("bad.skelview: "), std::string::npos) << error;
    EXPECT_NE(error.find(c.expected), std::string::npos) << error;
  }
}

TEST(Session, KeysOfTargetsAndPolesAreWrittenAndReadBack) {
  const assets::Model model = Character();
  const std::string dir = testpaths::TempDir();
  const Session s = FullSession(model);
  Json json = SessionJson(model, s, dir + "/keys.skelview");
  const Json& keys = json["chains"][0]["target"]["keys"];
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[1]["time"].get<float>(), 1.0f / 3.0f);
  EXPECT_EQ(keys[1]["position"][1].get<float>(), 1.0f / 7.0f);
  EXPECT_EQ(json["chains"][0]["pole"]["keys"].size(), 1u);
  Session out;
  SessionProblems problems;
  std::string error;
  ASSERT_TRUE(Attach(Write(dir + "/keys.skelview", json.dump()), model, &out, &problems, &error))
      << error;
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(out.edit.chains[0].target_keys, s.edit.chains[0].target_keys);
  EXPECT_EQ(out.edit.chains[0].pole_keys, s.edit.chains[0].pole_keys);
  // Keys out of time order are refused naming the field.
  json["chains"][0]["target"]["keys"] = Json::array(
      {{{"time", 1.0}, {"position", {0, 0, 0}}}, {{"time", 0.5}, {"position", {0, 0.1, 0}}}});
  EXPECT_FALSE(
      Attach(Write(dir + "/bad-keys.skelview", json.dump()), model, &out, &problems, &error));
  EXPECT_EQ(error, dir +
                       "/bad-keys.skelview: chains[0].target.keys[1]: expected a time after the "
                       "key before's");
}

// The model with joint `name` renamed (or removed, with an empty new name: a leaf only).
assets::Model Changed(const assets::Model& model, const std::string& name,
                      const std::string& new_name) {
  std::vector<ik::JointDesc> joints;
  const ik::Skeleton& s = model.skeleton;
  for (int j = 0; j < s.joint_count(); ++j) {
    if (s.name(j) == name && new_name.empty()) continue;
    ik::JointDesc d;
    d.name = s.name(j) == name ? new_name : s.name(j);
    d.parent = s.parent(j);
    d.rest = s.rest_locals()[size_t(j)];
    joints.push_back(d);
  }
  std::string error;
  assets::Model changed = model;
  changed.skeleton = *ik::Skeleton::Build(joints, &error);
  changed.source = "changed.glb";
  return changed;
}

TEST(Session, ReattachesToAChangedModelByNameAndSaysWhatItLeftOut) {
  const assets::Model model = Character();
  Session s = FullSession(model);
  s.edit.joint_rotations[model.skeleton.Find("RightToeBase")] = glm::quat(1, 0, 0, 0);
  const std::string path = testpaths::TempDir() + "/changed.skelview";
  std::string error;
  ASSERT_TRUE(WriteSessionFile(path, SessionJson(model, s, path), &error)) << error;
  // The right foot's toe is gone (the last joint: indices of the others stay).
  const assets::Model changed = Changed(model, "RightToeBase", "");
  ASSERT_EQ(changed.skeleton.joint_count(), model.skeleton.joint_count() - 1);
  Session back;
  SessionProblems problems;
  ASSERT_TRUE(Attach(path, changed, &back, &problems, &error)) << error;
  ASSERT_EQ(problems.lines.size(), 1u);
  EXPECT_EQ(problems.lines[0], "rotation of 'RightToeBase': no such joint in changed.glb");
  EXPECT_EQ(back.edit.chains.size(), s.edit.chains.size());

  // The left foot renamed: its chain is left out, unless the rename is given.
  const assets::Model renamed = Changed(model, "LeftFoot", "foot_l");
  ASSERT_TRUE(Attach(path, renamed, &back, &problems, &error)) << error;
  EXPECT_EQ(back.edit.chains.size(), s.edit.chains.size() - 1);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.lines[0], "chain LeftLeg: no joint 'LeftFoot' (end) in changed.glb");
  const JointRenames renames{{"LeftFoot", "foot_l"}};
  ASSERT_TRUE(Attach(path, renamed, &back, &problems, &error, &renames)) << error;
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(back.edit.chains.size(), s.edit.chains.size());
  EXPECT_TRUE(back.edit == s.edit);  // same indices: the same edit
}

TEST(Session, AClipThatIsGoneFallsBackToTheFirstAndSaysSo) {
  const assets::Model model = Character();
  Session s = FullSession(model);
  const std::string path = testpaths::TempDir() + "/clip.skelview";
  std::string error;
  ASSERT_TRUE(WriteSessionFile(path, SessionJson(model, s, path), &error)) << error;
  assets::Model fewer = model;
  fewer.clips.resize(1);  // "Walk" only
  fewer.source = "fewer.glb";
  Session back;
  SessionProblems problems;
  ASSERT_TRUE(Attach(path, fewer, &back, &problems, &error)) << error;
  EXPECT_EQ(back.playback.clip, 0);
  ASSERT_EQ(problems.lines.size(), 1u);
  EXPECT_EQ(problems.lines[0], "clip 'Idle': no such clip in fewer.glb; playing 'Walk'");
}

TEST(Session, AMeshGroundIsReadByTheViewerAndOneThatIsGoneIsThePlane) {
  // Attaching never reads the mesh (the window reads it in the background): a file that is there
  // stays the ground, even one that will not load; one that is gone is the plane, and said.
  const assets::Model model = Character();
  Session s = FullSession(model);
  const std::string dir = testpaths::TempDir();
  const std::string there = Write(dir + "/session-ground.glb", "not read when attaching");
  const std::string path = dir + "/mesh-ground.skelview";
  std::string error;
  s.edit.foot_lock_edit.ground = there;
  ASSERT_TRUE(WriteSessionFile(path, SessionJson(model, s, path), &error)) << error;
  Session back;
  SessionProblems problems;
  ASSERT_TRUE(Attach(path, model, &back, &problems, &error)) << error;
  EXPECT_EQ(back.edit.foot_lock_edit.ground, there);
  EXPECT_TRUE(problems.lines.empty());

  s.edit.foot_lock_edit.ground = dir + "/no-such-ground.glb";
  ASSERT_TRUE(WriteSessionFile(path, SessionJson(model, s, path), &error)) << error;
  problems = SessionProblems();
  ASSERT_TRUE(Attach(path, model, &back, &problems, &error)) << error;
  EXPECT_EQ(back.edit.foot_lock_edit.ground, "plane");
  ASSERT_EQ(problems.lines.size(), 1u);
  EXPECT_EQ(problems.lines[0],
            "foot_lock: --ground '" + dir + "/no-such-ground.glb': no such file");
}

TEST(CompareRigs, FindsJointsAddedRemovedAndRenamed) {
  const assets::Model model = Character();
  EXPECT_TRUE(CompareRigs(model.skeleton, model.skeleton).empty());
  EXPECT_EQ(CompareRigs(model.skeleton, model.skeleton).Describe(), "the joints are the same");
  const assets::Model renamed = Changed(model, "LeftFoot", "foot_l");
  RigChanges changes = CompareRigs(model.skeleton, renamed.skeleton);
  EXPECT_TRUE(changes.added.empty());
  EXPECT_TRUE(changes.removed.empty());
  EXPECT_EQ(changes.renamed, (JointRenames{{"LeftFoot", "foot_l"}}));
  EXPECT_EQ(changes.Describe(), "joints renamed: LeftFoot → foot_l");
  // A joint removed, the other way round a joint added.
  const assets::Model fewer = Changed(model, "RightToeBase", "");
  changes = CompareRigs(model.skeleton, fewer.skeleton);
  EXPECT_EQ(changes.removed, std::vector<std::string>{"RightToeBase"});
  EXPECT_EQ(changes.Describe(), "joints removed: RightToeBase");
  changes = CompareRigs(fewer.skeleton, model.skeleton);
  EXPECT_EQ(changes.added, std::vector<std::string>{"RightToeBase"});
  // Renamed and its child too: the child's parent is the renamed joint.
  const assets::Model both = Changed(Changed(model, "LeftFoot", "foot_l"), "LeftToeBase", "toe_l");
  changes = CompareRigs(model.skeleton, both.skeleton);
  EXPECT_EQ(changes.renamed, (JointRenames{{"LeftFoot", "foot_l"}, {"LeftToeBase", "toe_l"}}));
}

TEST(Session, SessionPathsEndInSkelview) {
  EXPECT_TRUE(IsSessionPath("walk.skelview"));
  EXPECT_TRUE(IsSessionPath("/a/b/Walk.SKELVIEW"));
  EXPECT_FALSE(IsSessionPath("walk.glb"));
  EXPECT_FALSE(IsSessionPath(".skelview"));
}

}  // namespace
}  // namespace app

// Model serialisation tests: exact round trips of every field (built-in character, CesiumMan, a
// hand-made model using every feature), and truncated, bit-flipped and corrupted-count buffers
// failing cleanly.
#include "assets/files/model_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using ::testing::HasSubstr;

template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
bool SameBytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
void ExpectSameTrack(const Track<T>& a, const Track<T>& b) {
  EXPECT_EQ(a.interpolation, b.interpolation);
  EXPECT_TRUE(SameBytes(a.times, b.times));
  EXPECT_TRUE(SameBytes(a.values, b.values));
}

// Every field, bit for bit.
void ExpectSameModel(const Model& a, const Model& b) {
  EXPECT_EQ(a.source, b.source);
  const ik::Skeleton& sa = a.skeleton;
  const ik::Skeleton& sb = b.skeleton;
  ASSERT_EQ(sa.joint_count(), sb.joint_count());
  EXPECT_EQ(sa.names(), sb.names());
  EXPECT_EQ(sa.parents(), sb.parents());
  for (int j = 0; j < sa.joint_count(); ++j) {
    EXPECT_TRUE(SameBytes(sa.rest_locals()[j].translation, sb.rest_locals()[j].translation)) << j;
    EXPECT_TRUE(SameBytes(sa.rest_locals()[j].rotation, sb.rest_locals()[j].rotation)) << j;
    EXPECT_TRUE(SameBytes(sa.rest_locals()[j].scale, sb.rest_locals()[j].scale)) << j;
    EXPECT_TRUE(SameBytes(sa.inverse_binds()[j], sb.inverse_binds()[j])) << j;
    EXPECT_TRUE(SameBytes(sa.rest_models()[j], sb.rest_models()[j])) << j;
  }
  EXPECT_EQ(a.is_bone, b.is_bone);
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    const Mesh& ma = a.meshes[m];
    const Mesh& mb = b.meshes[m];
    SCOPED_TRACE("mesh " + ma.name);
    EXPECT_EQ(ma.name, mb.name);
    EXPECT_EQ(ma.skinned, mb.skinned);
    EXPECT_TRUE(SameBytes(ma.positions, mb.positions));
    EXPECT_TRUE(SameBytes(ma.normals, mb.normals));
    EXPECT_TRUE(SameBytes(ma.uvs, mb.uvs));
    EXPECT_TRUE(SameBytes(ma.joints, mb.joints));
    EXPECT_TRUE(SameBytes(ma.weights, mb.weights));
    EXPECT_TRUE(SameBytes(ma.extra_joints, mb.extra_joints));
    EXPECT_TRUE(SameBytes(ma.extra_weights, mb.extra_weights));
    EXPECT_EQ(ma.indices, mb.indices);
    EXPECT_EQ(ma.bone_joints, mb.bone_joints);
    EXPECT_TRUE(SameBytes(ma.bone_inverse_binds, mb.bone_inverse_binds));
    EXPECT_EQ(ma.material, mb.material);
    EXPECT_EQ(ma.node, mb.node);
  }
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (size_t i = 0; i < a.materials.size(); ++i) {
    EXPECT_EQ(a.materials[i].name, b.materials[i].name);
    EXPECT_TRUE(SameBytes(a.materials[i].base_color, b.materials[i].base_color));
    EXPECT_EQ(a.materials[i].base_color_texture, b.materials[i].base_color_texture);
  }
  ASSERT_EQ(a.textures.size(), b.textures.size());
  for (size_t i = 0; i < a.textures.size(); ++i) {
    EXPECT_EQ(a.textures[i].name, b.textures[i].name);
    EXPECT_EQ(a.textures[i].width, b.textures[i].width);
    EXPECT_EQ(a.textures[i].height, b.textures[i].height);
    EXPECT_EQ(a.textures[i].rgba, b.textures[i].rgba);
  }
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (size_t c = 0; c < a.clips.size(); ++c) {
    const Clip& ca = a.clips[c];
    const Clip& cb = b.clips[c];
    EXPECT_EQ(ca.name, cb.name);
    EXPECT_TRUE(SameBytes(ca.duration, cb.duration));
    ASSERT_EQ(ca.channels.size(), cb.channels.size());
    for (size_t k = 0; k < ca.channels.size(); ++k) {
      EXPECT_EQ(ca.channels[k].joint, cb.channels[k].joint);
      ExpectSameTrack(ca.channels[k].translation, cb.channels[k].translation);
      ExpectSameTrack(ca.channels[k].rotation, cb.channels[k].rotation);
      ExpectSameTrack(ca.channels[k].scale, cb.channels[k].scale);
    }
    // The sampling plan is rebuilt, not transferred, and comes out the same.
    EXPECT_EQ(ca.sampling.channel_joints, cb.sampling.channel_joints);
    EXPECT_EQ(ca.sampling.track_groups, cb.sampling.track_groups);
    EXPECT_EQ(ca.sampling.fully_animated, cb.sampling.fully_animated);
  }
  EXPECT_EQ(a.warnings, b.warnings);
  EXPECT_EQ(a.influences.over_four, b.influences.over_four);
  EXPECT_EQ(a.influences.over_eight, b.influences.over_eight);
  EXPECT_EQ(a.influences.dropped, b.influences.dropped);
  EXPECT_EQ(a.source_files, b.source_files);
  EXPECT_EQ(a.avatar.format, b.avatar.format);
  EXPECT_EQ(a.avatar.title, b.avatar.title);
  EXPECT_EQ(a.avatar.author, b.avatar.author);
  EXPECT_EQ(a.avatar.license, b.avatar.license);
  EXPECT_EQ(sa.humanoid(), sb.humanoid());
}

Model RoundTrip(const Model& model) {
  const std::string bytes = SerializeModel(model);
  Model back;
  std::string error;
  EXPECT_TRUE(DeserializeModel(bytes, &back, &error)) << error;
  return back;
}

// A small model using every feature: two meshes (one rigid, one skinned with uvs), a texture,
// materials with and without it, step/linear/cubic clips, warnings, odd names.
Model EveryFeature() {
  std::vector<ik::JointDesc> joints(3);
  joints[0].name = "root";
  joints[1].name = "bone \xC3\xA9";  // UTF-8 survives
  joints[1].parent = 0;
  joints[1].rest.translation = {0, 1, 0};
  joints[1].rest.rotation = glm::angleAxis(0.3f, glm::vec3(0, 0, 1));
  joints[1].inverse_bind = glm::mat4(2.0f);  // not the inverse rest matrix: must be kept as is
  joints[2].name = "";
  joints[2].parent = 1;
  joints[2].rest.scale = {1, 2, 3};
  std::string error;
  Model model;
  model.source = "/some/where/file.glb";
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  model.is_bone = {false, true, true};
  Mesh rigid;
  rigid.name = "rigid";
  rigid.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  rigid.normals.assign(3, glm::vec3(0, 0, 1));
  rigid.joints.assign(3, glm::u16vec4(0));
  rigid.weights.assign(3, glm::vec4(1, 0, 0, 0));
  rigid.indices = {0, 1, 2};
  rigid.bone_joints = {0};
  rigid.bone_inverse_binds = {glm::mat4(1.0f)};
  rigid.node = 0;
  model.meshes.push_back(rigid);
  Mesh skinned = rigid;
  skinned.name = "skinned";
  skinned.skinned = true;
  skinned.uvs = {{0, 0}, {1, 0}, {0.5f, 1}};
  skinned.joints = {{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}};
  skinned.weights = {{0.25f, 0.5f, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
  // A fifth influence on vertex 0 (0.25 of bone 1 again: any bone may repeat).
  skinned.extra_joints = {{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  skinned.extra_weights = {{0.25f, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  model.influences = {1, 2, 3};
  skinned.bone_joints = {1, 2};
  skinned.bone_inverse_binds = {glm::mat4(1.0f), glm::mat4(0.5f)};
  skinned.material = 1;
  skinned.node = 2;
  model.meshes.push_back(skinned);
  model.materials.push_back(Material{});
  Material textured;
  textured.name = "textured";
  textured.base_color = {0.1f, 0.2f, 0.3f, 0.4f};
  textured.base_color_texture = 0;
  model.materials.push_back(textured);
  Texture texture;
  texture.name = "checker.png";
  texture.width = 2;
  texture.height = 3;
  for (int i = 0; i < 2 * 3 * 4; ++i) texture.rgba.push_back(static_cast<uint8_t>(i * 10));
  model.textures.push_back(texture);
  Clip clip;
  clip.name = "all modes";
  clip.duration = 2.0f;
  JointAnimation a;
  a.joint = 1;
  a.translation.interpolation = Interpolation::kStep;
  a.translation.times = {0, 1, 2};
  a.translation.values = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  a.rotation.times = {0, 2};
  a.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(1.0f, glm::vec3(1, 0, 0))};
  a.scale.interpolation = Interpolation::kCubicSpline;
  a.scale.times = {0, 2};
  a.scale.values = {{0, 0, 0}, {1, 1, 1}, {0.5f, 0, 0}, {0, 0, 0}, {2, 2, 2}, {0, 0, 0}};
  clip.channels.push_back(a);
  PrepareClip(&clip);
  model.clips.push_back(clip);
  Clip empty;
  empty.name = "";
  model.clips.push_back(empty);
  model.warnings = {"first warning", "second: with \"quotes\""};
  model.source_files = {"/models/hero.gltf", "/models/hero.bin", "/models/t\xC3\xA9x.png"};
  model.avatar = {"VRM 1.0", "H\xC3\xA9ro", "A, B", "https://vrm.dev/licenses/1.0/"};
  EXPECT_TRUE(model.skeleton.SetHumanoid({{"hips", 0}, {"spine", 2}}, &error)) << error;
  return model;
}

TEST(ModelIo, BuiltinCharacterRoundTripsExactly) {
  const Model model = MakeBuiltinCharacter();
  ExpectSameModel(model, RoundTrip(model));
}

TEST(ModelIo, EveryFieldOfAHandMadeModelRoundTrips) {
  const Model model = EveryFeature();
  ExpectSameModel(model, RoundTrip(model));
}

TEST(ModelIo, CesiumManRoundTripsExactly) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  SKIP_IF_NO_MODEL(path, "CesiumMan.glb");
  const LoadResult loaded = LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  ASSERT_FALSE(loaded.model->textures.empty());
  ExpectSameModel(*loaded.model, RoundTrip(*loaded.model));
}

TEST(ModelIo, SizeIsCloseToTheModelsArrays) {
  const Model model = MakeBuiltinCharacter();
  size_t arrays = 0;
  for (const Mesh& m : model.meshes) {
    arrays += m.positions.size() * (12 + 12 + 8 + 16) + m.indices.size() * 4;
  }
  const std::string bytes = SerializeModel(model);
  EXPECT_GT(bytes.size(), arrays);
  EXPECT_LT(bytes.size(), arrays + arrays / 4);  // names, skeleton and clips are small
}

TEST(ModelIo, StreamingWritesTheSameBytesInPieces) {
  const Model model = MakeBuiltinCharacter();
  const std::string whole = SerializeModel(model);
  EXPECT_EQ(SerializedModelSize(model), whole.size());
  std::string streamed;
  size_t pieces = 0, largest = 0;
  ASSERT_TRUE(SerializeModelTo(model, [&](const void* data, size_t size) {
    streamed.append(static_cast<const char*>(data), size);
    ++pieces;
    largest = std::max(largest, size);
    return true;
  }));
  EXPECT_EQ(streamed, whole);
  EXPECT_GT(pieces, 2u);
  EXPECT_GT(largest, size_t{1} << 16);  // the vertex arrays go to the sink as they are
  // Read back in small, uneven pieces, as a pipe delivers them.
  size_t offset = 0;
  Model back;
  std::string error;
  ASSERT_TRUE(DeserializeModelFrom(
      [&](void* data, size_t size) {
        if (size > streamed.size() - offset) return false;
        std::memcpy(data, streamed.data() + offset, size);
        offset += size;
        return true;
      },
      streamed.size(), &back, &error))
      << error;
  EXPECT_EQ(offset, streamed.size());
  EXPECT_EQ(SerializeModel(back), whole);
}

TEST(ModelIo, FailingSinkStopsTheWrite) {
  int calls = 0;
  EXPECT_FALSE(SerializeModelTo(MakeBuiltinCharacter(), [&](const void*, size_t) {
    ++calls;
    return false;
  }));
  EXPECT_EQ(calls, 1);  // nothing more is sent once the sink has failed
}

TEST(ModelIo, StreamEndingBeforeItsAnnouncedSizeIsAnError) {
  const std::string bytes = SerializeModel(MakeBuiltinCharacter());
  for (size_t delivered : {size_t{0}, size_t{5}, size_t{100}, bytes.size() / 2, bytes.size() - 1}) {
    size_t offset = 0;
    Model out;
    std::string error;
    EXPECT_FALSE(DeserializeModelFrom(
        [&](void* data, size_t size) {
          if (size > delivered - offset) return false;
          std::memcpy(data, bytes.data() + offset, size);
          offset += size;
          return true;
        },
        bytes.size(), &out, &error))
        << delivered;
    EXPECT_THAT(error, testing::AnyOf(HasSubstr("the stream ended"), HasSubstr("bad magic")))
        << delivered;
  }
}

TEST(ModelIo, EveryTruncationFailsWithAMessage) {
  const std::string bytes = SerializeModel(EveryFeature());
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    Model out;
    std::string error;
    ASSERT_FALSE(DeserializeModel(std::string_view(bytes).substr(0, cut), &out, &error)) << cut;
    ASSERT_FALSE(error.empty());
    ASSERT_EQ(error.find('\n'), std::string::npos);
  }
  // The built-in character at spread cut points (its every prefix would take too long).
  const std::string large = SerializeModel(MakeBuiltinCharacter());
  for (size_t cut = 1; cut < large.size(); cut += large.size() / 97) {
    Model out;
    std::string error;
    ASSERT_FALSE(DeserializeModel(std::string_view(large).substr(0, cut), &out, &error));
    EXPECT_THAT(error, HasSubstr("model data"));
  }
}

TEST(ModelIo, TrailingBytesAreRefused) {
  std::string bytes = SerializeModel(EveryFeature());
  bytes.push_back('x');
  Model out;
  std::string error;
  EXPECT_FALSE(DeserializeModel(bytes, &out, &error));
  EXPECT_THAT(error, HasSubstr("unexpected bytes"));
}

TEST(ModelIo, WrongMagicOrVersionIsRefused) {
  std::string bytes = SerializeModel(EveryFeature());
  Model out;
  std::string error;
  std::string bad_magic = bytes;
  bad_magic[0] = 'X';
  EXPECT_FALSE(DeserializeModel(bad_magic, &out, &error));
  EXPECT_THAT(error, HasSubstr("magic"));
  std::string bad_version = bytes;
  bad_version[8] = static_cast<char>(kModelFormatVersion + 1);
  EXPECT_FALSE(DeserializeModel(bad_version, &out, &error));
  EXPECT_THAT(error, HasSubstr("version"));
  EXPECT_FALSE(DeserializeModel("", &out, &error));
}

// Whatever a corruption produces, a model that deserialises is one the rest of skelview can use
// without reading out of bounds.
void ExpectUsable(const Model& model) {
  const int joints = model.skeleton.joint_count();
  ASSERT_EQ(model.is_bone.size(), static_cast<size_t>(joints));
  for (const Mesh& mesh : model.meshes) {
    const size_t n = mesh.positions.size();
    ASSERT_EQ(mesh.normals.size(), n);
    ASSERT_EQ(mesh.weights.size(), n);
    ASSERT_EQ(mesh.joints.size(), n);
    for (uint32_t i : mesh.indices) ASSERT_LT(i, n);
    for (int j : mesh.bone_joints) ASSERT_TRUE(j >= 0 && j < joints);
    ASSERT_LT(mesh.material, static_cast<int>(model.materials.size()));
  }
  for (const Clip& clip : model.clips) {
    ik::Pose pose;
    SampleClip(model.skeleton, clip, 0.5f * clip.duration, &pose);
    for (const ik::Transform& t : pose.locals) ASSERT_TRUE(t.IsFinite());
  }
}

// Every 4-byte word (at any offset) replaced by a huge count: fails or (where the word was a float
// or an index that stays valid) loads a valid model; never allocates by the claimed count.
TEST(ModelIo, HugeCountsAnywhereNeverAllocateOrCrash) {
  const std::string bytes = SerializeModel(EveryFeature());
  for (uint32_t huge : {0xFFFFFFFFu, 0x80000000u, 0x10000000u}) {
    for (size_t at = 8; at + 4 <= bytes.size(); ++at) {
      std::string corrupted = bytes;
      std::memcpy(&corrupted[at], &huge, 4);
      Model out;
      std::string error;
      if (!DeserializeModel(corrupted, &out, &error)) {
        ASSERT_FALSE(error.empty()) << at;
      } else {
        ExpectUsable(out);
      }
    }
  }
}

TEST(ModelIo, RandomBitFlipsFailCleanlyOrGiveAUsableModel) {
  const std::string bytes = SerializeModel(EveryFeature());
  std::mt19937 random(2024);
  int refused = 0, accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string corrupted = bytes;
    const int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) {
      corrupted[random() % corrupted.size()] ^= static_cast<char>(1u << (random() % 8));
    }
    Model out;
    std::string error;
    if (DeserializeModel(corrupted, &out, &error)) {
      ++accepted;
      ExpectUsable(out);
    } else {
      ++refused;
      ASSERT_FALSE(error.empty());
    }
  }
  // Most flips hit float payloads that stay valid; many hit structure and are refused.
  EXPECT_GT(refused, 300);
  EXPECT_GT(accepted, 300);
}

TEST(ModelIo, OutOfRangeIndicesAreRefused) {
  {
    Model m = EveryFeature();
    m.meshes[1].indices[0] = 3;
    std::string error;
    Model out;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("triangle index"));
  }
  {
    Model m = EveryFeature();
    m.meshes[1].joints[0].y = 2;  // only two bones
    std::string error;
    Model out;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("joint index"));
  }
  {
    Model m = EveryFeature();
    m.meshes[0].bone_joints[0] = 3;
    std::string error;
    Model out;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("bone"));
  }
  {
    Model m = EveryFeature();
    m.clips[0].channels[0].joint = 7;
    std::string error;
    Model out;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("joint that does not exist"));
  }
  {
    Model m = EveryFeature();
    m.materials[1].base_color_texture = 1;
    std::string error;
    Model out;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("texture"));
  }
}

TEST(ModelIo, ABadHumanoidMapIsRefused) {
  // The map is the stream's last part: its last joint index is the last four bytes.
  const std::string bytes = SerializeModel(EveryFeature());
  std::string bad = bytes;
  bad[bad.size() - 4] = 7;  // "spine" on joint 7 of 3
  Model out;
  std::string error;
  EXPECT_FALSE(DeserializeModel(bad, &out, &error));
  EXPECT_EQ(error,
            "corrupted model data: humanoid bone 'spine' is on joint 7, which does not exist");
  bad = bytes;
  bad[bad.size() - 4] = 0;  // the hips' joint again
  EXPECT_FALSE(DeserializeModel(bad, &out, &error));
  EXPECT_EQ(error, "corrupted model data: joint 'root' has two humanoid roles");
  ASSERT_TRUE(DeserializeModel(bytes, &out, &error)) << error;
  EXPECT_EQ(out.skeleton.HumanoidJoint("spine"), 2);
}

TEST(ModelIo, NonFiniteValuesAreRefused) {
  Model m = EveryFeature();
  m.meshes[0].positions[1].y = NAN;
  std::string error;
  Model out;
  EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
  EXPECT_THAT(error, HasSubstr("position"));
  m = EveryFeature();
  m.clips[0].channels[0].rotation.values[1] = glm::quat(0, 0, 0, 0);
  EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
  EXPECT_THAT(error, HasSubstr("unit quaternion"));
  m = EveryFeature();
  m.clips[0].channels[0].translation.times[1] = 0.0f;  // not increasing
  EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
  EXPECT_THAT(error, HasSubstr("increasing"));
}

TEST(ModelIo, NamesAndWarningsThatAreNotUtf8AreRefusedPathsNeedNotBe) {
  // The importer makes every name UTF-8; a stream with one that is not did not come from it.
  const std::string bad = "Hips\xFF";
  const std::vector<std::function<void(Model*)>> corruptions = {
      [&](Model* m) { m->meshes[0].name = bad; },
      [&](Model* m) { m->clips[0].name = bad; },
      [&](Model* m) { m->materials[0].name = bad; },
      [&](Model* m) { m->warnings.push_back(bad); },
  };
  for (size_t i = 0; i < corruptions.size(); ++i) {
    SCOPED_TRACE(i);
    Model m = EveryFeature();
    ASSERT_FALSE(m.meshes.empty() || m.clips.empty() || m.materials.empty());
    corruptions[i](&m);
    std::string error;
    Model out;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("is not valid UTF-8"));
  }
  // A joint name: the skeleton is rebuilt with it.
  Model m = EveryFeature();
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < m.skeleton.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = j == 0 ? bad : m.skeleton.name(j);
    d.parent = m.skeleton.parent(j);
    d.rest = m.skeleton.rest_locals()[j];
    d.inverse_bind = m.skeleton.inverse_binds()[j];
    joints.push_back(d);
  }
  std::string error;
  m.skeleton = *ik::Skeleton::Build(joints, &error);
  Model out;
  EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
  EXPECT_THAT(error, HasSubstr("joint name is not valid UTF-8"));
  // Paths are the file system's bytes: kept as they are.
  m = EveryFeature();
  m.source = "/tmp/mod\xE8les/m.glb";
  m.source_files = {m.source};
  ASSERT_TRUE(DeserializeModel(SerializeModel(m), &out, &error)) << error;
  EXPECT_EQ(out.source, m.source);
}

// Every accepted buffer serialises back to itself: bytes that would not (flags other than 0 or 1,
// rotation keys unit only roughly, which preparing the clip would change) are refused.
TEST(ModelIo, NonCanonicalFlagsAndRotationKeysAreRefused) {
  const std::string bytes = SerializeModel(EveryFeature());
  // The skinned flag of mesh 0 sits right after its name.
  const std::string name = "rigid";
  const size_t flag = bytes.find(name) + name.size();
  ASSERT_EQ(bytes[flag], 0);
  std::string corrupted = bytes;
  corrupted[flag] = 2;
  Model out;
  std::string error;
  EXPECT_FALSE(DeserializeModel(corrupted, &out, &error));
  EXPECT_THAT(error, HasSubstr("skinned flag"));
  Model m = EveryFeature();
  m.clips[0].channels[0].rotation.values[1] *= 1.0005f;  // |q|² off by 1e-3: not unit enough
  EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
  EXPECT_THAT(error, HasSubstr("unit quaternion"));
}

// Outputs are checked against the source files: each must be an absolute path, listed once.
TEST(ModelIo, RelativeOrRepeatedSourceFilesAreRefused) {
  Model out;
  std::string error;
  for (const std::vector<std::string>& files :
       {std::vector<std::string>{"relative/hero.gltf"}, std::vector<std::string>{""},
        std::vector<std::string>{std::string("/nul\0inside", 12)},
        std::vector<std::string>{"/a.gltf", "/a.bin", "/a.gltf"}}) {
    Model m = EveryFeature();
    m.source_files = files;
    EXPECT_FALSE(DeserializeModel(SerializeModel(m), &out, &error));
    EXPECT_THAT(error, HasSubstr("source file"));
  }
}

TEST(ModelIo, AcceptedBytesSerialiseBackUnchanged) {
  for (const Model& model : {EveryFeature(), MakeBuiltinCharacter()}) {
    const std::string bytes = SerializeModel(model);
    Model out;
    std::string error;
    ASSERT_TRUE(DeserializeModel(bytes, &out, &error)) << error;
    EXPECT_EQ(SerializeModel(out), bytes);
  }
}

}  // namespace
}  // namespace assets

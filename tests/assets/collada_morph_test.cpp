// Collada morph controllers (which Assimp 5.2.5 cannot read itself) load as morph targets with
// their names, MORPH_WEIGHT defaults and method, and their weight animations as clip tracks;
// positions are checked against base + Σ w·(target − base) (NORMALIZED) or base + Σ w·target
// (RELATIVE) computed here from the file's own numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "assets/importer.h"
#include "assets/morph.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

using Triangle = std::vector<glm::vec3>;

const Triangle kBase = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
const Triangle kRaise = {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
const Triangle kWiden = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}};

// What the hand-written file holds besides its fixed triangles.
struct DaeOptions {
  std::string method = "NORMALIZED";
  std::string weights = "0.25 0.5";
  bool instance_controller = true;  // else the node shows the base geometry (Blender's way)
  bool skinned = false;  // a skin controller over the morph (Maya's way), to a joint "Bone"
  std::string channel_target = "Face-morph-weights";  // "" for no animation
  // Per channel (Raise, Widen): key times and weights.
  std::string times[2] = {"0 1 2", "0 2"};
  std::string values[2] = {"0 1 0.5", "1 0"};
  Triangle widen = kWiden;
};

std::string Floats(const Triangle& t) {
  std::string s;
  for (const glm::vec3& p : t) {
    s += std::to_string(p.x) + " " + std::to_string(p.y) + " " + std::to_string(p.z) + " ";
  }
  return s;
}

std::string Geometry(const std::string& id, const std::string& name, const Triangle& points) {
  const std::string n = std::to_string(points.size());
  std::string p;
  for (size_t i = 0; i + 2 < points.size(); i += 3) {
    p += std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " ";
  }
  return "<geometry id=\"" + id + "\" name=\"" + name + "\"><mesh><source id=\"" + id +
         "-pos\"><float_array id=\"" + id + "-pos-array\" count=\"" +
         std::to_string(points.size() * 3) + "\">" + Floats(points) +
         "</float_array><technique_common><accessor source=\"#" + id + "-pos-array\" count=\"" + n +
         "\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
         "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source><vertices "
         "id=\"" +
         id + "-vtx\"><input semantic=\"POSITION\" source=\"#" + id +
         "-pos\"/></vertices><triangles count=\"" + std::to_string(points.size() / 3) +
         "\"><input semantic=\"VERTEX\" source=\"#" + id + "-vtx\" offset=\"0\"/><p>" + p +
         "</p></triangles></mesh></geometry>\n";
}

std::string Source(const std::string& id, const std::string& values, const char* param) {
  const size_t count = values.empty() ? 0 : std::count(values.begin(), values.end(), ' ') + 1;
  return "<source id=\"" + id + "\"><float_array id=\"" + id + "-array\" count=\"" +
         std::to_string(count) + "\">" + values +
         "</float_array><technique_common><accessor source=\"#" + id + "-array\" count=\"" +
         std::to_string(count) + "\"><param name=\"" + param +
         "\" type=\"float\"/></accessor></technique_common></source>";
}

std::string Animation(const DaeOptions& o) {
  if (o.channel_target.empty()) return "";
  std::string out = "<library_animations>";
  for (int i = 0; i < 2; ++i) {
    const std::string id = "w" + std::to_string(i);
    out += "<animation id=\"" + id + "\">" + Source(id + "-in", o.times[i], "TIME") +
           Source(id + "-out", o.values[i], "WEIGHT") + "<sampler id=\"" + id +
           "-s\"><input semantic=\"INPUT\" source=\"#" + id +
           "-in\"/><input semantic=\"OUTPUT\" source=\"#" + id + "-out\"/></sampler>" +
           "<channel source=\"#" + id + "-s\" target=\"" + o.channel_target + "(" +
           std::to_string(i) + ")\"/></animation>\n";
  }
  return out + "</library_animations>\n";
}

// Writes a Collada 1.4.1 file: a triangle "Face" with a morph controller of two targets, "Raise"
// (+1 in z everywhere) and "Widen" (vertex 1 moved +1 in x), and optionally their weights
// animated.
std::string DaeText(const DaeOptions& o) {
  const std::string instance =
      o.skinned               ? "<instance_controller url=\"#Face-skin\"><skeleton>#Bone</skeleton>"
                                "</instance_controller>"
      : o.instance_controller ? "<instance_controller url=\"#Face-morph\"/>"
                              : "<instance_geometry url=\"#Face-mesh\"/>";
  const std::string identity = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1";
  const std::string skin =
      !o.skinned
          ? ""
          : "<controller id=\"Face-skin\"><skin source=\"#Face-morph\"><bind_shape_matrix>" +
                identity +
                "</bind_shape_matrix><source id=\"Face-skin-joints\"><Name_array "
                "id=\"Face-skin-joints-array\" count=\"1\">Bone</Name_array><technique_common>"
                "<accessor source=\"#Face-skin-joints-array\" count=\"1\"><param name=\"JOINT\" "
                "type=\"name\"/></accessor></technique_common></source><source "
                "id=\"Face-skin-bind\"><float_array id=\"Face-skin-bind-array\" count=\"16\">" +
                identity +
                "</float_array><technique_common><accessor source=\"#Face-skin-bind-array\" "
                "count=\"1\" stride=\"16\"><param name=\"TRANSFORM\" type=\"float4x4\"/>"
                "</accessor></technique_common></source>" +
                Source("Face-skin-w", "1", "WEIGHT") +
                "<joints><input semantic=\"JOINT\" source=\"#Face-skin-joints\"/><input "
                "semantic=\"INV_BIND_MATRIX\" source=\"#Face-skin-bind\"/></joints><vertex_weights "
                "count=\"3\"><input semantic=\"JOINT\" source=\"#Face-skin-joints\" "
                "offset=\"0\"/><input semantic=\"WEIGHT\" source=\"#Face-skin-w\" offset=\"1\"/>"
                "<vcount>1 1 1</vcount><v>0 0 0 0 0 0</v></vertex_weights></skin></controller>";
  const std::string bone =
      o.skinned ? "<node id=\"Bone\" name=\"Bone\" sid=\"Bone\" type=\"JOINT\"><translate "
                  "sid=\"t\">0 0 5</translate></node>"
                : "";
  const std::string text =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<COLLADA "
      "xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
      "<asset><unit name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n"
      "<library_geometries>\n" +
      Geometry("Face-mesh", "Face", kBase) + Geometry("Raise-mesh", "Raise", kRaise) +
      Geometry("Widen-mesh", "Widen", o.widen) +
      "</library_geometries>\n<library_controllers><controller id=\"Face-morph\"><morph "
      "source=\"#Face-mesh\" method=\"" +
      o.method +
      "\"><source id=\"Face-morph-targets\"><IDREF_array id=\"Face-morph-targets-array\" "
      "count=\"2\">Raise-mesh Widen-mesh</IDREF_array><technique_common><accessor "
      "source=\"#Face-morph-targets-array\" count=\"2\"><param name=\"IDREF\" "
      "type=\"IDREF\"/></accessor></technique_common></source>" +
      Source("Face-morph-weights", o.weights, "MORPH_WEIGHT") +
      "<targets><input semantic=\"MORPH_TARGET\" source=\"#Face-morph-targets\"/><input "
      "semantic=\"MORPH_WEIGHT\" source=\"#Face-morph-weights\"/></targets></morph>"
      "</controller>" +
      skin + "</library_controllers>\n" + Animation(o) +
      "<library_visual_scenes><visual_scene id=\"Scene\">" + bone +
      "<node id=\"Face\" name=\"Face\">" + instance +
      "</node></visual_scene></library_visual_scenes>\n<scene><instance_visual_scene "
      "url=\"#Scene\"/></scene>\n</COLLADA>\n";
  return text;
}

// DaeText(o) written to the scratch directory as `name`; returns its path.
std::string WriteDae(const std::string& name, const DaeOptions& o) {
  const std::string path = testpaths::TempDir() + "/" + name;
  std::ofstream(path) << DaeText(o);
  return path;
}

Model Load(const std::string& path, std::vector<std::string>* warnings = nullptr) {
  LoadResult result = LoadModel(path);
  EXPECT_TRUE(result.ok()) << result.error;
  if (warnings) *warnings = result.warnings;
  return result.ok() ? *result.model : Model();
}

// Each vertex of the loaded mesh, blended with `weights`, against `expected(i)` for the file's
// vertex i at the same base position.
template <typename Expected>
void ExpectBlend(const Mesh& mesh, const std::vector<float>& weights, Expected expected) {
  std::vector<glm::vec3> positions, normals;
  const bool moved = BlendMorphTargets(mesh, weights, &positions, &normals);
  if (!moved) positions = mesh.positions;
  ASSERT_EQ(mesh.positions.size(), kBase.size());
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    size_t i = 0;
    while (i < kBase.size() && kBase[i] != mesh.positions[v]) ++i;
    ASSERT_LT(i, kBase.size()) << "vertex " << v << " is no base vertex of the file";
    const glm::vec3 want = expected(i);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(positions[v][c], want[c], 1e-6f) << v << "/" << c;
  }
}

TEST(ColladaMorph, NormalizedTargetsLoadWithNamesAndTheFileWeights) {
  for (bool instance_controller : {true, false}) {
    DaeOptions o;
    o.instance_controller = instance_controller;
    o.channel_target.clear();
    std::vector<std::string> warnings;
    const Model model = Load(WriteDae("normalized.dae", o), &warnings);
    ASSERT_EQ(model.meshes.size(), 1u) << "instance_controller " << instance_controller;
    const Mesh& mesh = model.meshes[0];
    ASSERT_EQ(mesh.targets.size(), 2u);
    EXPECT_EQ(mesh.targets[0].name, "Raise");
    EXPECT_EQ(mesh.targets[1].name, "Widen");
    EXPECT_EQ(mesh.target_weights, (std::vector<float>{0.25f, 0.5f}));
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    ExpectBlend(mesh, mesh.target_weights, [](size_t i) {
      return kBase[i] + 0.25f * (kRaise[i] - kBase[i]) + 0.5f * (kWiden[i] - kBase[i]);
    });
  }
}

TEST(ColladaMorph, SkinOverAMorphKeepsTheMeshAndItsTargets) {
  // A <skin> whose source is the morph controller: Assimp 5.2.5 alone drops the mesh.
  DaeOptions o;
  o.skinned = true;
  o.channel_target.clear();
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("skinned.dae", o), &warnings);
  ASSERT_EQ(model.meshes.size(), 1u);
  const Mesh& mesh = model.meshes[0];
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(mesh.bone_joints.size(), 1u);
  EXPECT_EQ(model.skeleton.name(mesh.bone_joints[0]), "Bone");
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.target_weights, (std::vector<float>{0.25f, 0.5f}));
  ExpectBlend(mesh, mesh.target_weights, [](size_t i) {
    return kBase[i] + 0.25f * (kRaise[i] - kBase[i]) + 0.5f * (kWiden[i] - kBase[i]);
  });
}

TEST(ColladaMorph, ZeroWeightStaysZero) {
  // Assimp 5.2.5's own Collada morph code would turn a weight of 0 into 1.
  DaeOptions o;
  o.weights = "0 0";
  o.channel_target.clear();
  const Model model = Load(WriteDae("zero.dae", o));
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].target_weights, (std::vector<float>{0.0f, 0.0f}));
  ExpectBlend(model.meshes[0], model.meshes[0].target_weights, [](size_t i) { return kBase[i]; });
}

TEST(ColladaMorph, RelativeTargetsAreOffsetsFromTheBase) {
  DaeOptions o;
  o.method = "RELATIVE";
  o.channel_target.clear();
  const Model model = Load(WriteDae("relative.dae", o));
  ASSERT_EQ(model.meshes.size(), 1u);
  const Mesh& mesh = model.meshes[0];
  ASSERT_EQ(mesh.targets.size(), 2u);
  ExpectBlend(mesh, {0.25f, 0.5f},
              [](size_t i) { return kBase[i] + 0.25f * kRaise[i] + 0.5f * kWiden[i]; });
  ExpectBlend(mesh, {1.0f, 0.0f}, [](size_t i) { return kBase[i] + kRaise[i]; });
}

// The file's weight for target `t` at `time`: its keys, linear between them, clamped.
float FileWeight(const DaeOptions& o, int t, float time) {
  std::vector<float> times, values;
  std::istringstream ts(o.times[t]), vs(o.values[t]);
  for (float x; ts >> x;) times.push_back(x);
  for (float x; vs >> x;) values.push_back(x);
  if (time <= times.front()) return values.front();
  for (size_t k = 1; k < times.size(); ++k) {
    if (time <= times[k]) {
      const float u = (time - times[k - 1]) / (times[k] - times[k - 1]);
      return values[k - 1] + u * (values[k] - values[k - 1]);
    }
  }
  return values.back();
}

TEST(ColladaMorph, WeightAnimationPlaysAsAClipTrackInSeconds) {
  // Both ways of naming the weights: by id alone (the Collada spec's) and after the node (what
  // Assimp's own morph-animation code looks for).
  for (const std::string target : {"Face-morph-weights", "Face/Face-morph-weights-array"}) {
    DaeOptions o;
    o.channel_target = target;
    std::vector<std::string> warnings;
    const Model model = Load(WriteDae("animated.dae", o), &warnings);
    ASSERT_EQ(model.clips.size(), 1u) << target;
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    const Clip& clip = model.clips[0];
    EXPECT_FLOAT_EQ(clip.duration, 2.0f);
    ASSERT_EQ(clip.morph_channels.size(), 1u);
    for (float time : {0.0f, 0.5f, 1.0f, 1.25f, 2.0f, 3.0f}) {
      MorphWeights weights;
      SampleClipMorphs(model, clip, time, &weights);
      ASSERT_EQ(weights.size(), 1u);
      const float raise = FileWeight(o, 0, time), widen = FileWeight(o, 1, time);
      EXPECT_NEAR(weights[0][0], raise, 1e-6f) << target << " at " << time;
      EXPECT_NEAR(weights[0][1], widen, 1e-6f) << target << " at " << time;
      ExpectBlend(model.meshes[0], weights[0], [&](size_t i) {
        return kBase[i] + raise * (kRaise[i] - kBase[i]) + widen * (kWiden[i] - kBase[i]);
      });
    }
  }
}

TEST(ColladaMorph, UnreadableWeightChannelIsLeftOutWithAWarning) {
  DaeOptions o;
  o.values[1] = "1 0 0.5";  // three values for two times
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("bad_channel.dae", o), &warnings);
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].targets.size(), 2u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 Collada morph-weight animation channel could not be read"),
            std::string::npos)
      << warnings[0];
}

TEST(ColladaMorph, TargetOfAnotherVertexCountIsLeftOutWithAWarning) {
  DaeOptions o;
  o.channel_target.clear();
  o.widen = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 0}, {2, 0, 0}, {0, 1, 0}};
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("mismatch.dae", o), &warnings);
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.meshes[0].targets.size(), 1u);
  EXPECT_EQ(model.meshes[0].targets[0].name, "Raise");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'Widen'"), std::string::npos) << warnings[0];
}

TEST(ColladaMorph, MissingWeightsStartAtZeroWithAWarning) {
  DaeOptions o;
  o.channel_target.clear();
  o.weights = "0.5";  // one weight for two targets
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("one_weight.dae", o), &warnings);
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].target_weights, (std::vector<float>{0.0f, 0.0f}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'Face-morph'"), std::string::npos) << warnings[0];
}

TEST(ColladaMorph, CutOrCorruptFilesLoadOrFailCleanlyWithFiniteVertices) {
  // Cuts of a skinned, animated morph file and copies with one digit of a <float_array> changed:
  // each gives a load error naming the file, or a model whose blended vertices are finite at every
  // sampled time. (Other changes are left out: Assimp 5.2.5 itself reads out of bounds on some,
  // e.g. a <float_array> without its count or a skin's joint index past its joints.)
  DaeOptions o;
  o.skinned = true;
  const std::string text = DaeText(o);
  std::vector<std::string> variants;
  for (size_t cut = 64; cut < text.size(); cut += 61) variants.push_back(text.substr(0, cut));
  const char kDigits[] = {'9', '-', 'e', '.', '0'};
  size_t k = 0;
  for (size_t open = text.find("<float_array"); open != std::string::npos;
       open = text.find("<float_array", open + 1)) {
    const size_t begin = text.find('>', open) + 1, end = text.find('<', begin);
    for (size_t at = begin; at < end; at += 5) {
      if (!std::isdigit(static_cast<unsigned char>(text[at]))) continue;
      variants.push_back(text);
      variants.back()[at] = kDigits[k++ % sizeof(kDigits)];
    }
  }
  const std::string path = testpaths::TempDir() + "/variant.dae";
  size_t loaded = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    std::ofstream(path, std::ios::trunc) << variants[i];
    const LoadResult result = LoadModel(path);
    if (!result.ok()) {
      EXPECT_EQ(result.error.rfind(path, 0), 0u) << result.error;
      continue;
    }
    ++loaded;
    const Model& model = *result.model;
    std::vector<Clip> clips = model.clips;
    clips.emplace_back();  // the rest pose: default weights
    for (const Clip& clip : clips) {
      for (float time : {0.0f, 0.5f, 2.0f}) {
        MorphWeights weights;
        SampleClipMorphs(model, clip, time, &weights);
        for (size_t m = 0; m < model.meshes.size(); ++m) {
          std::vector<glm::vec3> positions, normals;
          BlendMorphTargets(model.meshes[m], weights[m], &positions, &normals);
          for (const glm::vec3& p : positions) {
            ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))
                << "variant " << i;
          }
        }
      }
    }
  }
  // Changed numbers still make a file Assimp reads.
  EXPECT_GT(loaded, variants.size() / 4);
}

}  // namespace
}  // namespace assets

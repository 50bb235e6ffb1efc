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

#include "assets/assimp/collada_weight_curves.h"
#include "assets/importer.h"
#include "assets/model/morph.h"
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
  // Per channel: INTERPOLATION names and IN_TANGENT / OUT_TANGENT numbers ("" for no such input),
  // the tangents' accessor stride.
  std::string interpolations[2];
  std::string in_tangents[2], out_tangents[2];
  int tangent_stride = 2;
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

size_t WordCount(const std::string& text) {
  std::istringstream words(text);
  size_t n = 0;
  for (std::string word; words >> word;) ++n;
  return n;
}

std::string NameSource(const std::string& id, const std::string& names) {
  const std::string count = std::to_string(WordCount(names));
  return "<source id=\"" + id + "\"><Name_array id=\"" + id + "-array\" count=\"" + count + "\">" +
         names + "</Name_array><technique_common><accessor source=\"#" + id + "-array\" count=\"" +
         count +
         "\" stride=\"1\"><param name=\"INTERPOLATION\" type=\"name\"/></accessor>"
         "</technique_common></source>";
}

// A tangent source as Blender writes one: (time, value) points, stride 2 (X, Y).
std::string TangentSource(const std::string& id, const std::string& values, int stride) {
  const size_t count = WordCount(values);
  std::string params = "<param name=\"X\" type=\"float\"/>";
  if (stride > 1) params += "<param name=\"Y\" type=\"float\"/>";
  return "<source id=\"" + id + "\"><float_array id=\"" + id + "-array\" count=\"" +
         std::to_string(count) + "\">" + values +
         "</float_array><technique_common><accessor source=\"#" + id + "-array\" count=\"" +
         std::to_string(count / static_cast<size_t>(stride)) + "\" stride=\"" +
         std::to_string(stride) + "\">" + params + "</accessor></technique_common></source>";
}

std::string Animation(const DaeOptions& o) {
  if (o.channel_target.empty()) return "";
  std::string out = "<library_animations>";
  for (int i = 0; i < 2; ++i) {
    const std::string id = "w" + std::to_string(i);
    std::string sources =
        Source(id + "-in", o.times[i], "TIME") + Source(id + "-out", o.values[i], "WEIGHT");
    std::string inputs = "<input semantic=\"INPUT\" source=\"#" + id +
                         "-in\"/><input semantic=\"OUTPUT\" source=\"#" + id + "-out\"/>";
    const std::pair<const char*, const std::string*> optional[] = {
        {"INTERPOLATION", &o.interpolations[i]},
        {"IN_TANGENT", &o.in_tangents[i]},
        {"OUT_TANGENT", &o.out_tangents[i]}};
    for (const auto& [semantic, text] : optional) {
      if (text->empty()) continue;
      const std::string source = id + "-" + semantic;
      sources += std::string(semantic) == "INTERPOLATION"
                     ? NameSource(source, *text)
                     : TangentSource(source, *text, o.tangent_stride);
      inputs += "<input semantic=\"" + std::string(semantic) + "\" source=\"#" + source + "\"/>";
    }
    out += "<animation id=\"" + id + "\">" + sources + "<sampler id=\"" + id + "-s\">" + inputs +
           "</sampler><channel source=\"#" + id + "-s\" target=\"" + o.channel_target + "(" +
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

// Mesh 0's weights in the model's one clip at `time`.
std::vector<float> WeightsAt(const Model& model, float time) {
  MorphWeights weights;
  SampleClipMorphs(model, model.clips.at(0), time, &weights);
  return weights.at(0);
}

// The value at `time` of the cubic Bezier curve through the (time, value) control points t, v,
// whose time increases along it: its parameter found by bisection.
double BezierValueAt(const double (&t)[4], const double (&v)[4], double time) {
  const auto bernstein = [](const double(&c)[4], double s) {
    const double r = 1.0 - s;
    return r * r * r * c[0] + 3.0 * s * r * r * c[1] + 3.0 * s * s * r * c[2] + s * s * s * c[3];
  };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 100; ++i) (bernstein(t, 0.5 * (lo + hi)) < time ? lo : hi) = 0.5 * (lo + hi);
  return bernstein(v, 0.5 * (lo + hi));
}

// The Hermite curve of the COLLADA spec at parameter s: key values p0, p1 and the value parts m0,
// m1 of the out-tangent of the first key and the in-tangent of the second.
double HermiteValue(double p0, double m0, double m1, double p1, double s) {
  const double s2 = s * s, s3 = s2 * s;
  return p0 * (2 * s3 - 3 * s2 + 1) + m0 * (s3 - 2 * s2 + s) + m1 * (s3 - s2) +
         p1 * (-2 * s3 + 3 * s2);
}

// The largest minus the smallest value of f over [a, b], finely sampled.
template <typename F>
double RangeOf(F f, double a, double b) {
  double low = f(a), high = low;
  for (int i = 1; i <= 1000; ++i) {
    const double v = f(a + (b - a) * i / 1000.0);
    low = std::min(low, v);
    high = std::max(high, v);
  }
  return high - low;
}

// Checks channel `target` of the loaded model against want(t) at 19 times inside [a, b] and at
// its ends: within 1e-3 of the curve's range inside, exactly at the keys.
template <typename F>
void ExpectCurve(const Model& model, int target, double a, double b, F want) {
  const double bound = 1e-3 * RangeOf(want, a, b);
  for (int i = 1; i < 20; ++i) {
    const double t = a + (b - a) * i / 20.0;
    EXPECT_NEAR(WeightsAt(model, static_cast<float>(t))[target], want(t), bound) << "at " << t;
  }
  EXPECT_FLOAT_EQ(WeightsAt(model, static_cast<float>(a))[target], want(a));
  EXPECT_FLOAT_EQ(WeightsAt(model, static_cast<float>(b))[target], want(b));
}

TEST(ColladaMorph, StepKeysHoldTheirValueUntilTheNextKey) {
  DaeOptions o;  // Raise: keys (0, 0), (1, 1), (2, 0.5)
  o.interpolations[0] = "STEP STEP STEP";
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("step.dae", o), &warnings);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  const float times[] = {0.0f, 1.0f, 2.0f}, values[] = {0.0f, 1.0f, 0.5f};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(WeightsAt(model, times[k])[0], values[k]) << "at key " << k;
    if (k == 0) continue;
    EXPECT_EQ(WeightsAt(model, std::nextafter(times[k], 0.0f))[0], values[k - 1])
        << "one float step before key " << k;
    for (float u : {0.01f, 0.5f, 0.999f}) {
      const float t = times[k - 1] + u * (times[k] - times[k - 1]);
      EXPECT_NEAR(WeightsAt(model, t)[0], values[k - 1], 1e-6f) << "at " << t;
    }
  }
  // Widen's channel has no INTERPOLATION input: linear.
  for (float t : {0.5f, 1.0f, 1.5f}) {
    EXPECT_NEAR(WeightsAt(model, t)[1], FileWeight(o, 1, t), 1e-6f) << "at " << t;
  }
}

TEST(ColladaMorph, BezierKeysFollowTheirCurveInTime) {
  // Keys (0, 0), (2, 1), (3, 0.2). The first segment eases out and in with handles at uneven
  // times (so the curve's parameter is not proportional to time); the second overshoots to
  // above 1. Tangents are absolute (time, value) points, as Blender writes them.
  DaeOptions o;
  o.times[0] = "0 2 3";
  o.values[0] = "0 1 0.2";
  o.interpolations[0] = "BEZIER BEZIER BEZIER";
  o.in_tangents[0] = "-0.5 0 1.6 1 2.9 0.2";
  o.out_tangents[0] = "1.2 0 2.1 1.8 3.5 0.2";
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("bezier.dae", o), &warnings);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  const double t0[4] = {0, 1.2, 1.6, 2}, v0[4] = {0, 0, 1, 1};
  const double t1[4] = {2, 2.1, 2.9, 3}, v1[4] = {1, 1.8, 0.2, 0.2};
  ExpectCurve(model, 0, 0.0, 2.0, [&](double t) { return BezierValueAt(t0, v0, t); });
  ExpectCurve(model, 0, 2.0, 3.0, [&](double t) { return BezierValueAt(t1, v1, t); });
}

TEST(ColladaMorph, HermiteKeysFollowTheirCurve) {
  // Keys (0, 0), (2, 1); tangents are derivatives along the curve's parameter: (2, 3) out of
  // the first key and (2, -1) into the second. Their time parts equal the segment's length, so
  // time runs linearly with the parameter: s = t / 2.
  DaeOptions o;
  o.times[0] = "0 2";
  o.values[0] = "0 1";
  o.interpolations[0] = "HERMITE HERMITE";
  o.out_tangents[0] = "2 3 0 0";
  o.in_tangents[0] = "0 0 2 -1";
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("hermite.dae", o), &warnings);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ExpectCurve(model, 0, 0.0, 2.0, [](double t) { return HermiteValue(0, 3, -1, 1, t / 2); });
}

TEST(ColladaMorph, MixedInterpolationsPlayPerKey) {
  // LINEAR, STEP, BEZIER and HERMITE segments in one channel; key 3's in-tangent is a BEZIER
  // control point (of segment 2) and its out-tangent a HERMITE derivative (of segment 3).
  DaeOptions o;
  o.times[0] = "0 1 2 3 4";
  o.values[0] = "0 1 0.2 0.8 0.5";
  o.interpolations[0] = "LINEAR STEP BEZIER HERMITE LINEAR";
  o.in_tangents[0] = "0 0 1 1 2 0.2 2.75 0.8 1 0.5";
  o.out_tangents[0] = "0 0 1 1 2.25 0.2 1 -1.5 0 0";
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("mixed.dae", o), &warnings);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ExpectCurve(model, 0, 0.0, 1.0, [](double t) { return t; });
  EXPECT_NEAR(WeightsAt(model, 1.5f)[0], 1.0f, 1e-6f);
  EXPECT_EQ(WeightsAt(model, std::nextafter(2.0f, 0.0f))[0], 1.0f);
  const double bt[4] = {2, 2.25, 2.75, 3}, bv[4] = {0.2, 0.2, 0.8, 0.8};
  ExpectCurve(model, 0, 2.0, 3.0, [&](double t) { return BezierValueAt(bt, bv, t); });
  ExpectCurve(model, 0, 3.0, 4.0,
              [](double t) { return HermiteValue(0.8, -1.5, 0.5, 0.5, t - 3); });
  EXPECT_FLOAT_EQ(WeightsAt(model, 4.5f)[0], 0.5f);
}

TEST(ColladaMorph, UnknownInterpolationPlaysLinearlyWithOneWarning) {
  DaeOptions o;
  o.interpolations[0] = "CARDINAL CARDINAL CARDINAL";
  o.interpolations[1] = "BSPLINE LINEAR";
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("cardinal.dae", o), &warnings);
  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("2 Collada morph-weight channels use"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("'CARDINAL' in 'Face-morph-weights(0)'"), std::string::npos)
      << warnings[0];
  for (float t : {0.25f, 0.5f, 1.0f, 1.5f, 2.0f}) {
    EXPECT_NEAR(WeightsAt(model, t)[0], FileWeight(o, 0, t), 1e-6f) << "at " << t;
    EXPECT_NEAR(WeightsAt(model, t)[1], FileWeight(o, 1, t), 1e-6f) << "at " << t;
  }
}

TEST(ColladaMorph, BezierKeysWithoutUsableTangentsPlayLinearlyWithAWarning) {
  struct Case {
    const char* what;
    std::string in, out;
    int stride;
  };
  const Case cases[] = {{"no tangent inputs", "", "", 2},
                        {"a number out of float range", "0 0 1 1e39 2 0.5", "0 0 1 1 2 0.5", 2},
                        {"one number per key", "0 1 0.5", "0 1 0.5", 1},
                        {"no point for the last key", "0 0 0.6 1", "0.4 0 1.4 1", 2}};
  for (const Case& c : cases) {
    DaeOptions o;  // Raise: keys (0, 0), (1, 1), (2, 0.5)
    o.interpolations[0] = "BEZIER BEZIER BEZIER";
    o.in_tangents[0] = c.in;
    o.out_tangents[0] = c.out;
    o.tangent_stride = c.stride;
    std::vector<std::string> warnings;
    const Model model = Load(WriteDae("untangented.dae", o), &warnings);
    ASSERT_EQ(model.clips.size(), 1u) << c.what;
    ASSERT_EQ(warnings.size(), 1u) << c.what;
    EXPECT_NE(warnings[0].find("'Face-morph-weights(0)') has BEZIER or HERMITE keys without "
                               "IN_TANGENT / OUT_TANGENT points"),
              std::string::npos)
        << c.what << ": " << warnings[0];
    // The last case has both points of the first segment: only the second plays linearly.
    const bool first_curved = c.stride == 2 && c.in.size() == std::string("0 0 0.6 1").size();
    if (first_curved) {
      const double t[4] = {0, 0.4, 0.6, 1}, v[4] = {0, 0, 1, 1};
      ExpectCurve(model, 0, 0.0, 1.0, [&](double x) { return BezierValueAt(t, v, x); });
    }
    for (float t : {0.25f, 0.5f, 1.0f, 1.25f, 1.5f, 2.0f}) {
      if (first_curved && t < 1.0f) continue;
      EXPECT_NEAR(WeightsAt(model, t)[0], FileWeight(o, 0, t), 1e-6f) << c.what << " at " << t;
    }
  }
}

TEST(ColladaMorph, InterpolationNamesOfAnotherCountPlayLinearlyWithAWarning) {
  DaeOptions o;
  o.interpolations[0] = "STEP STEP";  // two names for three keys
  std::vector<std::string> warnings;
  const Model model = Load(WriteDae("short_names.dae", o), &warnings);
  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'Face-morph-weights(0)') has INTERPOLATION names missing or not "
                             "one per key"),
            std::string::npos)
      << warnings[0];
  for (float t : {0.5f, 1.5f}) {
    EXPECT_NEAR(WeightsAt(model, t)[0], FileWeight(o, 0, t), 1e-6f) << "at " << t;
  }
}

TEST(ColladaMorph, ExtremeTangentsGiveFiniteWeightsAndLeaveOtherChannelsAlone) {
  // Raise: control points far outside their segments in time and value, zero-length tangents,
  // HERMITE tangents whose thirds pass the float range. Widen: the HERMITE curve of
  // HermiteKeysFollowTheirCurve, which they must not disturb.
  DaeOptions o;
  o.interpolations[0] = "BEZIER HERMITE BEZIER";
  o.in_tangents[0] = "1e38 -3e38 -1e30 3e38 0 0";
  o.out_tangents[0] = "-1e38 3e38 3e38 -3e38 5 5";
  o.times[1] = "0 2";
  o.values[1] = "0 1";
  o.interpolations[1] = "HERMITE HERMITE";
  o.out_tangents[1] = "2 3 0 0";
  o.in_tangents[1] = "0 0 2 -1";
  const Model model = Load(WriteDae("extreme.dae", o));
  ASSERT_EQ(model.clips.size(), 1u);
  for (int i = 0; i <= 200; ++i) {
    const float t = 2.0f * static_cast<float>(i) / 200.0f;
    const std::vector<float> w = WeightsAt(model, t);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_TRUE(std::isfinite(w[0])) << "at " << t;
  }
  ExpectCurve(model, 1, 0.0, 2.0, [](double t) { return HermiteValue(0, 3, -1, 1, t / 2); });
}

TEST(ColladaMorph, CorruptCurveNumbersLoadWithFiniteWeights) {
  // Copies of a file with STEP, BEZIER and HERMITE keys with one character of its animation's
  // numbers changed (times out of order, tangents of another sign or size, words that are no
  // numbers): each loads with finite weights at every sampled time, or fails with an error naming
  // the file (Assimp refuses some words that are no numbers).
  DaeOptions o;
  o.interpolations[0] = "BEZIER STEP HERMITE";
  o.in_tangents[0] = "-0.5 0 0.6 1 1.5 0.5";
  o.out_tangents[0] = "0.4 0 1.6 1 2.5 0.5";
  o.times[1] = "0 2";
  o.values[1] = "0 1";
  o.interpolations[1] = "HERMITE BEZIER";
  o.in_tangents[1] = "0 0 2 -1";
  o.out_tangents[1] = "2 3 0 0";
  const std::string text = DaeText(o);
  {
    // Unchanged, the file plays its curves: the variants reach the resampling.
    std::ofstream(testpaths::TempDir() + "/curve_variant.dae", std::ios::trunc) << text;
    const Model model = Load(testpaths::TempDir() + "/curve_variant.dae");
    ASSERT_EQ(model.clips.size(), 1u);
    ExpectCurve(model, 1, 0.0, 2.0, [](double t) { return HermiteValue(0, 3, -1, 1, t / 2); });
  }
  const char kChanges[] = {'9', '-', 'e', '.', '0', 'x'};
  const size_t animations = text.find("<library_animations>");
  ASSERT_NE(animations, std::string::npos);
  const std::string path = testpaths::TempDir() + "/curve_variant.dae";
  size_t variants = 0, loaded = 0, k = 0;
  for (size_t open = text.find("<float_array", animations); open != std::string::npos;
       open = text.find("<float_array", open + 1)) {
    const size_t begin = text.find('>', open) + 1, end = text.find('<', begin);
    for (size_t at = begin; at < end; ++at) {
      std::string variant = text;
      variant[at] = kChanges[k++ % sizeof(kChanges)];
      std::ofstream(path, std::ios::trunc) << variant;
      ++variants;
      const LoadResult result = LoadModel(path);
      if (!result.ok()) {
        EXPECT_EQ(result.error.rfind(path, 0), 0u) << result.error;
        continue;
      }
      ++loaded;
      const Model& model = *result.model;
      for (const Clip& clip : model.clips) {
        for (int i = 0; i <= 40; ++i) {
          MorphWeights weights;
          SampleClipMorphs(model, clip, 0.05f * static_cast<float>(i), &weights);
          for (const std::vector<float>& w : weights) {
            for (float x : w) ASSERT_TRUE(std::isfinite(x)) << variant.substr(animations);
          }
        }
      }
    }
  }
  EXPECT_GT(variants, 50u);
  EXPECT_GT(loaded, variants / 4);
}

TEST(ColladaMorph, CurvesPastTheBudgetKeepTheFileKeysWithAWarning) {
  ColladaMorphPlan plan;
  plan.morphs.resize(1);
  plan.morphs[0].target_geometries = {"Raise-mesh", "Widen-mesh"};
  ColladaWeightTrack track;
  track.channel = "Face-morph-weights(0)";
  track.times = {0.0f, 1.0f};
  track.values = {0.0f, 1.0f};
  track.interpolations = {ColladaInterpolation::kBezier, ColladaInterpolation::kBezier};
  track.out_tangents = {0.5f, 0.0f, 1.0f, 1.0f};
  track.in_tangents = {0.0f, 0.0f, 0.5f, 1.0f};
  track.out_stride = track.in_stride = 2;
  plan.weight_tracks = {track};
  std::vector<std::string> warnings;
  const std::vector<ColladaWeightTrack> resampled =
      LinearColladaWeightTracks(plan, uint64_t{1} << 20, &warnings);
  ASSERT_EQ(resampled.size(), 1u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_GT(resampled[0].times.size(), 2u);
  // Exactly the added keys' cost fits; one byte less keeps the file's keys.
  const uint64_t cost = (resampled[0].times.size() - 2) * (kColladaCurveKeyBytes + 4 * 2);
  EXPECT_EQ(LinearColladaWeightTracks(plan, cost, &warnings)[0].times, resampled[0].times);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  const std::vector<ColladaWeightTrack> kept = LinearColladaWeightTracks(plan, cost - 1, &warnings);
  EXPECT_EQ(kept[0].times, track.times);
  EXPECT_EQ(kept[0].values, track.values);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'Face-morph-weights(0)') plays the file's keys linearly"),
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

// Independent glTF evaluation for tests; deliberately simple and written straight from the glTF
// 2.0 specification (triangles only; morph targets' POSITION deltas with default, node and
// animated weights; step/linear animation, cubic spline for weights only).
#include "tests/assets/gltf_reference.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>

namespace gltfref {
namespace {

using json = nlohmann::json;

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

std::vector<uint8_t> DecodeBase64(const std::string& s) {
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char* p = std::strchr(alphabet, c);
    if (c == '=' || !p || c == 0) break;
    acc = (acc << 6) | static_cast<uint32_t>(p - alphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(acc >> bits));
    }
  }
  return out;
}

struct Doc {
  json j;
  std::vector<std::vector<uint8_t>> buffers;

  std::vector<float> Read(int index, int* components) const {
    const json& a = j["accessors"][index];
    const std::string type = a["type"];
    const int n = type == "SCALAR" ? 1
                  : type == "VEC2" ? 2
                  : type == "VEC3" ? 3
                  : type == "VEC4" ? 4
                                   : 16;
    *components = n;
    const int ct = a["componentType"];
    const bool normalized = a.value("normalized", false);
    const int size = (ct == 5120 || ct == 5121) ? 1 : (ct == 5122 || ct == 5123) ? 2 : 4;
    const size_t count = a["count"];
    std::vector<float> out(count * n, 0.0f);
    auto scalar = [&](const uint8_t* p, int component_type) {
      float f = 0.0f;
      if (component_type == 5126) {
        std::memcpy(&f, p, 4);
      } else if (component_type == 5121) {
        f = normalized ? p[0] / 255.0f : p[0];
      } else if (component_type == 5123) {
        uint16_t u;
        std::memcpy(&u, p, 2);
        f = normalized ? u / 65535.0f : u;
      } else if (component_type == 5125) {
        uint32_t u;
        std::memcpy(&u, p, 4);
        f = static_cast<float>(u);
      }
      return f;
    };
    auto view_data = [&](const json& holder, size_t* offset) -> const std::vector<uint8_t>& {
      const json& v = j["bufferViews"][holder["bufferView"].get<int>()];
      *offset = v.value("byteOffset", size_t{0}) + holder.value("byteOffset", size_t{0});
      return buffers[v["buffer"].get<int>()];
    };
    if (a.contains("bufferView")) {
      const json& v = j["bufferViews"][a["bufferView"].get<int>()];
      const size_t stride = v.value("byteStride", 0) ? v["byteStride"].get<size_t>() : size * n;
      size_t base = 0;
      const std::vector<uint8_t>& buf = view_data(a, &base);
      for (size_t i = 0; i < count; ++i) {
        for (int c = 0; c < n; ++c)
          out[i * n + c] = scalar(buf.data() + base + i * stride + c * size, ct);
      }
    }
    if (a.contains("sparse")) {  // substitutions: indices, then their values, tightly packed
      const json& sparse = a["sparse"];
      const size_t k = sparse["count"];
      const int index_type = sparse["indices"]["componentType"];
      const size_t index_size = index_type == 5121 ? 1 : index_type == 5123 ? 2 : 4;
      size_t index_base = 0, value_base = 0;
      const std::vector<uint8_t>& ib = view_data(sparse["indices"], &index_base);
      const std::vector<uint8_t>& vb = view_data(sparse["values"], &value_base);
      for (size_t e = 0; e < k; ++e) {
        const size_t target = static_cast<size_t>(
            scalar(ib.data() + index_base + e * index_size, index_type == 5121   ? 5121
                                                            : index_type == 5123 ? 5123
                                                                                 : 5125));
        for (int c = 0; c < n; ++c) {
          out[target * n + c] = scalar(vb.data() + value_base + (e * n + c) * size, ct);
        }
      }
    }
    return out;
  }
};

bool Load(const std::string& path, Doc* doc, std::string* error) {
  std::vector<uint8_t> bytes = ReadFile(path);
  std::vector<uint8_t> bin;
  std::string text;
  if (bytes.size() >= 20 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
    uint32_t json_length;
    std::memcpy(&json_length, bytes.data() + 12, 4);
    text.assign(bytes.begin() + 20, bytes.begin() + 20 + json_length);
    const size_t bin_at = 20 + json_length;
    if (bin_at + 8 <= bytes.size()) {
      uint32_t bin_length;
      std::memcpy(&bin_length, bytes.data() + bin_at, 4);
      bin.assign(bytes.begin() + bin_at + 8, bytes.begin() + bin_at + 8 + bin_length);
    }
  } else {
    text.assign(bytes.begin(), bytes.end());
  }
  doc->j = json::parse(text, nullptr, false);
  if (doc->j.is_discarded()) {
    *error = "reference: JSON does not parse";
    return false;
  }
  const std::string dir = std::filesystem::path(path).parent_path().string();
  for (const json& b : doc->j.value("buffers", json::array())) {
    if (!b.contains("uri")) {
      doc->buffers.push_back(bin);
      continue;
    }
    const std::string uri = b["uri"];
    if (uri.rfind("data:", 0) == 0) {
      doc->buffers.push_back(DecodeBase64(uri.substr(uri.find(',') + 1)));
    } else {
      doc->buffers.push_back(ReadFile(dir + "/" + uri));
    }
  }
  return true;
}

struct Trs {
  glm::vec3 t{0.0f};
  glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 s{1.0f};
  bool has_matrix = false;
  glm::mat4 matrix{1.0f};
  glm::mat4 Matrix() const {
    if (has_matrix) return matrix;
    return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(r) * glm::scale(glm::mat4(1.0f), s);
  }
};

// A weights channel at `time`: per key `width` values (cubic: in-tangent, value, out-tangent).
std::vector<float> SampleWeights(const Doc& doc, const json& sampler, size_t width, float time) {
  int nc = 0, vc = 0;
  const std::vector<float> times = doc.Read(sampler["input"], &nc);
  const std::vector<float> values = doc.Read(sampler["output"], &vc);
  const std::string interp = sampler.value("interpolation", "LINEAR");
  const bool cubic = interp == "CUBICSPLINE";
  const size_t stride = cubic ? 3 * width : width, at = cubic ? width : 0;
  std::vector<float> out(width);
  size_t k = 0;
  while (k + 1 < times.size() && times[k + 1] <= time) ++k;
  if (time <= times.front() || k + 1 >= times.size() || interp == "STEP") {
    for (size_t i = 0; i < width; ++i) out[i] = values[k * stride + at + i];
    return out;
  }
  const float dt = times[k + 1] - times[k], u = (time - times[k]) / dt;
  for (size_t i = 0; i < width; ++i) {
    const float a = values[k * stride + at + i], b = values[(k + 1) * stride + at + i];
    if (!cubic) {
      out[i] = a + (b - a) * u;
    } else {
      const float ma = values[k * stride + 2 * width + i] * dt;
      const float mb = values[(k + 1) * stride + i] * dt;
      out[i] = (2 * u * u * u - 3 * u * u + 1) * a + (u * u * u - 2 * u * u + u) * ma +
               (-2 * u * u * u + 3 * u * u) * b + (u * u * u - u * u) * mb;
    }
  }
  return out;
}

void Animate(const Doc& doc, float time, std::vector<Trs>* locals,
             std::vector<std::vector<float>>* node_weights) {
  for (const json& anim : doc.j.value("animations", json::array())) {
    for (const json& channel : anim["channels"]) {
      const std::string path = channel["target"]["path"];
      if (path == "weights") {
        const int node = channel["target"]["node"];
        const json& mesh = doc.j["meshes"][doc.j["nodes"][node]["mesh"].get<int>()];
        const size_t width = mesh["primitives"][0]["targets"].size();
        (*node_weights)[node] =
            SampleWeights(doc, anim["samplers"][channel["sampler"].get<int>()], width, time);
        continue;
      }
      if (path != "translation" && path != "rotation" && path != "scale") continue;
      const int node = channel["target"]["node"];
      const json& sampler = anim["samplers"][channel["sampler"].get<int>()];
      const std::string interp = sampler.value("interpolation", "LINEAR");
      int nc = 0, vc = 0;
      const std::vector<float> times = doc.Read(sampler["input"], &nc);
      const std::vector<float> values = doc.Read(sampler["output"], &vc);
      size_t k = 0;
      float u = 0.0f;
      if (time <= times.front()) {
        k = 0;
      } else if (time >= times.back()) {
        k = times.size() - 1;
      } else {
        while (times[k + 1] <= time) ++k;
        u = (time - times[k]) / (times[k + 1] - times[k]);
        if (interp == "STEP") u = 0.0f;
      }
      const size_t k1 = std::min(k + 1, times.size() - 1);
      Trs& trs = (*locals)[node];
      if (path == "rotation") {
        const float* a = &values[k * 4];
        const float* b = &values[k1 * 4];
        trs.r = glm::normalize(
            glm::slerp(glm::quat(a[3], a[0], a[1], a[2]), glm::quat(b[3], b[0], b[1], b[2]), u));
      } else {
        const glm::vec3 a = glm::make_vec3(&values[k * 3]);
        const glm::vec3 b = glm::make_vec3(&values[k1 * 3]);
        (path == "translation" ? trs.t : trs.s) = glm::mix(a, b, u);
      }
    }
  }
}

}  // namespace

bool Evaluate(const std::string& path, bool animate, float time_seconds, Scene* scene,
              std::string* error) {
  Doc doc;
  if (!Load(path, &doc, error)) return false;
  const json& nodes = doc.j["nodes"];
  std::vector<Trs> locals(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const json& n = nodes[i];
    if (n.contains("matrix")) {
      std::vector<float> m = n["matrix"].get<std::vector<float>>();
      locals[i].has_matrix = true;
      locals[i].matrix = glm::make_mat4(m.data());  // glTF matrices are column major too
    }
    if (n.contains("translation"))
      locals[i].t = glm::make_vec3(n["translation"].get<std::vector<float>>().data());
    if (n.contains("rotation")) {
      std::vector<float> q = n["rotation"].get<std::vector<float>>();
      locals[i].r = glm::quat(q[3], q[0], q[1], q[2]);
    }
    if (n.contains("scale"))
      locals[i].s = glm::make_vec3(n["scale"].get<std::vector<float>>().data());
  }
  // Morph weights per node: its own, else its mesh's, else zeros; animation overrides them.
  std::vector<std::vector<float>> node_weights(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].contains("weights")) {
      node_weights[i] = nodes[i]["weights"].get<std::vector<float>>();
    } else if (nodes[i].contains("mesh")) {
      node_weights[i] =
          doc.j["meshes"][nodes[i]["mesh"].get<int>()].value("weights", std::vector<float>());
    }
  }
  if (animate) Animate(doc, time_seconds, &locals, &node_weights);
  std::vector<glm::mat4> world(nodes.size(), glm::mat4(1.0f));
  std::vector<int> in_scene;
  const int scene_index = doc.j.value("scene", 0);
  std::function<void(int, const glm::mat4&)> visit = [&](int node, const glm::mat4& parent) {
    world[node] = parent * locals[node].Matrix();
    in_scene.push_back(node);
    for (const json& c : nodes[node].value("children", json::array())) visit(c, world[node]);
  };
  for (const json& root : doc.j["scenes"][scene_index]["nodes"]) visit(root, glm::mat4(1.0f));

  for (int node : in_scene) {
    scene->joint_world_positions.push_back(glm::vec3(world[node][3]));
    if (!nodes[node].contains("mesh")) continue;
    const json& mesh = doc.j["meshes"][nodes[node]["mesh"].get<int>()];
    const bool skinned = nodes[node].contains("skin");
    std::vector<glm::mat4> palette;
    if (skinned) {
      const json& skin = doc.j["skins"][nodes[node]["skin"].get<int>()];
      std::vector<float> ibm;
      int c = 0;
      if (skin.contains("inverseBindMatrices")) ibm = doc.Read(skin["inverseBindMatrices"], &c);
      for (size_t k = 0; k < skin["joints"].size(); ++k) {
        const glm::mat4 inverse_bind = ibm.empty() ? glm::mat4(1.0f) : glm::make_mat4(&ibm[k * 16]);
        palette.push_back(world[skin["joints"][k].get<int>()] * inverse_bind);
      }
    }
    for (const json& primitive : mesh["primitives"]) {
      if (primitive.value("mode", 4) != 4) continue;
      const json& attributes = primitive["attributes"];
      int c = 0;
      std::vector<float> positions = doc.Read(attributes["POSITION"], &c);
      const size_t count = positions.size() / 3;
      const json targets = primitive.value("targets", json::array());
      for (size_t t = 0; t < targets.size() && t < node_weights[node].size(); ++t) {
        if (!targets[t].contains("POSITION")) continue;
        const std::vector<float> deltas = doc.Read(targets[t]["POSITION"], &c);
        for (size_t e = 0; e < positions.size(); ++e)
          positions[e] += node_weights[node][t] * deltas[e];
      }
      std::vector<float> uvs;
      if (attributes.contains("TEXCOORD_0")) uvs = doc.Read(attributes["TEXCOORD_0"], &c);
      std::vector<std::vector<float>> joints, weights;
      for (int set = 0; skinned; ++set) {
        const std::string js = "JOINTS_" + std::to_string(set);
        const std::string ws = "WEIGHTS_" + std::to_string(set);
        if (!attributes.contains(js) || !attributes.contains(ws)) break;
        joints.push_back(doc.Read(attributes[js], &c));
        weights.push_back(doc.Read(attributes[ws], &c));
      }
      for (size_t v = 0; v < count; ++v) {
        const glm::vec3 p = glm::make_vec3(&positions[v * 3]);
        glm::vec3 out;
        if (!skinned) {
          out = glm::vec3(world[node] * glm::vec4(p, 1.0f));
        } else {
          glm::mat4 blend(0.0f);
          float sum = 0.0f;
          for (size_t set = 0; set < joints.size(); ++set) {
            for (int k = 0; k < 4; ++k) {
              const float w = weights[set][v * 4 + k];
              blend += palette[static_cast<size_t>(joints[set][v * 4 + k])] * w;
              sum += w;
            }
          }
          // The spec asks for weights summing to 1; like engines, renormalise the sloppy ones.
          out = glm::vec3(blend * glm::vec4(p, 1.0f)) / sum;
        }
        const glm::vec2 uv = uvs.empty() ? glm::vec2(0.0f) : glm::vec2(uvs[v * 2], uvs[v * 2 + 1]);
        scene->vertices.push_back({p, out, uv});
      }
    }
  }
  return true;
}

std::string Base64(const std::vector<uint8_t>& data) {
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < data.size(); i += 3) {
    uint32_t v = static_cast<uint32_t>(data[i]) << 16;
    if (i + 1 < data.size()) v |= static_cast<uint32_t>(data[i + 1]) << 8;
    if (i + 2 < data.size()) v |= data[i + 2];
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += i + 1 < data.size() ? alphabet[(v >> 6) & 63] : '=';
    out += i + 2 < data.size() ? alphabet[v & 63] : '=';
  }
  return out;
}

}  // namespace gltfref

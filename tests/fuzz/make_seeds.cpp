// Writes the fuzzers' seed corpora, all made by our code: a small cut of the built-in character
// exported as .glb/.gltf and converted by Assimp's exporters to other formats, hand-written glTFs
// exercising every glTF reader repair, glTFs and OBJs referring to the side files the harnesses put
// next to the input (fuzz_common.h: inside, outside, through symlinks, percent-encoded, a FIFO),
// tiny hand-written files for readers Assimp cannot export (SMD, MD5, BVH, OFF), and serialised
// models.
//   usage: fuzz_make_seeds OUT_DIR   (creates OUT_DIR/gltf, OUT_DIR/assimp, OUT_DIR/model_io)
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "assets/export/exporter.h"
#include "assets/files/model_io.h"
#include "assets/importer.h"
#include "tests/assets/gltf_builder.h"
#include "tests/assets/small_models.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<uint8_t> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

void Write(const fs::path& path, const std::vector<uint8_t>& bytes) {
  testgltf::WriteBytes(path.string(), bytes);
}

void Write(const fs::path& path, const std::string& text) {
  Write(path, std::vector<uint8_t>(text.begin(), text.end()));
}

// glTFs that reach each repair and each sampler mode.
std::vector<std::pair<std::string, testgltf::Builder>> HandWrittenGltfs() {
  std::vector<std::pair<std::string, testgltf::Builder>> out;
  out.emplace_back("strip", testgltf::SkinnedStrip());
  for (int type : {5121, 5123}) {
    testgltf::StripOptions o;
    o.weight_type = type;
    out.emplace_back("strip_normalized_" + std::to_string(type), testgltf::SkinnedStrip(o));
  }
  testgltf::StripOptions no_ibm;
  no_ibm.inverse_binds = false;
  out.emplace_back("strip_no_ibm", testgltf::SkinnedStrip(no_ibm));
  {
    // Two nodes sharing the mesh with their own skins, and an animation in every mode.
    testgltf::Builder b = testgltf::SkinnedStrip();
    b.doc["skins"].push_back({{"joints", {0}}});
    b.Node({{"name", "strip"}, {"mesh", 0}, {"skin", 1}}, true);
    const int times = b.Floats({0.0f, 0.5f, 1.0f}, "SCALAR", 3);
    const int rotations = b.Floats({0, 0, 0, 1, 0, 0, 0.38f, 0.92f, 0, 0, 0.7f, 0.7f}, "VEC4", 3);
    const int cubic = b.Floats(std::vector<float>(27, 0.5f), "VEC3", 9);
    const int steps = b.Floats({0, 0, 0, 0, 1, 0, 0, 2, 0}, "VEC3", 3);
    b.doc["animations"] =
        json::array({{{"samplers",
                       {{{"input", times}, {"output", rotations}},
                        {{"input", times}, {"output", cubic}, {"interpolation", "CUBICSPLINE"}},
                        {{"input", times}, {"output", steps}, {"interpolation", "STEP"}}}},
                      {"channels",
                       {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "rotation"}}}},
                        {{"sampler", 1}, {"target", {{"node", 1}, {"path", "scale"}}}},
                        {{"sampler", 2}, {"target", {{"node", 0}, {"path", "translation"}}}}}}}});
    out.emplace_back("shared_mesh_animated", b);
  }
  {
    // A sparse accessor, several scene roots and an unnamed duplicate node name.
    testgltf::Builder b = testgltf::SkinnedStrip();
    const int index = b.Accessor(std::vector<uint16_t>{1, 4}.data(), 4, 5123, "SCALAR", 2);
    const int values = b.Floats({0.1f, 0.0f, 0.0f, 0.2f, 0.0f, 0.0f}, "VEC3", 2);
    json sparse = {
        {"count", 2},
        {"indices",
         {{"bufferView", b.doc["accessors"][index]["bufferView"]}, {"componentType", 5123}}},
        {"values", {{"bufferView", b.doc["accessors"][values]["bufferView"]}}}};
    b.doc["accessors"][0]["sparse"] = sparse;
    b.Node({{"name", "joint0"}}, true);
    out.emplace_back("sparse_duplicate_names", b);
  }
  return out;
}

// The strip with its buffer and images referring to side files by these URIs (see
// fuzz_common.h for what each names).
std::vector<std::pair<std::string, json>> ReferencingGltfs() {
  std::vector<std::pair<std::string, json>> out;
  const std::pair<const char*, const char*> buffers[] = {
      {"side", "side.bin"},
      {"side_encoded", "%73ide.bin"},
      {"sub", "sub/side.bin"},
      {"sub_encoded_separator", "sub%2Fside.bin"},
      {"link_in", "link_in"},
      {"outside", "../outside.bin"},
      {"outside_encoded", "%2e%2e/outside.bin"},
      {"link_out", "link_out"},
      {"link_dir", "link_dir/outside.bin"},
      {"fifo", "fifo"},
      {"absolute", "/etc/hostname"}};
  for (const auto& [name, uri] : buffers) {
    json doc = testgltf::SkinnedStrip().Finished();
    doc["buffers"][0]["uri"] = uri;
    out.emplace_back(std::string("buffer_") + name, doc);
  }
  json doc = testgltf::SkinnedStrip().Finished();
  doc["buffers"][0]["uri"] = "side.bin";
  const char* const images[] = {"side.tga", "../outside.tga",       "%2e%2e/outside.tga",
                                "fifo",     "link_dir/outside.tga", "sub/../side.tga"};
  json primitive = doc["meshes"][0]["primitives"][0];
  doc["meshes"][0]["primitives"] = json::array();
  for (size_t i = 0; i < std::size(images); ++i) {
    doc["images"].push_back({{"uri", images[i]}});
    doc["textures"].push_back({{"source", i}});
    doc["materials"].push_back({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", i}}}}}});
    primitive["material"] = i;
    doc["meshes"][0]["primitives"].push_back(primitive);
  }
  out.emplace_back("images", doc);
  return out;
}

// Tiny files for readers Assimp has no exporter for; the first byte of an assimp seed selects
// the extension in fuzz_assimp.cpp's table.
struct TextSeed {
  int extension;
  const char* name;
  const char* text;
};

const TextSeed kTextSeeds[] = {
    {4, "cube.off",
     "OFF\n8 6 0\n-1 -1 1\n1 -1 1\n-1 1 1\n1 1 1\n-1 1 -1\n1 1 -1\n-1 -1 -1\n1 -1 -1\n"
     "4 0 1 3 2\n4 2 3 5 4\n4 4 5 7 6\n4 6 7 1 0\n4 1 7 5 3\n4 6 0 2 4\n"},
    {7, "two_bones.smd",
     "version 1\nnodes\n0 \"root\" -1\n1 \"tip\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n"
     "1 0 1 0 0 0 0\ntime 1\n0 0 0 0 0 0 0\n1 0 1 0 0.5 0 0\nend\ntriangles\nskin.bmp\n"
     "0 0 0 0 0 1 0 0 0 0\n0 1 0 0 0 1 0 1 0 2 0 0.5 1 0.5\n1 0 2 0 0 1 0 0 1 0\nend\n"},
    {8, "two_bones.md5mesh",
     "MD5Version 10\ncommandline \"\"\nnumJoints 2\nnumMeshes 1\njoints {\n"
     "\t\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n\t\"tip\" 0 ( 0 1 0 ) ( 0 0 0 )\n}\nmesh {\n"
     "\tshader \"skin\"\n\tnumverts 3\n\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n"
     "\tvert 2 ( 0 1 ) 2 1\n\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 3\n"
     "\tweight 0 0 1 ( 0 0 0 )\n\tweight 1 0 1 ( 1 0 0 )\n\tweight 2 1 1 ( 0 0 0 )\n}\n"},
    {2, "mtl_side.obj",
     "mtllib side.mtl\nusemtl m\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
     "f 1/1 2/2 3/3\n"},
    {2, "mtl_outside.obj", "mtllib ../outside.mtl\nusemtl m\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
    {2, "mtl_fifo.obj",
     "mtllib fifo\nmtllib link_dir/outside.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
     "f 1 2 3\n"},
    // Names that are not UTF-8 (Latin-1 bytes, a repeat once repaired) and a terminal escape.
    {9, "latin1_names.bvh",
     "HIERARCHY\nROOT Hips\xFF\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition "
     "Zrotation Xrotation Yrotation\n\tJOINT Hips\xFE\n\t{\n\t\tOFFSET 0 -1 0\n\t\tCHANNELS 3 "
     "Zrotation Xrotation Yrotation\n\t\tJOINT Foot\x1B[2J\n\t\t{\n\t\t\tOFFSET 0 -1 0\n"
     "\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n\t\t\tEnd Site\n\t\t\t{\n\t\t\t\t"
     "OFFSET 0 -1 0\n\t\t\t}\n\t\t}\n\t}\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n"
     "0 1 0 0 0 0 0 0 0 0 0 0\n0 1 0 0 10 0 0 20 0 0 5 0\n"},
    // An OBJ whose comments quote a Collada morph controller (the Collada pass must not run).
    {2, "quoted_controller.obj",
     "# <controller id=\"c\"><morph source=\"#g\"><source id=\"t\"><IDREF_array id=\"ta\" "
     "count=\"1\">g2</IDREF_array></source><targets><input semantic=\"MORPH_TARGET\" "
     "source=\"#t\"/></targets></morph>\nv 0 0 0\nv 1 0 0\nv 0 1 0\n# </controller>\n"
     "v 0 0 1\nv 1 0 1\nv 0 1 1\nf 1 2 3\nf 4 5 6\n"},
    // Latin-1 node names in a Collada file.
    {3, "latin1_nodes.dae",
     "<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" "
     "version=\"1.4.1\"><library_geometries><geometry id=\"g\"><mesh><source id=\"p\">"
     "<float_array id=\"pa\" count=\"9\">0 0 0 1 0 0 0 1 0</float_array><technique_common>"
     "<accessor source=\"#pa\" count=\"3\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
     "<param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor>"
     "</technique_common></source><vertices id=\"v\"><input semantic=\"POSITION\" "
     "source=\"#p\"/></vertices><triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#v\" "
     "offset=\"0\"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries>"
     "<library_visual_scenes><visual_scene id=\"s\"><node id=\"a\" name=\"n\xE9ud\">"
     "<instance_geometry url=\"#g\"/></node><node id=\"b\" name=\"n\xE8ud\">"
     "<instance_geometry url=\"#g\"/></node></visual_scene></library_visual_scenes>"
     "<scene><instance_visual_scene url=\"#s\"/></scene></COLLADA>\n"},
    {9, "two_bones.bvh",
     "HIERARCHY\nROOT hip\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition "
     "Zrotation Xrotation Yrotation\n\tJOINT knee\n\t{\n\t\tOFFSET 0 -1 0\n\t\tCHANNELS 3 "
     "Zrotation Xrotation Yrotation\n\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 -1 0\n\t\t}\n\t}\n}\n"
     "MOTION\nFrames: 2\nFrame Time: 0.5\n0 1 0 0 0 0 0 0 0\n0 1 0 0 10 0 0 20 0\n"},
};

bool ExportWithAssimp(const std::string& source, const char* format, const fs::path& out) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(source, aiProcess_Triangulate);
  if (!scene) return false;
  Assimp::Exporter exporter;
  return exporter.Export(scene, format, out.string()) == AI_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  const fs::path gltf_dir = root / "gltf", assimp_dir = root / "assimp",
                 model_io_dir = root / "model_io", scratch = root / "scratch";
  for (const fs::path& d : {gltf_dir, assimp_dir, model_io_dir, scratch}) fs::create_directories(d);

  std::string error;
  const assets::Model small = testmodels::SmallCharacter();
  if (!assets::ExportGltf(small, (gltf_dir / "small_character.glb").string(), &error) ||
      !assets::ExportGltf(small, (scratch / "small_character.gltf").string(), &error)) {
    std::fprintf(stderr, "export failed: %s\n", error.c_str());
    return 1;
  }
  // The .gltf's buffer is a separate .bin; the fuzzer sees one file, so embed it.
  {
    testgltf::json doc =
        testgltf::json::parse(ReadAll((scratch / "small_character.gltf").string()));
    for (auto& buffer : doc["buffers"]) {
      if (buffer["uri"].get<std::string>().rfind("data:", 0) == 0) continue;
      const std::vector<uint8_t> bin =
          ReadAll((scratch / buffer["uri"].get<std::string>()).string());
      buffer["uri"] = "data:application/octet-stream;base64," + gltfref::Base64(bin);
    }
    Write(gltf_dir / "small_character.gltf", doc.dump());
  }
  for (const auto& [name, builder] : HandWrittenGltfs()) {
    builder.WriteGltf((gltf_dir / (name + ".gltf")).string());
    Write(gltf_dir / (name + ".glb"), builder.Glb());
  }
  for (const auto& [name, doc] : ReferencingGltfs()) Write(gltf_dir / (name + ".gltf"), doc.dump());
  {
    // The decode budget's morph targets: many targets sharing one zero-filled accessor.
    json doc = testgltf::SkinnedStrip().Finished();
    doc["accessors"].push_back({{"componentType", 5126}, {"type", "VEC3"}, {"count", 200000}});
    json targets = json::array();
    for (int t = 0; t < 300; ++t) targets.push_back({{"POSITION", doc["accessors"].size() - 1}});
    doc["meshes"][0]["primitives"][0]["targets"] = targets;
    Write(gltf_dir / "shared_morph_targets.gltf", doc.dump());
    // A .glb header whose JSON chunk claims more than the file holds.
    std::vector<uint8_t> glb = testgltf::SkinnedStrip().Glb();
    glb[12] = 0xFF;
    glb[13] = 0xFF;
    glb[14] = 0xFF;
    glb[15] = 0x3F;
    Write(gltf_dir / "json_chunk_past_the_end.glb", glb);
    // A joint with many children (limb detection pairs its branches).
    testgltf::Builder wide = testgltf::SkinnedStrip();
    json children = wide.doc["nodes"][0]["children"];
    const int first = static_cast<int>(wide.doc["nodes"].size());
    for (int i = 0; i < 200; ++i) {
      children.push_back(first + i);
      wide.doc["nodes"].push_back({{"name", "leaf" + std::to_string(i)},
                                   {"translation", {0.01f * float(i % 13), 0.1f, 0.0f}}});
    }
    wide.doc["nodes"][0]["children"] = children;
    wide.WriteGltf((gltf_dir / "wide_joint.gltf").string());
  }

  // Other formats: Assimp's exporters on the small character, prefixed with the extension index.
  const std::string source = (gltf_dir / "small_character.glb").string();
  const struct {
    int extension;
    const char* format;
    const char* file;
  } exports[] = {{0, "fbx", "small.fbx"},
                 {0, "fbxa", "small_ascii.fbx"},
                 {1, "x", "small.x"},
                 {2, "obj", "small.obj"},
                 {3, "collada", "small.dae"},
                 {5, "ply", "small.ply"},
                 {5, "plyb", "small_binary.ply"},
                 {6, "stl", "small.stl"},
                 {6, "stlb", "small_binary.stl"}};
  for (const auto& e : exports) {
    const fs::path file = scratch / e.file;
    if (!ExportWithAssimp(source, e.format, file)) {
      std::fprintf(stderr, "note: Assimp could not export %s\n", e.format);
      continue;
    }
    std::vector<uint8_t> bytes = ReadAll(file.string());
    bytes.insert(bytes.begin(), static_cast<uint8_t>(e.extension));
    Write(assimp_dir / e.file, bytes);
  }
  for (const TextSeed& seed : kTextSeeds) {
    std::vector<uint8_t> bytes(seed.text, seed.text + std::char_traits<char>::length(seed.text));
    bytes.insert(bytes.begin(), static_cast<uint8_t>(seed.extension));
    Write(assimp_dir / seed.name, bytes);
  }

  // Serialised models: the small character and what the importer makes of the hand-written
  // glTFs (warnings, rigid meshes, cubic clips).
  Write(model_io_dir / "small_character.bin", assets::SerializeModel(small));
  for (const char* name : {"shared_mesh_animated.gltf", "strip_no_ibm.gltf"}) {
    const assets::LoadResult r = assets::LoadModel((gltf_dir / name).string());
    if (r.ok())
      Write(model_io_dir / (std::string(name) + ".bin"), assets::SerializeModel(*r.model));
  }
  fs::remove_all(scratch);
  return 0;
}

// Texture decoding: WebP (lossy and lossless, with alpha) beside stb_image's formats, hostile WebP
// files refused cleanly, and glTF's EXT_texture_webp read through the importer with the same
// budgets and folder rule as PNG and JPEG. The WebP files are made here by libwebp's encoder.
#include "assets/files/image_decode.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <webp/encode.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "assets/importer.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using json = nlohmann::json;

// A w x h RGBA picture: a red-green gradient, blue in a checkerboard of 4-pixel squares, and an
// alpha ramp from left (nearly transparent) to right (opaque). No pixel is fully transparent:
// WebP's encoder may change the colour of those, even lossless.
std::vector<uint8_t> Pattern(int w, int h) {
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &rgba[(static_cast<size_t>(y) * static_cast<size_t>(w) + x) * 4];
      p[0] = static_cast<uint8_t>(x * 255 / (w - 1));
      p[1] = static_cast<uint8_t>(y * 255 / (h - 1));
      p[2] = ((x / 4 + y / 4) % 2) ? 255 : 0;
      p[3] = static_cast<uint8_t>(1 + x * 254 / (w - 1));
    }
  }
  return rgba;
}

// libwebp's encoding of `rgba` (lossless, or lossy at quality 90; alpha is kept either way).
std::vector<uint8_t> EncodeWebP(const std::vector<uint8_t>& rgba, int w, int h, bool lossless) {
  uint8_t* output = nullptr;
  const size_t size = lossless ? WebPEncodeLosslessRGBA(rgba.data(), w, h, w * 4, &output)
                               : WebPEncodeRGBA(rgba.data(), w, h, w * 4, 90.0f, &output);
  std::vector<uint8_t> bytes(output, output + size);
  WebPFree(output);
  return bytes;
}

// The start of a lossless WebP whose header declares w x h (at most 16384 a side), with a few
// bytes of (meaningless) image data after it.
std::vector<uint8_t> WebPHeaderDeclaring(uint32_t w, uint32_t h) {
  std::vector<uint8_t> b;
  auto u32 = [&b](uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  const uint32_t chunk = 5 + 7;  // signature, size bits, then the data bytes below
  b.insert(b.end(), {'R', 'I', 'F', 'F'});
  u32(4 + 8 + chunk);
  b.insert(b.end(), {'W', 'E', 'B', 'P', 'V', 'P', '8', 'L'});
  u32(chunk);
  b.push_back(0x2F);
  const uint32_t bits = (w - 1) | ((h - 1) << 14) | (1u << 28);  // alpha used, version 0
  u32(bits);
  b.insert(b.end(), 7, 0x55);
  return b;
}

int MaxChannelError(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int channel) {
  int worst = 0;
  for (size_t i = static_cast<size_t>(channel); i < a.size() && i < b.size(); i += 4) {
    worst = std::max(worst, std::abs(int(a[i]) - int(b[i])));
  }
  return worst;
}

TEST(ImageDecode, LosslessWebPWithAlphaDecodesToTheSamePixels) {
  const std::vector<uint8_t> rgba = Pattern(24, 16);
  const std::vector<uint8_t> webp = EncodeWebP(rgba, 24, 16, true);
  ASSERT_FALSE(webp.empty());
  EXPECT_TRUE(IsWebP(webp.data(), webp.size()));
  Texture out;
  std::string reason;
  ASSERT_TRUE(DecodeImage(webp.data(), webp.size(), &out, &reason)) << reason;
  EXPECT_EQ(out.width, 24);
  EXPECT_EQ(out.height, 16);
  EXPECT_EQ(out.rgba, rgba);  // straight alpha, rows top to bottom
}

TEST(ImageDecode, LossyWebPWithAlphaDecodesCloseToTheOriginal) {
  const std::vector<uint8_t> rgba = Pattern(32, 32);
  const std::vector<uint8_t> webp = EncodeWebP(rgba, 32, 32, false);
  ASSERT_FALSE(webp.empty());
  Texture out;
  std::string reason;
  ASSERT_TRUE(DecodeImage(webp.data(), webp.size(), &out, &reason)) << reason;
  ASSERT_EQ(out.width, 32);
  ASSERT_EQ(out.height, 32);
  ASSERT_EQ(out.rgba.size(), rgba.size());
  // Lossy colour (4:2:0 chroma blurs the checkerboard's edges), but each pixel where it was: the
  // top-left pixel is black and nearly transparent, the bottom-right yellow-ish and opaque.
  EXPECT_LE(MaxChannelError(out.rgba, rgba, 0), 48);
  EXPECT_LE(MaxChannelError(out.rgba, rgba, 1), 48);
  EXPECT_LE(MaxChannelError(out.rgba, rgba, 3), 8);  // alpha is coded losslessly by default
  EXPECT_LE(out.rgba[3], 8);
  EXPECT_GE(out.rgba[out.rgba.size() - 1], 247);
  EXPECT_GE(out.rgba[out.rgba.size() - 4], 200);
  EXPECT_GE(out.rgba[out.rgba.size() - 3], 200);
}

TEST(ImageDecode, WebPSizeComesFromTheHeaderAlone) {
  const std::vector<uint8_t> webp = EncodeWebP(Pattern(40, 8), 40, 8, true);
  ASSERT_GE(webp.size(), 30u);
  int w = 0, h = 0;
  std::string reason;
  ASSERT_TRUE(ReadImageSize(webp.data(), 30, &w, &h, &reason)) << reason;
  EXPECT_EQ(w, 40);
  EXPECT_EQ(h, 8);
  const std::vector<uint8_t> huge = WebPHeaderDeclaring(16384, 16384);
  ASSERT_TRUE(ReadImageSize(huge.data(), huge.size(), &w, &h, &reason)) << reason;
  EXPECT_EQ(w, 16384);
  EXPECT_EQ(h, 16384);
}

TEST(ImageDecode, TruncatedWebPIsRefusedAndLeavesTheTextureAlone) {
  const std::vector<uint8_t> lossy = EncodeWebP(Pattern(32, 32), 32, 32, false);
  const std::vector<uint8_t> lossless = EncodeWebP(Pattern(32, 32), 32, 32, true);
  for (const std::vector<uint8_t>* webp : {&lossy, &lossless}) {
    for (size_t keep : {webp->size() / 2, webp->size() - 1, size_t{40}, size_t{20}, size_t{12}}) {
      Texture out;
      out.width = 7;
      std::string reason;
      EXPECT_FALSE(DecodeImage(webp->data(), keep, &out, &reason)) << keep;
      EXPECT_EQ(out.width, 7);
      EXPECT_TRUE(out.rgba.empty());
      EXPECT_FALSE(reason.empty());
    }
    Texture out;
    std::string reason;
    EXPECT_FALSE(DecodeImage(webp->data(), webp->size() / 2, &out, &reason));
    EXPECT_THAT(reason, HasSubstr("truncated WebP data"));
  }
}

TEST(ImageDecode, CorruptOrHugeWebPIsRefusedWithoutDecoding) {
  // A header declaring the largest size WebP can (16384 a side, within kMaxTextureSide) over a
  // few bytes of garbage: refused at once (the importer refuses it earlier, on its pixel count).
  const std::vector<uint8_t> huge = WebPHeaderDeclaring(16384, 16384);
  Texture out;
  std::string reason;
  EXPECT_FALSE(DecodeImage(huge.data(), huge.size(), &out, &reason));
  EXPECT_THAT(reason, HasSubstr("decoding failed"));
  EXPECT_TRUE(out.rgba.empty());
  // Garbage after a valid RIFF/WEBP start.
  std::vector<uint8_t> garbage = EncodeWebP(Pattern(16, 16), 16, 16, false);
  for (size_t i = 30; i < garbage.size(); ++i) garbage[i] = static_cast<uint8_t>(i * 37);
  EXPECT_FALSE(DecodeImage(garbage.data(), garbage.size(), &out, &reason));
  EXPECT_TRUE(out.rgba.empty());
  // "RIFF....WEBP" and nothing that follows the format.
  const std::vector<uint8_t> bare = {'R', 'I', 'F', 'F', 4, 0, 0, 0, 'W', 'E', 'B', 'P'};
  int w = 0, h = 0;
  EXPECT_FALSE(ReadImageSize(bare.data(), bare.size(), &w, &h, &reason));
  EXPECT_THAT(reason, HasSubstr("not a decodable image"));
}

// --- EXT_texture_webp through the importer --------------------------------------------------

// Each test works in <temp>/webp/<test name>/: the model in model/, "outside" files above it.
class WebPTexture : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = testpaths::TempDir() + "/webp/" + info->name();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/model");
  }
  std::string Root(const std::string& name) const { return root_ + "/" + name; }
  std::string Folder(const std::string& name) const { return root_ + "/model/" + name; }

  // The skinned strip with texture coordinates and one material whose base colour texture is
  // `texture` (its images in `images`), requiring EXT_texture_webp.
  json TexturedStrip(const json& images, const json& texture, testgltf::Builder* b) const {
    *b = testgltf::SkinnedStrip();
    const std::vector<float> uvs = {0, 1, 1, 1, 0, 0.5f, 1, 0.5f, 0, 0, 1, 0};
    const int uv_accessor = b->Floats(uvs, "VEC2", 6);
    json doc = b->Finished();
    doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = uv_accessor;
    doc["meshes"][0]["primitives"][0]["material"] = 0;
    doc["images"] = images;
    doc["textures"] = json::array({texture});
    doc["materials"] = json::array(
        {json{{"name", "skin"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}});
    doc["extensionsUsed"] = json::array({"EXT_texture_webp"});
    doc["extensionsRequired"] = json::array({"EXT_texture_webp"});
    return doc;
  }

  std::string root_;
};

std::string DataUri(const std::string& mime, const std::vector<uint8_t>& bytes) {
  return "data:" + mime + ";base64," + gltfref::Base64(bytes);
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  testgltf::WriteBytes(path, bytes);
}

TEST_F(WebPTexture, RequiredExtensionLoadsAndItsImageIsDecoded) {
  const std::vector<uint8_t> rgba = Pattern(16, 8);
  WriteFile(Folder("skin.webp"), EncodeWebP(rgba, 16, 8, true));
  testgltf::Builder b;
  const json doc = TexturedStrip(json::array({json{{"uri", "skin.webp"}}}),
                                 json{{"extensions", {{"EXT_texture_webp", {{"source", 0}}}}}}, &b);
  const std::string path = Folder("webp.gltf");
  std::ofstream(path) << doc.dump();
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->textures.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_EQ(r.model->textures[0].name, "skin.webp");
  EXPECT_EQ(r.model->textures[0].width, 16);
  EXPECT_EQ(r.model->textures[0].height, 8);
  EXPECT_EQ(r.model->textures[0].rgba, rgba);
  ASSERT_EQ(r.model->materials.size(), 1u);
  EXPECT_EQ(r.model->materials[0].base_color_texture, 0);
  EXPECT_TRUE(r.warnings.empty()) << ::testing::PrintToString(r.warnings);
}

TEST_F(WebPTexture, TheExtensionsSourceIsPreferredToTheFallback) {
  // source 0: a TGA fallback (2x2); the extension's source 1: a lossy WebP in a bufferView of a
  // .glb, as avatar services ship them.
  const std::vector<uint8_t> rgba = Pattern(32, 16);
  const std::vector<uint8_t> webp = EncodeWebP(rgba, 32, 16, false);
  const std::string tga = testgltf::SmallTga();
  testgltf::Builder b;
  json doc = TexturedStrip(
      json::array({json{{"uri", DataUri("image/x-tga", {tga.begin(), tga.end()})}}}),
      json{{"source", 0}, {"extensions", {{"EXT_texture_webp", {{"source", 1}}}}}}, &b);
  while (b.data.size() % 4) b.data.push_back(0);
  const size_t offset = b.data.size();
  b.data.insert(b.data.end(), webp.begin(), webp.end());
  b.doc = doc;
  b.doc.erase("buffers");
  b.doc["bufferViews"].push_back(
      {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", webp.size()}});
  b.doc["images"].push_back(
      {{"bufferView", b.doc["bufferViews"].size() - 1}, {"mimeType", "image/webp"}});
  const std::string path = Folder("avatar.glb");
  testgltf::WriteBytes(path, b.Glb());
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->textures.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_EQ(r.model->textures[0].width, 32);
  EXPECT_EQ(r.model->textures[0].height, 16);
  EXPECT_LE(MaxChannelError(r.model->textures[0].rgba, rgba, 3), 8);

  // An extension naming no image of the file: the fallback source is used.
  b.doc["textures"][0]["extensions"]["EXT_texture_webp"]["source"] = 7;
  testgltf::WriteBytes(path, b.Glb());
  const LoadResult fallback = LoadModel(path);
  ASSERT_TRUE(fallback.ok()) << fallback.error;
  ASSERT_EQ(fallback.model->textures.size(), 1u);
  EXPECT_EQ(fallback.model->textures[0].width, 2);
}

TEST_F(WebPTexture, WithoutTheExtensionAWebPSourceStillDecodes) {
  // Some exporters put a WebP in a plain `source` (not glTF, but unambiguous by its bytes).
  const std::vector<uint8_t> rgba = Pattern(8, 8);
  testgltf::Builder b;
  json doc = TexturedStrip(
      json::array({json{{"uri", DataUri("image/webp", EncodeWebP(rgba, 8, 8, true))}}}),
      json{{"source", 0}}, &b);
  doc.erase("extensionsRequired");
  doc.erase("extensionsUsed");
  const std::string path = Folder("plain.gltf");
  std::ofstream(path) << doc.dump();
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->textures.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_EQ(r.model->textures[0].rgba, rgba);
}

TEST_F(WebPTexture, HostileWebPFilesAreSkippedWithAWarningAndTheModelLoads) {
  const std::vector<uint8_t> good = EncodeWebP(Pattern(16, 16), 16, 16, false);
  WriteFile(Folder("truncated.webp"), std::vector<uint8_t>(good.begin(), good.begin() + 60));
  WriteFile(Folder("huge.webp"), WebPHeaderDeclaring(16384, 16384));
  WriteFile(Folder("over_budget.webp"), WebPHeaderDeclaring(8193, 8192));
  WriteFile(Root("secret.webp"), good);
  const std::vector<std::string> uris = {"truncated.webp", "huge.webp", "over_budget.webp",
                                         "../secret.webp"};
  testgltf::Builder b;
  json images = json::array();
  for (const std::string& uri : uris) images.push_back({{"uri", uri}});
  json doc =
      TexturedStrip(images, json{{"extensions", {{"EXT_texture_webp", {{"source", 0}}}}}}, &b);
  // One material and texture per image, each used by a primitive.
  json primitive = doc["meshes"][0]["primitives"][0];
  doc["meshes"][0]["primitives"] = json::array();
  doc["textures"] = json::array();
  doc["materials"] = json::array();
  for (size_t i = 0; i < uris.size(); ++i) {
    doc["textures"].push_back({{"extensions", {{"EXT_texture_webp", {{"source", i}}}}}});
    doc["materials"].push_back({{"name", "material" + std::to_string(i)},
                                {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", i}}}}}});
    primitive["material"] = i;
    doc["meshes"][0]["primitives"].push_back(primitive);
  }
  const std::string path = Folder("hostile.gltf");
  std::ofstream(path) << doc.dump();
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.model->textures.empty());
  auto warning_for = [&](const std::string& uri) {
    for (const std::string& w : r.warnings)
      if (w.find("texture '" + uri + "'") != std::string::npos) return w;
    return std::string();
  };
  EXPECT_THAT(warning_for("truncated.webp"), HasSubstr("truncated WebP data"));
  EXPECT_THAT(warning_for("huge.webp"),
              HasSubstr("16384 x 16384 pixels; skelview decodes at most 67.1 megapixels"));
  EXPECT_THAT(warning_for("over_budget.webp"), HasSubstr("8193 x 8192 pixels"));
  EXPECT_THAT(warning_for("../secret.webp"), HasSubstr("outside the model's folder"));
  for (const std::string& file : r.model->source_files) {
    EXPECT_THAT(file, ::testing::Not(HasSubstr("secret.webp")));
  }
}

}  // namespace
}  // namespace assets

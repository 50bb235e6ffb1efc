// Hostile and faulty model files, all made here: references that lead outside the model's folder
// (absolute, "..", percent-encoded, through symlinks), FIFOs and other non-regular files, huge
// library messages, non-unit node rotations, files that make little data decode many times, huge
// textures, and repair warnings that must count vertices rather than triangle corners.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "assets/files/model_io.h"
#include "assets/files/text.h"
#include "assets/importer.h"
#include "tests/assets/gltf_builder.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

constexpr char kOutside[] = "outside the model's folder";

std::string RealPath(const std::string& path) {
  char* real = realpath(path.c_str(), nullptr);
  if (!real) return std::string();
  std::string out = real;
  std::free(real);
  return out;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> WarningsWith(const std::vector<std::string>& warnings,
                                      const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& w : warnings)
    if (w.find(text) != std::string::npos) out.push_back(w);
  return out;
}

// `text` with every occurrence of `what` removed.
std::string Without(std::string text, const std::string& what) {
  for (size_t at; !what.empty() && (at = text.find(what)) != std::string::npos;) {
    text.erase(at, what.size());
  }
  return text;
}

// The start of a PNG whose header declares width x height (stb_image reads sizes from the IHDR
// chunk alone, so no pixel data is needed to describe a huge image).
std::string PngHeader(uint32_t width, uint32_t height) {
  std::string p = "\x89PNG\r\n\x1A\n";
  auto u32 = [&p](uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) p.push_back(static_cast<char>((v >> s) & 0xFF));
  };
  u32(13);
  p += "IHDR";
  u32(width);
  u32(height);
  p += std::string{'\x08', '\x06', '\x00', '\x00', '\x00'};  // 8-bit RGBA, no interlace
  u32(0);                                                    // CRC (stb does not check it)
  u32(0);
  p += "IDAT";
  u32(0);
  return p;
}

// Each test works in <temp>/hostile/<test name>/: the model in model/, "outside" files above it.
class HostileInput : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = testpaths::TempDir() + "/hostile/" + info->name();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/model");
  }
  std::string Root(const std::string& name) const { return root_ + "/" + name; }
  std::string Folder(const std::string& name) const { return root_ + "/model/" + name; }

  // The skinned strip with its buffer in a file named by `uri` (relative to the model); its bytes
  // go to `bin_path` when that is not empty. Returns the model's path.
  std::string StripWithBuffer(const std::string& name, const std::string& uri,
                              const std::string& bin_path) const {
    const testgltf::Builder b = testgltf::SkinnedStrip();
    json doc = b.Finished();
    doc["buffers"][0]["uri"] = uri;
    if (!bin_path.empty()) testgltf::WriteBytes(bin_path, b.data);
    const std::string path = Folder(name);
    WriteText(path, doc.dump());
    return path;
  }

  // The skinned strip (embedded buffer) with one material per image uri, each textured.
  std::string StripWithImages(const std::string& name,
                              const std::vector<std::string>& image_uris) const {
    json doc = testgltf::SkinnedStrip().Finished();
    for (size_t i = 0; i < image_uris.size(); ++i) {
      doc["images"].push_back({{"uri", image_uris[i]}});
      doc["textures"].push_back({{"source", i}});
      doc["materials"].push_back(
          {{"name", "material" + std::to_string(i)},
           {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", i}}}}}});
    }
    // Every material used: one primitive per image, sharing the strip's accessors.
    json primitive = doc["meshes"][0]["primitives"][0];
    doc["meshes"][0]["primitives"] = json::array();
    for (size_t i = 0; i < image_uris.size(); ++i) {
      primitive["material"] = i;
      doc["meshes"][0]["primitives"].push_back(primitive);
    }
    const std::string path = Folder(name);
    WriteText(path, doc.dump());
    return path;
  }

  std::string root_;
};

// Runs LoadModel with a watchdog: if the load is still running after a generous deadline (it
// takes milliseconds), the watchdog opens each FIFO for writing, which releases a reader blocked
// on it, and the test fails instead of hanging.
LoadResult LoadWithoutBlocking(const std::string& path, const std::vector<std::string>& fifos,
                               bool* blocked, const LoadOptions& options = LoadOptions()) {
  std::mutex mutex;
  std::condition_variable done_signal;
  bool done = false;
  std::atomic<bool> released{false};
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mutex);
    if (done_signal.wait_for(lock, std::chrono::seconds(60), [&] { return done; })) return;
    released = true;
    for (const std::string& fifo : fifos) {
      const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) close(fd);
    }
  });
  LoadResult result = LoadModel(path, options);
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  done_signal.notify_one();
  watchdog.join();
  *blocked = released;
  return result;
}

// --- references outside the model's folder -------------------------------------------------

TEST_F(HostileInput, BufferUrisLeadingOutsideTheFolderAreRefusedNamingTheUri) {
  const std::string secret = Root("secret.bin");
  testgltf::WriteBytes(secret, testgltf::SkinnedStrip().data);
  fs::create_directories(Folder("sub"));
  fs::create_symlink("../secret.bin", Folder("link_to_secret"));
  fs::create_symlink(root_, Folder("link_to_root"));
  fs::create_symlink(secret, Folder("sub/absolute_link"));
  const std::vector<std::string> uris = {
      secret,                        // absolute
      "../secret.bin",               // climbing out
      "%2e%2e/secret.bin",           // the same, percent-encoded
      "sub/../../secret.bin",        // down and out
      "sub%2F..%2F..%2Fsecret.bin",  // encoded separators
      "link_to_secret",              // a symlink in the folder leading out
      "link_to_root/secret.bin",     // through a symlinked directory
      "sub/absolute_link",           // an absolute symlink
      "file:///../../secret.bin",    // not a scheme we follow, and outside anyway
      "./sub/./../../model/../secret.bin"};
  int n = 0;
  for (const std::string& uri : uris) {
    SCOPED_TRACE(uri);
    const std::string path = StripWithBuffer("outside_" + std::to_string(n++) + ".gltf", uri, "");
    const LoadResult r = LoadModel(path);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error, HasSubstr(path));
    if (uri.rfind("file:", 0) == 0) {
      // "file:" is a folder name here; its path still climbs out of the model's folder.
      EXPECT_THAT(r.error, HasSubstr("cannot read buffer file"));
      continue;
    }
    EXPECT_THAT(r.error, HasSubstr("cannot read buffer file '" + uri + "'"));
    EXPECT_THAT(r.error, HasSubstr(kOutside));
  }
}

TEST_F(HostileInput, RefusalSaysNothingAboutWhetherTheOutsideFileExists) {
  testgltf::WriteBytes(Root("present.bin"), testgltf::SkinnedStrip().data);
  fs::create_directories(Root("other"));
  fs::create_symlink("../present.bin", Folder("link_present"));
  fs::create_symlink("../absent.bin", Folder("link_absent"));
  fs::create_symlink("../other/absent/deeper.bin", Folder("link_deep"));
  const std::pair<std::string, std::string> pairs[] = {
      {Root("present.bin"), Root("absent.bin")},
      {"../present.bin", "../absent.bin"},
      {"../present.bin", "../other/absent/deeper.bin"},
      {"link_present", "link_absent"},
      {"link_present", "link_deep"},
  };
  for (const auto& [present, absent] : pairs) {
    SCOPED_TRACE(present + " / " + absent);
    const std::string a = StripWithBuffer("present.gltf", present, "");
    const LoadResult ra = LoadModel(a);
    const std::string b = StripWithBuffer("absent.gltf", absent, "");
    const LoadResult rb = LoadModel(b);
    ASSERT_FALSE(ra.ok());
    ASSERT_FALSE(rb.ok());
    EXPECT_EQ(Without(Without(ra.error, a), present), Without(Without(rb.error, b), absent));
  }
  // Images: the same warning for a present and a missing outside file.
  WriteText(Root("present.tga"), testgltf::SmallTga());
  const LoadResult ra = LoadModel(StripWithImages("image_present.gltf", {"../present.tga"}));
  const LoadResult rb = LoadModel(StripWithImages("image_absent.gltf", {"../absent.tga"}));
  ASSERT_TRUE(ra.ok()) << ra.error;
  ASSERT_TRUE(rb.ok()) << rb.error;
  ASSERT_EQ(WarningsWith(ra.warnings, "texture").size(), 1u);
  ASSERT_EQ(WarningsWith(rb.warnings, "texture").size(), 1u);
  EXPECT_EQ(Without(WarningsWith(ra.warnings, "texture")[0], "present"),
            Without(WarningsWith(rb.warnings, "texture")[0], "absent"));
}

TEST_F(HostileInput, ReferencesInsideTheFolderStillLoad) {
  testgltf::WriteBytes(Folder("strip.bin"), testgltf::SkinnedStrip().data);
  fs::create_directories(Folder("sub/deeper"));
  testgltf::WriteBytes(Folder("sub/strip data.bin"), testgltf::SkinnedStrip().data);
  fs::create_symlink("../strip.bin", Folder("sub/link_up"));
  fs::create_symlink(RealPath(Folder("strip.bin")), Folder("absolute_inside"));
  const std::vector<std::string> uris = {"strip.bin",
                                         "./strip.bin",
                                         "sub/deeper/../../strip.bin",
                                         "sub/strip%20data.bin",
                                         "sub/link_up",
                                         "absolute_inside",
                                         "../model/strip.bin",
                                         RealPath(Folder("strip.bin"))};
  int n = 0;
  for (const std::string& uri : uris) {
    SCOPED_TRACE(uri);
    const LoadResult r =
        LoadModel(StripWithBuffer("inside_" + std::to_string(n++) + ".gltf", uri, ""));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.model->vertex_count(), 6u);
  }
  // A missing file inside the folder is reported as such.
  const LoadResult missing = LoadModel(StripWithBuffer("missing.gltf", "nothere.bin", ""));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error, HasSubstr("cannot read buffer file 'nothere.bin': file not found"));
}

TEST_F(HostileInput, AllowOutsideFilesReadsThemAndListsThem) {
  const std::string secret = Root("secret.bin");
  testgltf::WriteBytes(secret, testgltf::SkinnedStrip().data);
  const std::string path = StripWithBuffer("outside.gltf", "../secret.bin", "");
  LoadOptions options;
  options.allow_outside_files = true;
  const LoadResult r = LoadModel(path, options);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->vertex_count(), 6u);
  EXPECT_EQ(r.model->source_files, (std::vector<std::string>{RealPath(path), RealPath(secret)}));
  // Non-regular files stay refused.
  ASSERT_EQ(mkfifo(Root("fifo.bin").c_str(), 0600), 0);
  bool blocked = false;
  const LoadResult fifo = LoadWithoutBlocking(StripWithBuffer("fifo.gltf", "../fifo.bin", ""),
                                              {Root("fifo.bin")}, &blocked, options);
  EXPECT_FALSE(blocked);
  ASSERT_FALSE(fifo.ok());
  EXPECT_THAT(fifo.error, HasSubstr("is a FIFO, not a regular file"));
  // So are devices: /dev/zero would never end.
  for (const std::string& device : {std::string("/dev/zero"), std::string("/dev/null")}) {
    SCOPED_TRACE(device);
    const LoadResult refused = LoadModel(StripWithBuffer("device.gltf", device, ""), options);
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.error, HasSubstr("cannot read buffer file '" + device + "': is a "));
    EXPECT_THAT(refused.error, HasSubstr(", not a regular file"));
  }
}

TEST_F(HostileInput, ImagesOutsideTheFolderAreWarningsAndTheRestLoads) {
  WriteText(Root("secret.tga"), testgltf::SmallTga());
  WriteText(Folder("inside.tga"), testgltf::SmallTga());
  const std::string path =
      StripWithImages("images.gltf", {"../secret.tga", Root("secret.tga"), "inside.tga"});
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const std::vector<std::string> refused = WarningsWith(r.warnings, kOutside);
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_THAT(refused[0], HasSubstr("texture '../secret.tga' of material 'material0'"));
  EXPECT_THAT(refused[1], HasSubstr("texture '" + Root("secret.tga") + "'"));
  ASSERT_EQ(r.model->textures.size(), 1u);
  EXPECT_EQ(r.model->textures[0].width, 2);
  EXPECT_EQ(r.model->source_files,
            (std::vector<std::string>{RealPath(path), RealPath(Folder("inside.tga"))}));
}

TEST_F(HostileInput, OutsideSideFilesOfOtherFormatsAreRefused) {
  // OBJ: the .mtl is Assimp's read (through our IOSystem), the texture ours.
  WriteText(Root("secret.mtl"), "newmtl skin\nKd 1 0 0\n");
  WriteText(Folder("inside.mtl"), "newmtl skin\nKd 1 0 0\nmap_Kd ../secret.tga\n");
  WriteText(Root("secret.tga"), testgltf::SmallTga());
  const std::string triangle =
      "usemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
      "f 1/1 2/2 3/3\n";
  const std::string outside = Folder("outside.obj");
  WriteText(outside, "mtllib ../secret.mtl\n" + triangle);
  const LoadResult r = LoadModel(outside);
  ASSERT_TRUE(r.ok()) << r.error;
  const std::vector<std::string> refused = WarningsWith(r.warnings, kOutside);
  ASSERT_FALSE(refused.empty());
  EXPECT_THAT(refused[0], HasSubstr("secret.m"));
  EXPECT_EQ(r.model->source_files, std::vector<std::string>{RealPath(outside)});

  const std::string inside = Folder("inside.obj");
  WriteText(inside, "mtllib inside.mtl\n" + triangle);
  const LoadResult s = LoadModel(inside);
  ASSERT_TRUE(s.ok()) << s.error;
  ASSERT_EQ(WarningsWith(s.warnings, kOutside).size(), 1u);
  EXPECT_THAT(WarningsWith(s.warnings, kOutside)[0], HasSubstr("texture '../secret.tga'"));
  EXPECT_EQ(s.model->source_files,
            (std::vector<std::string>{RealPath(inside), RealPath(Folder("inside.mtl"))}));
}

TEST_F(HostileInput, OutsideSideFilesOfOtherFormatsGiveTheSameWarningPresentOrMissing) {
  WriteText(Root("present.mtl"), "newmtl skin\nKd 1 0 0\n");
  WriteText(Root("present.tga"), testgltf::SmallTga());
  const std::string triangle =
      "usemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n";
  // Which warnings mention the refused name, with the name taken out.
  auto refusals = [&](const std::string& obj, const std::string& name) {
    const LoadResult r = LoadModel(obj);
    EXPECT_TRUE(r.ok()) << r.error;
    std::vector<std::string> out;
    for (const std::string& w : WarningsWith(r.warnings, name)) out.push_back(Without(w, name));
    EXPECT_FALSE(out.empty()) << ::testing::PrintToString(r.warnings);
    return out;
  };
  const std::string mtl_present = Folder("mtl_present.obj");
  const std::string mtl_absent = Folder("mtl_absent.obj");
  WriteText(mtl_present, "mtllib ../present.mtl\n" + triangle);
  WriteText(mtl_absent, "mtllib ../absent.mtl\n" + triangle);
  EXPECT_EQ(refusals(mtl_present, "present"), refusals(mtl_absent, "absent"));

  WriteText(Folder("textured.mtl"), "newmtl skin\nKd 1 0 0\nmap_Kd ../present.tga\n");
  WriteText(Folder("untextured.mtl"), "newmtl skin\nKd 1 0 0\nmap_Kd ../absent.tga\n");
  const std::string tex_present = Folder("tex_present.obj");
  const std::string tex_absent = Folder("tex_absent.obj");
  WriteText(tex_present, "mtllib textured.mtl\n" + triangle);
  WriteText(tex_absent, "mtllib untextured.mtl\n" + triangle);
  EXPECT_EQ(refusals(tex_present, "present"), refusals(tex_absent, "absent"));
}

TEST_F(HostileInput, SourceFilesOfOtherFormatsListTheirSideFilesAndTextures) {
  WriteText(Folder("skin.tga"), testgltf::SmallTga());
  WriteText(Folder("skin.mtl"), "newmtl skin\nKd 1 0 0\nmap_Kd skin.tga\n");
  const std::string obj = Folder("textured.obj");
  WriteText(obj,
            "mtllib skin.mtl\nusemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
            "f 1/1 2/2 3/3\n");
  const LoadResult r = LoadModel(obj);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->textures.size(), 1u);
  EXPECT_EQ(r.model->source_files,
            (std::vector<std::string>{RealPath(obj), RealPath(Folder("skin.mtl")),
                                      RealPath(Folder("skin.tga"))}));
}

TEST_F(HostileInput, AllowOutsideFilesCoversImagesAndSideFilesOfOtherFormats) {
  WriteText(Root("secret.tga"), testgltf::SmallTga());
  WriteText(Root("secret.mtl"), "newmtl skin\nKd 1 0 0\nmap_Kd secret.tga\n");
  LoadOptions options;
  options.allow_outside_files = true;

  const std::string gltf = StripWithImages("image.gltf", {"../secret.tga"});
  const LoadResult image = LoadModel(gltf, options);
  ASSERT_TRUE(image.ok()) << image.error;
  EXPECT_TRUE(WarningsWith(image.warnings, kOutside).empty());
  ASSERT_EQ(image.model->textures.size(), 1u);
  EXPECT_EQ(image.model->source_files,
            (std::vector<std::string>{RealPath(gltf), RealPath(Root("secret.tga"))}));

  // The .mtl outside; its texture, named relative to the model's folder, outside too.
  WriteText(Root("secret.mtl"), "newmtl skin\nKd 1 0 0\nmap_Kd ../secret.tga\n");
  const std::string obj = Folder("outside.obj");
  WriteText(obj,
            "mtllib ../secret.mtl\nusemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\n"
            "vt 0 1\nf 1/1 2/2 3/3\n");
  const LoadResult side = LoadModel(obj, options);
  ASSERT_TRUE(side.ok()) << side.error;
  EXPECT_TRUE(WarningsWith(side.warnings, kOutside).empty());
  ASSERT_EQ(side.model->textures.size(), 1u);
  EXPECT_EQ(side.model->source_files,
            (std::vector<std::string>{RealPath(obj), RealPath(Root("secret.mtl")),
                                      RealPath(Root("secret.tga"))}));
}

TEST_F(HostileInput, DataUrisStillLoadAndAreNoSourceFiles) {
  // A data: buffer and a data: image whose base64 text holds "/" (so it looks like a path with
  // folders); neither is a file.
  json doc = testgltf::SkinnedStrip().Finished();
  const std::string tga = testgltf::SmallTga();
  const std::string base64 = gltfref::Base64(std::vector<uint8_t>(tga.begin(), tga.end()));
  ASSERT_EQ(doc["buffers"][0]["uri"].get<std::string>().rfind("data:", 0), 0u);
  doc["images"] = json::array({json{{"uri", "data:image/x-tga;base64," + base64}}});
  doc["textures"] = json::array({json{{"source", 0}}});
  doc["materials"] = json::array(
      {json{{"name", "skin"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}});
  doc["meshes"][0]["primitives"][0]["material"] = 0;
  const std::string path = Folder("embedded.gltf");
  WriteText(path, doc.dump());
  const LoadResult r = LoadModel(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->vertex_count(), 6u);
  ASSERT_EQ(r.model->textures.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_EQ(r.model->textures[0].width, 2);
  EXPECT_EQ(r.model->source_files, std::vector<std::string>{RealPath(path)});
}

// --- FIFOs and other non-regular files --------------------------------------------------

TEST_F(HostileInput, FifoAsTheModelFileFailsAtOnce) {
  const std::string fifo = Folder("a-fifo.gltf");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  bool blocked = false;
  const LoadResult r = LoadWithoutBlocking(fifo, {fifo}, &blocked);
  EXPECT_FALSE(blocked);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, fifo + ": is a FIFO, not a regular file");
  // A character device likewise, without being opened.
  const LoadResult device = LoadModel("/dev/null");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error, "/dev/null: is a character device, not a regular file");
}

TEST_F(HostileInput, FifoBuffersImagesAndSideFilesAreRefusedWithoutBlocking) {
  const std::string fifo = Folder("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  bool blocked = false;
  const LoadResult buffer =
      LoadWithoutBlocking(StripWithBuffer("buffer.gltf", "fifo", ""), {fifo}, &blocked);
  EXPECT_FALSE(blocked);
  ASSERT_FALSE(buffer.ok());
  EXPECT_THAT(buffer.error,
              HasSubstr("cannot read buffer file 'fifo': is a FIFO, not a regular file"));

  const LoadResult image =
      LoadWithoutBlocking(StripWithImages("image.gltf", {"fifo"}), {fifo}, &blocked);
  EXPECT_FALSE(blocked);
  ASSERT_TRUE(image.ok()) << image.error;
  EXPECT_EQ(WarningsWith(image.warnings, "texture 'fifo'").size(), 1u);
  EXPECT_EQ(WarningsWith(image.warnings, "is a FIFO, not a regular file").size(), 1u);

  const std::string obj = Folder("fifo_mtl.obj");
  WriteText(obj, "mtllib fifo\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const LoadResult side = LoadWithoutBlocking(obj, {fifo}, &blocked);
  EXPECT_FALSE(blocked);
  ASSERT_TRUE(side.ok()) << side.error;
  EXPECT_FALSE(WarningsWith(side.warnings, "is a FIFO, not a regular file").empty());

  // A directory where a buffer should be.
  fs::create_directories(Folder("dir.bin"));
  const LoadResult dir = LoadModel(StripWithBuffer("dir.gltf", "dir.bin", ""));
  ASSERT_FALSE(dir.ok());
  EXPECT_THAT(dir.error, HasSubstr("is a directory, not a regular file"));
}

// --- source files -------------------------------------------------------------------------

TEST_F(HostileInput, SourceFilesListEveryFileReadOnceModelFirst) {
  const testgltf::Builder b = testgltf::SkinnedStrip();
  testgltf::WriteBytes(Folder("strip.bin"), b.data);
  fs::create_symlink("strip.bin", Folder("alias.bin"));
  WriteText(Folder("skin.tga"), testgltf::SmallTga());
  json doc = b.Finished();
  doc["buffers"][0]["uri"] = "strip.bin";
  doc["buffers"].push_back({{"uri", "./alias.bin"}, {"byteLength", b.data.size()}});
  doc["bufferViews"][0]["buffer"] = 1;  // positions through the symlink
  // A buffer no bufferView uses is only measured, not read: not a source file.
  testgltf::WriteBytes(Folder("unused.bin"), b.data);
  doc["buffers"].push_back({{"uri", "unused.bin"}, {"byteLength", b.data.size()}});
  doc["images"] = json::array({json{{"uri", "skin.tga"}}});
  doc["textures"] = json::array({json{{"source", 0}}});
  doc["materials"] = json::array(
      {json{{"name", "skin"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}});
  doc["meshes"][0]["primitives"][0]["material"] = 0;
  fs::create_directories(Root("elsewhere"));
  const std::string real_model = Folder("strip.gltf");
  WriteText(real_model, doc.dump());
  // Opened through a symlink from another folder: the model's folder is the symlink's.
  fs::create_symlink(real_model, Folder("via_link.gltf"));
  for (const std::string& path : {real_model, Folder("via_link.gltf")}) {
    SCOPED_TRACE(path);
    const LoadResult r = LoadModel(path);
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.model->textures.size(), 1u);
    EXPECT_EQ(r.model->source_files,
              (std::vector<std::string>{RealPath(real_model), RealPath(Folder("strip.bin")),
                                        RealPath(Folder("skin.tga"))}));
    // The import worker streams models through the serialiser: the list survives it.
    Model back;
    std::string error;
    ASSERT_TRUE(DeserializeModel(SerializeModel(*r.model), &back, &error)) << error;
    EXPECT_EQ(back.source_files, r.model->source_files);
  }
}

// --- messages ------------------------------------------------------------------------------

TEST_F(HostileInput, LibraryMessagesAndQuotedNamesAreCutToAFewHundredCharacters) {
  // A text .x file with a bad number: Assimp's error quotes the rest of the file (100 KB here).
  std::string x =
      "xof 0303txt 0032\nMesh Quad {\n 3;\n $0.0;0.0;0.0;,\n 1.0;0.0;0.0;,\n 0.0;1.0;0.0;;\n";
  for (int i = 0; i < 10000; ++i) x += "0123456789";
  x += "\n}\n";
  const std::string x_path = Folder("long_message.x");
  WriteText(x_path, x);
  const LoadResult rx = LoadModel(x_path);
  ASSERT_FALSE(rx.ok());
  EXPECT_THAT(rx.error, HasSubstr(x_path + ": Assimp could not read it: "));
  EXPECT_LE(rx.error.size(), x_path.size() + 600) << rx.error;

  // A 100 KB node name in an error and in a warning.
  const std::string long_name(100000, 'n');
  json doc = testgltf::SkinnedStrip().Finished();
  doc["nodes"][1]["name"] = long_name;
  doc["nodes"][1]["translation"] = {1e30, 0.0, 0.0};
  const std::string error_path = Folder("long_name_error.gltf");
  WriteText(error_path, doc.dump());
  const LoadResult re = LoadModel(error_path);
  ASSERT_FALSE(re.ok());
  EXPECT_THAT(re.error, HasSubstr("non-finite or huge"));
  EXPECT_LE(re.error.size(), error_path.size() + 600) << re.error;

  doc["nodes"][1]["translation"] = {0.0, 1.0, 0.0};
  doc["nodes"][1]["rotation"] = {0.0, 0.0, 0.0, 2.0};
  const std::string warning_path = Folder("long_name_warning.gltf");
  WriteText(warning_path, doc.dump());
  const LoadResult rw = LoadModel(warning_path);
  ASSERT_TRUE(rw.ok()) << rw.error;
  const std::vector<std::string> rotation = WarningsWith(rw.warnings, "rotation");
  ASSERT_EQ(rotation.size(), 1u);
  EXPECT_THAT(rotation[0], HasSubstr("'nnnnnnnn"));
  for (const std::string& w : rw.warnings) EXPECT_LE(w.size(), 600u) << w.substr(0, 200);
}

// --- node rotations -----------------------------------------------------------------------

// The strip with joint1's rotation set to `rotation` ([x, y, z, w]).
json StripWithRotation(const json& rotation) {
  json doc = testgltf::SkinnedStrip().Finished();
  doc["nodes"][1]["rotation"] = rotation;
  return doc;
}

void ExpectRotationRepaired(const LoadResult& r, const glm::quat& expected,
                            const std::string& warning) {
  ASSERT_TRUE(r.ok()) << r.error;
  const ik::Skeleton& s = r.model->skeleton;
  const int joint1 = s.Find("joint1");
  ASSERT_GE(joint1, 0);
  const ik::Transform& rest = s.rest_locals()[joint1];
  EXPECT_NEAR(glm::length(rest.scale - glm::vec3(1.0f)), 0.0f, 1e-5f);
  EXPECT_NEAR(std::abs(glm::dot(rest.rotation, expected)), 1.0f, 1e-5f);
  const std::vector<std::string> found = WarningsWith(r.warnings, warning);
  ASSERT_EQ(found.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_THAT(found[0], HasSubstr("'joint1'"));
}

TEST_F(HostileInput, NonUnitNodeRotationsAreNormalisedWithAWarningNamingTheNode) {
  // Nearly the identity once normalised; taken as it is, a scale of 65536 and a quarter turn.
  const std::string path = Folder("long_quaternion.gltf");
  WriteText(path, StripWithRotation({0.5, 0.0, 0.0, 65536.0}).dump());
  const LoadResult r = LoadModel(path);
  const glm::quat expected = glm::normalize(glm::quat(65536.0f, 0.5f, 0.0f, 0.0f));
  ExpectRotationRepaired(r, expected, "length 65536");
  // The skin stays where it was modelled: joint1 one unit up, vertices near their binds.
  const glm::vec3 joint1 = r.model->skeleton.rest_models()[r.model->skeleton.Find("joint1")][3];
  EXPECT_NEAR(glm::length(joint1 - glm::vec3(0.0f, 1.0f, 0.0f)), 0.0f, 1e-5f);

  // Components whose squares overflow a double still normalise (to a quarter turn about x).
  const std::string huge_path = Folder("huge_quaternion.gltf");
  WriteText(huge_path, StripWithRotation({1e300, 0.0, 0.0, 1e300}).dump());
  ExpectRotationRepaired(LoadModel(huge_path), glm::normalize(glm::quat(1.0f, 1.0f, 0.0f, 0.0f)),
                         "length 1.41421e+300");

  // A slightly long quaternion (exporter rounding) is normalised without a warning.
  const std::string close_path = Folder("rounded_quaternion.gltf");
  WriteText(close_path, StripWithRotation({0.0, 0.0, 0.0, 1.0000001}).dump());
  const LoadResult close = LoadModel(close_path);
  ASSERT_TRUE(close.ok()) << close.error;
  EXPECT_TRUE(WarningsWith(close.warnings, "rotation").empty());
}

TEST_F(HostileInput, ZeroOrNonFiniteNodeRotationsBecomeNoRotationWithAWarning) {
  // (JSON cannot hold a non-finite number: nlohmann-json refuses 1e999, so only zero and
  // vanishing quaternions reach this.)
  for (const std::string& rotation : {std::string("[0, 0, 0, 0]"), std::string("[1e-30, 0, 0, 0]"),
                                      std::string("[0, -0.0, 1e-9, 0]")}) {
    SCOPED_TRACE(rotation);
    json doc = StripWithRotation(json::array());
    std::string text = doc.dump();
    const std::string marker = "\"rotation\":[]";
    ASSERT_NE(text.find(marker), std::string::npos);
    text.replace(text.find(marker), marker.size(), "\"rotation\":" + rotation);
    const std::string path = Folder("zero_quaternion.gltf");
    WriteText(path, text);
    ExpectRotationRepaired(LoadModel(path), glm::quat(1.0f, 0.0f, 0.0f, 0.0f),
                           "zero or non-finite rotation");
  }
}

TEST_F(HostileInput, NodeRotationsOfGltf1FilesThatAssimpReadsAreNormalisedToo) {
  // glTF 1.0 is read by Assimp entirely, which builds node matrices from the TRS as given.
  const json doc = {{"asset", {{"version", "1.0"}}},
                    {"scene", "scene0"},
                    {"scenes", {{"scene0", {{"nodes", {"root"}}}}}},
                    {"nodes",
                     {{"root", {{"name", "root"}, {"children", {"joint1"}}}},
                      {"joint1",
                       {{"name", "joint1"},
                        {"translation", {0.0, 1.0, 0.0}},
                        {"rotation", {0.5, 0.0, 0.0, 65536.0}},
                        {"scale", {1.0, 1.0, 1.0}}}}}}};
  const std::string path = Folder("gltf1.gltf");
  WriteText(path, doc.dump());
  ExpectRotationRepaired(LoadModel(path), glm::normalize(glm::quat(65536.0f, 0.5f, 0.0f, 0.0f)),
                         "length 65536");
}

// --- amplification ------------------------------------------------------------------------

TEST_F(HostileInput, AZeroFilledIndexAccessorSharedByThreePrimitivesIsRefusedByTheBudget) {
  json doc = testgltf::SkinnedStrip().Finished();
  // 1e8 unsigned-byte indices without a bufferView (zero-filled: 100 MB, within the zero-fill
  // limit), used by three primitives: 1e8 degenerate triangles from a file of a few KiB.
  doc["accessors"].push_back({{"componentType", 5121}, {"type", "SCALAR"}, {"count", 100000000}});
  json primitive = doc["meshes"][0]["primitives"][0];
  primitive["indices"] = doc["accessors"].size() - 1;
  doc["meshes"][0]["primitives"] = {primitive, primitive, primitive};
  const std::string path = Folder("shared_indices.gltf");
  WriteText(path, doc.dump());
  const LoadResult r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("would take"));
  EXPECT_THAT(r.error, HasSubstr("MiB to decode, more than the 257 MiB skelview allows"));
}

TEST_F(HostileInput, OneMeshInstancedByManyNodesIsRefusedByTheBudget) {
  // 30,000 nodes showing one 1,000-vertex mesh: 30 million vertices (under kMaxVertices) and
  // 1.7 GB of mesh data from a file of under a megabyte.
  testgltf::Builder b;
  std::vector<float> positions;
  for (int i = 0; i < 1000; ++i) positions.insert(positions.end(), {float(i), 0.0f, float(i % 7)});
  const int accessor = b.Positions(positions);
  b.doc["meshes"] = json::array(
      {json{{"primitives", json::array({json{{"attributes", {{"POSITION", accessor}}}}})}}});
  json children = json::array();
  for (int i = 1; i <= 30000; ++i) children.push_back(i);
  b.Node({{"name", "root"}, {"children", children}}, true);
  for (int i = 1; i <= 30000; ++i) b.doc["nodes"].push_back({{"mesh", 0}});
  const std::string path = Folder("instances.gltf");
  b.WriteGltf(path);
  const LoadResult r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("would take"));
  // A hundred instances are fine.
  b.doc["nodes"][0]["children"] = json::array();
  for (int i = 1; i <= 100; ++i) b.doc["nodes"][0]["children"].push_back(i);
  b.WriteGltf(path);
  const LoadResult few = LoadModel(path);
  ASSERT_TRUE(few.ok()) << few.error;
  EXPECT_EQ(few.model->meshes.size(), 100u);
}

// Collada through Assimp: `nodes` nodes instancing one 1,000-vertex triangle strip.
std::string InstancedCollada(int nodes) {
  std::string positions, indices, instances;
  for (int i = 0; i < 1000; ++i) {
    positions +=
        std::to_string(i) + " " + std::to_string(i % 7) + " " + std::to_string(i % 3) + " ";
  }
  for (int i = 0; i < 998; ++i) {
    indices += std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " ";
  }
  for (int i = 0; i < nodes; ++i) {
    instances += "<node id=\"n" + std::to_string(i) + "\" name=\"n" + std::to_string(i) +
                 "\"><instance_geometry url=\"#g\"/></node>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
         "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
         "<asset><up_axis>Y_UP</up_axis></asset>\n"
         "<library_geometries><geometry id=\"g\" name=\"g\"><mesh>\n"
         "<source id=\"p\"><float_array id=\"pa\" count=\"3000\">" +
         positions +
         "</float_array><technique_common><accessor source=\"#pa\" count=\"1000\" "
         "stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
         "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
         "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices>\n"
         "<triangles count=\"998\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/><p>" +
         indices +
         "</p></triangles>\n</mesh></geometry></library_geometries>\n"
         "<library_visual_scenes><visual_scene id=\"s\">" +
         instances +
         "</visual_scene></library_visual_scenes>\n"
         "<scene><instance_visual_scene url=\"#s\"/></scene>\n</COLLADA>\n";
}

TEST_F(HostileInput, InstancesInOtherFormatsCountAgainstTheBudgetToo) {
  // 30,000 instances of 1,000 vertices from 2 MB: 1.7 GB of mesh data once copied per node.
  WriteText(Folder("instances.dae"), InstancedCollada(30000));
  const LoadResult r = LoadModel(Folder("instances.dae"));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("its meshes (counting each node that shows a mesh) would take "
                                 "more than"));
  WriteText(Folder("few.dae"), InstancedCollada(50));
  const LoadResult few = LoadModel(Folder("few.dae"));
  ASSERT_TRUE(few.ok()) << few.error;
  EXPECT_EQ(few.model->meshes.size(), 50u);
}

TEST_F(HostileInput, TheBudgetGrowsWithTheFileAndHasACeiling) {
  EXPECT_EQ(DecodeBudget(0), kDecodeBudgetBase);
  EXPECT_EQ(DecodeBudget(1 << 20), kDecodeBudgetBase + kDecodeBudgetPerByte * (1 << 20));
  EXPECT_EQ(DecodeBudget(uint64_t{1} << 40), kMaxDecodeBytes);
  EXPECT_LE(DecodeBudget(UINT64_MAX), kMaxDecodeBytes);
}

TEST_F(HostileInput, AHugeTextureIsSkippedWithAWarningAndTheRestLoads) {
  WriteText(Folder("huge.png"), PngHeader(16384, 16384));
  WriteText(Folder("just_over.png"), PngHeader(8193, 8192));
  WriteText(Folder("small.tga"), testgltf::SmallTga());
  const LoadResult r =
      LoadModel(StripWithImages("textures.gltf", {"huge.png", "just_over.png", "small.tga"}));
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->textures.size(), 1u);
  EXPECT_EQ(r.model->textures[0].name, "small.tga");
  const std::vector<std::string> skipped = WarningsWith(
      r.warnings, "skelview decodes at most 67.1 megapixels (8192 x 8192) per texture");
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_THAT(skipped[0], HasSubstr("texture 'huge.png'"));
  EXPECT_THAT(skipped[0], HasSubstr("16384 x 16384 pixels"));
  EXPECT_THAT(skipped[1], HasSubstr("texture 'just_over.png'"));
}

// --- readers of other formats that trust the file -----------------------------------------

// Found by fuzz_assimp (tests/data/import/regressions): each made Assimp 5.2.5 misbehave — a
// 42 GB reservation for "OFF999999999999", a null dereference for a triangle an MD5 mesh declares
// but does not list, zeros added without end for a letter in a Collada <p> list — and is now
// refused before Assimp reads it.
TEST(HostileRegressions, FilesThatMisledAssimpAreRefusedBeforeItReadsThem) {
  const std::string dir = testpaths::SourceDir() + "/tests/data/import/regressions/";
  const std::pair<const char*, const char*> cases[] = {
      {"off_count_glued_to_keyword.off", "claims 999999999999 vertices"},
      {"md5_triangle_not_listed.md5mesh", "mesh 0 declares 1 triangles but lists 0"},
      {"dae_letters_in_index_list.dae", "its <p> element holds something other than numbers"}};
  for (const auto& [file, reason] : cases) {
    SCOPED_TRACE(file);
    const LoadResult r = LoadModel(dir + file);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error, HasSubstr(reason));
  }
}

TEST_F(HostileInput, LargeValidOffAndMd5FilesPassTheChecks) {
  // The OFF check once compared counts with the 8 KiB read for it, not the file's size.
  std::string off = "OFF\n3000 2998 0\n";
  for (int i = 0; i < 3000; ++i) {
    off += std::to_string(i) + " " + std::to_string(i % 7) + " " + std::to_string(i % 3) + "\n";
  }
  for (int i = 0; i < 2998; ++i) {
    off +=
        "3 " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2) + "\n";
  }
  WriteText(Folder("large.off"), off);
  const LoadResult r = LoadModel(Folder("large.off"));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->triangle_count(), 2998u);

  WriteText(Folder("quad.md5mesh"),
            "MD5Version 10\ncommandline \"\"\nnumJoints 2\nnumMeshes 1\njoints {\n"
            "\t\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n\t\"tip\" 0 ( 0 1 0 ) ( 0 0 0 )\n}\n"
            "mesh {\n\tshader \"skin\"\n\tnumverts 4\n\tvert 0 ( 0 0 ) 0 1\n"
            "\tvert 1 ( 1 0 ) 1 1\n\tvert 2 ( 0 1 ) 2 1\n\tvert 3 ( 1 1 ) 3 1\n"
            "\tnumtris 2\n\ttri 0 0 1 2\n\ttri 1 2 1 3\n\tnumweights 4\n"
            "\tweight 0 0 1 ( 0 0 0 )\n\tweight 1 0 1 ( 1 0 0 )\n"
            "\tweight 2 1 1 ( 0 0 0 )\n\tweight 3 1 1 ( 1 0 0 )\n}\n");
  const LoadResult md5 = LoadModel(Folder("quad.md5mesh"));
  ASSERT_TRUE(md5.ok()) << md5.error;
  EXPECT_EQ(md5.model->triangle_count(), 2u);
}

// --- repair counts --------------------------------------------------------------------------

TEST_F(HostileInput, RepairWarningsCountVerticesNotTriangleCorners) {
  // glTF: two triangles as six unindexed corners over four distinct vertices, each weighted
  // 0.5 + 0.25; the mesh is shown by two nodes. Four vertices were repaired, not six or twelve.
  testgltf::Builder b;
  const float quad[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const int corners[6] = {0, 1, 2, 2, 1, 3};
  std::vector<float> positions, weights;
  std::vector<uint16_t> joints;
  for (int c : corners) {
    positions.insert(positions.end(), quad[c], quad[c] + 3);
    weights.insert(weights.end(), {0.5f, 0.25f, 0.0f, 0.0f});
    joints.insert(joints.end(), {0, 1, 0, 0});
  }
  const int p = b.Positions(positions);
  const int w = b.Floats(weights, "VEC4", 6);
  const int j = b.Accessor(joints.data(), joints.size() * 2, 5123, "VEC4", 6);
  b.doc["meshes"] = json::array(
      {json{{"primitives",
             json::array(
                 {json{{"attributes", {{"POSITION", p}, {"JOINTS_0", j}, {"WEIGHTS_0", w}}}}})}}});
  b.Node({{"name", "joint0"}, {"children", {1}}}, true);
  b.Node({{"name", "joint1"}, {"translation", {0.0, 1.0, 0.0}}}, false);
  b.Node({{"name", "quad_a"}, {"mesh", 0}, {"skin", 0}}, true);
  b.Node({{"name", "quad_b"}, {"mesh", 0}, {"skin", 0}}, true);
  b.doc["skins"] = json::array({json{{"joints", {0, 1}}}});
  const std::string gltf = Folder("corners.gltf");
  b.WriteGltf(gltf);
  const LoadResult r = LoadModel(gltf);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->vertex_count(), 8u);  // two instances of four
  EXPECT_EQ(WarningsWith(r.warnings, "4 vertices had weights not summing to 1").size(), 1u)
      << ::testing::PrintToString(r.warnings);

  // Assimp's .x reader gives every triangle corner its own vertex.
  const std::string x = Folder("corners.x");
  WriteText(x,
            "xof 0303txt 0032\n"
            "Frame Root {\n"
            " FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,"
            "1.0;; }\n"
            " Frame Bone1 {\n"
            "  FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,"
            "1.0;; }\n"
            " }\n"
            " Mesh Quad {\n"
            "  4;\n  0.0;0.0;0.0;,\n  1.0;0.0;0.0;,\n  0.0;1.0;0.0;,\n  1.0;1.0;0.0;;\n"
            "  2;\n  3;0,1,2;,\n  3;2,1,3;;\n"
            "  XSkinMeshHeader { 1; 1; 1; }\n"
            "  SkinWeights {\n   \"Bone1\";\n   4;\n   0,1,2,3;\n   0.5,0.5,0.5,0.5;\n"
            "   1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;\n  }\n"
            " }\n"
            "}\n");
  const LoadResult rx = LoadModel(x);
  ASSERT_TRUE(rx.ok()) << rx.error;
  EXPECT_EQ(rx.model->vertex_count(), 4u);
  EXPECT_EQ(WarningsWith(rx.warnings, "4 vertices had weights not summing to 1").size(), 1u)
      << ::testing::PrintToString(rx.warnings);
}

// --- names that are not UTF-8 (issue 26) ---------------------------------------------------

// A BVH skeleton of three joints with these names (bytes as given).
std::string Bvh(const std::string& root, const std::string& mid, const std::string& end) {
  return "HIERARCHY\nROOT " + root +
         "\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation "
         "Xrotation Yrotation\n\tJOINT " +
         mid +
         "\n\t{\n\t\tOFFSET 0 -1 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n\t\tJOINT " +
         end +
         "\n\t\t{\n\t\t\tOFFSET 0 -1 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
         "\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET 0 -1 0\n\t\t\t}\n\t\t}\n\t}\n}\n"
         "MOTION\nFrames: 2\nFrame Time: 0.5\n0 1 0 0 0 0 0 0 0 0 0 0\n"
         "0 1 0 0 10 0 0 20 0 0 5 0\n";
}

bool AllNamesValid(const Model& model) {
  bool valid = true;
  for (const std::string& name : model.skeleton.names()) valid = valid && IsValidUtf8(name);
  for (const Mesh& mesh : model.meshes) {
    valid = valid && IsValidUtf8(mesh.name);
    for (const MorphTarget& target : mesh.targets) valid = valid && IsValidUtf8(target.name);
  }
  for (const Clip& clip : model.clips) valid = valid && IsValidUtf8(clip.name);
  for (const Material& material : model.materials) valid = valid && IsValidUtf8(material.name);
  for (const std::string& warning : model.warnings) valid = valid && IsValidUtf8(warning);
  return valid;
}

TEST_F(HostileInput, Latin1JointNamesBecomeValidUtf8AndStayUnique) {
  const std::string kFffd = "\xEF\xBF\xBD";
  // Two names that differ only in their bad byte, the second repaired name also given as is.
  WriteText(Folder("latin1.bvh"), Bvh("Hips\xFF", "Hips\xFE", "Hips" + kFffd + ".001x"));
  const LoadResult r = LoadModel(Folder("latin1.bvh"));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(AllNamesValid(*r.model));
  EXPECT_GE(r.model->skeleton.Find("Hips" + kFffd), 0);
  EXPECT_GE(r.model->skeleton.Find("Hips" + kFffd + ".001"), 0);
  std::set<std::string> unique(r.model->skeleton.names().begin(), r.model->skeleton.names().end());
  EXPECT_EQ(unique.size(), r.model->skeleton.names().size());
  const std::vector<std::string> said = WarningsWith(r.warnings, "not valid UTF-8");
  ASSERT_EQ(said.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_THAT(said[0], HasSubstr("2 names were not valid UTF-8"));
  EXPECT_THAT(said[0], HasSubstr("'Hips\\xFF' is now 'Hips" + kFffd + "'"));
  // What the worker would send reads back (the stream refuses names that are not UTF-8).
  Model back;
  std::string error;
  ASSERT_TRUE(DeserializeModel(SerializeModel(*r.model), &back, &error)) << error;
  EXPECT_EQ(back.skeleton.names(), r.model->skeleton.names());
}

TEST_F(HostileInput, Latin1NodeNamesOfColladaAndItsMeshesBecomeValidUtf8) {
  std::string dae = InstancedCollada(2);
  for (const std::string& from : {std::string("name=\"n0\""), std::string("name=\"n1\"")}) {
    dae.replace(dae.find(from), from.size(),
                from == "name=\"n0\"" ? "name=\"n\xE9ud\"" : "name=\"n\xE8ud\"");
  }
  WriteText(Folder("latin1.dae"), dae);
  const LoadResult r = LoadModel(Folder("latin1.dae"));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(AllNamesValid(*r.model));
  std::set<std::string> unique(r.model->skeleton.names().begin(), r.model->skeleton.names().end());
  EXPECT_EQ(unique.size(), r.model->skeleton.names().size());
  EXPECT_EQ(WarningsWith(r.warnings, "not valid UTF-8").size(), 1u);
}

// --- morph targets in the decode budget (issue 26) ------------------------------------------

TEST_F(HostileInput, ManyMorphTargetsSharingOneHugeAccessorAreRefusedByTheBudget) {
  // 3,000 targets sharing one zero-filled 2,000,000-vertex accessor: 72 GB of deltas from a file
  // of 50 KB (the worker used to allocate until its memory limit).
  json doc = testgltf::SkinnedStrip().Finished();
  doc["accessors"].push_back({{"componentType", 5126}, {"type", "VEC3"}, {"count", 2000000}});
  const size_t deltas = doc["accessors"].size() - 1;
  json targets = json::array();
  for (int t = 0; t < 3000; ++t) targets.push_back({{"POSITION", deltas}});
  doc["meshes"][0]["primitives"][0]["targets"] = targets;
  const std::string path = Folder("targets.gltf");
  WriteText(path, doc.dump());
  const LoadResult r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error, HasSubstr("its meshes, morph targets, skins and animations would take"));
  EXPECT_THAT(r.error, HasSubstr("skelview allows for a model of"));
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
}

// --- the Collada morph pass on other formats (issue 26) -------------------------------------

TEST_F(HostileInput, AnObjQuotingAColladaControllerInCommentsLoadsWhole) {
  WriteText(Folder("quoted.obj"),
            "# <controller id=\"c\"><morph source=\"#g\"><source id=\"t\"><IDREF_array "
            "id=\"ta\" count=\"1\">g2</IDREF_array></source><targets><input "
            "semantic=\"MORPH_TARGET\" source=\"#t\"/></targets></morph>\n"
            "v 0 0 0\nv 1 0 0\nv 0 1 0\n# </controller>\nv 0 0 1\nv 1 0 1\nv 0 1 1\n"
            "f 1 2 3\nf 4 5 6\n");
  const LoadResult r = LoadModel(Folder("quoted.obj"));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->triangle_count(), 2u);
}

// --- sparse gigabyte files (issue 26) -------------------------------------------------------

// Bytes this process has read so far (/proc/self/io's rchar).
uint64_t BytesRead() {
  std::ifstream io("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value) {
    if (key == "rchar:") return value;
  }
  return 0;
}

TEST_F(HostileInput, SparseGigabyteFilesAreRefusedAfterReadingLittle) {
  // The start of a .glb of `total` bytes whose JSON chunk is `json_length` bytes and opens "{".
  auto glb_head = [](uint32_t total, uint32_t json_length) {
    std::string head = "glTF";
    for (uint32_t v : {2u, total, json_length, 0x4E4F534Au}) {
      for (int i = 0; i < 4; ++i) head.push_back(static_cast<char>(v >> (8 * i)));
    }
    return head + "{";
  };
  // A JSON chunk of almost the whole gigabyte (more than the reader takes), and one of 400 MiB
  // (within its limit) of zeros after "{".
  const std::string glb = glb_head(1u << 30, (1u << 30) - 20);
  const std::string small_chunk = glb_head(1u << 30, 400u << 20);
  struct Case {
    std::string name, head, expected;
  };
  for (const Case& c :
       {Case{"huge_json.glb", glb, "its JSON is 1023 MiB, more than the 512 MiB skelview reads"},
        Case{"zeros_json.glb", small_chunk, "byte 21 is 0x00, a control character"},
        Case{"sparse.gltf", "{\"asset\": ", "its JSON is 1024 MiB, more than"},
        Case{"sparse.dae", "<?xml version=\"1.0\"?>\n<COLLADA>", "byte 31 is 0x00"},
        Case{"sparse.obj", "v 0 0 0\n", "byte 8 is 0x00"}}) {
    SCOPED_TRACE(c.name);
    const std::string path = Folder(c.name);
    WriteText(path, c.head);
    fs::resize_file(path, uintmax_t{1} << 30);
    const uint64_t before = BytesRead();
    const LoadResult r = LoadModel(path);
    const uint64_t read = BytesRead() - before;
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error, HasSubstr(c.expected));
    EXPECT_LT(read, uint64_t{64} << 20) << "read " << (read >> 20) << " MiB of a sparse file";
    fs::remove(path);
  }
}

TEST(HostileSharedModels, RepairCountsNeverExceedTheVertexCount) {
  // Debian's assimp-testmodels: the FBX gave "240 vertices ..." for 128 vertices, and
  // "2883 vertices had more than 4 joint influences" for 2,464.
  const char* const files[] = {"/usr/share/assimp/models/FBX/huesitos.fbx",
                               "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx",
                               "/usr/share/assimp/models/X/anim_test.x"};
  int checked = 0;
  for (const char* file : files) {
    if (!fs::exists(file)) continue;
    SCOPED_TRACE(file);
    const LoadResult r = LoadModel(file);
    ASSERT_TRUE(r.ok()) << r.error;
    for (const std::string& w : r.warnings) {
      const size_t count = std::strtoul(w.c_str(), nullptr, 10);
      if (w.find(" vertices had") != std::string::npos ||
          w.find(" vertices have") != std::string::npos) {
        EXPECT_LE(count, r.model->vertex_count()) << w;
      }
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "/usr/share/assimp/models not found (assimp-testmodels)";
}

}  // namespace
}  // namespace assets

// libFuzzer target: the output paths. Fuzzer bytes pick output paths (main file plus an optional
// side file) made of names around a model's folder: the model's own files, symlinks and a hard link
// to them, `..`, `.`, absolute and relative forms. Whatever assets::CheckOutputsSpareInputs lets
// through is written with assets::WriteFilesAtomically; a finding is an input file of the model
// that changed, a temporary file left behind, or a refusal or failure without a reason.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "assets/files/file_output.h"
#include "assets/model/model.h"

namespace {

namespace fs = std::filesystem;

// The files the model is made of, with the bytes each must keep.
const std::vector<std::pair<std::string, std::string>> kInputs = {
    {"model.gltf", "{\"asset\":{\"version\":\"2.0\"}}"},
    {"model.bin", std::string(64, '\x07')},
    {"tex.png", "not really a png"},
};

// What a path is built from: one byte picks each component.
const char* const kComponents[] = {"m",          "sub",        "..",      ".",
                                   "model.gltf", "model.bin",  "tex.png", "link_bin",
                                   "link_dir",   "hard.bin",   "new.glb", "new.bin",
                                   "x",          "MODEL.GLTF", "m/",      "./model.bin"};
constexpr size_t kComponentCount = sizeof(kComponents) / sizeof(kComponents[0]);

struct Scratch {
  fs::path root;    // private to this process; every write the harness lets through stays in it
  fs::path folder;  // root/m: the model's folder
  assets::Model model;
};

void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_outputs: %s\n", what.c_str());
  std::abort();
}

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteAll(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

const Scratch& GetScratch() {
  static Scratch* scratch = [] {
    auto* s = new Scratch;
    const char* base = std::getenv("SKELVIEW_FUZZ_DIR");
    s->root =
        fs::path(base && *base ? base : "/tmp") / ("skelview-fuzz-out-" + std::to_string(getpid()));
    s->folder = s->root / "m";
    fs::create_directories(s->folder / "sub");
    for (const auto& [name, bytes] : kInputs) WriteAll(s->folder / name, bytes);
    std::error_code ec;
    fs::create_symlink("model.bin", s->folder / "link_bin", ec);
    fs::create_directory_symlink(".", s->folder / "link_dir", ec);
    fs::create_hard_link(s->folder / "model.bin", s->folder / "hard.bin", ec);
    s->model.source = (s->folder / "model.gltf").string();
    for (const auto& input : kInputs) {
      s->model.source_files.push_back((s->folder / input.first).string());
    }
    // Relative paths start in the root, so `m/model.bin` names an input.
    if (chdir(s->root.c_str()) != 0) Fail("cannot enter " + s->root.string());
    return s;
  }();
  return *scratch;
}

bool IsSetupFile(const fs::path& path, const Scratch& s) {
  const std::string name = path.filename().string();
  if (path.parent_path() == s.root) return name == "m";
  if (path.parent_path() == s.folder) {
    if (name == "sub" || name == "link_bin" || name == "link_dir" || name == "hard.bin") {
      return true;
    }
    for (const auto& input : kInputs) {
      if (name == input.first) return true;
    }
  }
  return false;
}

// Checks the inputs kept their bytes and no temporary file stayed, then removes what the run
// wrote so that every input starts from the same folder.
void CheckAndClean(const Scratch& s) {
  for (const auto& [name, bytes] : kInputs) {
    if (ReadAll(s.folder / name) != bytes) Fail("input " + name + " was overwritten");
  }
  if (ReadAll(s.folder / "hard.bin") != kInputs[1].second) Fail("hard.bin was overwritten");
  std::vector<fs::path> extra;
  for (const fs::path& dir : {s.root, s.folder, s.folder / "sub"}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().filename().string().find(".tmp-") != std::string::npos) {
        Fail("temporary file left: " + entry.path().string());
      }
      if (dir == s.folder / "sub" || !IsSetupFile(entry.path(), s)) extra.push_back(entry.path());
    }
  }
  for (const fs::path& path : extra) fs::remove_all(path);
}

// The path made of the components bytes pick, until a byte >= 0xf0 ends it.
std::string PathFrom(const uint8_t* data, size_t size, size_t* at, const Scratch& s) {
  std::string path;
  if (*at < size && data[*at] & 0x80) path = s.root.string();  // absolute form
  if (*at < size) ++*at;
  int parts = 0;
  while (*at < size && data[*at] < 0xf0 && parts < 8) {
    if (!path.empty() && path.back() != '/') path += '/';
    path += kComponents[data[*at] % kComponentCount];
    ++*at;
    ++parts;
  }
  if (*at < size) ++*at;  // the terminator
  return path;
}

// True when `path` (as the OS will resolve it) stays inside the scratch root: the harness never
// writes outside its own folder, whatever the check under test says.
bool InsideRoot(const std::string& path, const Scratch& s) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return false;
  const fs::path root = fs::weakly_canonical(s.root, ec);
  const std::string r = root.string() + "/";
  return resolved.string().compare(0, r.size(), r) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Scratch& s = GetScratch();
  size_t at = 0;
  std::vector<std::string> outputs;
  outputs.push_back(PathFrom(data, size, &at, s));
  if (at < size) outputs.push_back(PathFrom(data, size, &at, s));
  std::string reason;
  if (!assets::CheckOutputsSpareInputs(s.model, outputs, &reason)) {
    if (reason.empty()) Fail("refused without a reason");
    CheckAndClean(s);
    return 0;
  }
  for (const std::string& path : outputs) {
    if (path.empty() || !InsideRoot(path, s)) {
      CheckAndClean(s);
      return 0;
    }
  }
  const std::string bytes = "output";
  std::vector<assets::OutputFile> files;
  for (const std::string& path : outputs) files.push_back({path, bytes.data(), bytes.size()});
  std::string error;
  if (!assets::WriteFilesAtomically(files, &error) && error.empty()) {
    Fail("failed write without a reason");
  }
  CheckAndClean(s);
  return 0;
}

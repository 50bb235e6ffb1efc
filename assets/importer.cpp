// Import pipeline: file checks, then the glTF reader for glTF 2.0, or Assimp behind a guarded file
// system and the scene converter for the other formats; the clips, limits (the decode budget) and
// LoadModel's error handling.
#include "assets/importer.h"

#include <assimp/MemoryIOWrapper.h>
#include <assimp/commonMetaData.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/ProgressHandler.hpp>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <utility>

#include "assets/assimp/collada_morphs.h"
#include "assets/assimp/declared_counts.h"
#include "assets/assimp/fbx_properties.h"
#include "assets/assimp/import_clips.h"
#include "assets/assimp/scene_converter.h"
#include "assets/assimp/scene_frame.h"
#include "assets/files/load_progress.h"
#include "assets/files/messages.h"
#include "assets/files/model_files.h"
#include "assets/files/text.h"
#include "assets/gltf/gltf_document.h"
#include "assets/gltf/gltf_reader.h"
#include "assets/model_names.h"

namespace assets {
namespace {

// Assimp's progress callbacks (0 at the start of parsing, 0.5 after it, then per post-processing
// step up to 1) mapped onto the current stage. Assimp 5.2.5 ignores the return value of most of
// its callers, so cancellation is checked by us between Assimp's phases instead.
class AssimpProgress : public Assimp::ProgressHandler {
 public:
  explicit AssimpProgress(LoadProgress* progress) : progress_(progress) {}
  bool Update(float percentage) override {
    if (percentage >= 0.0f) progress_->Report(percentage);
    return !progress_->Cancelled();
  }

 private:
  LoadProgress* progress_;
};

enum class ReadStatus { kOk, kMissing, kNotRegular, kUnreadable, kEmpty, kTooLarge };

ReadStatus StatusOf(FileStatus status) {
  switch (status) {
    case FileStatus::kOk:
      return ReadStatus::kOk;
    case FileStatus::kMissing:
      return ReadStatus::kMissing;
    case FileStatus::kNotRegular:
    case FileStatus::kOutside:
      return ReadStatus::kNotRegular;
    default:
      return ReadStatus::kUnreadable;
  }
}

// Reads (at most the first `max_bytes` of) an open file after checking it is not empty and is
// within kMaxFileBytes.
ReadStatus ReadOpenFile(const InputFile& file, std::vector<uint8_t>* bytes, std::string* reason,
                        size_t max_bytes, uint64_t* file_size) {
  const uint64_t size = file.size();
  if (size == 0) {
    *reason = "the file is empty";
    return ReadStatus::kEmpty;
  }
  if (size > kMaxFileBytes) {
    *reason = "the file is " + std::to_string(size >> 20) + " MiB, larger than the " +
              std::to_string(kMaxFileBytes >> 20) + " MiB skelview reads";
    return ReadStatus::kTooLarge;
  }
  if (file_size) *file_size = size;
  const size_t wanted = std::min(static_cast<size_t>(size), max_bytes);
  bytes->resize(wanted);
  errno = 0;
  if (!file.ReadAt(0, bytes->data(), wanted)) {
    *reason = std::string("cannot read the file: ") +
              (errno ? std::strerror(errno) : "it ended early (changed while read?)");
    return ReadStatus::kUnreadable;
  }
  return ReadStatus::kOk;
}

// Reads the model file (at most its first `max_bytes`) after checking it exists, is a regular
// file (a FIFO is refused before it is opened), is not empty and is within kMaxFileBytes.
ReadStatus ReadModelBytes(ModelFiles* files, std::vector<uint8_t>* bytes, std::string* reason,
                          size_t max_bytes = SIZE_MAX, uint64_t* file_size = nullptr) {
  InputFile file;
  const FileStatus status = files->OpenModel(&file, reason);
  if (status != FileStatus::kOk) return StatusOf(status);
  return ReadOpenFile(file, bytes, reason, max_bytes, file_size);
}

// An Assimp stream over one of our open files.
class FileStream : public Assimp::IOStream {
 public:
  explicit FileStream(InputFile file) : file_(std::move(file)) {}

  size_t Read(void* buffer, size_t size, size_t count) override {
    if (!buffer || size == 0 || count == 0 || position_ >= file_.size()) return 0;
    const uint64_t items = std::min<uint64_t>(count, (file_.size() - position_) / size);
    if (items == 0 || !file_.ReadAt(position_, buffer, static_cast<size_t>(items * size))) {
      return 0;
    }
    position_ += items * size;
    return static_cast<size_t>(items);
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    // Assimp passes backward moves as negative offsets cast to size_t (as fseek's long).
    const int64_t delta = static_cast<int64_t>(offset);
    int64_t target;
    if (origin == aiOrigin_SET) {
      if (offset > file_.size()) return aiReturn_FAILURE;
      target = static_cast<int64_t>(offset);
    } else if (origin == aiOrigin_CUR || origin == aiOrigin_END) {
      const int64_t base = static_cast<int64_t>(origin == aiOrigin_CUR ? position_ : file_.size());
      if ((delta > 0 && base > INT64_MAX - delta)) return aiReturn_FAILURE;
      target = base + delta;
    } else {
      return aiReturn_FAILURE;
    }
    if (target < 0 || static_cast<uint64_t>(target) > file_.size()) return aiReturn_FAILURE;
    position_ = static_cast<uint64_t>(target);
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return static_cast<size_t>(position_); }
  size_t FileSize() const override { return static_cast<size_t>(file_.size()); }
  void Flush() override {}

 private:
  InputFile file_;
  uint64_t position_ = 0;
};

// Every file Assimp reads goes through here, under the import's ModelFiles rules (regular files,
// inside the model's folder unless allowed, non-blocking opens, recorded); the model file itself
// may be served from repaired bytes instead (a glTF 1.0 file's, a Collada plan's). Assimp may not
// write, create or delete anything. Refusals other than "not found" (which is how Assimp probes for
// optional side files) are collected for the user.
class GuardedIOSystem : public Assimp::IOSystem {
 public:
  GuardedIOSystem(ModelFiles* files, const std::vector<uint8_t>* patched,
                  std::vector<std::string>* refusals)
      : files_(files), patched_(patched), refusals_(refusals) {}

  bool Exists(const char* file) const override {
    if (!file) return false;
    std::string reason;
    const FileStatus status = files_->CheckPath(file, &reason);
    if (status == FileStatus::kOk) return true;
    Note(file, status, reason);
    return false;
  }
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (!file || !mode || std::strpbrk(mode, "wa+")) return nullptr;
    if (patched_ && !patched_->empty() && files_->IsModelPath(file)) {
      return new Assimp::MemoryIOStream(patched_->data(), patched_->size(), false);
    }
    InputFile input;
    std::string reason;
    const FileStatus status = files_->OpenPath(file, &input, &reason);
    if (status != FileStatus::kOk) {
      Note(file, status, reason);
      return nullptr;
    }
    return new FileStream(std::move(input));
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }
  bool ComparePaths(const char* one, const char* second) const override {
    return one && second &&
           std::filesystem::path(one).lexically_normal() ==
               std::filesystem::path(second).lexically_normal();
  }
  bool CreateDirectory(const std::string&) override { return false; }
  bool ChangeDirectory(const std::string&) override { return false; }
  bool DeleteFile(const std::string&) override { return false; }

 private:
  void Note(const char* file, FileStatus status, const std::string& reason) const {
    if (status == FileStatus::kMissing || !refusals_) return;
    const std::string note = "file " + Quoted(file) + " was not read: " + reason;
    if (std::find(refusals_->begin(), refusals_->end(), note) == refusals_->end()) {
      refusals_->push_back(note);
    }
  }
  ModelFiles* files_;
  const std::vector<uint8_t>* patched_;
  std::vector<std::string>* refusals_;
};

// The error is one short line: Assimp's messages may hold line breaks and control characters, and
// may quote much of the file.
LoadResult Fail(const std::string& path, const std::string& reason) {
  LoadResult result;
  result.error = ShownPath(path) + ": " + Excerpt(reason, kMaxMessageBytes);
  while (!result.error.empty() && result.error.back() == ' ') result.error.pop_back();
  return result;
}

// What the bytes of a text format may be: kPlain no NUL (a text file holds none), kStrict also
// no control character but tab, line feed and carriage return (JSON holds none).
enum class TextRule { kNone, kPlain, kStrict };

// The rule for the formats whose readers take the whole file as text (Assimp's for these read it
// into memory first): a file of zeros — a sparse file — is refused after one piece.
TextRule TextRuleFor(const std::string& path, const std::vector<uint8_t>& head) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // UTF-16 (with its byte order mark) holds NULs in every ASCII character.
  if (head.size() >= 2 &&
      ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF))) {
    return TextRule::kNone;
  }
  if (ext == ".dae" || ext == ".obj" || ext == ".bvh" || ext == ".smd" || ext == ".off" ||
      ext == ".md5mesh" || ext == ".md5anim") {
    return TextRule::kPlain;
  }
  return TextRule::kNone;
}

// Offset of the first byte of data[0, size) that `rule` refuses, or SIZE_MAX.
size_t FindNonText(const uint8_t* data, size_t size, TextRule rule) {
  if (rule == TextRule::kNone) return SIZE_MAX;
  if (rule == TextRule::kPlain) {
    const void* nul = std::memchr(data, 0, size);
    return nul ? static_cast<size_t>(static_cast<const uint8_t*>(nul) - data) : SIZE_MAX;
  }
  for (size_t i = 0; i < size; ++i) {
    if (data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r') return i;
  }
  return SIZE_MAX;
}

// Why a text file was refused: the offset and value of its first byte a text cannot hold.
std::string NonTextReason(uint64_t offset, uint8_t value, TextRule rule) {
  char byte[8];
  std::snprintf(byte, sizeof(byte), "0x%02X", value);
  return "not a text file where one is expected: byte " + std::to_string(offset) + " is " + byte +
         (rule == TextRule::kStrict ? ", a control character" : "") +
         " (the file may be damaged or sparse)";
}

// Pieces in which a model file is read or scanned before its readers see it.
constexpr size_t kReadPieceBytes = size_t{4} << 20;

// Reads or scans the model file from `from` to `to`, one piece at a time, checking the bytes in
// [text_begin, text_end) against `rule` before the next piece is read: appended to *bytes when
// `keep` (which must then end at `from`), otherwise only scanned through one piece's buffer.
// False with the reason (naming the offending byte's offset) on a refused byte or a read error.
bool ReadInPieces(ModelFiles* files, uint64_t from, uint64_t to, uint64_t text_begin,
                  uint64_t text_end, TextRule rule, bool keep, std::vector<uint8_t>* bytes,
                  std::string* reason) {
  InputFile file;
  if (files->OpenModel(&file, reason) != FileStatus::kOk) return false;
  to = std::min(to, file.size());
  std::vector<uint8_t> piece;
  if (keep) {
    bytes->reserve(static_cast<size_t>(to));  // not touched until read: no zero-filled copy
  } else {
    piece.resize(static_cast<size_t>(std::min<uint64_t>(kReadPieceBytes, to - std::min(from, to))));
  }
  for (uint64_t at = from; at < to;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kReadPieceBytes, to - at));
    uint8_t* data = piece.data();
    if (keep) {
      bytes->resize(bytes->size() + n);
      data = bytes->data() + (bytes->size() - n);
    }
    errno = 0;
    if (!file.ReadAt(at, data, n)) {
      *reason = std::string("cannot read the file: ") +
                (errno ? std::strerror(errno) : "it ended early (changed while read?)");
      return false;
    }
    const uint64_t check_begin = std::max(at, text_begin), check_end = std::min(at + n, text_end);
    if (check_begin < check_end) {
      const size_t bad = FindNonText(data + (check_begin - at),
                                     static_cast<size_t>(check_end - check_begin), rule);
      if (bad != SIZE_MAX) {
        *reason = NonTextReason(check_begin + bad, data[check_begin - at + bad], rule);
        return false;
      }
    }
    at += n;
  }
  return true;
}

// Reads the model file for the checks before Assimp: a glTF file for the reader (a .glb up to its
// binary chunk's header, whose chunk is then read per accessor; a .gltf whole), other formats'
// first kHeaderBytes (or all of it when the declared counts need it), then checks those counts.
// What is read beyond the first kHeaderBytes is read in pieces and checked as text where the
// format is text, and a JSON chunk or text larger than the reader takes is refused from the
// header and the file's size, before anything more is read.
bool ReadAndCheck(const std::string& path, LoadProgress* progress, ModelFiles* files,
                  std::vector<uint8_t>* bytes, uint64_t* file_size, bool* is_gltf,
                  std::string* reason) {
  if (ReadModelBytes(files, bytes, reason, kHeaderBytes, file_size) != ReadStatus::kOk) {
    return false;
  }
  *is_gltf = gltf::LooksLikeGltf(path, *bytes);
  if (*is_gltf && bytes->size() < *file_size) {
    uint64_t wanted = *file_size, json_begin = 0, json_end = *file_size;
    if (bytes->size() >= 20 && std::memcmp(bytes->data(), "glTF", 4) == 0) {
      uint32_t json_length = 0;
      std::memcpy(&json_length, bytes->data() + 12, 4);
      json_begin = 20;
      json_end = 20 + uint64_t{json_length};
      if (json_end > *file_size) {
        *reason = "truncated .glb: its JSON chunk of " + std::to_string(json_length) +
                  " bytes runs past the end of the file (" + std::to_string(*file_size) + " bytes)";
        return false;
      }
      wanted = std::min<uint64_t>(*file_size, json_end + 8);
    }
    if (json_end - json_begin > gltf::kMaxJsonBytes) {
      *reason = "its JSON is " + std::to_string((json_end - json_begin) >> 20) +
                " MiB, more than the " + std::to_string(gltf::kMaxJsonBytes >> 20) +
                " MiB skelview reads";
      return false;
    }
    // The JSON read with the header first, then the rest in pieces, each checked as read.
    const size_t head_end = static_cast<size_t>(std::min<uint64_t>(bytes->size(), json_end));
    if (json_begin < head_end) {
      const size_t bad =
          FindNonText(bytes->data() + json_begin, head_end - json_begin, TextRule::kStrict);
      if (bad != SIZE_MAX) {
        *reason = NonTextReason(json_begin + bad, (*bytes)[json_begin + bad], TextRule::kStrict);
        return false;
      }
    }
    if (wanted > bytes->size() &&
        !ReadInPieces(files, bytes->size(), wanted, json_begin, json_end, TextRule::kStrict,
                      /*keep=*/true, bytes, reason)) {
      return false;
    }
  }
  if (progress->Cancelled()) {
    *reason = "cancelled";
    return false;
  }
  if (!*is_gltf) {
    const TextRule rule = TextRuleFor(path, *bytes);
    const size_t bad = FindNonText(bytes->data(), bytes->size(), rule);
    if (bad != SIZE_MAX) {
      *reason = NonTextReason(bad, (*bytes)[bad], rule);
      return false;
    }
    if (bytes->size() < *file_size && (rule != TextRule::kNone || NeedsWholeFile(path)) &&
        !ReadInPieces(files, bytes->size(), *file_size, 0, *file_size, rule, NeedsWholeFile(path),
                      bytes, reason)) {
      return false;
    }
  }
  return DeclaredCountsFit(path, *bytes, *file_size, reason);
}

// Assimp's error message as our reason: known messages explained, others quoted (with the first
// side file Assimp was refused, often the cause).
std::string AssimpFailure(const std::string& assimp_error,
                          const std::vector<std::string>& refusals) {
  std::string message = assimp_error;
  if (message.find("No suitable reader found") != std::string::npos) {
    return "not a 3D model format Assimp can read";
  }
  if (message.find("bad_alloc") != std::string::npos) {
    return "out of memory while Assimp read it (the file may claim huge counts)";
  }
  if (message.find("No meshes remaining") != std::string::npos) {
    return "nothing to show: the file has only points or lines, no triangles";
  }
  message = message.empty() ? "unknown error" : Excerpt(message, kMaxLibraryMessageBytes);
  // A refused side file is often why (e.g. a glTF 1.0 buffer outside the folder).
  if (!refusals.empty()) message += " (" + refusals.front() + ")";
  return "Assimp could not read it: " + message;
}

// Reads the file with Assimp (through GuardedIOSystem, serving repaired bytes when there are
// some) into *importer; null with the reason in *reason when Assimp fails or the load is
// cancelled. Sets *importer to the importer that holds the scene.
const aiScene* ReadWithAssimp(const std::string& path, bool raw_units, LoadProgress* progress,
                              ModelFiles* files, const std::vector<uint8_t>* patched,
                              std::unique_ptr<Assimp::Importer>* importer_out,
                              std::vector<std::string>* refusals, std::string* reason) {
  // One configured importer per attempt: Assimp's readers keep state between reads.
  auto make_importer = [&]() {
    auto importer = std::make_unique<Assimp::Importer>();
    importer->SetProgressHandler(new AssimpProgress(progress));
    importer->SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                                 aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    importer->SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    // A file with bones but no mesh must load as a bare skeleton, not with a generated mesh.
    importer->SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    // Units and axes: FBX's are applied by the converter (FbxFrameCorrection), Collada's by
    // Assimp unless the file's raw frame is wanted.
    importer->SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, raw_units);
    importer->SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, true);
    importer->SetIOHandler(new GuardedIOSystem(files, patched, refusals));
    return importer;
  };
  std::unique_ptr<Assimp::Importer>& importer = *importer_out;
  importer = make_importer();
  // No flag here flattens or pre-transforms the hierarchy: joints are nodes and must stay nodes.
  // No aiProcess_JoinIdenticalVertices: the converter welds identical vertices itself in linear
  // time (Assimp's step is quadratic in bone weights).
  const unsigned flags = aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_SortByPType;
  // Parsing (with validation, as ReadFile would run it first) and post-processing are two calls,
  // so that a cancel between them skips the post-processing; the result is the same as one call.
  const aiScene* scene = importer->ReadFile(path, aiProcess_ValidateDataStructure);
  std::string assimp_error = scene ? std::string() : importer->GetErrorString();
  bool skeleton_only = false;
  if (!scene && assimp_error.find("At least one mesh must be there") != std::string::npos &&
      !progress->Cancelled()) {
    // Assimp's validation refuses scenes without meshes, but an animated skeleton alone (BVH,
    // a mesh-less FBX) is worth showing. Only nodes and animations of such a scene are used, and
    // the converter checks both as it copies them, so it is read again without validation.
    importer = make_importer();
    scene = importer->ReadFile(path, 0);
    skeleton_only = scene && scene->mNumMeshes == 0;
    if (!skeleton_only) scene = nullptr;  // it had meshes after all: keep the first verdict
  }
  if (scene && progress->Cancelled()) {
    *reason = "cancelled";
    return nullptr;
  }
  if (scene && !skeleton_only) {
    scene = importer->ApplyPostProcessing(flags);
    if (!scene) assimp_error = importer->GetErrorString();
  }
  if (progress->Cancelled()) {
    *reason = "cancelled";
    return nullptr;
  }
  if (!scene) *reason = AssimpFailure(assimp_error, *refusals);
  return scene;
}

// Whether Assimp read `scene` with the reader whose name contains `reader` ("FBX", "Collada"):
// its metadata names the format.
bool ReadBy(const aiScene& scene, const char* reader) {
  aiString format;
  return scene.mMetaData && scene.mMetaData->Get(AI_METADATA_SOURCE_FORMAT, format) &&
         std::strstr(format.C_Str(), reader) != nullptr;
}

// Puts back the small node translations and scalings Assimp's FBX converter drops, read from the
// file itself (RestoreDroppedFbxTransforms); a file our reader cannot walk keeps Assimp's nodes.
void RestoreFbxTransforms(ModelFiles* files, aiScene* scene) {
  InputFile file;
  std::string reason;
  if (files->OpenModel(&file, &reason) != FileStatus::kOk) return;
  std::vector<FbxModelTransform> models;
  if (ReadFbxModelTransforms(file, &models, &reason)) RestoreDroppedFbxTransforms(models, scene);
}

// The warnings of a finished load, each cut to one message's length, and the model's last steps.
LoadResult Finished(Model model, std::vector<std::string> warnings, LoadProgress* progress,
                    ModelFiles* files) {
  FinishClips(&model, &warnings);
  MakeNamesValidUtf8(&model, &warnings);
  for (std::string& w : warnings) w = Excerpt(w, kMaxMessageBytes);
  model.warnings = warnings;
  model.source_files = files->files_read();
  if (progress->Cancelled()) return Fail(model.source, "cancelled");
  progress->Done();
  LoadResult result;
  result.warnings = std::move(warnings);
  result.model = std::move(model);
  return result;
}

// glTF 2.0, read entirely by the glTF reader (the stages after Prepare).
LoadResult LoadGltf(const std::string& path, gltf::Contents* contents, bool texture_pixels,
                    LoadProgress* progress, ModelFiles* files) {
  Model model;
  model.source = path;
  std::vector<std::string> warnings = std::move(contents->warnings);
  std::string reason;
  progress->Stage(0.7f, 0.98f);
  if (!gltf::BuildModel(path, contents, texture_pixels, progress, files, &model, &warnings,
                        &reason)) {
    return Fail(path, reason);
  }
  return Finished(std::move(model), std::move(warnings), progress, files);
}

LoadResult LoadModelUnchecked(const std::string& path, bool raw_units, bool texture_pixels,
                              LoadProgress* progress, ModelFiles* files) {
  // Stages and their share of the progress bar, roughly by their time on large files.
  progress->Stage(0.0f, 0.05f);
  // Only glTF is read whole here (for the reader); for other formats the header checks need the
  // first few KiB and Assimp reads the file itself.
  std::vector<uint8_t> bytes;
  std::string reason;
  uint64_t file_size = 0;
  bool is_gltf = false;
  if (!ReadAndCheck(path, progress, files, &bytes, &file_size, &is_gltf, &reason)) {
    return Fail(path, reason);
  }

  // glTF: the reader decodes everything (a glTF 1.0 file only gets its node rotations repaired
  // for Assimp).
  gltf::Contents contents;
  if (is_gltf) {
    progress->Stage(0.05f, 0.7f);
    gltf::PrepareOptions prepare_options;
    prepare_options.files = files;
    prepare_options.progress = progress;
    if (!gltf::Prepare(path, bytes, file_size, prepare_options, &contents, &reason)) {
      return Fail(path, reason);
    }
    if (contents.is_gltf2) {
      bytes = std::vector<uint8_t>();
      return LoadGltf(path, &contents, texture_pixels, progress, files);
    }
  }
  progress->Stage(0.05f, 0.15f);
  // Assimp 5.2.5 fails on any Collada morph controller: it reads the file without them, and their
  // targets from a second text that shows each target geometry (collada_morphs.cpp).
  ColladaMorphPlan collada;
  const bool collada_morphs = !is_gltf && bytes.size() == file_size && IsColladaFile(path, bytes) &&
                              PlanColladaMorphs(bytes, &collada);
  // Assimp reads the file again itself (or the glTF 1.0 repair's or the plan's patched copy).
  bytes = std::vector<uint8_t>();
  if (progress->Cancelled()) return Fail(path, "cancelled");

  progress->Stage(0.15f, collada_morphs ? 0.6f : 0.75f);
  // What Assimp was refused (side files outside the folder, FIFOs...), for the user.
  std::vector<std::string> refusals;
  std::unique_ptr<Assimp::Importer> importer;
  const aiScene* scene = ReadWithAssimp(path, raw_units, progress, files,
                                        collada_morphs ? &collada.loadable : &contents.patched,
                                        &importer, &refusals, &reason);
  if (!scene) return Fail(path, reason);
  std::vector<std::string> collada_warnings;
  if (collada_morphs) {
    progress->Stage(0.6f, 0.75f);
    std::unique_ptr<Assimp::Importer> target_importer;
    std::string target_reason;
    const aiScene* targets =
        collada.targets_scene.empty()
            ? nullptr
            : ReadWithAssimp(path, raw_units, progress, files, &collada.targets_scene,
                             &target_importer, &refusals, &target_reason);
    if (progress->Cancelled()) return Fail(path, "cancelled");
    AttachColladaMorphs(collada, targets, DecodeBudget(file_size), const_cast<aiScene*>(scene),
                        &collada_warnings);
  }
  Model model;
  model.source = path;
  progress->Stage(0.75f, 0.98f);
  // The converter frees Assimp's meshes as it goes: the scene is the importer's, but nothing
  // reads it after the conversion and aiScene's destructor skips the freed (null) entries.
  SceneConverter converter(const_cast<aiScene*>(scene), path, /*weld=*/true, progress, files);
  if (!texture_pixels) converter.SkipTexturePixels();
  const bool fbx = !is_gltf && ReadBy(*scene, "FBX");
  if (fbx) {
    RestoreFbxTransforms(files, const_cast<aiScene*>(scene));
    if (!raw_units) converter.SetFrameCorrection(FbxFrameCorrection(*scene));
  }
  if (fbx || (!is_gltf && ReadBy(*scene, "Collada"))) converter.NameMeshesByNode();
  if (!converter.Run(&model, &reason)) return Fail(path, reason);
  importer->FreeScene();  // the Model holds everything now
  std::vector<std::string> warnings = std::move(contents.warnings);
  for (std::string& w : refusals) warnings.push_back(std::move(w));
  for (std::string& w : collada_warnings) warnings.push_back(std::move(w));
  for (std::string& w : converter.warnings()) warnings.push_back(std::move(w));
  return Finished(std::move(model), std::move(warnings), progress, files);
}

}  // namespace

LoadResult LoadModel(const std::string& path) { return LoadModel(path, LoadOptions()); }

LoadResult LoadModel(const std::string& path, const LoadOptions& options) {
  try {
    LoadProgress progress(options.progress, options.cancelled);
    ModelFiles files(path, options.allow_outside_files);
    return LoadModelUnchecked(path, options.raw_units, options.texture_pixels, &progress, &files);
  } catch (const std::bad_alloc&) {
    return Fail(path, "out of memory while loading");
  } catch (const std::exception& e) {
    return Fail(path, std::string("unexpected error while loading: ") + e.what());
  } catch (...) {
    return Fail(path, "unexpected error while loading");
  }
}

}  // namespace assets

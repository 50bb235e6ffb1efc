// Baking: turning a clip with the IK (and the user's edits) layered on top into a plain clip, one
// key per frame at the file's frame rate, so that other tools play back what skelview showed;
// and exporting the edited pose or the baked clip.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "app/core/chain_edit.h"
#include "assets/export/exporter.h"
#include "assets/model/model.h"

namespace app {

// Frames per second of a clip, from the spacing of its keys: the most common interval between
// consecutive keys, rounded to a whole rate between 1 and 240 — when the keys support it. A clip
// whose keys are spread unevenly (a few keys 1/240 s apart, then one an hour later) would make
// that rate ask for far more frames than the clip has keys: a rate is trusted only while the
// clip's duration at it needs at most kFramesPerKeyTrusted frames per key of the clip's
// most-keyed track; otherwise the rate is the one that gives that many frames (at least 1). 30
// when the clip has no two keys.
inline constexpr double kFramesPerKeyTrusted = 10.0;
float EstimateFrameRate(const assets::Clip& clip);

// The most keys a bake may write: frames × joints (each a translation, rotation and scale key).
// Ten million keys take about 600 MB while baked and 400 MB in the file; a ten-minute clip of a
// 100-joint character at 120 fps needs 7.2 million.
inline constexpr uint64_t kMaxBakeKeys = 10'000'000;

// How a clip is baked: at `fps` (EstimateFrameRate, lowered when the bake would write more than
// kMaxBakeKeys keys), `frames` + 1 poses from 0 to the duration. `note` says why the rate is not
// the clip's own (empty otherwise), for a warning.
struct BakePlan {
  float fps = 30.0f;
  int frames = 0;
  std::string note;
};

// Plans the bake of clip `clip_index` of `character` (Character::clip: clips played together
// included). False with one line naming the clip when even 1 frame per second would write more
// than kMaxBakeKeys keys (a clip a million seconds long).
bool PlanBake(const Character& character, int clip_index, BakePlan* plan, std::string* error);

// Called during a bake with the fraction done (0..1); returning false cancels the bake.
using BakeProgress = std::function<bool(float fraction)>;

// The clip `clip_index` of `character` (Character::clip: clips played together included) sampled
// at `fps` from 0 to its duration (the last frame on the duration exactly), each frame evaluated
// like the viewer's (EvaluateEditedFrame with `edit`: the one frame pipeline), as a clip with
// linear translation, rotation and scale keys for every joint. Named "<clip name> (IK)". Sampled
// at its frame times it gives back those poses exactly. A frame whose solve is not finite keeps
// the last finite one (never NaN in a clip).
assets::Clip BakeClip(const Character& character, int clip_index, float fps, const EditState& edit);
// The same, reporting progress; false (and *out unchanged) when `progress` cancels.
bool BakeClip(const Character& character, int clip_index, float fps, const EditState& edit,
              const BakeProgress& progress, assets::Clip* out);

// File ▸ Export and `export`: writes glTF 2.0 to `path` — with `bake` and a clip (clip >= 0) the
// model with that clip replaced by its bake with `edit` (PlanBake, BakeClip; clips played
// together: their bake added after the model's clips) and the other clips kept, otherwise the
// model with `solved_pose` as its rest pose. False with the reason (a bake
// too large, a cancel, the exporter's message; *failure says whether a write failed). *plan, when
// given, receives the bake's plan.
bool ExportEdited(const Character& character, const ik::Pose& solved_pose, int clip,
                  const EditState& edit, bool bake, const std::string& path, std::string* error,
                  const BakeProgress& progress = {}, BakePlan* plan = nullptr,
                  assets::ExportFailure* failure = nullptr);

// The window's bake-and-export on a thread of its own, so that a long bake shows its progress
// and can be cancelled while the window stays live. The model, the character and the edit are
// copied at Start.
class BakeExport {
 public:
  BakeExport() = default;
  ~BakeExport();  // cancels a running export and waits for it
  BakeExport(const BakeExport&) = delete;
  BakeExport& operator=(const BakeExport&) = delete;

  // Starts ExportEdited(character, ..., clip, edit, bake=true, path) on a new thread (a running
  // one is cancelled first).
  void Start(const Character& character, const ik::Pose& solved_pose, int clip,
             const EditState& edit, const std::string& path);
  bool running() const { return thread_.joinable() && !done_.load(); }
  float progress() const { return progress_.load(); }  // 0..1
  const std::string& path() const { return path_; }
  // Asks the bake to stop; it ends (unwritten, "cancelled") at its next frame.
  void Cancel() { cancel_.store(true); }
  bool cancelled() const { return cancel_.load(); }
  // True once for each started export, when it has ended: whether the file was written, and why
  // not.
  bool Finished(bool* ok, std::string* error);

 private:
  std::thread thread_;
  std::atomic<bool> done_{false}, cancel_{false};
  std::atomic<float> progress_{0.0f};
  std::string path_;
  bool ok_ = false;
  std::string error_;
};

// EditState whose constraints pin the given command-line requests (world targets, options and
// joint limits).
EditState EditForRequests(const Character& character, const ConstraintRequests& requests);

}  // namespace app

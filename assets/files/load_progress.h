// Progress reports and cancellation of one LoadModel call, shared by the import pipeline and the
// scene converter. Internal to assets/.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>

namespace assets {

// Progress and cancellation of one load: maps each stage onto its share of 0..1, keeps reports
// monotonic and throttles them to about one per percent.
class LoadProgress {
 public:
  // LoadOptions::progress and LoadOptions::cancelled, which must outlive this object.
  LoadProgress(const std::function<void(float)>& progress, const std::function<bool()>& cancelled)
      : progress_(progress), cancelled_(cancelled) {}

  // Enters the stage covering [begin, end) of the whole load.
  void Stage(float begin, float end) {
    begin_ = begin;
    end_ = end;
    Report(0.0f);
  }
  // Fraction `f` (0..1) of the current stage is done.
  void Report(float f) {
    if (!progress_) return;
    const float total =
        begin_ + (end_ - begin_) * std::clamp(std::isfinite(f) ? f : 0.0f, 0.0f, 1.0f);
    if (total < 1.0f && total < reported_ + 0.01f && reported_ >= 0.0f) return;
    if (total <= reported_) return;
    reported_ = total;
    progress_(total);
  }
  void Done() {
    if (progress_ && reported_ < 1.0f) {
      reported_ = 1.0f;
      progress_(1.0f);
    }
  }
  bool Cancelled() const { return cancelled_ && cancelled_(); }

 private:
  const std::function<void(float)>& progress_;
  const std::function<bool()>& cancelled_;
  float begin_ = 0.0f, end_ = 0.0f;
  float reported_ = -1.0f;
};

}  // namespace assets

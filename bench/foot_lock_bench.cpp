// Foot lock cost: baking the built-in walk (30 frames at 30 fps, 22 joints) with its feet locked —
// finding the contacts, planning the lock and baking every frame through EvaluateEditedFrame, as
// `export --bake --lock-feet` does — against the plain bake; and the whole `contacts` analysis
// (contacts, lock, and the locked clip sampled again for its numbers). Issue 30's goal: a locked
// 30-frame clip bakes in under 50 ms.
#include <benchmark/benchmark.h>

#include <string>

#include "app/core/bake.h"
#include "app/core/foot_lock.h"
#include "assets/builtin_character.h"

namespace {

const assets::Model& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  return model;
}

void BM_BakeWalk30(benchmark::State& state) {
  const assets::Model& model = Builtin();
  for (auto _ : state) {
    assets::Clip clip = app::BakeClip(model, 0, 30.0f, app::EditState());
    benchmark::DoNotOptimize(clip);
  }
}
BENCHMARK(BM_BakeWalk30)->Unit(benchmark::kMillisecond);

void BM_BakeWalk30LockedFeet(benchmark::State& state) {
  const assets::Model& model = Builtin();
  std::string error;
  for (auto _ : state) {
    app::ClipContacts contacts;
    if (!app::FindClipContacts(model, 0, 30.0f, &contacts, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    app::EditState edit;
    edit.foot_lock = app::PlanFootLock(model, contacts, app::FootLockOptions());
    assets::Clip clip = app::BakeClip(model, 0, 30.0f, edit);
    benchmark::DoNotOptimize(clip);
  }
}
BENCHMARK(BM_BakeWalk30LockedFeet)->Unit(benchmark::kMillisecond);

void BM_ContactsReport30(benchmark::State& state) {
  const assets::Model& model = Builtin();
  std::string error;
  app::Ground ramp;
  ramp.kind = app::Ground::Kind::kRamp;
  ramp.degrees = 10.0f;
  for (auto _ : state) {
    app::ClipContacts contacts;
    if (!app::FindClipContacts(model, 0, 30.0f, &contacts, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    app::FootLockOptions options;
    options.ground = ramp;
    const auto plan = app::PlanFootLock(model, contacts, options);
    app::FootLockReport report = app::ReportFootLock(model, contacts, ramp, plan);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_ContactsReport30)->Unit(benchmark::kMillisecond);

}  // namespace

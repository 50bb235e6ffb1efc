// Foot lock cost: baking the built-in walk (30 frames at 30 fps, 22 joints) with its feet locked —
// finding the contacts, planning the lock and baking every frame through the one frame pipeline,
// as `export --bake --lock-feet` does (the character, whose rig facts are found once per load,
// made outside the timed loop) — against the plain bake; and the whole `contacts` analysis
// (contacts, lock, and the locked clip sampled again for its numbers). Issue 30's goal: a locked
// 30-frame clip bakes in under 50 ms.
#include <benchmark/benchmark.h>

#include <string>

#include "app/core/bake.h"
#include "app/core/foot_lock.h"
#include "assets/builtin/builtin_character.h"

namespace {

const app::Character& Builtin() {
  static const assets::Model model = assets::MakeBuiltinCharacter();
  static const app::Character character(model);
  return character;
}

void BM_BakeWalk30(benchmark::State& state) {
  const app::Character& character = Builtin();
  for (auto _ : state) {
    assets::Clip clip = app::BakeClip(character, 0, 30.0f, app::EditState());
    benchmark::DoNotOptimize(clip);
  }
}
BENCHMARK(BM_BakeWalk30)->Unit(benchmark::kMillisecond);

void BM_BakeWalk30LockedFeet(benchmark::State& state) {
  const app::Character& character = Builtin();
  std::string error;
  for (auto _ : state) {
    app::ClipContacts contacts;
    if (!app::FindClipContacts(character, 0, 30.0f, &contacts, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    app::EditState edit;
    edit.foot_lock = app::PlanFootLock(character, contacts, app::FootLockOptions());
    assets::Clip clip = app::BakeClip(character, 0, 30.0f, edit);
    benchmark::DoNotOptimize(clip);
  }
}
BENCHMARK(BM_BakeWalk30LockedFeet)->Unit(benchmark::kMillisecond);

void BM_ContactsReport30(benchmark::State& state) {
  const app::Character& character = Builtin();
  std::string error;
  app::Ground ramp;
  ramp.kind = app::Ground::Kind::kRamp;
  ramp.degrees = 10.0f;
  for (auto _ : state) {
    app::ClipContacts contacts;
    if (!app::FindClipContacts(character, 0, 30.0f, &contacts, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    app::FootLockOptions options;
    options.ground = ramp;
    const auto plan = app::PlanFootLock(character, contacts, options);
    app::FootLockReport report = app::ReportFootLock(character, contacts, ramp, plan);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_ContactsReport30)->Unit(benchmark::kMillisecond);

}  // namespace

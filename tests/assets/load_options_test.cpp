// LoadOptions: progress reports (monotonic, 0..1, ending at exactly 1) and cancellation at every
// stage ("<path>: cancelled"), on a model made by our code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "assets/export/exporter.h"
#include "assets/importer.h"
#include "tests/assets/small_models.h"
#include "tests/test_paths.h"

namespace assets {
namespace {

std::string SmallCharacterFile() {
  static const std::string path = [] {
    const std::string p = testpaths::TempDir() + "/progress_character.glb";
    std::string error;
    EXPECT_TRUE(ExportGltf(testmodels::SmallCharacter(200), p, &error)) << error;
    return p;
  }();
  return path;
}

TEST(LoadOptions, ProgressIsMonotonicFromZeroToExactlyOne) {
  std::vector<float> reports;
  LoadOptions options;
  options.progress = [&](float f) { reports.push_back(f); };
  const LoadResult r = LoadModel(SmallCharacterFile(), options);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_GE(reports.size(), 3u);
  EXPECT_EQ(reports.front(), 0.0f);
  EXPECT_EQ(reports.back(), 1.0f);
  for (size_t i = 1; i < reports.size(); ++i) {
    EXPECT_GT(reports[i], reports[i - 1]) << i;
    EXPECT_LE(reports[i], 1.0f);
  }
  // Throttled to about one report per percent.
  EXPECT_LE(reports.size(), 102u);
}

TEST(LoadOptions, FailedLoadsNeverReportCompletion) {
  std::vector<float> reports;
  LoadOptions options;
  options.progress = [&](float f) { reports.push_back(f); };
  const LoadResult r = LoadModel(testpaths::TempDir() + "/missing.glb", options);
  EXPECT_FALSE(r.ok());
  for (float f : reports) EXPECT_LT(f, 1.0f);
}

TEST(LoadOptions, CancellingAtAnyPollStopsTheLoadWithCancelled) {
  // Count how often a full load polls, then cancel at each of those polls in turn.
  int polls = 0;
  LoadOptions counting;
  counting.cancelled = [&] {
    ++polls;
    return false;
  };
  ASSERT_TRUE(LoadModel(SmallCharacterFile(), counting).ok());
  ASSERT_GE(polls, 4);
  for (int stop_at = 1; stop_at <= polls; ++stop_at) {
    int seen = 0;
    float last_progress = 0.0f;
    LoadOptions options;
    options.cancelled = [&] { return ++seen >= stop_at; };
    options.progress = [&](float f) { last_progress = f; };
    const LoadResult r = LoadModel(SmallCharacterFile(), options);
    EXPECT_FALSE(r.ok()) << "poll " << stop_at;
    EXPECT_EQ(r.error, SmallCharacterFile() + ": cancelled") << "poll " << stop_at;
    EXPECT_LT(last_progress, 1.0f);
  }
}

TEST(LoadOptions, OneArgumentOverloadLoadsTheSameModel) {
  const LoadResult a = LoadModel(SmallCharacterFile());
  LoadOptions options;
  options.progress = [](float) {};
  options.cancelled = [] { return false; };
  const LoadResult b = LoadModel(SmallCharacterFile(), options);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.model->vertex_count(), b.model->vertex_count());
  EXPECT_EQ(a.model->skeleton.names(), b.model->skeleton.names());
  EXPECT_EQ(a.warnings, b.warnings);
}

}  // namespace
}  // namespace assets

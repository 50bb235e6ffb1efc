// Number formatting of the command line's JSON and text: floats printed as their shortest
// decimal that reads back as the same float.
#include "app/core/json_output.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace app {
namespace {

TEST(DumpJson, StringsThatAreNotUtf8AreWrittenWithReplacementsNeverThrown) {
  app::Json doc;
  doc["model"] = "/tmp/mod\xE8les/m.glb";
  doc["joints"] = {"Hips\xFF", "Spine"};
  std::string text;
  ASSERT_NO_THROW(text = app::DumpJson(doc));
  EXPECT_EQ(
      text,
      "{\"model\":\"/tmp/mod\xEF\xBF\xBDles/m.glb\",\"joints\":[\"Hips\xEF\xBF\xBD\",\"Spine\"]}");
  // Read back, it is valid JSON.
  EXPECT_FALSE(app::Json::parse(text, nullptr, false).is_discarded());
  EXPECT_NO_THROW(app::DumpJson(doc, 2));
}

TEST(ShortestFloatText, PrintsWhatWasTypedNotTheWidenedDouble) {
  EXPECT_EQ(ShortestFloatText(0.72f), "0.72");
  EXPECT_EQ(ShortestFloatText(0.28f), "0.28");
  EXPECT_EQ(ShortestFloatText(0.1f), "0.1");
  EXPECT_EQ(ShortestFloatText(-2.5f), "-2.5");
  EXPECT_EQ(ShortestFloatText(0.0f), "0");
  EXPECT_EQ(ShortestFloatText(1.0f), "1");
}

TEST(ShortestFloatText, ReadsBackAsTheSameFloat) {
  // Values that need every one of the nine digits, tiny and huge ones included.
  for (float value : {1.0f / 3.0f, 0.7200001f, 16777217.0f, 1e-30f, 3.4e38f, -123456.79f,
                      std::numeric_limits<float>::denorm_min()}) {
    const std::string text = ShortestFloatText(value);
    EXPECT_EQ(std::strtof(text.c_str(), nullptr), value) << text;
    EXPECT_LE(text.size(), 15u) << text;
  }
}

TEST(ShortestFloatText, NonFiniteValuesAreSpelledOut) {
  EXPECT_EQ(ShortestFloatText(std::numeric_limits<float>::infinity()), "inf");
  EXPECT_EQ(ShortestFloatText(std::nanf("")), "nan");
}

}  // namespace
}  // namespace app

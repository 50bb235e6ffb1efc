// UTF-8 validity of names and paths from files.
#include "assets/text_encoding.h"

#include <gtest/gtest.h>

namespace {

TEST(TextEncoding, AcceptsWellFormedUtf8) {
  for (const char* text : {"", "Hips", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\xA6\xB4",
                           "\xEF\xBF\xBD", "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(assets::IsValidUtf8(text)) << text;
  }
}

TEST(TextEncoding, RefusesStrayTruncatedOverlongSurrogateAndTooLargeSequences) {
  for (const char* text : {"caf\xE9", "\x80", "\xC3", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80",
                           "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80", "\xE2\x82"}) {
    EXPECT_FALSE(assets::IsValidUtf8(text)) << text;
  }
}

TEST(TextEncoding, ReplacesOrEscapesEachBadByte) {
  EXPECT_EQ(assets::ReplaceInvalidUtf8("caf\xE9!"), "caf\xEF\xBF\xBD!");
  EXPECT_EQ(assets::EscapeInvalidUtf8("caf\xE9\xC3\xA9"), "caf\\xE9\xC3\xA9");
  EXPECT_EQ(assets::EscapeInvalidUtf8("\xE2\x82"), "\\xE2\\x82");
  EXPECT_TRUE(assets::IsValidUtf8(assets::ReplaceInvalidUtf8("\xFF\xFE\xC0\xAF")));
}

}  // namespace

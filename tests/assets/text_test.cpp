// Text made safe to store and show: UTF-8 validation and repair, one-line escaping, cuts.
#include "assets/files/text.h"

#include <gtest/gtest.h>

#include <string>

namespace assets {
namespace {

TEST(Utf8, WellFormedTextIsValidAndKept) {
  for (const std::string& text :
       {std::string(), std::string("Hips"), std::string("mixamorig:LeftUpLeg"),
        std::string("Bra\xC3\xA7o"), std::string("\xE8\x85\xB0"),  // U+8170
        std::string("\xF0\x9F\xA6\xB4"), std::string("\xEF\xBF\xBD")}) {
    EXPECT_TRUE(IsValidUtf8(text)) << text;
    EXPECT_EQ(ValidUtf8(text), text);
  }
}

TEST(Utf8, EachBadByteBecomesOneReplacementCharacter) {
  const std::string kFffd = "\xEF\xBF\xBD";
  EXPECT_FALSE(IsValidUtf8("Hips\xFF"));
  EXPECT_EQ(ValidUtf8("Hips\xFF"), "Hips" + kFffd);
  // Latin-1 "Braço": the lone 0xE7 is not a sequence.
  EXPECT_EQ(ValidUtf8("Bra\xE7o"), "Bra" + kFffd + "o");
  // Overlong forms, surrogates, code points above U+10FFFF, truncated sequences, stray
  // continuation bytes.
  for (const std::string& bad :
       {std::string("\xC0\xAF"), std::string("\xE0\x80\xAF"), std::string("\xED\xA0\x80"),
        std::string("\xF4\x90\x80\x80"), std::string("\xE8\x85"), std::string("\x80"),
        std::string("\xF8\x88\x80\x80\x80")}) {
    EXPECT_FALSE(IsValidUtf8(bad)) << testing::PrintToString(bad);
    const std::string repaired = ValidUtf8(bad);
    EXPECT_TRUE(IsValidUtf8(repaired));
    EXPECT_EQ(repaired.size(), bad.size() * kFffd.size()) << "one U+FFFD per byte";
  }
  // Different bad names mostly stay different.
  EXPECT_NE(ValidUtf8("A\xFF"), ValidUtf8("A\xFF\xFE"));
}

TEST(Escaped, ControlCharactersAndBadBytesAreShownOnOneLine) {
  EXPECT_EQ(Escaped("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(Escaped("\x1B[31mred"), "\\x1B[31mred");
  EXPECT_EQ(Escaped("x\x7F"), "x\\x7F");
  EXPECT_EQ(Escaped("Hips\xFF"), "Hips\\xFF");
  // C1 controls (U+009B is a terminal's CSI) in their UTF-8 form.
  EXPECT_EQ(Escaped("a\xC2\x9B"
                    "2J"),
            "a\\xC2\\x9B2J");
  // Printable UTF-8 is kept as it is.
  EXPECT_EQ(Escaped("Bra\xC3\xA7o \xE2\x86\x92 ok"), "Bra\xC3\xA7o \xE2\x86\x92 ok");
  EXPECT_EQ(MessageLine("m.glb\nerror spoofed.glb: fake"), "m.glb\\nerror spoofed.glb: fake");
}

TEST(Escaped, LongTextKeepsItsStartAndEndWithinTheLimit) {
  const std::string path = "/home/user/" + std::string(5000, 'd') + "/model.glb";
  const std::string shown = ShownPath(path);
  EXPECT_LE(shown.size(), kMaxShownPathBytes);
  EXPECT_EQ(shown.substr(0, 11), "/home/user/");
  EXPECT_EQ(shown.substr(shown.size() - 10), "/model.glb");
  EXPECT_NE(shown.find("..."), std::string::npos);
  // A 100 KB option value.
  const std::string value = "LeftFoot=" + std::string(100000, 'x');
  EXPECT_LE(ShownArgument(value).size(), kMaxShownArgumentBytes);
  // Cuts never split a character or an escape.
  const std::string mixed = std::string(300, '\xFF') + std::string(300, '\xC3') + "\xA7";
  const std::string cut = Escaped(mixed, 100);
  EXPECT_LE(cut.size(), 100u);
  EXPECT_TRUE(IsValidUtf8(cut));
  EXPECT_EQ(cut.substr(0, 4), "\\xFF");
  const std::string accents = std::string(200, 'a') + std::string(100, ' ') + "\xC3\xA7\xC3\xA7";
  EXPECT_TRUE(IsValidUtf8(Escaped(accents, 33)));
  EXPECT_EQ(Escaped("short", 100), "short");
}

}  // namespace
}  // namespace assets

// The command line's value formats: --ik specs and --size.
#include "app/core/args.h"

#include <gtest/gtest.h>

namespace {

TEST(ParseIkSpec, ReadsEndAndTarget) {
  app::IkSpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseIkSpec("LeftFoot=0.1,-0.5,2e-1", &spec, &error)) << error;
  EXPECT_EQ(spec.end, "LeftFoot");
  EXPECT_FLOAT_EQ(spec.target.x, 0.1f);
  EXPECT_FLOAT_EQ(spec.target.y, -0.5f);
  EXPECT_FLOAT_EQ(spec.target.z, 0.2f);
  EXPECT_FALSE(spec.pole.has_value());
  EXPECT_FLOAT_EQ(spec.weight, 1.0f);
}

TEST(ParseIkSpec, ReadsPoleAndOptions) {
  app::IkSpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseIkSpec("mixamorig:LeftHand=1,2,3,pole=4,5,6,weight=0.5,soft=0.1,hinge",
                               &spec, &error))
      << error;
  EXPECT_EQ(spec.end, "mixamorig:LeftHand");
  ASSERT_TRUE(spec.pole.has_value());
  EXPECT_EQ(*spec.pole, glm::vec3(4, 5, 6));
  EXPECT_FLOAT_EQ(spec.weight, 0.5f);
  EXPECT_FLOAT_EQ(spec.soft, 0.1f);
  EXPECT_TRUE(spec.hinge);
}

TEST(ParseIkSpec, RejectsMalformedSpecsNamingTheArgument) {
  const char* bad[] = {"LeftFoot",
                       "=1,2,3",
                       "LeftFoot=1,2",
                       "LeftFoot=1,x,3",
                       "LeftFoot=nan,0,0",
                       "LeftFoot=inf,0,0",
                       "LeftFoot=1,2,3,pole=1,2",
                       "LeftFoot=1,2,3,weight=2",
                       "LeftFoot=1,2,3,bogus=1",
                       "LeftFoot=1e999,0,0"};
  for (const char* text : bad) {
    app::IkSpec spec;
    std::string error;
    EXPECT_FALSE(app::ParseIkSpec(text, &spec, &error)) << text;
    EXPECT_NE(error.find(text), std::string::npos) << error;
  }
}

TEST(ParseSize, AcceptsWidthByHeight) {
  int w = 0, h = 0;
  std::string error;
  ASSERT_TRUE(app::ParseSize("640x480", &w, &h, &error));
  EXPECT_EQ(w, 640);
  EXPECT_EQ(h, 480);
}

TEST(ParseSize, RejectsNonsense) {
  for (const char* text : {"640", "0x10", "10x0", "-5x5", "1.5x2", "axb", "20000x10"}) {
    int w = 0, h = 0;
    std::string error;
    EXPECT_FALSE(app::ParseSize(text, &w, &h, &error)) << text;
    EXPECT_NE(error.find("--size"), std::string::npos);
  }
}

}  // namespace

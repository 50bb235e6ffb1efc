// The command line's value formats: --ik specs, --size and the numeric options.
#include "app/core/args.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

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
  for (const char* text : {"640", "0x10", "10x0", "-5x5", "1.5x2", "axb", "40000x10", "1e3x1e3",
                           "nanxnan", "16x", "x16", "99999999999999999999x1"}) {
    int w = 0, h = 0;
    std::string error;
    EXPECT_FALSE(app::ParseSize(text, &w, &h, &error)) << text;
    EXPECT_NE(error.find("--size"), std::string::npos);
  }
}

TEST(CheckImageSize, RefusesSizesBeyondTheDriversLimitNamingSize) {
  std::string error;
  EXPECT_TRUE(app::CheckImageSize(16384, 16384, 16384, &error));
  EXPECT_FALSE(app::CheckImageSize(16385, 10, 16384, &error));
  EXPECT_NE(error.find("--size 16385x10"), std::string::npos) << error;
  EXPECT_NE(error.find("16384x16384"), std::string::npos) << error;
  EXPECT_FALSE(app::CheckImageSize(10, 9000, 8192, &error));
}

TEST(CheckWindowSize, RefusesWindowsSdlCannotOpenNamingSize) {
  std::string error;
  EXPECT_TRUE(app::CheckWindowSize(app::kMaxWindowSide, app::kMaxWindowSide, &error));
  EXPECT_FALSE(app::CheckWindowSize(20000, 10, &error));
  EXPECT_EQ(error, "--size 20000x10: larger than the 16384x16384 pixels SDL opens a window at");
  EXPECT_FALSE(app::CheckWindowSize(10, 16385, &error));
}

TEST(NonFiniteCoordinates, AreRefusedNamingTheSpecInEveryFormat) {
  for (const char* bad : {"nan", "inf", "-inf", "1e39"}) {
    const std::string value = bad;
    std::string error;
    app::IkSpec ik;
    EXPECT_FALSE(app::ParseIkSpec("LeftFoot=0," + value + ",0", &ik, &error)) << value;
    EXPECT_NE(error.find("target coordinate '" + value + "' is not a finite number"),
              std::string::npos)
        << error;
    EXPECT_FALSE(app::ParseIkSpec("LeftFoot=0,0,0,pole=" + value + ",0,0", &ik, &error));
    EXPECT_NE(error.find("pole coordinate '" + value + "'"), std::string::npos) << error;
    app::AimSpec aim;
    for (const std::string& spec : {"Head=" + value + ",0,0", "Head=0,0," + value}) {
      EXPECT_FALSE(app::ParseAimSpec(spec, &aim, &error)) << spec;
      EXPECT_EQ(error.rfind("--aim '" + spec + "': the target needs three finite coordinates", 0),
                0u)
          << error;
    }
    EXPECT_FALSE(app::ParseAimSpec("Head=Hips,up=0," + value + ",0", &aim, &error));
    EXPECT_NE(error.find("up needs three finite coordinates"), std::string::npos) << error;
    app::FabrikSpec fabrik;
    EXPECT_FALSE(app::ParseFabrikSpec("Hips:Head=" + value + ",0,0", &fabrik, &error));
    EXPECT_NE(error.find("the target needs three finite coordinates"), std::string::npos) << error;
    app::LimitSpec limit;
    EXPECT_FALSE(app::ParseLimitSpec("LeftKnee=hinge,1,0,0,-10," + value, &limit, &error));
    EXPECT_EQ(error.rfind("--limit 'LeftKnee=hinge,1,0,0,-10," + value + "'", 0), 0u) << error;
  }
  // A target that is not a number at all is a joint name.
  app::AimSpec aim;
  std::string error;
  ASSERT_TRUE(app::ParseAimSpec("Head=nanny", &aim, &error)) << error;
  EXPECT_EQ(aim.target_joint, "nanny");
  EXPECT_FALSE(aim.target.has_value());
}

TEST(HugeCoordinates, BeyondTheModelBoundAreRefusedNamingTheOption) {
  // 1e30 is finite, but the solvers' float arithmetic overflows on it (1e30 squared).
  for (const char* huge : {"1e30", "-3e38", "1.0000001e7", "2e7"}) {
    const std::string value = huge;
    std::string error;
    app::IkSpec ik;
    EXPECT_FALSE(app::ParseIkSpec("LeftFoot=" + value + ",0,0,body", &ik, &error)) << value;
    EXPECT_NE(error.find("target coordinate '" + value + "' is not a finite number within " +
                         "-1e7..1e7"),
              std::string::npos)
        << error;
    EXPECT_FALSE(app::ParseIkSpec("LeftFoot=0,0,0,pole=0," + value + ",0", &ik, &error));
    EXPECT_NE(error.find("pole coordinate '" + value + "'"), std::string::npos) << error;
    app::PinSpec pin;
    EXPECT_FALSE(app::ParsePinSpec("LeftFoot=" + value + ",0,0", &pin, &error));
    EXPECT_EQ(error.rfind("--pin 'LeftFoot=" + value + ",0,0': the point needs three finite " +
                              "coordinates within -1e7..1e7",
                          0),
              0u)
        << error;
    app::MoveSpec move;
    EXPECT_FALSE(app::ParseMoveSpec("Hips=0," + value + ",0", &move, &error));
    EXPECT_EQ(error.rfind("--move 'Hips=0," + value + ",0'", 0), 0u) << error;
    app::AimSpec aim;
    EXPECT_FALSE(app::ParseAimSpec("Head=0,0," + value, &aim, &error));
    EXPECT_NE(error.find("within -1e7..1e7"), std::string::npos) << error;
    app::FabrikSpec fabrik;
    EXPECT_FALSE(app::ParseFabrikSpec("Hips:Head=" + value + ",0,0", &fabrik, &error));
    EXPECT_NE(error.find("within -1e7..1e7"), std::string::npos) << error;
  }
  // The bound itself is a coordinate.
  app::PinSpec pin;
  std::string error;
  ASSERT_TRUE(app::ParsePinSpec("LeftFoot=1e7,-1e7,0", &pin, &error)) << error;
  EXPECT_EQ(*pin.target, glm::vec3(1e7f, -1e7f, 0.0f));
}

TEST(EchoedValues, AreShortAndOnOneLine) {
  std::string error;
  app::IkSpec ik;
  EXPECT_FALSE(app::ParseIkSpec("LeftFoot=" + std::string(100000, 'x'), &ik, &error));
  EXPECT_LT(error.size(), 400u);
  EXPECT_EQ(error.rfind("--ik 'LeftFoot=xxxx", 0), 0u) << error;
  EXPECT_NE(error.find("xxx...xxx"), std::string::npos) << error;
  // A line break in a value is shown, not printed.
  EXPECT_FALSE(app::ParseIkSpec("Left\nFoot=0,0", &ik, &error));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_NE(error.find("Left\\nFoot"), std::string::npos) << error;
  std::vector<int> clips;
  std::string anim = "0";
  for (int i = 0; i < 4000; ++i) anim += "+0";
  anim += "+x";
  EXPECT_FALSE(app::ParseAnimList(anim, &clips, &error));
  EXPECT_LT(error.size(), 300u) << error;
  long n = 0;
  EXPECT_FALSE(app::ParseWholeNumber("--frames", std::string(5000, '9'), 1, 10, &n, &error));
  EXPECT_LT(error.size(), 300u) << error;
}

TEST(ParseAnimList, TakesOneClipOrSeveralJoinedWithPlus) {
  std::vector<int> clips;
  std::string error;
  ASSERT_TRUE(app::ParseAnimList("1", &clips, &error)) << error;
  EXPECT_EQ(clips, (std::vector<int>{1}));
  ASSERT_TRUE(app::ParseAnimList("0+1+18", &clips, &error)) << error;
  EXPECT_EQ(clips, (std::vector<int>{0, 1, 18}));
  for (const char* bad : {"", "+", "0+", "+1", "0++1", "-1", "1+-2", "x", "0+1.5", "99999999999"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(app::ParseAnimList(bad, &clips, &error));
    EXPECT_NE(error.find("--anim '"), std::string::npos) << error;
    EXPECT_TRUE(clips.empty());
  }
}

TEST(ParseWholeNumber, AcceptsDecimalIntegersInRange) {
  long value = 0;
  std::string error;
  ASSERT_TRUE(app::ParseWholeNumber("--frames", "120", 1, 100000, &value, &error)) << error;
  EXPECT_EQ(value, 120);
  ASSERT_TRUE(app::ParseWholeNumber("--anim", "-1", -1, 5, &value, &error)) << error;
  EXPECT_EQ(value, -1);
  ASSERT_TRUE(app::ParseWholeNumber("--anim", "+3", -1, 5, &value, &error)) << error;
  EXPECT_EQ(value, 3);
}

TEST(ParseWholeNumber, RejectsOutOfRangeAndNonIntegersNamingTheOption) {
  for (const char* text : {"0", "-1", "100001", "", "1e3", "1.0", "12abc", " 5", "nan", "inf",
                           "99999999999999999999999", "-", "+"}) {
    long value = 7;
    std::string error;
    EXPECT_FALSE(app::ParseWholeNumber("--frames", text, 1, 100000, &value, &error)) << text;
    EXPECT_EQ(error,
              std::string("--frames '") + text + "': expected a whole number from 1 to 100000");
    EXPECT_EQ(value, 7);
  }
}

TEST(ParseSeconds, RefusesWhatIsNotAFiniteNumber) {
  for (const char* text : {"nan", "NaN", "inf", "-inf", "1e39", "-1e39", "", "1s", "0x"}) {
    float value = 0.0f;
    std::string error;
    EXPECT_FALSE(app::ParseSeconds("--time", text, &value, &error)) << text;
    EXPECT_EQ(error, std::string("--time '") + text + "': expected a finite number of seconds");
  }
  float value = 1.0f;
  std::string error;
  ASSERT_TRUE(app::ParseSeconds("--time", "-5", &value, &error));
  EXPECT_EQ(value, -5.0f);  // clamping into a clip is ClampClipTime's job
  ASSERT_TRUE(app::ParseSeconds("--time", "-0", &value, &error));
  EXPECT_FALSE(std::signbit(value));
}

TEST(ClampClipTime, ClampsIntoTheClipAndSaysSo) {
  std::string note;
  EXPECT_EQ(app::ClampClipTime(0.5f, 2.0f, "Walk", &note), 0.5f);
  EXPECT_TRUE(note.empty());
  EXPECT_EQ(app::ClampClipTime(-5.0f, 2.0f, "Walk", &note), 0.0f);
  EXPECT_EQ(note, "--time -5: clamped to 0 (clip 'Walk' runs from 0 to 2 s)");
  EXPECT_EQ(app::ClampClipTime(1e30f, 2.5f, "Idle", &note), 2.5f);
  EXPECT_EQ(note, "--time 1e+30: clamped to 2.5 (clip 'Idle' runs from 0 to 2.5 s)");
  EXPECT_EQ(app::ClampClipTime(2.5f, 2.5f, "Idle", &note), 2.5f);
  EXPECT_TRUE(note.empty());
}

}  // namespace

namespace {

TEST(ParseIkSpec, HingeDefaultsToTheRestBendAndBodyIsAFlag) {
  app::IkSpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseIkSpec("LeftFoot=0,0,0", &spec, &error)) << error;
  EXPECT_FALSE(spec.hinge.has_value());  // ResolveIkSpecs decides from the rest pose
  EXPECT_FALSE(spec.body);
  ASSERT_TRUE(app::ParseIkSpec("LeftFoot=0,0,0,nohinge,body", &spec, &error)) << error;
  EXPECT_EQ(spec.hinge, std::optional<bool>(false));
  EXPECT_TRUE(spec.body);
  EXPECT_FALSE(app::ParseIkSpec("LeftFoot=0,0,0,hinge,nohinge", &spec, &error));
  EXPECT_NE(error.find("hinge and nohinge given together"), std::string::npos) << error;
  EXPECT_FALSE(app::ParseIkSpec("LeftFoot=0,0,0,body=1", &spec, &error));
}

TEST(ParsePinSpec, AJointAloneOrAtAPointWithAWeight) {
  app::PinSpec spec;
  std::string error;
  ASSERT_TRUE(app::ParsePinSpec("mixamorig:LeftFoot", &spec, &error)) << error;
  EXPECT_EQ(spec.joint, "mixamorig:LeftFoot");
  EXPECT_FALSE(spec.target.has_value());
  EXPECT_EQ(spec.weight, 1.0f);
  ASSERT_TRUE(app::ParsePinSpec("LeftFoot,weight=3", &spec, &error)) << error;
  EXPECT_FALSE(spec.target.has_value());
  EXPECT_EQ(spec.weight, 3.0f);
  ASSERT_TRUE(app::ParsePinSpec("LeftFoot=1,2,-3,weight=0.5", &spec, &error)) << error;
  EXPECT_EQ(spec.target, std::optional<glm::vec3>(glm::vec3(1, 2, -3)));
  EXPECT_EQ(spec.weight, 0.5f);
  for (const char* bad : {"", "=1,2,3", "LeftFoot=1,2", "LeftFoot=1,2,nan", "LeftFoot,weight=0",
                          "LeftFoot,weight=2000", "LeftFoot=1,2,3,size=4", "LeftFoot,up"}) {
    EXPECT_FALSE(app::ParsePinSpec(bad, &spec, &error)) << bad;
    EXPECT_EQ(error.rfind(std::string("--pin '") + bad + "'", 0), 0u) << error;
  }
}

TEST(ParseMoveSpec, AJointAndExactlyThreeCoordinates) {
  app::MoveSpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseMoveSpec("Hips=0,0.8,0.1", &spec, &error)) << error;
  EXPECT_EQ(spec.joint, "Hips");
  EXPECT_EQ(spec.target, glm::vec3(0.0f, 0.8f, 0.1f));
  for (const char* bad : {"Hips", "Hips=0,1", "Hips=0,1,2,3", "=0,1,2", "Hips=0,inf,1"}) {
    EXPECT_FALSE(app::ParseMoveSpec(bad, &spec, &error)) << bad;
    EXPECT_NE(error.find("--move '"), std::string::npos) << error;
  }
}

TEST(ParseBodySpec, WeightsTurnAndIterationsWithinTheirRanges) {
  app::BodySpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseBodySpec("hips=2,tilt=0,spine=0.5,turn=30,iterations=8", &spec, &error))
      << error;
  EXPECT_EQ(spec.hips, std::optional<float>(2.0f));
  EXPECT_EQ(spec.tilt, std::optional<float>(0.0f));
  EXPECT_EQ(spec.spine, std::optional<float>(0.5f));
  EXPECT_EQ(spec.turn_degrees, std::optional<float>(30.0f));
  EXPECT_EQ(spec.iterations, std::optional<int>(8));
  for (const char* bad : {"hips=-1", "spine=1001", "turn=181", "iterations=0", "iterations=2.5",
                          "neck=1", "hips", ""}) {
    EXPECT_FALSE(app::ParseBodySpec(bad, &spec, &error)) << bad;
    EXPECT_EQ(error.rfind(std::string("--body '") + bad + "'", 0), 0u) << error;
  }
}

TEST(ParseIkSpec, ReadsAKeyTimeAfterTheEndsName) {
  app::IkSpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseIkSpec("LeftFoot@0.5=1,2,3,pole=0,0,1", &spec, &error)) << error;
  EXPECT_EQ(spec.end, "LeftFoot");
  ASSERT_TRUE(spec.time.has_value());
  EXPECT_EQ(*spec.time, 0.5f);
  EXPECT_EQ(spec.target, glm::vec3(1, 2, 3));
  ASSERT_TRUE(app::ParseIkSpec("LeftFoot=1,2,3", &spec, &error)) << error;
  EXPECT_FALSE(spec.time.has_value());
  // A name holding '@' that is not followed by a number stays a name.
  ASSERT_TRUE(app::ParseIkSpec("rig@hand=1,2,3", &spec, &error)) << error;
  EXPECT_EQ(spec.end, "rig@hand");
  EXPECT_FALSE(spec.time.has_value());
  app::PinSpec pin;
  ASSERT_TRUE(app::ParsePinSpec("Hips@-1e-1=0,1,0,weight=2", &pin, &error)) << error;
  EXPECT_EQ(pin.joint, "Hips");
  EXPECT_EQ(*pin.time, -0.1f);
  EXPECT_EQ(pin.weight, 2.0f);
}

TEST(ParseIkSpec, RejectsAKeyTimeThatIsNotAFiniteNumberNamingTheArgument) {
  app::IkSpec spec;
  app::PinSpec pin;
  std::string error;
  for (const std::string time : {"nan", "inf", "-inf", "1e10"}) {
    EXPECT_FALSE(app::ParseIkSpec("LeftFoot@" + time + "=1,2,3", &spec, &error)) << time;
    EXPECT_EQ(error, "--ik 'LeftFoot@" + time + "=1,2,3': the key time '" + time +
                         "' is not a finite number of seconds within +-1e9");
    EXPECT_FALSE(app::ParsePinSpec("LeftFoot@" + time + "=1,2,3", &pin, &error)) << time;
    EXPECT_EQ(error.rfind("--pin 'LeftFoot@" + time + "=1,2,3': ", 0), 0u) << error;
  }
  EXPECT_FALSE(app::ParseIkSpec("@1=1,2,3", &spec, &error));
  EXPECT_NE(error.find("missing the end joint name"), std::string::npos) << error;
  // A pin's key needs its point.
  EXPECT_FALSE(app::ParsePinSpec("LeftFoot@1", &pin, &error));
  EXPECT_EQ(error,
            "--pin 'LeftFoot@1': a key (@T) needs the point: JOINT@T=X,Y,Z (expected "
            "JOINT[@T][=X,Y,Z][,weight=W])");
}

}  // namespace

// The report formats of `skelview check`: text lines and summary, one JSON line per file with no
// timings, SARIF 2.1.0's required structure, JUnit XML, and file paths as URIs; bytes that are not
// UTF-8 never leave a report invalid.
#include "app/core/check_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace {

using app::FileReport;
using app::Finding;
using app::Severity;
using json = nlohmann::json;
using testing::HasSubstr;

FileReport Broken() {
  FileReport report;
  report.file = "models/broken.glb";
  report.findings = {{"load", Severity::kError, "models/broken.glb: truncated", ""}};
  return report;
}

FileReport Warned() {
  FileReport report;
  report.file = "models/hero walk.gltf";
  report.loaded = true;
  report.findings = {
      {"weights.unweighted", Severity::kWarning, "3 vertices <&> have no weight",
       "mesh 'Body', vertex 4"},
      {"clip.root-motion", Severity::kNote, "clip 'Walk' moves the hips", "clip 'Walk'"}};
  return report;
}

TEST(CheckReport, TextIsOneLinePerFindingAndASummary) {
  EXPECT_EQ(app::TextLines(Broken()),
            "models/broken.glb: error: models/broken.glb: truncated [load]\n");
  FileReport clean;
  clean.file = "ok.glb";
  clean.loaded = true;
  EXPECT_EQ(app::TextLines(clean), "");
  app::FindingCounts counts;
  for (const FileReport& r : {Broken(), Warned(), clean}) counts.Add(r);
  EXPECT_EQ(app::TextSummary(counts),
            "checked 3 files: 1 error, 1 warning, 1 note (1 file with errors)\n");
}

TEST(CheckReport, JsonLineHoldsTheFileAsGivenAndEachFinding) {
  const std::string line = app::JsonLine(Warned());
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  const json doc = json::parse(line);
  EXPECT_EQ(doc["file"], "models/hero walk.gltf");
  EXPECT_EQ(doc["loaded"], true);
  ASSERT_EQ(doc["findings"].size(), 2u);
  EXPECT_EQ(doc["findings"][0], json({{"rule", "weights.unweighted"},
                                      {"severity", "warning"},
                                      {"message", "3 vertices <&> have no weight"},
                                      {"location", "mesh 'Body', vertex 4"}}));
  EXPECT_TRUE(json::parse(app::JsonLine(Broken()))["findings"][0]["location"].is_null());
  // Nothing that changes from run to run.
  for (const char* key : {"time", "seconds", "duration", "ms"}) {
    EXPECT_EQ(line.find(key), std::string::npos) << key;
  }
  EXPECT_EQ(app::JsonLine(Warned()), line);
}

TEST(CheckReport, BytesThatAreNotUtf8StayValidInEveryFormat) {
  FileReport report;
  report.file = "caf\xE9.glb";
  report.findings = {{"names.not-utf8", Severity::kWarning, "joint 'x\xFF'", "joint 'x\xFF'"}};
  EXPECT_NO_THROW(json::parse(app::JsonLine(report)));
  EXPECT_NO_THROW(json::parse(app::SarifLog({report}, app::RuleConfig())));
  EXPECT_THAT(app::JunitXml({report}), HasSubstr("caf\xEF\xBF\xBD.glb"));
  EXPECT_THAT(app::TextLines(report), HasSubstr("caf\xEF\xBF\xBD.glb"));
  EXPECT_EQ(app::PathUri(report.file), "caf%E9.glb");
}

TEST(CheckReport, SarifHasTheDriverItsRulesAndOneResultPerFinding) {
  app::RuleConfig config;
  config.severity[static_cast<size_t>(app::FindRule("clip.root-motion"))] = Severity::kOff;
  const json log = json::parse(app::SarifLog({Broken(), Warned()}, config));
  EXPECT_EQ(log["version"], "2.1.0");
  ASSERT_EQ(log["runs"].size(), 1u);
  const json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "skelview");
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), app::Rules().size());
  for (size_t i = 0; i < rules.size(); ++i) {
    EXPECT_EQ(rules[i]["id"], app::Rules()[i].id);
    EXPECT_FALSE(rules[i]["shortDescription"]["text"].get<std::string>().empty());
  }
  const json& off = rules[static_cast<size_t>(app::FindRule("clip.root-motion"))];
  EXPECT_EQ(off["defaultConfiguration"]["enabled"], false);
  EXPECT_EQ(off["defaultConfiguration"]["level"], "none");
  ASSERT_EQ(run["results"].size(), 3u);
  const json& first = run["results"][0];
  EXPECT_EQ(first["ruleId"], "load");
  EXPECT_EQ(first["ruleIndex"], 0);
  EXPECT_EQ(first["level"], "error");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "models/broken.glb");
  const json& second = run["results"][1];
  EXPECT_EQ(second["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "models/hero%20walk.gltf");
  EXPECT_EQ(second["locations"][0]["physicalLocation"]["artifactLocation"]["index"], 1);
  EXPECT_EQ(second["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "mesh 'Body', vertex 4");
  EXPECT_EQ(run["artifacts"].size(), 2u);
}

TEST(CheckReport, PathsBecomeUriReferences) {
  EXPECT_EQ(app::PathUri("a/b.glb"), "a/b.glb");
  EXPECT_EQ(app::PathUri("/srv/assets/a b#1.glb"), "file:///srv/assets/a%20b%231.glb");
  EXPECT_EQ(app::PathUri("c:x.glb"), "./c:x.glb");  // not a scheme
  EXPECT_EQ(app::PathUri("100%.glb"), "100%25.glb");
}

TEST(CheckReport, JunitHasATestcasePerFileAndAFailurePerFileWithErrors) {
  const std::string xml = app::JunitXml({Broken(), Warned()});
  EXPECT_THAT(xml, HasSubstr("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
  EXPECT_THAT(xml, HasSubstr("tests=\"2\" failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"skelview.check\" name=\"models/broken.glb\">"));
  EXPECT_THAT(xml, HasSubstr("<failure type=\"error\" message=\"1 error\">"));
  EXPECT_THAT(xml, HasSubstr("3 vertices &lt;&amp;&gt; have no weight"));
  size_t testcases = 0, failures = 0;
  for (size_t at = 0; (at = xml.find("<testcase ", at)) != std::string::npos; ++at) ++testcases;
  for (size_t at = 0; (at = xml.find("<failure ", at)) != std::string::npos; ++at) ++failures;
  EXPECT_EQ(testcases, 2u);
  EXPECT_EQ(failures, 1u);
}

TEST(CheckReport, FormatNames) {
  app::CheckFormat format = app::CheckFormat::kText;
  EXPECT_TRUE(app::ParseCheckFormat("sarif", &format));
  EXPECT_EQ(format, app::CheckFormat::kSarif);
  EXPECT_TRUE(app::ParseCheckFormat("junit", &format));
  EXPECT_EQ(format, app::CheckFormat::kJunit);
  EXPECT_FALSE(app::ParseCheckFormat("json", &format));
}

}  // namespace

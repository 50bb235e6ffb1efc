// Text, JSON lines, SARIF 2.1.0 and JUnit XML from the findings of `skelview check`.
#include "app/core/check_report.h"

#include <cinttypes>
#include <cstdio>

#include "app/core/json_output.h"
#include "assets/files/text.h"

namespace app {

namespace {

std::string Dumped(const Json& json, int indent = -1) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// The text of a finding line (one line: control characters become spaces).
std::string OneLine(const std::string& text) {
  std::string out = assets::ValidUtf8(text);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  }
  return out;
}

std::string FindingLine(const std::string& file, const Finding& f) {
  return OneLine(file) + ": " + SeverityName(f.severity) + ": " + OneLine(f.message) + " [" +
         f.rule + "]\n";
}

const char* SarifLevel(Severity severity) {
  return severity == Severity::kOff ? "none" : SeverityName(severity);
}

// Text for XML character data and attribute values: UTF-8, characters XML 1.0 cannot hold
// replaced, markup escaped.
std::string XmlText(const std::string& text) {
  const std::string valid = assets::ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (u < 0x20 && c != '\n' && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace

bool ParseCheckFormat(const std::string& text, CheckFormat* format) {
  if (text == "text") {
    *format = CheckFormat::kText;
  } else if (text == "jsonl") {
    *format = CheckFormat::kJsonl;
  } else if (text == "sarif") {
    *format = CheckFormat::kSarif;
  } else if (text == "junit") {
    *format = CheckFormat::kJunit;
  } else {
    return false;
  }
  return true;
}

void FindingCounts::Add(const FileReport& report) {
  ++files;
  bool error = false;
  for (const Finding& f : report.findings) {
    errors += f.severity == Severity::kError ? 1 : 0;
    warnings += f.severity == Severity::kWarning ? 1 : 0;
    notes += f.severity == Severity::kNote ? 1 : 0;
    error = error || f.severity == Severity::kError;
  }
  files_with_errors += error ? 1 : 0;
}

std::string TextLines(const FileReport& report) {
  std::string out;
  for (const Finding& f : report.findings) out += FindingLine(report.file, f);
  return out;
}

std::string TextSummary(const FindingCounts& counts) {
  char line[256];
  std::snprintf(line, sizeof(line),
                "checked %" PRIu64 " %s: %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s (%" PRIu64
                " %s with errors)\n",
                counts.files, counts.files == 1 ? "file" : "files", counts.errors,
                counts.errors == 1 ? "error" : "errors", counts.warnings,
                counts.warnings == 1 ? "warning" : "warnings", counts.notes,
                counts.notes == 1 ? "note" : "notes", counts.files_with_errors,
                counts.files_with_errors == 1 ? "file" : "files");
  return line;
}

std::string JsonLine(const FileReport& report) {
  Json line;
  line["file"] = report.file;
  line["loaded"] = report.loaded;
  Json findings = Json::array();
  for (const Finding& f : report.findings) {
    Json finding;
    finding["rule"] = f.rule;
    finding["severity"] = SeverityName(f.severity);
    finding["message"] = f.message;
    finding["location"] = f.location.empty() ? Json(nullptr) : Json(f.location);
    findings.push_back(std::move(finding));
  }
  line["findings"] = std::move(findings);
  return Dumped(line) + "\n";
}

std::string PathUri(const std::string& path) {
  std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                       std::string_view("-._~!$&'()*+,;=:@/").find(c) != std::string_view::npos;
    if (plain) {
      out += c;
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", static_cast<unsigned>(u));
      out += escaped;
    }
  }
  // A relative path whose first segment holds ':' would read as a scheme: "./" keeps it a path.
  if (out.empty() || (path[0] != '/' && out.find(':') < out.find('/'))) out = "./" + out;
  return out;
}

std::string SarifLog(const std::vector<FileReport>& reports, const RuleConfig& config) {
  const std::vector<RuleInfo>& rules = Rules();
  Json driver;
  driver["name"] = "skelview";
  Json rule_list = Json::array();
  for (size_t i = 0; i < rules.size(); ++i) {
    Json rule;
    rule["id"] = rules[i].id;
    rule["shortDescription"] = {{"text", rules[i].description}};
    rule["defaultConfiguration"] = {{"enabled", config.severity[i] != Severity::kOff},
                                    {"level", SarifLevel(config.severity[i])}};
    rule_list.push_back(std::move(rule));
  }
  driver["rules"] = std::move(rule_list);
  Json artifacts = Json::array();
  Json results = Json::array();
  for (size_t a = 0; a < reports.size(); ++a) {
    const FileReport& report = reports[a];
    const std::string uri = PathUri(report.file);
    artifacts.push_back({{"location", {{"uri", uri}}}});
    for (const Finding& f : report.findings) {
      Json location;
      location["physicalLocation"] = {{"artifactLocation", {{"uri", uri}, {"index", a}}}};
      if (!f.location.empty()) {
        location["logicalLocations"] = Json::array({{{"fullyQualifiedName", f.location}}});
      }
      Json result;
      result["ruleId"] = f.rule;
      result["ruleIndex"] = FindRule(f.rule);
      result["level"] = SarifLevel(f.severity);
      result["message"] = {{"text", f.message}};
      result["locations"] = Json::array({std::move(location)});
      results.push_back(std::move(result));
    }
  }
  Json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["artifacts"] = std::move(artifacts);
  run["results"] = std::move(results);
  Json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array({std::move(run)});
  return Dumped(log, 2) + "\n";
}

std::string JunitXml(const std::vector<FileReport>& reports) {
  FindingCounts counts;
  for (const FileReport& report : reports) counts.Add(report);
  std::string cases;
  for (const FileReport& report : reports) {
    std::string failures, others;
    uint64_t errors = 0;
    for (const Finding& f : report.findings) {
      if (f.severity == Severity::kError) {
        failures += FindingLine(report.file, f);
        ++errors;
      } else {
        others += FindingLine(report.file, f);
      }
    }
    cases += "    <testcase classname=\"skelview.check\" name=\"" + XmlText(report.file) + "\">\n";
    if (errors > 0) {
      char message[64];
      std::snprintf(message, sizeof(message), "%" PRIu64 " %s", errors,
                    errors == 1 ? "error" : "errors");
      cases += "      <failure type=\"error\" message=\"" + std::string(message) + "\">" +
               XmlText(failures) + "</failure>\n";
    }
    if (!others.empty()) cases += "      <system-out>" + XmlText(others) + "</system-out>\n";
    cases += "    </testcase>\n";
  }
  char header[256];
  std::snprintf(header, sizeof(header),
                "tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"0\" skipped=\"0\"",
                counts.files, counts.files_with_errors);
  return std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") +
         "<testsuites name=\"skelview check\" " + header + ">\n" +
         "  <testsuite name=\"skelview check\" " + header + ">\n" + cases + "  </testsuite>\n" +
         "</testsuites>\n";
}

}  // namespace app

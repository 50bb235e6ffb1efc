// The outputs of `skelview check`: text for people, JSON lines (one per input file, comparable
// byte for byte between runs: no timings, no absolute paths added), SARIF 2.1.0 for code-scanning
// views, and JUnit XML for CI test reports. Names and paths from files may be any bytes: every
// format writes valid UTF-8 (invalid bytes become U+FFFD, or %XX in SARIF's URIs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/core/rig_rules.h"

namespace app {

enum class CheckFormat { kText, kJsonl, kSarif, kJunit };

// "text", "jsonl", "sarif", "junit"; false for any other text.
bool ParseCheckFormat(const std::string& text, CheckFormat* format);

// The findings of one input file, which is named as it was given (or as the directory walk
// joined it to the directory given).
struct FileReport {
  std::string file;
  bool loaded = false;
  std::vector<Finding> findings;
};

// Errors, warnings and notes over some reports.
struct FindingCounts {
  uint64_t files = 0, files_with_errors = 0;
  uint64_t errors = 0, warnings = 0, notes = 0;
  void Add(const FileReport& report);
};

// Text: one line per finding, "FILE: SEVERITY: MESSAGE [RULE]"; nothing for a file without
// findings.
std::string TextLines(const FileReport& report);
// Text's last line: "checked N files: E errors, W warnings, N notes (F files with errors)".
std::string TextSummary(const FindingCounts& counts);

// One JSON line (with its "\n"): {"file": FILE, "loaded": BOOL, "findings": [{"rule",
// "severity", "message", "location"}]} with location null when the finding is about the whole
// file.
std::string JsonLine(const FileReport& report);

// A SARIF 2.1.0 log with one run: tool.driver "skelview" with every rule (id, description, the
// configured level, enabled), one artifact per file, and one result per finding (ruleId,
// ruleIndex, level, message, the file as artifactLocation.uri with its artifact index, the
// location inside the file as a logical location).
std::string SarifLog(const std::vector<FileReport>& reports, const RuleConfig& config);

// A file path as a URI reference: a relative path stays relative, an absolute one becomes
// file:///...; bytes other than unreserved characters, sub-delimiters, ':', '@' and '/' are
// percent-encoded.
std::string PathUri(const std::string& path);

// JUnit XML: one testsuite "skelview check", one testcase per file (classname "skelview.check",
// name the file), a <failure> listing its errors when it has any, its warnings and notes in
// <system-out>.
std::string JunitXml(const std::vector<FileReport>& reports);

}  // namespace app

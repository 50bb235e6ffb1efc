// The rules of `skelview check`: each has a stable id, a default severity and a one-line
// description; a config file ({"rules": {"ID": "off|note|warning|error"}}) changes severities.
// A finding is one problem a rule found in one file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace app {

// Ordered: a finding is an error (exit code 1), a warning or a note; kOff turns its rule off.
enum class Severity { kOff, kNote, kWarning, kError };

// "off", "note", "warning", "error".
const char* SeverityName(Severity severity);
// The reverse of SeverityName; false for any other text.
bool ParseSeverity(std::string_view text, Severity* severity);

struct RuleInfo {
  const char* id;           // e.g. "weights.unweighted": stable, used in every output format
  Severity severity;        // the default
  const char* description;  // one line, for --list-rules and SARIF's rule descriptions
};

// Every rule, in a fixed order (load first, then by topic): the order of --list-rules and of
// SARIF's rule list.
const std::vector<RuleInfo>& Rules();
// Index of the rule with this id in Rules(), or -1.
int FindRule(std::string_view id);

// The severity of each rule, indexed like Rules().
struct RuleConfig {
  std::vector<Severity> severity;

  RuleConfig();                            // every rule at its default
  Severity Of(std::string_view id) const;  // kOff for an unknown id
};

// Reads a config document: {"rules": {"ID": "off|note|warning|error", ...}}. Keys other than
// "rules", unknown rule ids and other severities are errors. False with one line in *error that
// names `source` (the config file's path) and the reason; `config` is then unchanged.
bool ParseRuleConfig(const std::string& text, const std::string& source, RuleConfig* config,
                     std::string* error);

// One problem found in one file.
struct Finding {
  std::string rule;  // a RuleInfo id
  Severity severity = Severity::kWarning;
  std::string message;   // one line
  std::string location;  // inside the file ("joint 'LeftLeg'", "mesh 'Body'"); empty: the file
};

}  // namespace app

// The command line's contract for bad input, checked on one run of the skelview binary: it ends in
// time, exits with code 2 (not a signal) and prints exactly one line on stderr, which names the
// problem (`expected`) and shows no NaN of its own (a 'nan' inside a quoted piece of the input,
// as in --ik 'LeftFoot=0,nan,0', is fine).
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <vector>

#include "tests/run_process.h"

namespace testsupport {

inline void ExpectBadInput(const testproc::Result& r, const std::string& expected) {
  ASSERT_FALSE(r.timed_out) << "timed out";
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, testing::HasSubstr(expected));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (size_t at = r.err.find("nan"); at != std::string::npos; at = r.err.find("nan", at + 1)) {
    const char before = at > 0 ? r.err[at - 1] : ' ';
    const char after = at + 3 < r.err.size() ? r.err[at + 3] : ' ';
    const bool in_word = std::isalpha(static_cast<unsigned char>(before)) ||
                         std::isalpha(static_cast<unsigned char>(after));
    const bool quoted = std::count(r.err.begin(), r.err.begin() + long(at), '\'') % 2 == 1;
    EXPECT_TRUE(in_word || quoted) << "a NaN in the message: " << r.err;
  }
}

// Runs skelview with `args` (at most 20 s) and checks the run as above.
inline void ExpectBadInput(const std::vector<std::string>& args, const std::string& expected) {
  ExpectBadInput(testproc::Skelview(args, 20.0), expected);
}

}  // namespace testsupport

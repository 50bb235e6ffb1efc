// Paths tests use: the shared third-party models and the build's own binary.
#pragma once

#include <string>

namespace testpaths {

// Directory of the shared third-party test models ($SKELVIEW_MODELS overrides), or "" when it does
// not exist. Tests that need it GTEST_SKIP() with a message naming the path when it is "".
std::string SharedModels();
// SharedModels() + "/" + relative, or "" when that file does not exist.
std::string SharedModel(const std::string& relative);
// Path of the skelview executable in this build.
std::string SkelviewBinary();
// A fresh scratch directory for this test process.
std::string TempDir();

}  // namespace testpaths

// Skips the current test, saying what is missing, when `path` is empty.
#define SKIP_IF_NO_MODEL(path, what)                                                       \
  do {                                                                                     \
    if ((path).empty())                                                                    \
      GTEST_SKIP() << "shared test model " << (what) << " not found under "                \
                   << SKELVIEW_SHARED_MODELS << " (set SKELVIEW_MODELS to its directory)"; \
  } while (0)

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
// The source tree's root, the build directory, and where the shared models are expected (whether
// or not they are there). Only test_paths.cpp is compiled with these paths, so that the other
// test sources compile the same in every checkout (and a compiler cache serves them all).
std::string SourceDir();
std::string BinaryDir();
std::string ExpectedSharedModels();

}  // namespace testpaths

// Skips the current test, saying what is missing, when `path` is empty.
#define SKIP_IF_NO_MODEL(path, what)                                        \
  do {                                                                      \
    if ((path).empty())                                                     \
      GTEST_SKIP() << "shared test model " << (what) << " not found under " \
                   << testpaths::ExpectedSharedModels()                     \
                   << " (set SKELVIEW_MODELS to its directory)";            \
  } while (0)

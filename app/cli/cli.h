// The command-line front end: parses arguments (DESIGN.md's contract) and runs the viewer or one
// of the headless commands.
#pragma once

namespace app {

// Returns the process exit code.
int RunCommandLine(int argc, char** argv);

}  // namespace app

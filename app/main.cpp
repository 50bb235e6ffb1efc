// skelview entry point: everything happens in app::RunCommandLine.
#include "app/cli/cli.h"

#if defined(__SANITIZE_ADDRESS__)
// Under AddressSanitizer (the test build): Mesa's GL drivers are unloaded at exit, leaving
// allocations LeakSanitizer cannot attribute, so leak detection is off for the program itself.
extern "C" const char* __asan_default_options() { return "detect_leaks=0:abort_on_error=1"; }
#endif

int main(int argc, char** argv) { return app::RunCommandLine(argc, argv); }

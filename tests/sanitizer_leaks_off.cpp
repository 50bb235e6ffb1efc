// Sanitizer defaults for the GL suites: Mesa's drivers are unloaded at exit, leaving allocations
// LeakSanitizer cannot attribute, so leak detection is off here (the ik and assets suites keep
// it on). ASAN_OPTIONS in the environment still overrides.
extern "C" const char* __asan_default_options() { return "detect_leaks=0:abort_on_error=1"; }

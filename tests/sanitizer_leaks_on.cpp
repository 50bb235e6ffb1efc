// Sanitizer defaults for the suites whose allocations are all ours (ik, assets): leak detection
// on, with the leaks inside Debian's Assimp 5.2.5 itself (scenes it does not free when a read
// fails half-way) suppressed. ASAN_OPTIONS / LSAN_OPTIONS in the environment still override.
extern "C" const char* __asan_default_options() { return "detect_leaks=1:abort_on_error=1"; }
extern "C" const char* __lsan_default_suppressions() { return "leak:libassimp\n"; }

#!/usr/bin/env bash
# One entry point for the README's two commands:
#   scripts/dev.sh run [skelview arguments]   install what is missing, build, open the viewer
#   scripts/dev.sh test [--no-sanitizers]     install, check the C++ formatting, build, run the
#                                             whole suite, then again under AddressSanitizer +
#                                             UndefinedBehaviorSanitizer
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

configure_and_build() {  # build_dir, extra cmake args...
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "$@" \
    > "$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; exit 1; }
  cmake --build "$dir" -j "$jobs"
}

format_check() {  # every tracked C++ file as .clang-format says, before anything is built
  local files
  mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.inc')
  [ ${#files[@]} -gt 0 ] || { echo "dev.sh: no tracked C++ files (not a git checkout?)" >&2; exit 1; }
  clang-format --dry-run --Werror "${files[@]}" ||
    { echo "dev.sh: run clang-format -i on the files above" >&2; exit 1; }
}

cmd=${1:-run}
shift || true
bash scripts/install-deps.sh

# The compiler cache (installed just above by install-deps.sh, so a first run uses it too):
# sources unchanged since an earlier build, in this checkout or in another one of the same tree,
# are not compiled again. Paths count relative to the checkout, so that checkouts elsewhere share
# the cache. A launcher set in the environment wins.
launcher=()
if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

case "$cmd" in
  run)
    configure_and_build build
    exec build/app/skelview "$@"
    ;;
  test)
    sanitizers=1
    [ "${1:-}" = "--no-sanitizers" ] && sanitizers=0
    format_check
    configure_and_build build
    (cd build && ctest --output-on-failure -j "$jobs" --timeout 600)
    if [ $sanitizers = 1 ]; then
      echo "== the same suite under AddressSanitizer + UndefinedBehaviorSanitizer =="
      # -O1, and line tables only for the debug information (enough for the sanitizers' stack
      # traces), keep the sanitizer build quick to compile (asserts stay on: SKELVIEW_SANITIZE
      # turns them on itself); benchmarks only run in the normal build.
      configure_and_build build-asan -DSKELVIEW_SANITIZE=ON -DSKELVIEW_BUILD_BENCH=OFF \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1"
      # Leak detection is set per program (tests/sanitizer_leaks_*.cpp, app/main.cpp).
      (cd build-asan && UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
         ctest --output-on-failure -j "$jobs" --timeout 900)
    fi
    echo "skelview: all tests passed"
    ;;
  *)
    echo "usage: scripts/dev.sh run [args] | test [--no-sanitizers]" >&2
    exit 2
    ;;
esac

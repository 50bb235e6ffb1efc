#!/usr/bin/env bash
# Installs the Debian packages skelview builds, runs and tests with, only those missing.
# Idempotent and non-interactive; uses sudo when not run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format ccache
  libsdl2-dev libglm-dev libimgui-dev libassimp-dev python3-glad
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libstb-dev
  libmeshoptimizer-dev gltfpack libwebp-dev libdraco-dev
  libgl1-mesa-dri libegl-mesa0 libegl1 libgl-dev
  xvfb xdotool imagemagick x11-utils python3 libxdamage1
  assimp-testmodels
  # Tests: the independent reference for FBX and Collada (tests/reference/, headless Blender).
  blender python3-numpy
  # Tests: skelview check's SARIF checked against the SARIF 2.1.0 schema (tests/reference/).
  python3-jsonschema
)
# Node.js runs the Khronos glTF Validator in the tests (a Node.js from elsewhere, with its own npm,
# does as well).
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

# The Khronos glTF Validator and the SARIF 2.1.0 JSON schema (in @microsoft/jest-sarif), from npm
# (test only), into the user's cache, not the checkout: tests/reference/validate_exports.py and
# validate_sarif.py find them there.
install_validator() {
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/skelview/npm"
  command -v npm >/dev/null 2>&1 || return 0
  mkdir -p "$dir"
  [ -f "$dir/node_modules/gltf-validator/package.json" ] ||
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
      gltf-validator@2.0.0-dev.3.10 >&2 ||
    echo "install-deps: could not install gltf-validator; its test will be skipped" >&2
  [ -f "$dir/node_modules/@microsoft/jest-sarif/package.json" ] ||
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
      @microsoft/jest-sarif@1.0.0-beta.0 >&2 ||
    echo "install-deps: could not install the SARIF schema; its test will be skipped" >&2
}

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  install_validator
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; then
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
install_validator

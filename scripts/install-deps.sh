#!/usr/bin/env bash
# Installs the Debian packages skelview builds, runs and tests with, only those missing.
# Idempotent and non-interactive; uses sudo when not run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format
  libsdl2-dev libglm-dev libimgui-dev libassimp-dev python3-glad
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libstb-dev
  libmeshoptimizer-dev gltfpack
  libgl1-mesa-dri libegl-mesa0 libegl1 libgl-dev
  xvfb xdotool imagemagick x11-utils python3 libxdamage1
  assimp-testmodels
  # Tests: the independent reference for FBX and Collada (tests/reference/, headless Blender).
  blender python3-numpy
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
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

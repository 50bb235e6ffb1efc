#!/usr/bin/env bash
# Import speed and memory: for CesiumMan, the largest shared test model and generated skinned
# glTFs of 10k, 100k and 1M vertices (written by bench/import_bench into a temporary directory,
# never committed), the median wall time of RUNS runs and the peak resident memory of
#   assimp  Assimp's own ReadFile with the importer's flags (import_bench --assimp)
#   +tex    the same plus decoding the base colour textures Assimp hands over still encoded: the
#           work a viewer built on Assimp alone does before it can draw (--assimp-textures)
#   load    assets::LoadModel alone (import_bench --load)
#   info    `skelview info MODEL` (command to model loaded and printed)
#   frame   `skelview --frames 1 MODEL` (command to first frame; SDL's offscreen driver, no X)
# and the decoded vertex data of the loaded Model (positions, normals, uvs, joints, weights).
# Goals checked: load time within 30% of Assimp's (with its textures decoded, as LoadModel does),
# peak memory under 3x the decoded vertex data.
#   usage: scripts/measure_import.sh [BUILD_DIR] [RUNS]    (defaults: build, 5)
set -euo pipefail

build=${1:-build}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
models=${SKELVIEW_MODELS:-$root/../shared/models}
skelview=$build/app/skelview
bench=$build/bench/import_bench
for tool in "$skelview" "$bench" /usr/bin/time; do
  [[ -x $tool ]] || { echo "measure_import: $tool not found (build first)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The largest model file under the shared models (what Assimp reads as a model).
largest=$(find "$models" -type f \( -iname '*.glb' -o -iname '*.gltf' -o -iname '*.fbx' \
  -o -iname '*.x' -o -iname '*.dae' \) -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 |
  cut -d' ' -f2-)
inputs=("$models/khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb")
[[ -n $largest ]] && inputs+=("$largest")
for n in 10000 100000 1000000; do
  "$bench" --generate "$tmp/generated_$n.glb" "$n"
  inputs+=("$tmp/generated_$n.glb")
done

# run LABEL CMD...: median seconds and largest peak RSS (KiB) over $runs runs -> "$secs $kib"
run() {
  local times=() peak=0 start end kib
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    if ! /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err"; then
      echo "failed: $* ($(tail -1 "$tmp/err"))" >&2
      echo "nan 0"
      return
    fi
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
    kib=$(tail -1 "$tmp/rss")
    (( kib > peak )) && peak=$kib
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  echo "$(awk -v us="$median" 'BEGIN { printf "%.3f", us / 1e6 }') $peak"
}

printf '%-22s %8s %9s | %-15s %-6s %-15s %-15s %-15s | %9s %9s\n' model file_MB decoded_MB \
  'assimp s/MiB' '+tex s' 'load s/MiB' 'info s/MiB' 'frame s/MiB' overhead peak/dec
for model in "${inputs[@]}"; do
  name=$(basename "$model")
  file_mb=$(awk -v b="$(stat -c %s "$model")" 'BEGIN { printf "%.2f", b / 1e6 }')
  decoded=$("$bench" --load "$model" | sed -n 's/.*decoded_vertex_bytes \([0-9]*\).*/\1/p')
  read -r assimp_s assimp_k < <(run "$bench" --assimp "$model")
  read -r textures_s textures_k < <(run "$bench" --assimp-textures "$model")
  read -r load_s load_k < <(run "$bench" --load "$model")
  read -r info_s info_k < <(run "$skelview" info "$model")
  read -r frame_s frame_k < <(SDL_VIDEODRIVER=offscreen run "$skelview" --frames 1 "$model")
  overhead=$(awk -v a="$textures_s" -v l="$load_s" 'BEGIN { printf "%+.0f%%", (l / a - 1) * 100 }')
  ratio=$(awk -v k="$load_k" -v d="$decoded" 'BEGIN { printf "%.2fx", k * 1024 / d }')
  printf '%-22s %8s %9.2f | %6s %8.1f %6s | %6s %8.1f %6s %8.1f %6s %8.1f | %9s %9s\n' \
    "$name" "$file_mb" "$(awk -v d="$decoded" 'BEGIN { print d / 1e6 }')" \
    "$assimp_s" "$(awk -v k="$assimp_k" 'BEGIN { print k / 1024 }')" "$textures_s" \
    "$load_s" "$(awk -v k="$load_k" 'BEGIN { print k / 1024 }')" \
    "$info_s" "$(awk -v k="$info_k" 'BEGIN { print k / 1024 }')" \
    "$frame_s" "$(awk -v k="$frame_k" 'BEGIN { print k / 1024 }')" "$overhead" "$ratio"
done
echo "overhead: LoadModel time over Assimp's ReadFile plus its texture decoding (goal < +30%);" \
  "peak/dec: LoadModel's peak RSS over the decoded vertex data (goal < 3x)"

#!/usr/bin/env bash
# The visualizer's benchmark: slider-to-redraw latency for every lesson at its default size, and
# the frame time of the grid view with 65K, 256K and 1M threads, on this machine's software OpenGL
# (Mesa llvmpipe under Xvfb). Figures go to stdout and to bench-views.json (or $1).
#   bench/view_bench.sh [OUT.json]    (after scripts/setup.sh has built build/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
app="$root/build/release/app/warpscope"
out="${1:-bench-views.json}"
[[ -x "$app" ]] || { echo "build first: scripts/setup.sh (no $app)" >&2; exit 1; }
cfg="$(mktemp -d)"
trap 'rm -rf "$cfg"' EXIT
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --config-dir "$cfg" --size 1600x1000 \
  --bench-json "$out"
echo "wrote $out"

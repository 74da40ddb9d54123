#!/usr/bin/env bash
# Save-to-redraw for the user's own programs: for each example, the app (under xvfb-run) opens a
# copy, saves it N times with one comment changed, and times each save until a frame shows the new
# run (rewrite + compile + run + redraw; nothing cached). Figures go to stdout and to
# bench-edit-NAME.json files in OUT_DIR (default: the current folder).
#   bench/edit_bench.sh [OUT_DIR] [REPS]    (after scripts/setup.sh has built build/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
app="${WARPSCOPE_APP:-$root/build/release/app/warpscope}"
out="${1:-.}"
reps="${2:-7}"
[[ -x "$app" ]] || { echo "build first: scripts/setup.sh (no $app)" >&2; exit 1; }
mkdir -p "$out"
cfg="$(mktemp -d)"
trap 'rm -rf "$cfg"' EXIT
for example in transpose matmul vecadd picture; do
  xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --config-dir "$cfg" --size 1600x1000 \
    --bench-edit "$root/examples/$example.cu" --bench-reps "$reps" \
    --bench-json "$out/bench-edit-$example.json" | tail -1
done

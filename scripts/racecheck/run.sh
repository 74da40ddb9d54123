#!/usr/bin/env bash
# The races lesson's kernels on a real GPU: wrong-element counts and compute-sanitizer racecheck.
# Usage: scripts/racecheck/run.sh OUT_DIR    (on the GPU machine; needs nvcc and compute-sanitizer)
# Writes OUT_DIR/env.txt (GPU, versions), OUT_DIR/sweep.jsonl (race_harness sweep: every variant
# at its defaults and block-transpose(-fixed) for BLOCK_WIDTH 1..20, 10 runs each),
# OUT_DIR/first-launch.jsonl (separate processes, lazy and eager module loading),
# OUT_DIR/extras.jsonl (larger blocks and grids),
# OUT_DIR/racecheck/*.log (one racecheck report per run) and OUT_DIR/racecheck-summary.txt.
# The harness binary goes to OUT_DIR/bin. See docs/racecheck-agreement.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out/bin" "$out/racecheck"
out=$(cd "$out" && pwd)
bin=$out/bin/race_harness

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -2
  compute-sanitizer --version | tail -2
} > "$out/env.txt" 2>&1
cat "$out/env.txt"

(cd "$here" && nvcc -arch=sm_90 -lineinfo -std=c++17 -O2 -o "$bin" race_harness.cu) || {
  echo "build failed"
  exit 1
}

echo "== sweep"
"$bin" sweep --runs 10 | tee "$out/sweep.jsonl"

# The first launch of a kernel in a process can come out differently from the next ones: three
# processes per case, with CUDA's lazy module loading (the default) and with eager loading.
echo "== first launches"
: > "$out/first-launch.jsonl"
for mode in LAZY EAGER; do
  for p in 1 2 3; do
    for args in "transpose-no-sync" "reverse-no-sync" "warp-exchange" \
                "block-transpose --block-width 8" "block-transpose --block-width 20"; do
      # shellcheck disable=SC2086
      CUDA_MODULE_LOADING=$mode "$bin" $args --runs 10 |
        sed "s/^{/{\"module_loading\":\"$mode\",\"process\":$p,/" >> "$out/first-launch.jsonl"
    done
  done
done
cat "$out/first-launch.jsonl"

# Beyond the defaults: more threads, wider matrices, more tiles.
echo "== extras"
: > "$out/extras.jsonl"
for args in "warp-exchange --threads 64" "warp-exchange --threads 256" \
            "warp-exchange --threads 1024" "reverse-no-sync --threads 128" \
            "reverse-no-sync --threads 1024" "transpose-no-sync --width 256" \
            "transpose-no-sync --width 1024" "block-transpose --block-width 8 --tiles 16" \
            "block-transpose --block-width 16 --tiles 16" "block-transpose --block-width 4 --tiles 16"; do
  # shellcheck disable=SC2086
  "$bin" $args --runs 10 >> "$out/extras.jsonl"
done
cat "$out/extras.jsonl"

# racecheck's options differ between versions: take the ones this compute-sanitizer lists.
help=$(compute-sanitizer --help 2>&1)
echo "$help" | grep -i -A4 -E 'racecheck|print-limit' > "$out/racecheck/help-excerpt.txt"
opts=(--tool racecheck)
if echo "$help" | grep -q -- '--racecheck-report'; then opts+=(--racecheck-report all); fi
# Show every severity (info, warning, error); each hazard line names its own.
if echo "$help" | grep -q -- '--racecheck-detect-level'; then opts+=(--racecheck-detect-level info); fi
if echo "$help" | grep -q -- '--print-limit'; then opts+=(--print-limit 1000000); fi
echo "racecheck options: ${opts[*]}" | tee "$out/racecheck-summary.txt"

check() {  # name, harness arguments...
  local name=$1 log="$out/racecheck/$1.log"
  shift
  timeout 180 compute-sanitizer "${opts[@]}" "$bin" "$@" > "$log" 2>&1
  local rc=$?
  local races hazards
  races=$(grep -c 'Race reported between' "$log")
  hazards=$(grep -cE 'Potential .* hazard detected' "$log")
  echo "$name rc=$rc wrong=$(grep -o '"wrong":\[[0-9,]*\]' "$log") analysis_lines=$races" \
    "hazard_lines=$hazards | $(grep -E 'RACECHECK SUMMARY' "$log" | tail -1 | sed 's/^=* *//')" |
    tee -a "$out/racecheck-summary.txt"
}

echo "== racecheck"
check block-transpose block-transpose
check block-transpose-fixed block-transpose-fixed
check transpose-no-sync transpose-no-sync
check warp-exchange warp-exchange
check reverse-no-sync reverse-no-sync
check reverse-no-sync-t32 reverse-no-sync --threads 32
for w in 1 2 4 5 6 8 16 20; do
  check "block-transpose-w$w" block-transpose --block-width "$w"
done

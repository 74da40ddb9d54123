#!/usr/bin/env bash
# What the app costs when nothing moves (issue 22, "Idle costs nothing"): the app shows a lesson
# under Xvfb; after it settles, its CPU ticks (utime + stime, /proc) are counted over 10 s of
# idle, then over 10 s in which the pointer moves across the window every 50 ms (through XTest,
# with ctypes: no tools beyond Python). Idle should be near 0; moving, it draws.
#   bench/idle_bench.sh [APP]    (default build/release/app/warpscope)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
app="${1:-$root/build/release/app/warpscope}"
[[ -x "$app" ]] || { echo "build first: scripts/setup.sh (no $app)" >&2; exit 1; }
cfg="$(mktemp -d)"
display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $app_pid $xvfb 2>/dev/null; rm -rf "$cfg"' EXIT
sleep 1
DISPLAY="$display" "$app" --config-dir "$cfg" --lesson transpose >/dev/null 2>&1 &
app_pid=$!
sleep 8
ticks() { awk '{print $14 + $15}' "/proc/$app_pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); sleep 10; t1=$(ticks)
echo "idle:   $((t1 - t0)) ticks in 10 s ($hz a second: $(((t1 - t0) * 100 / (10 * hz))) % of a core)"
t0=$(ticks)
DISPLAY="$display" python3 - <<'EOF'
import ctypes, time
x11 = ctypes.CDLL("libX11.so.6")
xtst = ctypes.CDLL("libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
d = x11.XOpenDisplay(None)
for i in range(200):  # 10 s
    xtst.XTestFakeMotionEvent(ctypes.c_void_p(d), 0, 200 + (i * 37) % 1200, 150 + (i * 53) % 700, 0)
    x11.XFlush(ctypes.c_void_p(d))
    time.sleep(0.05)
EOF
t1=$(ticks)
echo "moving: $((t1 - t0)) ticks in 10 s ($(((t1 - t0) * 100 / (10 * hz))) % of a core)"

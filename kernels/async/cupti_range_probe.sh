#!/usr/bin/env bash
# On the GPU machine: builds and runs cupti_range_probe.cu, then runs its kernels plain under the
# kernel timer's library in counting mode (kernels/program/runtime/kernel_counters.cpp, built here
# with g++), its output into OUT_FILE.
# Usage: kernels/async/cupti_range_probe.sh OUT_FILE
set -uo pipefail
cd "$(dirname "$0")" || exit 1
out=${1:?usage: cupti_range_probe.sh OUT_FILE}
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
lib=$(dirname "$(find "$cuda"/ -name 'libcupti.so' 2>/dev/null | head -1)")
inc=$(dirname "$(find "$cuda"/ -name 'cupti_range_profiler.h' 2>/dev/null | head -1)")
tmp=$(mktemp -d)
rt=../program/runtime
{
  echo "# cupti_range_probe.cu, $(date -u +%F), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "# libcupti from $lib, headers from $inc"
  nvcc -O3 -arch=sm_90 -I"$inc" -o "$tmp/probe" cupti_range_probe.cu -L"$lib" -lcupti -lcuda &&
    LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 60 "$tmp/probe"
  echo "probe exit $?"
  echo "## the plain kernels under the injection library (WS_KERNEL_COUNTERS)"
  g++ -std=c++20 -O2 -fPIC -shared -I"$cuda/include" -I"$inc" -o "$tmp/libkt.so" \
    "$rt/kernel_timer.cpp" "$rt/kernel_counters.cpp" -L"$lib" -lcupti -lcuda &&
    LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} CUDA_INJECTION64_PATH=$tmp/libkt.so \
      WS_KERNEL_COUNTERS=$tmp/counters.txt timeout 60 "$tmp/probe" plain
  echo "plain exit $?"
  cat "$tmp/counters.txt"
  echo "## the same, timed (WS_KERNEL_TIMES)"
  LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} CUDA_INJECTION64_PATH=$tmp/libkt.so \
    WS_KERNEL_TIMES=$tmp/times.txt timeout 60 "$tmp/probe" plain
  cat "$tmp/times.txt"
} > "$out" 2>&1
rm -rf "$tmp"

#!/usr/bin/env bash
# Builds the headless CLI and tests on a GPU machine that has cmake and nvcc but no Debian
# development packages (shared by gpu-check.sh and gpu-scheduling.sh). Usage:
#   scripts/gpu-build.sh OUT_DIR [CUDA_ARCH]
# The recorded lessons are capped at 64 registers, their hazard build at 64 (its lean build at
# 32), their lean build at 32, their capped lane build at 64 and their wide lane build not at all
# (kernels/cuda/CMakeLists.txt), passed each
# time, so that a build folder kept from a capped experiment does not keep its cap.
# WS_CMAKE_ARGS: more cmake arguments (after the cap, so they may set another); WS_BUILD_TARGETS: only these targets (a short device call;
# ws_gpu_test_binaries is the GPU tests' binaries as one goal: several goals are built one after
# another and compiled the lessons' CUDA twice). With .deps/rewriter/warpscope-rewrite (docs/BUILD.md) the
# build uses that rewriter and the clang 14 libraries in .deps/clangdebs.
# Needs the .deb files listed in docs/BUILD.md in .deps/debs (unpacked into .deps/root, never /).
# Callers then need: export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-build.sh OUT_DIR [CUDA_ARCH]}
arch=${2:-90}
mkdir -p "$out" .deps/root
for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The lessons' plain-CUDA kernels go through warpscope-rewrite at build time (kernels/CMakeLists.txt):
# a rewriter built on a Debian machine, with clang 14's libraries carried as .deb files.
. scripts/gpu-env.sh
[ -n "$ws_rewriter" ] && WS_CMAKE_ARGS="${WS_CMAKE_ARGS:-} -DWARPSCOPE_REWRITER=$ws_rewriter"
{ nvidia-smi -L; nvcc --version | tail -1; } > "$out/gpu.txt" 2>&1
# zlib: the carried package's libz.so link is absolute (/lib/...): name the files instead.
cmake --preset headless -DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -DZLIB_INCLUDE_DIR="$PWD/.deps/root/usr/include" \
  -DZLIB_LIBRARY="$(ls "$PWD"/.deps/root/lib/x86_64-linux-gnu/libz.so.1.* | head -1)" \
  -DWARPSCOPE_RECORD_MAXRREGCOUNT=64 -DWARPSCOPE_HAZARD_MAXRREGCOUNT=64 \
  -DWARPSCOPE_LEAN_MAXRREGCOUNT=32 -DWARPSCOPE_HAZARD_LEAN_MAXRREGCOUNT=32 \
  -DWARPSCOPE_LANE_MAXRREGCOUNT=64 \
  -DWARPSCOPE_LANE_WIDE_MAXRREGCOUNT= ${WS_CMAKE_ARGS:-} \
  > "$out/build.log" 2>&1 && cmake --build --preset headless -j"$(nproc)" ${WS_BUILD_TARGETS:+--target $WS_BUILD_TARGETS} >> "$out/build.log" 2>&1 || {
  tail -40 "$out/build.log"
  exit 1
}

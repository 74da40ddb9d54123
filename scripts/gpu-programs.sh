#!/usr/bin/env bash
# The user's own programs on the GPU machine (docs/PROGRAMS.md): builds the headless CLI with a
# warpscope-rewrite built on a Debian machine (.deps/rewriter/, with clang 14's libraries as .deb
# files in .deps/clangdebs: libclang-cpp14, libllvm14, libclang-common-14-dev, libz3-4), runs the
# program tests (ctest label gpu) and writes every example's run on both backends as JSON under
# OUT/programs (scripts/ncu_programs.py reads them beside Nsight Compute's counters).
# Usage: scripts/gpu-programs.sh OUT_DIR [CUDA_ARCH]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-programs.sh OUT_DIR [CUDA_ARCH]}
arch=${2:-90}
mkdir -p "$out/programs"
. scripts/gpu-env.sh  # the rewriter's libraries, for the build and for the programs run below
[ -n "$ws_rewriter" ] || { echo "no .deps/rewriter/warpscope-rewrite (docs/BUILD.md)"; exit 1; }
scripts/gpu-build.sh "$out" "$arch" || exit 1  # with .deps/rewriter
export XDG_CACHE_HOME=$(mktemp -d)  # compiled programs: not in OUT
ctest --test-dir build/headless -L gpu -R '^ProgramsOnGpu' --output-on-failure \
  > "$out/programs/gpu-tests.txt" 2>&1
tail -5 "$out/programs/gpu-tests.txt"
cli=build/headless/app/warpscope-cli
# name|file|defines|args: as scripts/gpu-ncu-programs.sh runs them.
cases=(
  "transpose|transpose.cu|-D TILE_DIM=32 -D N=256|"
  "vecadd|vecadd.cu||--arg 4"
  "matmul|matmul.cu||"
  "picture|picture.cu||"
  "shuffle_reduce|shuffle_reduce.cu||"
  "block_transpose|block_transpose.cu||"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name file defines args <<< "$c"
  for backend in cuda emu; do
    # shellcheck disable=SC2086
    "$cli" run --file "examples/$file" $defines $args --backend $backend --timeout 120 --json \
      > "$out/programs/$name.$backend.json" 2> "$out/programs/$name.$backend.err"
    echo "$name $backend: rc=$? $(head -c 300 "$out/programs/$name.$backend.err")"
  done
done

#!/usr/bin/env bash
# Makes the .deps folder a GPU machine's call carries (docs/BUILD.md, "On the GPU machine"), on a
# Debian 12 developer's machine after the release build: the headless build's packages as .deb
# files (.deps/debs), clang 14's libraries for the rewriter (.deps/clangdebs), the release build's
# rewriter stripped (.deps/rewriter), and, given a cuda-samples checkout (c94ff366), the files of
# the samples the GPU scripts run (.deps/samples: globalToShmemAsyncCopy, cudaTensorCoreGemm
# and Common's headers).
# Usage: scripts/gpu-deps.sh [CUDA_SAMPLES_GIT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/debs .deps/clangdebs .deps/rewriter
(cd .deps/debs && apt-get download nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev \
  libstb-dev libstb0 libboost-context1.74-dev libboost-context1.74.0 libboost1.74-dev zlib1g-dev \
  zlib1g libpng-dev libpng16-16 libtomlplusplus-dev libtomlplusplus3 bubblewrap libcap2 \
  libselinux1 libpcre2-8-0)
(cd .deps/clangdebs && apt-get download libclang-cpp14 libllvm14 libclang-common-14-dev libz3-4)
if [[ -x build/release/program/warpscope-rewrite ]]; then
  strip -o .deps/rewriter/warpscope-rewrite build/release/program/warpscope-rewrite
else
  echo "gpu-deps: no build/release/program/warpscope-rewrite: build the release preset first" >&2
fi
if [[ -n "${1:-}" ]]; then
  mkdir -p .deps/samples
  git -C "$1" archive c94ff366aed18c797b8a85dfaac7817b0228b420 \
    Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu \
    Samples/3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu \
    Common/exception.h Common/helper_cuda.h Common/helper_functions.h Common/helper_image.h \
    Common/helper_string.h Common/helper_timer.h | tar -x -C .deps/samples
fi
du -sh .deps

#!/usr/bin/env bash
# Warpscope's one set-up step, for a fresh Debian 12 machine or one already set up:
#   scripts/setup.sh           install what is missing, build, and start the app
#   scripts/setup.sh --test    install what is missing, build, and run every test
#   scripts/setup.sh --package install what is missing, build, and make the .deb a lab installs
#                              (build/release/warpscope_VERSION_ARCH.deb; docs/BUILD.md)
# Idempotent: packages already installed are skipped, the ImGui/ImPlot source package is
# downloaded once into ~/.cache/warpscope, and builds are incremental. Uses sudo when not root.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=run
if [ "${1:-}" = "--test" ]; then mode=test; shift; fi
if [ "${1:-}" = "--package" ]; then mode=package; shift; fi

# Each stage's wall time, printed at the end (docs/BUILD.md states the budget per stage).
stage_log=""
stage_start=$SECONDS
stage() {  # NAME: the stage that just ended
  stage_log+=$(printf '  %-28s %5d s' "$1" $((SECONDS - stage_start)))$'\n'
  stage_start=$SECONDS
}
# Printed however the script ends (a failing step stops it under set -e).
print_stages() {
  if [ -n "$stage_log" ]; then
    echo "setup: time by stage (total $SECONDS s):"
    printf '%s' "$stage_log"
  fi
}
trap print_stages EXIT

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi

# Debian packages: the toolchain, the GUI libraries, the test and benchmark frameworks, and Xvfb
# for the GUI tests; clang 14's C++ API, with which Warpscope reads the user's own CUDA programs.
# The CUDA toolkit is optional and not installed here. bubblewrap is the sandbox that
# `warpscope-cli check` and `run --sandbox` run other people's programs in. desktop-file-utils and
# appstream validate the package's desktop entry and AppStream file (tests/package).
packages=(
  build-essential cmake ninja-build python3
  libglfw3-dev python3-glad libstb-dev nlohmann-json3-dev libcli11-dev
  googletest libgtest-dev libbenchmark-dev libboost-context-dev zlib1g-dev libpng-dev libtomlplusplus-dev
  libgl-dev libgl1-mesa-dri xvfb xauth fonts-dejavu-core
  clang-14 libclang-14-dev llvm-14-dev
  bubblewrap
  desktop-file-utils appstream
)
have_pip=no
for py in python3 /usr/bin/python3; do
  if "$py" -m pip --version >/dev/null 2>&1; then have_pip=yes; break; fi
done
[ "$have_pip" = yes ] || packages+=(python3-pip)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages are already installed"
fi

# Dear ImGui (docking) + ImPlot from the imgui-bundle source package, pinned by hash, cached.
bash scripts/fetch-imgui-bundle.sh
stage "packages and downloads"

jobs=$(nproc)
# Without a GPU the tests cannot run the CUDA runner (its tests skip), so --test leaves it out of
# the build: nvcc's part is minutes of a CI run. scripts/gpu-build.sh builds and tests it on a GPU
# machine; a plain run (no --test) builds it whenever nvcc is found.
cuda=AUTO
if [ "$mode" = test ] && ! nvidia-smi -L >/dev/null 2>&1; then
  cuda=OFF
  echo "setup: no GPU here: the tests are built without the CUDA runner (its tests would skip)"
fi
# The package is the emulator's (a lab's machines need no CUDA toolkit; the GPU backend is built
# from source where there is one: scripts/gpu-build.sh).
if [ "$mode" = package ]; then cuda=OFF; fi
# The release and sanitizer presets build with Ninja (it keeps both cores busy across targets:
# the sanitizer build in 6.5 min instead of Make's 9 on 2 cores). A build folder an older checkout
# made with Make is started afresh: CMake refuses to change a folder's generator.
for dir in build/release build/asan; do
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    echo "setup: $dir was made with another generator: starting it afresh (Ninja)"
    rm -rf "$dir"
  fi
done
cmake --preset release -DWARPSCOPE_CUDA="$cuda"
stage "configure release"
cmake --build --preset release --parallel "$jobs"
stage "build release"

if [ "$mode" = test ]; then
  # The headless code and its tests again under AddressSanitizer + UndefinedBehaviorSanitizer,
  # then everything (unit, GPU where there is one, GUI under xvfb-run) in the release build.
  # The sanitizer build uses the release build's rewriter (clang's front end, a process of its
  # own) rather than compiling clang's templates again under the sanitizers: CI's time
  # (docs/BUILD.md). Where the release build has none (no clang 14 here), it goes as before.
  # With that rewriter, the release build's lesson kernels and register table are the files the
  # sanitizer build would make: it takes them too (WARPSCOPE_KERNELS_FROM, kernels/CMakeLists.txt).
  asan_args=()
  if [ -x build/release/program/warpscope-rewrite ]; then
    asan_args+=("-DWARPSCOPE_REWRITER=$PWD/build/release/program/warpscope-rewrite")
    if [ -f build/release/kernels/resources/sm_90.txt ]; then
      asan_args+=("-DWARPSCOPE_KERNELS_FROM=$PWD/build/release/kernels")
    fi
  fi
  cmake --preset asan "${asan_args[@]}"
  stage "configure asan"
  cmake --build --preset asan --parallel "$jobs"
  stage "build asan"
  asan_rc=0
  ctest --preset asan --parallel "$jobs" || asan_rc=$?
  stage "tests asan"
  release_rc=0
  ctest --preset release --parallel "$jobs" || release_rc=$?
  stage "tests release"
  if [ "$asan_rc" -ne 0 ] || [ "$release_rc" -ne 0 ]; then
    echo "setup: tests failed (sanitizer build: exit $asan_rc, release build: exit $release_rc)" >&2
    exit 1
  fi
  exit 0
fi

if [ "$mode" = package ]; then
  (cd build/release && cpack -G DEB)
  stage "package"
  echo "setup: $(ls build/release/warpscope_*.deb): install it with  sudo apt install ./$(ls build/release/warpscope_*.deb)"
  exit 0
fi

exec build/release/app/warpscope "$@"

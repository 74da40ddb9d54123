#!/usr/bin/env bash
# The .deb, as a lab would install it (issue 52): `cpack -G DEB` in the build folder, the package
# unpacked with dpkg-deb -x into a temporary root, and from there, with this source and build
# folder hidden (bubblewrap puts an empty folder over them, so that nothing can come from them):
# warpscope-cli --version, a lesson, an example program rewritten, compiled and run on the
# emulator, and the app's --screenshot under Xvfb. Also: the files a desktop needs, the desktop
# entry and AppStream file validated where their tools are installed, the Depends line, and
# lintian's errors where lintian is installed.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=${1:?usage: package_test.sh BUILD_DIR SOURCE_DIR}
src=${2:?usage: package_test.sh BUILD_DIR SOURCE_DIR}
work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
expect_in() {  # TEXT NEEDLE WHAT
  [[ $1 == *"$2"* ]] || fail "$3: no '$2' in: ${1:0:2000}"
}

# 1. The package.
if ! (cd "$build" && cpack -G DEB -B "$work/pkg") > "$work/cpack.log" 2>&1; then
  cat "$work/cpack.log"
  echo "FAILED: cpack -G DEB"
  exit 1
fi
deb=$(ls "$work"/pkg/warpscope_*.deb 2> /dev/null | head -1)
[[ -n $deb ]] || { ls "$work/pkg"; echo "FAILED: no warpscope_*.deb"; exit 1; }
echo "package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Declared by hand (run-time needs of a user's program) and found by dpkg-shlibdeps (libc6).
for need in "g++" "libclang-common-14-dev" "bubblewrap" "fonts-dejavu-core" "libc6"; do
  expect_in "$depends" "$need" "Depends"
done

root="$work/root"
dpkg-deb -x "$deb" "$root" || { echo "FAILED: dpkg-deb -x"; exit 1; }
usr="$root/usr"
for f in bin/warpscope-cli lib/warpscope/warpscope-rewrite lib/warpscope/libws_program_emu.so \
  share/warpscope/shim/ws_program.h share/warpscope/shim/cuda_runtime.h \
  share/warpscope/examples/transpose.cu share/warpscope/lectures/memory-model.toml \
  share/warpscope/assignments/reduction.toml share/man/man1/warpscope-cli.1.gz \
  share/doc/warpscope/copyright; do
  [[ -e $usr/$f ]] || fail "the package has no /usr/$f"
done
gui=no
if [[ -e $usr/bin/warpscope ]]; then
  gui=yes
  for f in share/applications/org.warpscope.Warpscope.desktop \
    share/metainfo/org.warpscope.Warpscope.metainfo.xml \
    share/icons/hicolor/scalable/apps/org.warpscope.Warpscope.svg \
    share/icons/hicolor/256x256/apps/org.warpscope.Warpscope.png \
    share/icons/hicolor/48x48/apps/org.warpscope.Warpscope.png \
    share/mime/packages/warpscope.xml share/man/man1/warpscope.1.gz; do
    [[ -e $usr/$f ]] || fail "the package has no /usr/$f"
  done
  if command -v desktop-file-validate > /dev/null; then
    out=$(desktop-file-validate "$usr/share/applications/org.warpscope.Warpscope.desktop" 2>&1) ||
      fail "desktop-file-validate: $out"
  else
    echo "note: desktop-file-validate is not installed: the desktop entry was not validated"
  fi
  if command -v appstreamcli > /dev/null; then
    out=$(appstreamcli validate --no-net "$usr/share/metainfo/org.warpscope.Warpscope.metainfo.xml" 2>&1) ||
      fail "appstreamcli validate: $out"
  else
    echo "note: appstreamcli is not installed: the metainfo file was not validated"
  fi
fi
if command -v lintian > /dev/null; then
  out=$(lintian --fail-on error --suppress-tags-from-file /dev/null "$deb" 2>&1) ||
    fail "lintian reports errors: $out"
  echo "lintian: $(echo "$out" | grep -c '^[EW]:') errors and warnings"
else
  echo "note: lintian is not installed: the package was not linted"
fi

# 2. From the unpacked tree, the source and build folders hidden (and a CUDA toolkit).
# A CUDA toolkit in its usual places is hidden too (a lab machine may have none, and clang then
# parses a launch differently: it assumes an old CUDA; ws_program.h declares both forms), and
# PATH keeps only the system's folders, so that no other nvcc is found either.
hidden=(--tmpfs "$src" --tmpfs "$build")
for toolkit in /usr/local/cuda /opt/cuda /usr/lib/cuda; do
  real=$(readlink -f "$toolkit" 2> /dev/null) && [[ -d $real ]] && hidden+=(--tmpfs "$real")
done
if ! bwrap --bind / / --dev /dev --proc /proc "${hidden[@]}" true 2> /dev/null; then
  echo "SKIPPED: bubblewrap cannot run here, so the source and build folders cannot be hidden"
  exit 77
fi
hide=(bwrap --bind / / --dev /dev --proc /proc "${hidden[@]}" --setenv PATH /usr/bin:/bin --)
echo "hidden from the installed programs: ${hidden[*]}"
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config"
version=$("${hide[@]}" "$usr/bin/warpscope-cli" --version 2>&1)
echo "$version"
[[ $version =~ ^warpscope-cli\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{12}(\+changes)?|unknown), ]] ||
  fail "--version: '$version'"
lesson=$("${hide[@]}" "$usr/bin/warpscope-cli" run transpose --variant naive 2>&1) ||
  fail "run transpose: $lesson"
expect_in "$lesson" "transpose" "run transpose"
# examples/transpose.cu at N 256, TILE_DIM 16 (2,048 warps): the naive kernel's load is 4 sectors
# a request and its store 16 (a column: 16 rows 1 KB apart), 10.00 on average against the ideal
# 4; the tile's column read is 8-way conflicted: 2,048 x (1 + 8) = 18,432 wavefronts of 4,096.
program=$("${hide[@]}" "$usr/bin/warpscope-cli" run --file "$usr/share/warpscope/examples/transpose.cu" 2>&1) ||
  fail "run --file examples/transpose.cu: $program"
expect_in "$program" "10.00(4.00)" "run --file transpose.cu (naive sectors a request)"
expect_in "$program" "18,432(4,096) 8-way" "run --file transpose.cu (coalesced wavefronts)"
expect_in "$program" "transposePadded: transposed 256x256 correctly" "the program's own output"
if [[ $gui == yes ]]; then
  if command -v xvfb-run > /dev/null; then
    "${hide[@]}" xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
      "$usr/bin/warpscope" --lesson transpose --screenshot "$work/shot.png" > "$work/app.log" 2>&1 ||
      fail "the app's --screenshot: $(tail -5 "$work/app.log")"
    # A PNG's width and height: bytes 16-23 of its IHDR chunk (the app's default 1600x1000).
    size=$(od -An -tu1 -j16 -N8 "$work/shot.png" 2> /dev/null | awk '{print $3*256+$4 "x" $7*256+$8}')
    [[ $size == 1600x1000 ]] || fail "the screenshot is '$size', not 1600x1000"
  else
    echo "note: xvfb-run is not installed: the app was not started"
  fi
fi
if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "the package installs and runs from its own tree"

#!/usr/bin/env bash
# Downloads the imgui-bundle source package (Dear ImGui docking + ImPlot), pinned by hash,
# into a cache folder (default ~/.cache/warpscope), once. Usage: fetch-imgui-bundle.sh [DIR]
set -euo pipefail
version=1.93.0
sha256=10ad1dab8258a6787b4f07bb926b08d0efc648a7906242568c8dd778c5e719bf
dest=${1:-${WARPSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warpscope}}
file="$dest/imgui_bundle-$version.tar.gz"
mkdir -p "$dest"
if [ -f "$file" ] && echo "$sha256  $file" | sha256sum -c --status; then
  exit 0
fi
py=""
for cand in python3 /usr/bin/python3; do
  if "$cand" -m pip --version >/dev/null 2>&1; then py=$cand; break; fi
done
if [ -z "$py" ]; then
  echo "fetch-imgui-bundle: no python3 with pip found (install python3-pip)" >&2
  exit 1
fi
tmp=$(mktemp -d "$dest/.download.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "imgui-bundle==$version --hash=sha256:$sha256" >"$tmp/requirements.txt"
# pip prepares the source package's metadata, which pulls its build tools from PyPI: expected.
"$py" -m pip download --quiet --no-deps --no-binary imgui-bundle --require-hashes \
  -r "$tmp/requirements.txt" -d "$tmp"
echo "$sha256  $tmp/imgui_bundle-$version.tar.gz" | sha256sum -c --status
mv "$tmp/imgui_bundle-$version.tar.gz" "$file"
echo "fetch-imgui-bundle: saved $file"

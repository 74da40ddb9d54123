# Sourced by the GPU scripts (gpu-build.sh, gpu-programs.sh): unpacks clang 14's libraries from
# .deps/clangdebs into .deps/root (never /) and exports what the carried .deps/rewriter/
# warpscope-rewrite needs to run there, at build time (the lessons' kernels) and at run time (the
# user's programs). Sets ws_rewriter to its path, or to "" when none was carried.
ws_rewriter=""
if [ -x .deps/rewriter/warpscope-rewrite ]; then
  mkdir -p .deps/root
  for f in .deps/clangdebs/*.deb; do dpkg -x "$f" .deps/root; done
  WARPSCOPE_CLANG_RESOURCE_DIR=$(ls -d "$PWD"/.deps/root/usr/lib/llvm-14/lib/clang/14* | head -1)
  export WARPSCOPE_CLANG_RESOURCE_DIR
  lib=$PWD/.deps/root/usr/lib
  export LD_LIBRARY_PATH=$lib/x86_64-linux-gnu:$lib/llvm-14/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  ws_rewriter=$PWD/.deps/rewriter/warpscope-rewrite
fi

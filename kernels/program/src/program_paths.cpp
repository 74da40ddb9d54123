// Where the program runner's files are (program_internal.h: ProgramPaths): in the build tree, the
// places this build was configured with; in an installed tree (the .deb, or one unpacked
// anywhere), beside the running executable: PREFIX/bin/warpscope-cli finds its shim in
// PREFIX/share/warpscope and its runtime and rewriter in PREFIX/lib/warpscope. Nothing of the
// source or build folder is needed once installed.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "program_internal.h"
#include "warpscope/trace/build_info.h"

namespace ws::prog_internal {

namespace {

// PREFIX when this process runs from an installed tree whose shim and emulator runtime are
// where the install puts them, else empty.
std::filesystem::path InstalledProgramPrefix() {
  const std::filesystem::path prefix = InstalledPrefix();
  std::error_code ec;
  if (prefix.empty() ||
      !std::filesystem::exists(prefix / "share/warpscope/shim/ws_program.h", ec) ||
      !std::filesystem::exists(prefix / "lib/warpscope/libws_program_emu.so", ec))
    return {};
  return prefix;
}

ProgramPaths Find() {
  ProgramPaths p;
  // The compilers where this build found them, else (an installed tree on another machine: a
  // package built with another compiler's path, Debian's nvcc in /usr/bin) on PATH.
  p.cxx = FindTool(WS_PROGRAM_CXX, "c++");
#if defined(WS_PROGRAM_NVCC)
  p.nvcc = FindTool(WS_PROGRAM_NVCC, "nvcc");
#elif defined(WS_PROGRAM_RESOURCES_NVCC)
  p.resources_nvcc = FindTool(WS_PROGRAM_RESOURCES_NVCC, "nvcc");
#else
  p.resources_nvcc = FindTool("", "nvcc");
#endif
#if defined(WS_PROGRAM_NVCC)
  p.resources_nvcc = p.nvcc;
#endif
  if (const std::filesystem::path prefix = InstalledProgramPrefix(); !prefix.empty()) {
    const std::filesystem::path share = prefix / "share/warpscope", lib = prefix / "lib/warpscope";
    p.shim = (share / "shim").string();
    p.api = (share / "api").string();
    p.record = (share / "device").string();
    p.runtime = lib.string();
    p.rewriter = (lib / "warpscope-rewrite").string();
#if defined(WS_PROGRAM_KERNEL_TIMER)
    p.kernel_timer = (lib / std::filesystem::path(WS_PROGRAM_KERNEL_TIMER).filename()).string();
#endif
    return p;
  }
  p.shim = WS_PROGRAM_SHIM_DIR;
  p.runtime = WS_PROGRAM_RUNTIME_DIR;
  p.rewriter = WS_PROGRAM_REWRITER;
#if defined(WS_PROGRAM_NVCC)
  p.api = WS_PROGRAM_API_DIR;
  p.record = WS_PROGRAM_RECORD_DIR;
#endif
#if defined(WS_PROGRAM_KERNEL_TIMER)
  p.kernel_timer = WS_PROGRAM_KERNEL_TIMER;
#endif
  return p;
}

}  // namespace

std::string FindTool(const std::string& built, const std::string& name) {
  if (!built.empty() && access(built.c_str(), X_OK) == 0) return built;
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "";
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::filesystem::path candidate = std::filesystem::path(dirs.substr(at, end - at)) / name;
    if (end > at && access(candidate.c_str(), X_OK) == 0) return candidate.string();
    at = end + 1;
  }
  return "";
}

const ProgramPaths& Paths() {
  static const ProgramPaths paths = Find();
  return paths;
}

}  // namespace ws::prog_internal

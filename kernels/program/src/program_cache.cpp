// The cache of rewritten and compiled programs (program_internal.h): where it is, the shim's
// text that every key includes, the precompiled shims (the compiler's and the rewriter's), and
// the pruning that keeps it small.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "program_internal.h"
#include "warpscope/trace/file_io.h"

namespace ws::prog_internal {

std::filesystem::path CacheDir(const ProgramOptions& o) {
  if (!o.cache_dir.empty()) return o.cache_dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0')
    return std::filesystem::path(x) / "warpscope" / "programs";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0')
    return std::filesystem::path(h) / ".cache" / "warpscope" / "programs";
  return std::filesystem::temp_directory_path() / "warpscope-programs";
}

// The shim's text, every header of it (read once): part of both cache keys, so that a Warpscope
// with a different shim never reuses a rewrite or a compiled program made with the old one.
const std::string& ShimText() {
  static const std::string text = [] {
    std::vector<std::filesystem::path> names;
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(Paths().shim, ec)) {
      if (e.is_regular_file(ec)) names.push_back(e.path());
    }
    std::sort(names.begin(), names.end());
    std::string all;
    for (const auto& name : names) {
      std::ifstream in(name, std::ios::binary);
      std::stringstream s;
      s << in.rdbuf();
      all += name.filename().string() + "\n" + s.str();
    }
    return all;
  }();
  return text;
}

// The emulator's shim, precompiled (GCC's .gch) for the compile command `cmd` (without the
// program's own -D options, which GCC checks against it): the header to -include, whose .gch
// beside it GCC takes instead of parsing the shim again (0.11 s of a 0.2 s compile). Built once
// into the cache (PruneCache leaves it); where it cannot be built, the header includes the shim
// as text.
std::string PrecompiledShim(const std::vector<std::string>& cmd, const std::string& arch,
                            const std::filesystem::path& cache) {
  std::string key_text = ShimText() + "\n-D__CUDA_ARCH__=" + arch;
  for (const std::string& c : cmd) key_text += "\n" + c;
  std::error_code ec;
  const auto compiler_time = std::filesystem::last_write_time(cmd.front(), ec);
  key_text += "\n" + std::to_string(ec ? 0 : compiler_time.time_since_epoch().count());
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(key_text)));
  const std::filesystem::path header = cache / (std::string("shim-") + key + ".h");
  const std::filesystem::path gch = header.string() + ".gch";
  if (!std::filesystem::exists(header, ec)) {
    (void)WriteFileAtomically(header, "#include \"" + Paths().shim + "/ws_program.h\"\n");
  }
  if (!std::filesystem::exists(gch, ec)) {
    const std::string tmp = gch.string() + "." + UniqueSuffix();
    std::vector<std::string> c = cmd;
    c.insert(c.end(), {"-DWS_CUDA_UNIT=1", "-D__CUDA_ARCH__=" + arch, "-x", "c++-header",
                       header.string(), "-o", tmp});
    ChildLimits cl;
    cl.timeout = std::chrono::seconds(120);
    const ChildResult r = RunChild(c, NoIncludeEnvironment(), cl);
    if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0) {
      std::filesystem::rename(tmp, gch, ec);
    }
    std::filesystem::remove(tmp, ec);
  }
  return header.string();
}

std::filesystem::path RewriterPch(const std::filesystem::path& cache,
                                  const std::vector<std::string>& env) {
  std::error_code ec;
  const auto tool_time = std::filesystem::last_write_time(Paths().rewriter, ec);
  std::string key_text =
      ShimText() + "\nrewriter " + std::to_string(ec ? 0 : tool_time.time_since_epoch().count());
  if (const char* dir = std::getenv("WARPSCOPE_CLANG_RESOURCE_DIR")) key_text += dir;
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(key_text)));
  // The header it is made from is shim-rewrite-KEY.h beside it (warpscope-rewrite --emit-pch).
  const std::filesystem::path pch = cache / (std::string("shim-rewrite-") + key + ".pch");
  if (std::filesystem::exists(pch, ec)) return pch;
  static std::mutex mutex;
  static std::set<std::string> failed;  // once per process: a shim that clang refuses stays so
  std::lock_guard lock(mutex);
  if (failed.count(pch.string()) != 0) return {};
  const std::string tmp = pch.string() + "." + UniqueSuffix();
  ChildLimits limits;
  limits.timeout = std::chrono::seconds(60);
  const ChildResult r =
      RunChild({Paths().rewriter, "--emit-pch", tmp, "--shim", Paths().shim}, env, limits);
  if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0)
    std::filesystem::rename(tmp, pch, ec);
  std::filesystem::remove(tmp, ec);
  if (!std::filesystem::exists(pch, ec)) {
    failed.insert(pch.string());
    return {};
  }
  return pch;
}

bool UseCached(const std::filesystem::path& file) {
  std::error_code ec;
  std::filesystem::last_write_time(file, std::filesystem::file_time_type::clock::now(), ec);
  return !ec && std::filesystem::exists(file, ec);
}

// Keeps the cache folder small: past kCacheFiles files, the oldest go (each save of a program
// being edited adds a compiled program, a rewrite and ptxas's report: about 40 KB together; the
// precompiled shims, the large files, are not counted). 1,024: the test suites of the sanitizer
// and release builds make about 500 (80 programs, each compiled in both builds, their rewrites
// and reports shared): at 256, the release suite's pruning took away the rewrites and reports
// it would have reused, and CI started from a folder already full (CI's time, docs/BUILD.md).
void PruneCache(const std::filesystem::path& cache) {
  constexpr std::size_t kCacheFiles = 1024, kKeep = 768;
  std::error_code ec;
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
  for (const auto& e : std::filesystem::directory_iterator(cache, ec)) {
    // The precompiled shims stay: one per compiler, flags and architecture, each used by every
    // compile (another Warpscope may be compiling against one right now).
    if (e.path().filename().string().rfind("shim-", 0) == 0) continue;
    if (e.is_regular_file(ec)) files.emplace_back(e.last_write_time(ec), e.path());
  }
  if (files.size() <= kCacheFiles) return;
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i + kKeep < files.size(); ++i)
    std::filesystem::remove(files[i].second, ec);
}

}  // namespace ws::prog_internal

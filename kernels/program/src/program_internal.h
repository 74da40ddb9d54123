// What program.cpp and program_as_written.cpp share: a program's translation units and the
// helpers both use (the cache's keys and files, the children's environment).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "warpscope/program/child_process.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/kernel_resources.h"

namespace ws::prog_internal {

// Where the runner's own files are: the build tree's, or an installed tree's beside the running
// executable (program_paths.cpp). `api` and `record`: the recording headers a GPU build includes.
// The compilers: `cxx` for the emulator, `nvcc` for a GPU (the CUDA build), `resources_nvcc` for
// ptxas's report on the program as written (empty: none found, the registers are not known).
struct ProgramPaths {
  std::string shim, runtime, rewriter, api, record, kernel_timer;
  std::string cxx, nvcc, resources_nvcc;
};
const ProgramPaths& Paths();

// `built` when it is an executable file, else the first `name` on PATH, else "".
std::string FindTool(const std::string& built, const std::string& name);

// One translation unit of a program: its name as shown, folder and text (defines applied).
struct Unit {
  std::string name;
  std::filesystem::path directory;
  std::string text;
  RewrittenProgram rewritten;
};

std::uint64_t Fnv64(const std::string& text);
// The last `lines` lines of `text`.
std::string LastLines(const std::string& text, std::size_t lines);
// The compiler's first error and the lines after it (at most `lines`), else its last lines.
std::string FirstError(const std::string& err, std::size_t lines);
// "PID-N": temporary files of this process.
std::string UniqueSuffix();
std::string ReadAll(const std::filesystem::path& path, bool* ok = nullptr);
// The include-path variables the children must not read themselves: empty.
const std::vector<std::string>& NoIncludeEnvironment();
// A translation unit the host compiler gets under nvcc (.cpp, .cc, .cxx, .c).
bool IsHostUnit(const std::string& name);

// Milliseconds since `t` (steady clock).
double MsSince(std::chrono::steady_clock::time_point t);
// The build's compiler flags, joined with '|' (WS_PROGRAM_FLAGS), as a list.
std::vector<std::string> SplitFlags(const std::string& joined);
// The runtime's own message ("warpscope: ..." on stderr), else the last lines of stderr.
std::string ChildMessage(const std::string& err);
// "a segmentation fault (SIGSEGV) ...": what a signal that ended a child means (on a GPU, or the
// emulator, where a kernel's stack is the likely cause).
std::string SignalName(int sig, bool gpu);
// __CUDA_ARCH__ for a device preset: its compute capability (hopper: 900).
std::string CudaArch(const std::string& preset);
// Runs warpscope-rewrite on one translation unit (program.cpp), cached.
RewriteResult RewriteInChild(const std::string& file_name, const std::filesystem::path& directory,
                             const std::string& text, const std::vector<std::string>& defines,
                             const std::vector<std::filesystem::path>& include_dirs,
                             std::uint32_t site_base, bool host_unit,
                             const std::filesystem::path& cache);

// The cache (program_cache.cpp). Its folder: ProgramOptions::cache_dir, else under
// XDG_CACHE_HOME or HOME, else the temporary folder.
std::filesystem::path CacheDir(const ProgramOptions& o);
// The shim's text, every header of it (read once): part of both cache keys, so that a Warpscope
// with a different shim never reuses a rewrite or a compiled program made with the old one.
const std::string& ShimText();
// The emulator's shim precompiled for the compile command `cmd` at `arch`: the header to
// -include (its .gch beside it).
std::string PrecompiledShim(const std::vector<std::string>& cmd, const std::string& arch,
                            const std::filesystem::path& cache);
// The shim precompiled for the rewriter (a CUDA unit's rewrite reads it instead of parsing the
// shim: 0.36 -> 0.14 s for examples/transpose.cu), made once into the cache by
// `warpscope-rewrite --emit-pch` run with `env`, and named by the shim's text and the rewriter's
// build. Empty where it cannot be made (the rewrite then parses the shim).
std::filesystem::path RewriterPch(const std::filesystem::path& cache,
                                  const std::vector<std::string>& env);
// Past a few hundred files, the oldest go (the precompiled shims stay).
void PruneCache(const std::filesystem::path& cache);
// A cached file about to be used: made the newest, so that another Warpscope's PruneCache leaves
// it (it removes the oldest). False where it is gone (pruned since it was found): build it again.
bool UseCached(const std::filesystem::path& file);

// The program's kernels as ptxas compiles them, as written, for `arch` ("sm_90", or "native" on
// a GPU), cached in `cache` under a name from `key_text`; empty without nvcc or when it refuses.
// With the report, where nvdisasm is beside nvcc (or on PATH), the kernels' shared instructions
// by line (CompiledCode::Table(), compiled with -lineinfo, which changes no instruction).
struct CompiledReport {
  std::map<std::string, KernelResources, std::less<>> resources;
  std::string code_table;
};
CompiledReport CompilerResources(const std::vector<Unit>& units,
                                 const std::vector<std::filesystem::path>& include_dirs,
                                 const std::vector<std::string>& defines, const std::string& arch,
                                 const std::string& key_text, const std::filesystem::path& cache);

// The progress cell of one run (progress.h), created at `path` and mapped for reading; removed
// with the map. No path, or a cell that could not be made: cell() is null.
class ProgressMap {
 public:
  explicit ProgressMap(const std::string& path);
  ~ProgressMap();
  ProgressMap(const ProgressMap&) = delete;
  ProgressMap& operator=(const ProgressMap&) = delete;
  const ProgressCell* cell() const { return cell_; }
  const std::string& path() const { return path_; }
  ProgramProgress Read() const;

 private:
  std::string path_;
  const ProgressCell* cell_ = nullptr;
};

#if defined(WS_PROGRAM_NVCC)
// The program as written, for the run on the GPU without recording (its output is what the user
// sees). Builds it (cached): the program, or an empty path and nvcc's first error in `failure`.
std::filesystem::path BuildPlainOnGpu(const std::vector<Unit>& units,
                                      const std::vector<std::filesystem::path>& include_dirs,
                                      const std::vector<std::string>& defines,
                                      const std::string& key_text,
                                      const std::filesystem::path& cache, std::string* failure);
#endif

}  // namespace ws::prog_internal

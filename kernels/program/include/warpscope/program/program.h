// Runs a user's own CUDA program on the emulator (docs/PROGRAMS.md):
//
//   1. rewrite it with clang's front end (program_rewrite.h), in this process;
//   2. compile the rewritten program with the host compiler against libws_program_emu (cached:
//      the same rewritten text and flags reuse the executable);
//   3. run it in a child process with a time limit and a memory limit; the child writes every
//      kernel launch (records, sites, statistics) to a trace file, which is read back.
//
// Nothing the program does runs in the caller's process. A compile error, a crash, a kernel
// that fails (an index out of range, a barrier not every thread reaches), a time-out or a
// memory limit each end in the record's ProgramRecord::failure with a message; the launches made
// before it are kept.
#pragma once

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "warpscope/program/program_rewrite.h"
#include "warpscope/program/progress.h"
#include "warpscope/trace/launch.h"
#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/status.h"

namespace ws {

// `// warpscope: param NAME MIN..MAX [step S]` in a program: a slider for a #define or a
// constexpr called NAME (its value in the source is the default).
struct ProgramParam {
  std::string name;
  long long value = 0, min = 0, max = 0, step = 1;
  std::uint32_t line = 0;  // of the comment
};
// The params a program declares, or an error naming the line.
Result<std::vector<ProgramParam>> ProgramParams(const std::string& source);

// The program with each "NAME=VALUE" in `defines` applied: a `#define NAME ...` or a
// `constexpr ... NAME = ...;` of the program's own gets VALUE in place (lines unchanged); the
// defines the program does not make itself go to `rest` (for -D).
std::string ApplyDefines(const std::string& text, const std::vector<std::string>& defines,
                         std::vector<std::string>* rest);

// A whole-number constant of the program's own that -D can set (ApplyDefines): `#define NAME 4096`
// or `const int NAME = 1 << 12;` (a number, or two joined by `<<` or `*`), in the order they
// appear, each name once (its first definition). A time limit's message names the largest.
struct ProgramConstant {
  std::string name;
  long long value = 0;
  std::uint32_t line = 0;
};
std::vector<ProgramConstant> ProgramConstants(const std::string& text);

// Why `define` (a -D of the CLI or the app) is not NAME=VALUE or NAME, NAME starting with a
// letter or '_': "expected NAME=VALUE"; "" when it is.
inline std::string DefineError(const std::string& define) {
  const int first = define.empty() ? 0 : static_cast<unsigned char>(define[0]);
  return std::isalpha(first) != 0 || first == '_' ? "" : "expected NAME=VALUE";
}

// The time limit a user may give a program (the CLI's and the app's --timeout), in seconds.
inline constexpr double kMinProgramTimeoutS = 0.1, kMaxProgramTimeoutS = 3600;

inline constexpr std::uint64_t kMaxProgramBytes = 1u << 20;

struct ProgramOptions {
  std::vector<std::string> defines;  // "TILE_DIM=32": override the program's own #define
  std::vector<std::string> args;     // argv[1..]
  // -I folders, in order (relative ones from the current folder); CPATH's and
  // CPLUS_INCLUDE_PATH's folders follow, as clang and g++ take them, but never a CUDA toolkit's.
  std::vector<std::filesystem::path> include_dirs;
  // More translation units compiled with the first: a `*_cpu.cpp` gold check, a second `.cu`.
  std::vector<std::filesystem::path> extra_files;
  std::string preset = "hopper";
  // "emu": the emulator (g++ and libws_program_emu); "cuda": a GPU (nvcc and libws_program_cuda,
  // in a build with CUDA).
  std::string backend = "emu";
  std::vector<std::uint32_t> keep_blocks = {0, 1, 2, 3};
  // On a GPU: the bytes of records a launch may write (the CLI's --record-budget); past them a
  // launch's figures miss blocks and say so (LaunchTrace::uncovered_blocks).
  std::uint64_t record_budget_bytes = std::uint64_t{1} << 30;
  // Keep every block of a launch of at most this many threads (what-ifs over the whole grid).
  std::uint64_t keep_all_threads_up_to = 0;
  std::string schedule = "in-order";  // the emulator's thread order (trace/schedule.h)
  // The emulator's engine (docs/ENGINE.md): "simt" runs a warp's lanes together where the
  // rewriter gave the kernel a warp function (the per-thread path elsewhere, each launch saying
  // why); "fiber" runs every kernel thread by thread. The same figures either way.
  std::string engine = "simt";
  // The emulator's worker threads, each running blocks (0: one per processor). The figures do not
  // depend on it (tests run 1, 2 and 3).
  unsigned workers = 0;
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
  std::uint64_t memory_limit_bytes = 4ull << 30;
  std::uint64_t output_limit_bytes = 1u << 20;  // kept of stdout and stderr (stdout_cut_bytes)
  std::filesystem::path cache_dir;              // empty: the user's cache (~/.cache/warpscope)
  // While the program runs on the emulator: called (on the calling thread, at most 5 times a
  // second) whenever the launch under way or its blocks done change.
  std::function<void(const ProgramProgress&)> on_progress;
  // Set (by another thread): the run stops, keeping the launches that finished.
  const std::atomic<bool>* cancel = nullptr;
  // Run the compiled program in a sandbox (bubblewrap): the filesystem read-only but for a
  // private scratch folder that is its working directory, no network, its own process and IPC
  // namespaces, ended when Warpscope ends. Refused (the run fails at its start, saying why) where
  // bwrap or user namespaces are missing: never run unsandboxed when asked for the sandbox.
  bool sandbox = false;
  // nvdisasm -g's listing of the program's kernels compiled as written (trace/compiled_code.h),
  // taken instead of the one made here where nvcc and nvdisasm are found: a listing made on
  // another machine (a GPU's toolkit), and the tests'. Its shared instructions by line set the
  // sites' compiled widths (SiteInfo::compiled_width).
  std::string compiled_listing;
  // Count the shared accesses the compiled kernels serve wider as those instructions (where the
  // toolkit lists them, or compiled_listing is given); false: every access as the source makes it.
  bool compiled_code = true;
};

// Whether programs can run in the sandbox here: "" if so, else why not, in one line ("the sandbox
// needs bubblewrap (bwrap), which is not installed" / "... user namespaces: <bwrap's message>").
std::string SandboxUnavailable();

// `text` (what a program printed) with the rewriter's insertions taken out again: a failed
// assert() prints its expression as compiled, `(*::ws::prog::Ld(&(a[i]), 65539u)) == 7`, which
// reads `a[i] == 7` again.
std::string UnrewriteText(std::string text);

// The files of `run --file A [B ...]`: a folder stands for its .cu, .cpp, .cc and .cxx files
// (not its subfolders); the main file is the one whose text defines main() (else the first
// given), the rest are compiled with it. An error names a file that cannot be read, or a folder
// with no source file.
struct ProgramFileSet {
  std::filesystem::path main;
  std::vector<std::filesystem::path> others;
};
Result<ProgramFileSet> ProgramFileSetOf(const std::vector<std::filesystem::path>& given);

// Whether this build can run programs (clang's front end and a host compiler were found).
bool ProgramsSupported();
// Whether the child's memory limit is applied (not in sanitizer builds: AddressSanitizer reserves
// terabytes of address space).
bool ProgramMemoryLimitApplies();

// The program's run record: its launches (all of them, also when it failed later) and, in
// `program`, its files, what it printed and how it ended. The output check is the program's own:
// "the program exited with status 0", or how it failed.
LessonRun RunProgramText(const std::string& file_name, const std::filesystem::path& directory,
                         const std::string& text, const ProgramOptions& options);
// The folders a program's includes are searched in, after `options.include_dirs` (absolute): the
// CPATH and CPLUS_INCLUDE_PATH folders of this environment, less any that hold a CUDA toolkit's
// headers (the emulator's stand-ins must be found in their place). `skipped` gets those left out.
std::vector<std::filesystem::path> ProgramIncludeDirs(const ProgramOptions& options,
                                                      std::vector<std::string>* skipped = nullptr);
LessonRun RunProgramFile(const std::filesystem::path& file, const ProgramOptions& options);

}  // namespace ws

// One run of a program from its text to its run record (program_run.cpp's RunProgramText), in
// stages: each leaves in a ProgramJob what the next needs. Stages 1-3 (read, rewrite, compile) are
// in program_build.cpp, stage 4 (run in a child, read the launches back) in program_run.cpp.
#pragma once

#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <string>
#include <vector>

#include "program_internal.h"
#include "warpscope/program/child_process.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/lesson_run.h"

namespace ws::prog_internal {

using Resources = std::map<std::string, KernelResources, std::less<>>;

// What one run of a program carries from stage to stage.
struct ProgramJob {
  // A record of the options' backend with an empty program part.
  explicit ProgramJob(const ProgramOptions& o) : options(o), gpu(o.backend == "cuda") {
    run.backend = o.backend;
    run.device = gpu ? "GPU" : "CPU emulator";
    run.program.emplace();
  }
  const ProgramOptions& options;
  const bool gpu;
  LessonRun run;  // the record it fills (run.program is set from the start)
  ProgramRecord& p() { return *run.program; }
  RewrittenProgram rewritten;  // the whole program's: every unit's sites, kernels and warnings
  std::filesystem::path main_dir, cache;
  std::vector<Unit> units;                  // the main file first, then options.extra_files
  std::vector<std::string> defines;         // -D for the compiler: those the program does not make
  std::vector<std::string> header_defines;  // those set in the program's own headers
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> cmd, link;  // the compile command (before the unit) and the link's
  std::string key_text;                // everything the compiled program depends on
  std::filesystem::path exe;
  std::future<CompiledReport> compiled_later;  // made while the program compiles
};

// The record says the run stopped at `stage`, for `failure`; false.
bool Fail(ProgramJob& job, ProgramStage stage, std::string failure);
// A compile failure the compiler's messages do not place: one error, at no line; false.
bool CompileFailure(ProgramJob& job, std::string failure);

// 1. This file (its defines applied), then options.extra_files; false with the failure set.
bool ReadUnits(ProgramJob& job, const std::string& file_name, const std::string& text);
// 2. Each unit through warpscope-rewrite, in a child; `skipped` are notes on include folders left
// out. False with the rewriter's errors set.
bool RewriteUnits(ProgramJob& job, const std::vector<std::string>& skipped);
// 3. The compiled program, cached by everything it depends on; false with the failure set.
bool Compile(ProgramJob& job);
// 4. Runs it in a child with the options' limits and reads its launches back.
void Execute(ProgramJob& job);
// The blocks the launch under way finished while the parent watched it, and in how long.
struct LaunchPace {
  double seconds = 0;
  std::uint64_t blocks = 0;
};
// How the child ended (program_ending.cpp): the job's failure set, nothing when it exited by
// itself; `last` the progress last read, `pace` the launch under way's.
void DescribeEnding(ProgramJob& job, const ChildResult& c, const ProgramProgress& last,
                    const LaunchPace& pace);
// The record's parts every view reads: the program's check, timing note and chosen launch.
LessonRun Finish(ProgramJob& job);

// bwrap's path on this machine's PATH ("" : none), and `args` run through it with `scratch` the
// only folder they may write (program_run.cpp).
std::string SandboxPath();
std::vector<std::string> Sandboxed(const std::vector<std::string>& args, const std::string& exe,
                                   const std::filesystem::path& scratch, bool gpu);
// `exe` with `args`, in the sandbox when `scratch` names its folder, else as it is.
ChildResult RunMaybeSandboxed(const std::vector<std::string>& args,
                              const std::vector<std::string>& env, const ChildLimits& limits,
                              const std::string& exe, const std::filesystem::path& scratch,
                              bool gpu, const std::function<bool()>& keep_going = {});
// On a GPU, the program as written (program_as_written.cpp): its output, its kernels' times and
// the GPU's own counters of their first launches.
void RunAsWrittenOnGpu(ProgramJob& job, const std::vector<std::string>& args,
                       const ChildLimits& limits, const std::filesystem::path& scratch);

}  // namespace ws::prog_internal

// A run record (lesson_run.h) as the CLI prints it: JSON, or a text table. `warpscope-cli run`,
// `show` and the app's worker all format through here, for a lesson's run and a program's alike,
// so that what a run prints and what its trace file shows again never disagree.
//
// Recipe:
//   LessonRun run = ...;                    // RunLesson, RunProgramFile, or LoadTraceAsRun
//   std::cout << RunText(run);              // or RunJson(run).dump(2)
//   return RunSucceeded(run) ? 0 : 1;       // a race that is the lesson is not a failure
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "warpscope/trace/lesson_run.h"

namespace ws {

// The whole run: a lesson's figures for its main launch, or a program's every launch with what
// it printed and how it ended (the form of `run --file --json`).
nlohmann::json RunJson(const LessonRun& run);
// A program's text opens with its kernels table (kernel_table.h); each launch's sites, barriers
// and hazards follow only with `every_launch` (the CLI's --launches).
std::string RunText(const LessonRun& run, bool every_launch = false);

// One launch's sites and barriers with their figures (the `sites` and `barriers` of `run --json`).
nlohmann::json SitesJson(const LaunchTrace& t);
nlohmann::json BarriersJson(const LaunchTrace& t);
// Its warp-level intrinsics: line, kind ("__shfl_down_sync") and how often a warp met there.
nlohmann::json WarpOpsJson(const LaunchTrace& t);
// A cluster launch's clusters and the traffic between a cluster's blocks by rank ("clusters of
// (4,1,1) blocks; distributed shared memory (every cluster): rank 0 -> 1 4,096 B in 1,024
// accesses, ..."), or that no block reached another's (cluster_text.cpp).
std::string ClusterText(const LaunchTrace& t);
// Every launch with its sites (line:column), barriers and warp-level intrinsics, as text; a site
// in a file other than `main_file` is named by its file ("kern.cuh:3:63").
std::string LaunchesText(const std::vector<LaunchTrace>& launches,
                         const std::string& main_file = "");

// A program's bandwidth as measured on a GPU: the global bytes its threads moved (the recorded
// launches' requested bytes) over its kernels' summed time in the run as written (CUPTI's
// records). `missing` says why there is none: the emulator, no kernel times, or the two runs
// launched different numbers of kernels.
struct MeasuredBandwidth {
  double gbps = 0, ms = 0;
  std::uint64_t bytes = 0;
  std::size_t kernels = 0;
  std::string missing;
};
MeasuredBandwidth ProgramBandwidth(const LessonRun& run);

// A wrong output that is the lesson: a variant that races on purpose (VariantSpec::races), whose
// run reported the race. `run` exits 0 for it; any other wrong output exits 1.
bool WrongOnPurpose(const LessonRun& run);
// The command that runs `run`'s lesson again as it was run: its variant and the parameters that
// variant uses ("warpscope-cli run races --variant block-transpose --set block_width=8 --set
// tiles=2"); empty for a program's run, or a lesson this build does not have.
std::string ReplayCommand(const LessonRun& run);

}  // namespace ws

// The results of a lesson run as the CLI prints them (JSON or a text table). The app shows the
// same figures; both come from here so they never disagree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "warpscope/kernels/catalog.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/run_file.h"

namespace ws {

nlohmann::json LessonRunJson(const LessonRun& run);
// One launch's sites and barriers with their figures (the `sites` and `barriers` of `run --json`).
nlohmann::json SitesJson(const LaunchTrace& t);
nlohmann::json BarriersJson(const LaunchTrace& t);
// Its warp-level intrinsics: line, kind ("__shfl_down_sync") and how often a warp met there.
nlohmann::json WarpOpsJson(const LaunchTrace& t);
std::string LessonRunText(const LessonRun& run);
// A wrong output that is the lesson: a variant that races on purpose (VariantSpec::races), whose
// run reported the race. `run` exits 0 for it; any other wrong output exits 1.
bool WrongOnPurpose(const LessonRun& run);
// The command that runs `run`'s lesson again as it was run: its variant and the parameters that
// variant uses ("warpscope-cli run races --variant block-transpose --set block_width=8 --set
// tiles=2"); empty for a run of a lesson this build does not have.
std::string ReplayCommand(const LessonRun& run);
// A program's run (`warpscope-cli run --file`): every launch with its sites, what it printed,
// and how it ended.
nlohmann::json ProgramRunJson(const ProgramRun& run);
// Every launch with its sites (line:column), barriers and warp-level intrinsics, as text; a site
// in a file other than `main_file` is named by its file ("kern.cuh:3:63").
std::string LaunchesText(const std::vector<LaunchTrace>& launches,
                         const std::string& main_file = "");
std::string ProgramRunText(const ProgramRun& run);
nlohmann::json LessonsJson();
std::string LessonsText();

}  // namespace ws

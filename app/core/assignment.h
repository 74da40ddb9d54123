// Assignments (docs/ASSIGNMENTS.md): a TOML file beside the lecture files naming a starting
// program, the task, and goals on the figures of the run. A goal names its site by a marker
// comment in the program (`// goal: tile-load`), not a line number, so edits do not break it.
//
//   Result<Assignment> a = LoadAssignment("assets/assignments/transpose-banks.toml");
//   LessonRun run = RunProgramFile(student, options);
//   Verdict v = CheckAssignment(*a, run, &start_run);   // v.met, v.goals[i].text
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/status.h"

namespace ws {

// What a goal bounds. Every figure is the worst over the sites (and launches) the goal selects.
enum class GoalFigure {
  kSectorsPerRequest,  // global: sectors per request
  kBankConflictWays,   // shared: the worst request's n-way conflict (1: none)
  kBankConflicts,      // shared: wavefronts beyond those the access width needs, summed
  kRequests,           // warp-level requests, summed (a divergent tree makes more)
  kHazards,            // races the hazard analysis found, every launch
  kOutput,             // the program ran to the end, exited 0 (and printed `contains`)
  kModeledTime,        // global sectors x 32 B at the preset's bandwidth: modeled, not measured
  kGpuBandwidth,       // GB/s of global bytes over the measured kernel time: a GPU only
};
const char* ToString(GoalFigure f);  // "sectors_per_request", ...

struct Goal {
  int line = 0;      // in the assignment file
  std::string name;  // "stores coalesced"
  GoalFigure figure = GoalFigure::kOutput;
  std::string site;  // a marker name (`// goal: NAME`), "" : every site of the kind
  std::string op;    // "load", "store", "" : both
  std::optional<double> at_most, at_least;
  bool of_start = false;  // the bounds are fractions of the starting program's figure
  std::string contains;   // kOutput: text its output must contain
};

struct Assignment {
  std::filesystem::path file;   // the .toml
  std::filesystem::path start;  // the starting program (resolved against the file's folder)
  std::string title, task;
  std::vector<Goal> goals;
  bool needs_start() const;  // a goal is relative to the starting program
};

inline constexpr std::size_t kMaxAssignmentBytes = 1 << 20;
// Parse errors name the line and the key: "transpose.toml:7: goal 2: figure: 'sector' is not
// one of: sectors_per_request, ...".
Result<Assignment> ParseAssignment(std::string_view text, const std::filesystem::path& file);
Result<Assignment> LoadAssignment(const std::filesystem::path& file);

struct GoalResult {
  const Goal* goal = nullptr;
  bool met = false, skipped = false;
  double value = 0;  // the figure now (kOutput: 1 right, 0 not)
  std::string site;  // where it was worst: "line 35" ("" when not a site's)
  std::string text;  // "stores coalesced: 4 sectors per request at line 38 (at most 4): met"
};
struct Verdict {
  std::vector<GoalResult> goals;
  bool met = false;     // every goal met (skipped goals count as not met)
  std::string failure;  // the program did not compile or was stopped: why ("" : it ran)
};

// The goals against a run of the student's program. `start`: a run of the starting program,
// needed for relative goals (else they fail, saying so).
Verdict CheckAssignment(const Assignment& a, const LessonRun& run, const LessonRun* start);
// The lines of `source` that marker `name` names: a `// goal: NAME` comment's own line when it
// follows code, else the next line with code. The marker must be the line's first `//`: a
// comment that mentions one ("keep `// goal: tree` on ...") is not one.
std::vector<std::uint32_t> MarkerLines(std::string_view source, const std::string& name);

// Where marker `name` is in a program: each of its files that has it (the main file first, then
// its headers and other units, as ProgramRecord::files names them) with the lines it names there.
struct MarkerPlace {
  std::string file;
  std::vector<std::uint32_t> lines;
};
std::vector<MarkerPlace> FindMarker(const ProgramRecord& p, const std::string& name);

// Whether goal `g` looks at site `s` of program `p` (`places`: FindMarker(p, g.site)): of its op,
// in the memory space of its figure (global for sectors per request, shared for bank conflicts),
// and, when it names a site, on a marked line of the site's own file.
bool GoalSelects(const Goal& g, const SiteInfo& s, const std::vector<MarkerPlace>& places,
                 const ProgramRecord& p);

}  // namespace ws

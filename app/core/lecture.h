// A lecture file: the steps a teacher walks in class, one key each (warpscope --lecture FILE),
// and the figures of each step written as lecture notes (--lecture FILE --export DIR).
//
// The format is TOML (docs/LECTURES.md has the reference; assets/lectures/ the shipped ones):
//
//   title = "Optimizing CUDA"
//   [[step]]
//   title = "Transpose: the naive kernel"
//   lesson = "transpose"            # or program = "my.cu", or trace = "x.wstrace"
//   variant = "naive"
//   params = { width = 256, height = 256 }
//   panels = ["coalescing", "source"]  # the first is the big one
//   arrangement = "main-side"          # single | columns | rows | main-side
//   select = { line = 17, op = "store", block = 0, warp = 0, request = 0 }
//   compare = { variant = "padded", view = "banks" }  # that run pinned as A, this step's B
//   caption = "Each lane's store lands a row apart: 32 sectors per request."
//   note = "Ask: how many sectors would a row-wise store need?"
//
// Every error names the file, the line and the field.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/schedule.h"
#include "warpscope/trace/status.h"

namespace ws {

// What a step selects once its run is in: the access site on a line of the kernel source (the
// first there, or the first with `op`), a block, a warp and a request of the block.
struct LectureSelection {
  int line = 0;          // 0: the run's default site
  std::string op;        // "load", "store", "atomic" or "" (any)
  long long block = -1;  // linear block index; -1: the default (0)
  int warp = -1, request = -1;
  int hazard = 0;       // the n-th row of the hazards view (from 1); 0: none
  int hazard_side = 1;  // which of its example's accesses playback steps to: 0 first, 1 second
};

// A run pinned as A beside the step's own run B (the compare view): the step's lesson with
// this variant and these parameters over the step's.
struct LectureCompare {
  bool on = false;
  std::string variant;  // "" : the step's
  Params params;        // over the step's
  std::string view;     // the view A and B are drawn in (coalescing, banks, source, grid,
                        // barriers, timing; "" : coalescing)
};

struct LectureStep {
  int line = 0;  // where its [[step]] starts in the file
  std::string title, caption, note;
  std::string lesson;               // a lesson id, or
  std::filesystem::path program;    // the user's CUDA program, or
  std::filesystem::path trace;      // a capture (both resolved against the lecture's folder)
  std::string variant;              // "" : the lesson's first
  std::string backend;              // "" : the lecture's, else the app's
  Params params;                    // over the lesson's defaults (a program's sliders)
  std::vector<std::string> panels;  // shown, the first the largest; empty: the usual layout
  std::string arrangement;          // single | columns | rows | main-side ("" : by count)
  LectureSelection select;
  LectureCompare compare;
  Schedule schedule;  // the emulator's thread order for the step's runs (default in-order)
  // A what-if layout (trace/what_if.h, "tile:swizzle=5,0,5") applied to the step's run; the step
  // then shows the run as written (A) beside the what-if (B).
  std::string what_if;
};

struct Lecture {
  std::filesystem::path file;
  std::string title, deck;  // deck: the seed lecture it follows
  int ui_scale = 0;         // presentation UI scale in percent (0: 175)
  std::string backend;      // default backend of its steps ("" : the app's)
  std::vector<LectureStep> steps;
};

inline constexpr std::size_t kMaxLectureBytes = 1 << 20;
inline constexpr std::size_t kMaxLectureSteps = 500;
inline constexpr const char* kArrangements[] = {"single", "columns", "rows", "main-side"};

// Parses and checks a lecture: lesson ids, variants and parameter values against the catalogue,
// panel ids against `panel_ids`, files against the disk. `file` names it in messages and is the
// folder programs and traces are found from.
Result<Lecture> ParseLecture(std::string_view text, const std::filesystem::path& file,
                             const std::vector<std::string>& panel_ids);
// Reads `file` (at most kMaxLectureBytes) and parses it.
Result<Lecture> LoadLecture(const std::filesystem::path& file,
                            const std::vector<std::string>& panel_ids);

}  // namespace ws

// A lesson as the model sees it: its description (id, variants, parameters, text, kind and
// special cases, all declared), the options of a run, and the run itself: what ran, where, the
// launches it recorded, the output check, the timing and the lesson's typed figures. Both
// backends produce a LessonRun; trace files store one; every view draws one.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace/figures.h"
#include "warpscope/trace/launch.h"
#include "warpscope/trace/program_record.h"
#include "warpscope/trace/schedule.h"
#include "warpscope/trace/status.h"

namespace ws {

struct ParamSpec {
  ParamSpec(std::string n, long long def, long long lo, long long hi, long long st,
            std::string what, std::vector<std::string> names = {})
      : name(std::move(n)),
        default_value(def),
        min(lo),
        max(hi),
        step(st),
        meaning(std::move(what)),
        choices(std::move(names)) {}

  std::string name;
  long long default_value = 0;
  long long min = 0, max = 0, step = 1;
  std::string meaning;
  std::vector<std::string> choices;  // when set, the value is an index into these names
};

struct VariantSpec {
  VariantSpec(std::string n, std::string what, std::vector<std::string> unused = {},
              std::string refusal = {})
      : name(std::move(n)),
        summary(std::move(what)),
        ignores(std::move(unused)),
        gpu_refusal(std::move(refusal)) {}

  std::string name;
  std::string summary;               // one line: what is fast or slow about it
  std::vector<std::string> ignores;  // parameters this variant does not use (greyed out)
  std::string gpu_refusal;           // set: a GPU run is refused, and this says why
  // Racy on purpose (the races lesson): its output depends on the thread order, so a wrong
  // output is the lesson, not a failure; the hazard analysis must then report the race.
  bool races = false;
};

using Params = std::map<std::string, long long>;

// What kind of thing a lesson runs.
enum class LessonKind {
  kKernel,      // a kernel, on the emulator or a GPU, recorded
  kCalculator,  // no kernel: a calculator over its parameters (occupancy)
  kModel,       // no kernel: a model, the same on every backend (latency)
  kGpuOnly,     // measures a GPU; on the emulator the app shows a shipped capture (transfers)
};
const char* ToString(LessonKind k);

// A parameter set the emulator benchmark (bench/ws_bench) times, declared by the lesson.
struct BenchCase {
  std::string name;     // "coalesced-1024"
  std::string variant;  // empty: the default
  Params params;        // over the defaults
};

// At a lesson's default sizes a GPU kernel is over in a few microseconds, most of them launch
// overhead, and the timing plot would not show what the lesson is about (issue 16: transpose
// 256² naive / coalesced / padded = 6.1 / 5.5 / 5.2 us). Its time is therefore taken at a size
// where the launch costs under 10 % (the records still come from the size the views draw), and
// the emulator's modeled time is scaled to the same size, by the lesson's emulator_cost.
struct TimedSize {
  Params params;      // raised to these values for the timed runs (never lowered)
  std::string label;  // "8192x8192", shown as "timed at 8192x8192"
};

// How the lesson panel shows one of a lesson's figures: "Global loads: 524,288 elements".
struct FigureSpec {
  std::string key;    // its key in the run's figures (LessonRun::metrics())
  std::string label;  // "Global loads"
  // "elements", "B", "%", "" for a plain count or ratio; "@time_unit" takes the unit from the
  // figure of that key (the barrier lesson's "logical" units or ns).
  std::string unit;
  double scale = 1;  // shown = value x scale (occupancy 0.5 -> 50 %)
  int digits = 3;    // significant digits of a value that is not whole (fp-order's sums: 9)
};

// A lesson's description, declared in its folder (kernels/lessons/NAME/lesson.h).
// An exercise (or a worked example) from the seeds as a one-click setting of its lesson: the
// question as printed, the run that answers it, and the answer worked by hand.
struct Preset {
  std::string name;      // short, on its button: "4.7 a"
  std::string question;  // as the seed asks it, with its source ("Kirk & Hwu 4.7 a: ...")
  std::string variant;   // "" : the lesson's first
  Params params;         // over the lesson's defaults
  std::string schedule;  // the emulator's thread order ("" : in-order)
  std::vector<std::string> answer_figures;  // keys of the run's figures that answer it
  std::string answer;                       // the worked answer, with the numbers
};

struct LessonInfo {
  std::string id, title;
  std::vector<VariantSpec> variants;  // the first is the default
  std::vector<ParamSpec> params;
  std::string explanation;  // 3-6 sentences: what to look at, what to change
  LessonKind kind = LessonKind::kKernel;
  std::string source_file;       // the kernel file the student reads, e.g. "transpose.cuh"
  std::string_view source;       // its text, exactly as compiled (filled by the catalogue)
  bool hidden = false;           // for tests: runs by id, but is not in Lessons()
  bool keep_all_blocks = false;  // its figures need every block's records
  bool opens_first = false;      // the lesson the app shows the first time it starts
  std::string front_panel;       // the view brought to the front when it is picked ("" none)
  FiguresReader read_figures = nullptr;  // reads its figures back from a trace file
  int order = 0;                         // place in the lesson list (the seeds' order); ties by id
  // The emulator's work for a parameter set (threads x work per thread), so that tests and
  // benchmarks can keep their runs small.
  double (*emulator_cost)(const Params&) = nullptr;
  // On a GPU the figures come from the uninstrumented build (timestamps that recording would
  // stretch), the records from the instrumented one.
  bool figures_from_timed_build = false;
  std::vector<BenchCase> bench_cases;  // what bench/ws_bench times of it
  TimedSize timed_size;                // empty params: timed at the run's own size
  // The figures the lesson panel lists, in order, with their labels and units (the others are
  // for the views: graphs, tables).
  std::vector<FigureSpec> figures;
  std::vector<Preset> presets;  // the seeds' exercises on this lesson, in the book's order
  // A trace captured on a GPU carries that GPU's parameters, which the emulator may refuse
  // (the H100's 1024-thread blocks on the default cc1.0 model): the parameters the emulator
  // starts from when a slider moves after the trace was opened. `gpu` is the capture's GPU
  // (null for an emulator capture). Null: the trace's own parameters.
  Params (*replay_params)(const Params& captured, const nlohmann::json& gpu) = nullptr;

  bool needs_gpu() const { return kind == LessonKind::kGpuOnly; }
  bool runs_kernel() const { return kind == LessonKind::kKernel || kind == LessonKind::kGpuOnly; }
  const VariantSpec* FindVariant(const std::string& name) const;
  const ParamSpec* FindParam(const std::string& name) const;
  const Preset* FindPreset(const std::string& name) const;
  // FindPreset, or an error naming the lesson's exercises: "occupancy has no exercise '4.11';
  // its exercises are: 4.7 a, ..."
  Result<const Preset*> FindExercise(const std::string& name) const;
  // Every parameter at its default value.
  Params DefaultParams() const;
  // `params` with timed_size's raised where they are smaller.
  Params TimedParams(const Params& params) const;
};

// How a run is carried out (not what the lesson computes).
struct RunOptions {
  std::string preset = "hopper";  // device preset whose limits the emulator enforces
  std::vector<std::uint32_t> keep_blocks = {0, 1, 2, 3};  // blocks whose full records are kept
  bool keep_all_blocks = false;  // keep every block (small launches, GPU comparisons)
  // Keep every block of a launch of at most this many threads (the app: what-ifs over the whole
  // grid, trace/what_if.h); 0: only keep_blocks.
  std::uint64_t keep_all_threads_up_to = 0;
  unsigned workers = 0;  // emulator threads; 0: one per core
  int gpu = 0;           // CUDA device index
  // GPU: device memory the access records of one launch may take; warps past it record nothing
  // (kept blocks first) and the launch is marked truncated.
  std::uint64_t record_budget_bytes = 1ull << 30;
  bool record = true;  // GPU: false runs only the uninstrumented build (for profilers)
  // GPU: whole-warp requests outside the kept blocks counted on the device by shape rather than
  // written (ws_cuda_record_format.h, "the tally"); false writes every event (tests compare).
  bool gpu_tally = true;
  // GPU: a lesson's launch of at most 65,536 threads is recorded by the lane log (each lane
  // writes its own records, nothing waits for them: ws_cuda_lane_log.h) where it fits the record
  // budget; false: the event roads above (tests compare).
  bool gpu_lane_log = true;
  // GPU: a pass before the recording one finds on the device the blocks whose threads may race
  // (ws_cuda_hazards.h), so that the hazards cover every block: their records are kept and the
  // host counts their pairs. false: the kept blocks only (tests compare).
  bool gpu_hazard_scan = true;
  int timed_runs = 7;  // GPU: timed runs of the uninstrumented build after one warm-up
  Schedule schedule;   // emulator: the order a block's threads are interleaved in
  // The emulator, for a program or a lesson: "simt" (a warp's lanes together where its kernels
  // allow) or "fiber" (thread by thread); docs/ENGINE.md.
  std::string engine = "simt";
};

// The result of checking a kernel's output against a CPU golden result.
struct OutputCheck {
  bool ok = false;
  std::string message;  // "transposed 1024x1024 correctly" or the first mismatch
};

struct Timing {
  std::string kind;  // "measured" (GPU, CUDA events), "modeled" (emulator) or "none"
  double ms = 0;
  std::string note;
  // GPU captures: what recording the main launch cost, against `ms` (the uninstrumented build).
  double record_ms = 0;  // the recording pass
  double count_ms = 0;   // the passes before it, when the record budget ran out on the first
  double hazard_ms = 0;  // the hazard check's passes on the device, before all of them
  double own_ms = 0;     // the time at the run's own size: measured (the uninstrumented build) or
                         // modeled; = ms unless timed_at; 0 where unknown (then ms)
  std::uint64_t record_bytes = 0;  // bytes of records it wrote
  std::uint64_t records = 0;       // records (accesses and barriers)
  // The device's tally (GPU): its whole warps' access shapes, those affine or affine in rows, and
  // of those the ones it hashed by their steps, as its short road finds them (all of them unless
  // its two roads disagree: ShapesTalliedBySteps).
  std::uint64_t tally_shapes = 0, tally_steps_shaped = 0, tally_by_steps = 0;
  // GPU: the rows a small launch's lane log wrote (a row: one lane's access, meeting or half a
  // barrier pass); 0 where the event roads recorded it.
  std::uint64_t lane_rows = 0;
  // GPU: that lane log's kernel was the wide lane unit's build (its registers uncapped by default),
  // not the capped one's (cuda_pass_units.h: LaneBuildFor).
  bool lane_wide = false;
  // GPU: the access rows that lane log's loop patterns made on the host (a loop whose accesses
  // are affine in its counter writes its pattern once, not a row at each access:
  // ws_cuda_lane_log.h, LanePatternHead), all lanes'; not in lane_rows, the rows stored.
  std::uint64_t lane_pattern_rows = 0;
  // GPU: the hazard check's pass ran the lean build of its kernel (32 registers, where more
  // blocks fit an SM: cuda_pass_units.h, RunHazardLean), not the hazard unit's.
  bool hazard_lean = false;
  // GPU: record_ms is the recording pass's second run, warm, as the uninstrumented build's timed
  // runs are after a warm-up (a kernel's first launch costs more); false where its first run was
  // timed, or for a trace from before.
  bool record_warm = false;
  // GPU: the whole warps' requests and barrier passes the direct road counted (the lean build's:
  // docs/GPU.md, "Counting on the device"), a part of those the device counted; 0 where it was
  // not taken, or for a trace from before.
  std::uint64_t direct_requests = 0;
  // GPU: the accesses' times were placed by the host between each warp's timed points (its start,
  // meetings, barriers and the pass's end), not read at each access (the lane log since the
  // twenty-fifth session: ws_cuda_lane_log.h says why); false where they were read, or for a
  // trace from before.
  bool access_times_placed = false;
  // Set when the time is that of a larger size than the run's (LessonInfo::timed_size): its
  // label, and the work there over the work of the run (bytes per second scale with it).
  std::string timed_at = {};
  double work_scale = 1;
};

// A what-if layout applied to the run (trace/what_if.h): its records were re-addressed and its
// figures derived again; the kernel did not run that way.
struct WhatIfNote {
  std::string spec;     // "tile:swizzle=5,0,5", as ParseWhatIf reads it
  std::string label;    // "Swizzle<5,0,5> on tile"
  std::string formula;  // "(i, j) -> i*32 + (j ^ (i & 31))"
  std::string code;     // the code that gets the layout, at the array's first site
  std::string scope;    // "the whole grid (64 blocks)" or "the 4 kept blocks of 4,096"
  bool whole_grid = false;
  // The launch it re-addressed (index into the run's launches) and its kernel; `where` says it:
  // "launch 2 of 3 (transposeCoalesced)".
  std::size_t launch = 0;
  std::string kernel, where;
};

// One lesson run: the launches it made (the last is the one the views show), the output check,
// the timing and the lesson's figures.
struct LessonRun {
  std::string lesson, variant, backend, device;
  Schedule schedule;  // the emulator's thread order it ran under (a GPU run: in-order, unused)
  const LessonInfo* info = nullptr;  // the catalogue's description; null for a trace of a
                                     // lesson this build does not have
  Params params;
  std::vector<LaunchTrace> launches;
  OutputCheck check;
  Timing timing;
  std::shared_ptr<const Figures> figures;  // null: the lesson has none
  // Set when the run was read from a trace file rather than made here.
  struct Capture {
    std::string file;         // the .wstrace it came from
    std::string captured_at;  // "2026-11-22T03:15:00Z"
    // The Warpscope that wrote it (header "warpscope_version", "warpscope_commit"; "" in files
    // from before they were written).
    std::string warpscope_version, warpscope_commit;
    std::string source_file;  // the kernel file's name, and its text as captured
    std::string source;
    nlohmann::json gpu;  // the capturing GPU's properties (null for an emulator capture)
    // Shipped with Warpscope and shown because this machine cannot measure the lesson itself
    // (a lesson that needs a GPU, on the emulator).
    bool shipped = false;
  };
  std::optional<Capture> capture;
  // Set for the user's own program (kernels/program): its files, output and ending, and which
  // of its launches the views show.
  using Program = ProgramRecord;
  std::optional<Program> program;
  // Set when the run is a what-if of another (trace/what_if.h).
  std::optional<WhatIfNote> what_if;

  bool has_launch() const { return !launches.empty(); }
  // The launch the views draw: a program's selected one, else the lesson's last.
  const LaunchTrace& main_launch() const { return launches[main_launch_index()]; }
  std::size_t main_launch_index() const {
    return program && program->launch < launches.size() ? program->launch : launches.size() - 1;
  }
  // The figures as T, or null when the run has none of that kind.
  template <typename T>
  const T* figures_as() const {
    auto* f = dynamic_cast<const FiguresOf<T>*>(figures.get());
    return f != nullptr ? &f->value : nullptr;
  }
  // The figures as JSON (an empty object when there are none): the CLI's `lesson_metrics`.
  const nlohmann::json& metrics() const;
  // The kernel source the run executed: as captured, else the lesson's.
  std::string_view source() const;
  std::string_view source_file() const;
};

// Validates `value` for `spec`: inside [min, max] and on the step grid from min.
Status CheckParam(const ParamSpec& spec, long long value);

// The values a sweep of `spec` runs, in increasing order, at most `max_points` (>= 2): every
// value on the step grid when that many fit; else, over a range wider than 16x that starts above
// 0, min times the powers of two (the curves the slides draw against sizes and strides); else
// evenly spaced grid values. min and max are always among them.
std::vector<long long> SweepValues(const ParamSpec& spec, std::size_t max_points = 33);

// The text of `line` (1-based) in a source, trimmed.
// Line `line` (from 1) of `source` exactly as written, untrimmed (columns count from 1 at its
// start); empty past the end.
std::string_view SourceLineAsWritten(std::string_view source, std::uint32_t line);
std::string SourceLine(std::string_view source, std::uint32_t line);

}  // namespace ws

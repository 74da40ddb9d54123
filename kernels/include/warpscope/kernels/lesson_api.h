// What a lesson is (its id, variants, parameters and text) and what running one produces.
// Lesson drivers are written once, as templates over the backend (EmuBackend or CudaBackend),
// and instantiated for the emulator in lessons_emu.cpp and for the GPU in lessons_cuda.cu.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "warpscope/trace/launch.h"
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
  std::string name;
  std::string summary;  // one line: what is fast or slow about it
};

using Params = std::map<std::string, long long>;

// How a run is carried out (not what the lesson computes).
struct RunOptions {
  std::string preset = "hopper";  // device preset whose limits the emulator enforces
  std::vector<std::uint32_t> keep_blocks = {0, 1, 2, 3};  // blocks whose full records are kept
  bool keep_all_blocks = false;  // keep every block (small launches, GPU comparisons)
  unsigned workers = 0;          // emulator threads; 0: one per core
  int gpu = 0;                   // CUDA device index
  // GPU: device memory the access records of one launch may take; warps past it record nothing
  // (kept blocks first) and the launch is marked truncated.
  std::uint64_t record_budget_bytes = 1ull << 30;
  bool record = true;  // GPU: false runs only the uninstrumented build (for profilers)
  int timed_runs = 7;  // GPU: timed runs of the uninstrumented build after one warm-up
};

// The result of checking a kernel's output against a CPU golden result.
struct OutputCheck {
  bool ok = false;
  std::string message;  // "transposed 1024x1024 correctly" or the first mismatch
};

struct Timing {
  std::string kind;  // "measured" (GPU, CUDA events) or "modeled" (emulator)
  double ms = 0;
  std::string note;
  // GPU captures: what recording the main launch cost, against `ms` (the uninstrumented build).
  double record_ms = 0;            // the recording pass
  double count_ms = 0;             // the counting pass before it
  std::uint64_t record_bytes = 0;  // bytes of records it wrote
  std::uint64_t records = 0;       // records (accesses and barriers)
};

// One lesson run: the launches it made (the last is the one the views show), the output check
// and the timing.
struct LessonRun {
  std::string lesson, variant, backend, device;
  Params params;
  std::vector<LaunchTrace> launches;
  OutputCheck check;
  Timing timing;
  nlohmann::json metrics = nlohmann::json::object();  // the lesson's own figures
  // Set when the run was read from a trace file rather than made here.
  struct Capture {
    std::string file;         // the .wstrace it came from
    std::string captured_at;  // "2026-11-22T03:15:00Z"
    std::string source_file;  // the kernel file's name, and its text as captured
    std::string source;
    nlohmann::json gpu;  // the capturing GPU's properties (null for an emulator capture)
    // Shipped with Warpscope and shown because this machine cannot measure the lesson itself
    // (a lesson that needs a GPU, on the emulator).
    bool shipped = false;
  };
  std::optional<Capture> capture;
  bool has_launch() const { return !launches.empty(); }
  const LaunchTrace& main_launch() const { return launches.back(); }
};

// Validates `value` for `spec`: inside [min, max] and on the step grid from min.
Status CheckParam(const ParamSpec& spec, long long value);

}  // namespace ws

// The part of a run record that only a user's own program has (kernels/program runs it; a trace
// file carries it to another machine): its files, what it printed, how it ended, the compiler's
// messages, and which of its launches the views show. A LessonRun holds one when the run is a
// program's; everything else about the run (launches, device, figures) is the LessonRun's own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ws {

// A compiler message about the program, at its place (line 0: not in the program's file).
struct ProgramDiagnostic {
  ProgramDiagnostic() = default;
  ProgramDiagnostic(std::uint32_t l, std::uint32_t c, bool e, std::string m, std::string f = {})
      : line(l), column(c), error(e), message(std::move(m)), file(std::move(f)) {}
  std::uint32_t line = 0, column = 0;
  bool error = true;
  std::string message;
  std::string file;  // the program's header it is in ("kernel.cuh"); empty: the main file
};

// Where a kernel is defined.
struct ProgramKernel {
  std::string name, file;
  std::uint32_t line = 0;
};

// How far a program got: kDone, it ran to the end; otherwise the stage that failed.
enum class ProgramStage { kRead, kCompile, kRun, kDone };
const char* ToString(ProgramStage s);  // "read", "compile", "run", "done"

struct ProgramRecord {
  std::string path;          // the .cu file, as opened ("" for a program given as text)
  std::string file, source;  // its name ("transpose.cu") and its text as run
  // Every other file of the program's own (headers it includes, its other translation units):
  // name (relative to the main file's folder) and text as run.
  std::vector<std::pair<std::string, std::string>> files;
  std::size_t launch = 0;   // index into the run's launches: what main_launch() gives
  std::string preset;       // the device preset the emulator ran and modeled it under ("hopper")
  std::string stdout_text;  // what it printed (at most ProgramOptions::output_limit_bytes)
  std::string stderr_text;  // what it wrote on stderr (the same limit): ProgramStderr shows it
  // Past the output limit a program's output is read and dropped: the bytes of stdout it printed
  // that are not in stdout_text (0: all of it is). printed_text.h says so wherever it is shown.
  std::uint64_t stdout_cut_bytes = 0, stderr_cut_bytes = 0;
  // Bytes of stdout_text that a trace file already holds as U+FFFD (it keeps valid UTF-8 only).
  std::uint64_t stdout_replaced_bytes = 0, stderr_replaced_bytes = 0;
  bool takes_args = false;  // its main() has parameters (argc, argv)
  bool ran = false;         // it was started (a compile error runs nothing)
  int exit_code = 0;        // as the program exited (with a signal: 128 + the signal)
  int signal = 0;           // the signal that ended it, or 0
  // kDone: it ran to the end (returned from main or called exit). Otherwise the stage that failed
  // and why; compile errors also in `errors`, at their lines.
  ProgramStage stage = ProgramStage::kDone;
  std::string failure;
  std::vector<ProgramDiagnostic> errors;
  // Parts of the program not recorded, and notes on how it ran ("line 12: ...").
  std::vector<ProgramDiagnostic> warnings;
  std::vector<std::string> kernels;         // its __global__ functions, by name
  std::vector<ProgramKernel> kernel_files;  // and where each is written
  struct Timing {
    double rewrite_ms = 0, compile_ms = 0, run_ms = 0;
    bool compile_cached = false;
  } timing;
  // On a GPU: each kernel of the run as written (without recording) as CUPTI timed it on the GPU,
  // in the order they started. Empty on the emulator, and where they were not measured (then
  // kernel_times_missing says why).
  struct KernelTime {
    std::string kernel;  // as the compiler mangled it
    double ms = 0;
  };
  std::vector<KernelTime> kernel_times;
  std::string kernel_times_missing;
  // On a GPU: the GPU's own counters for the first launch of each kernel of the program as
  // written, read in a run of their own by CUPTI's range profiler as Nsight Compute reads them
  // (kernels/program/runtime/kernel_counters.cpp), in the order the kernels were first launched.
  // Empty on the emulator and where they were not read (then kernel_counters_missing says why).
  struct KernelCounters {
    std::string kernel;  // as the compiler mangled it
    // Metric (Nsight Compute's name) and value; a metric the launch gave no value for is absent.
    std::vector<std::pair<std::string, double>> values;
    // The value of `metric`, or -1 where the GPU gave none.
    double Of(std::string_view metric) const;
  };
  std::vector<KernelCounters> kernel_counters;
  std::string kernel_counters_missing;  // why none (or not all) were read, the program's reason
  std::vector<std::string> counters_unavailable;  // metrics the GPU or its CUPTI did not have
  // Kernels whose first launch the counting run saw and did not count: mangled symbol, and why
  // ("launched in a second context").
  struct NotCounted {
    std::string kernel, why;
  };
  std::vector<NotCounted> kernels_not_counted;

  bool ok() const { return stage == ProgramStage::kDone; }
  // It exited by itself, with exit_code; false when it did not compile, or was stopped (a time
  // limit, a crash, a failed launch).
  bool exited() const { return ok(); }
  // The file kernel `kernel` ("MatrixMulCUDA<16>") is written in ("": not known).
  std::string KernelFile(const std::string& kernel) const;
  // The text of `name`: the program's own file or another of its files ("": none).
  std::string_view TextOf(std::string_view name) const;
  // Each warning as one line: "kern.cuh:12: message", "line 12: message" or the message.
  std::vector<std::string> Notes() const;
};

// A diagnostic as one line, as Notes() writes it.
std::string NoteText(const ProgramDiagnostic& d);

// The kernel timer's file (kernels/program/runtime/kernel_timer.cpp: "START_NS END_NS NAME" a
// line) as kernel times in the order the kernels started; an error when a line is not one.
struct KernelTimesRead {
  std::vector<ProgramRecord::KernelTime> times;
  std::string error;  // "" : read
};
KernelTimesRead ParseKernelTimes(std::string_view text);

// The kernel counters' file (kernel_counters.cpp: "# metrics M1 M2 ...", "# unavailable M",
// "launch NAME V1 V2 ...", "# not counted: NAME (WHY)", "error: WHY"; other "#" lines are
// comments) as counters a launch; `error` names a line that is not
// one, or the counting's own error (the launches before it are kept).
struct KernelCountersRead {
  std::vector<ProgramRecord::KernelCounters> counters;
  std::vector<std::string> unavailable;
  std::vector<std::string> not_counted;  // "KERNEL (why)": first launches not counted
  std::string error;                     // "" : read
};
KernelCountersRead ParseKernelCounters(std::string_view text);

}  // namespace ws

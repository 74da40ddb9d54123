// Runs lessons off the UI thread. The lesson panel submits a request on every slider change; one
// worker thread runs the newest request and drops the ones it skipped, so dragging a slider never
// queues up stale runs. The UI polls once per frame and takes only the result of the newest
// request: an older result is never shown as the current one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "warpscope/kernels/lesson_api.h"
#include "warpscope/program/progress.h"
#include "warpscope/trace/block_view.h"
#include "warpscope/trace/status.h"
#include "warpscope/viz/session.h"

namespace ws {

struct RunRequest {
  std::string lesson, variant, backend;
  Params params;
  std::uint32_t block = 0;  // the block whose view is built along with the run
  // Keep every block (up to kWhatIfKeepAllThreads threads, what_if.h): while a what-if is on.
  // Not always: keeping them costs 10-20 ms of a slider's redraw (matmul, multi-gpu, fp-order).
  bool keep_all = false;
  int gpu = 0;        // CUDA device index
  Schedule schedule;  // the emulator's thread order
  // Set: run this program (a .cu file) instead of the lesson, with these -D NAME=VALUE and
  // arguments; the views show launch `program_launch` (past the end: the last).
  std::string program;
  std::vector<std::string> program_defines, program_args, program_include_dirs;
  double program_timeout_s = 30;  // the program's time limit
  std::size_t program_launch = ~std::size_t{0};
};

struct RunResult {
  std::uint64_t id = 0;
  std::shared_ptr<const LessonRun> run;  // null on failure
  std::string error;
  BlockView view;  // of request.block, built in the worker
  double ms = 0;   // wall time of the run and the view
  // A program that did not compile: the compiler's messages and the text it read.
  std::vector<SourceNote> compile_errors;
  std::string compile_errors_file, compile_errors_source;
};

// Called on the runner's thread each time a result is ready (the app wakes its frame loop with
// it, glfwPostEmptyEvent, so that the frame showing the result is drawn at once). Null: none.
void SetRunFinishedHook(void (*hook)());

class LessonRunner {
 public:
  LessonRunner();
  ~LessonRunner();
  LessonRunner(const LessonRunner&) = delete;
  LessonRunner& operator=(const LessonRunner&) = delete;

  // Queues `request`, replacing any not yet started. Returns its id.
  std::uint64_t Submit(RunRequest request);
  // The newest request's result once it is ready (each result is handed out once).
  std::optional<RunResult> Poll();
  bool busy() const;  // the newest request has not finished yet
  // A program under way: its launch and blocks done (progress.h); nullopt otherwise.
  std::optional<ProgramProgress> progress() const;
  // Stops the program under way (the launches that finished are shown, with a note). A newer
  // request stops it too.
  void Cancel();

 private:
  void Loop();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<std::pair<std::uint64_t, RunRequest>> pending_;
  std::optional<RunResult> done_;
  std::uint64_t next_id_ = 0, newest_ = 0, finished_ = 0;
  bool quit_ = false;
  std::atomic<bool> cancel_{false};  // set and cleared under mutex_ (RunProgramJob reads it)
  std::optional<ProgramProgress> progress_;
  std::thread worker_;
};

// Runs a sweep off the UI thread: one lesson run per (variant, value), in that order, while the
// LessonRunner goes on serving the sliders. Cancel() stops it after the run under way.
class SweepRunner {
 public:
  struct Progress {
    std::vector<std::shared_ptr<const LessonRun>> runs;  // finished since the last Poll
    std::size_t done = 0, total = 0;
    bool active = false;
    std::string note;  // at the end: values skipped or refused, and why
  };
  SweepRunner() = default;
  ~SweepRunner();
  SweepRunner(const SweepRunner&) = delete;
  SweepRunner& operator=(const SweepRunner&) = delete;

  // Starts a sweep of `param` over `values` for each of `variants`, the rest as in `base`
  // (cancelling one under way). Values whose emulator cost is over the budget are skipped on the
  // emulator (noted).
  void Start(const RunRequest& base, std::vector<std::string> variants, std::string param,
             std::vector<long long> values);
  void Cancel();
  Progress Poll();

 private:
  void Join();
  std::mutex mutex_;
  std::thread worker_;
  std::atomic<bool> cancel_{false};
  Progress progress_;
};

// One lesson run as the app makes it: on the emulator in this process, on a GPU in a child.
Result<LessonRun> RunLessonForApp(const RunRequest& rq, const RunOptions& options);

}  // namespace ws

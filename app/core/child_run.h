// Runs a lesson in a child process (`warpscope-cli capture`) and reads back its trace. The app
// does this for GPU runs: CUDA keeps a faulting kernel's error for the rest of the process (on
// the H100 here even cudaDeviceReset() leaves the device unusable until the process ends), so a
// fault in the app's own process would end its GPU runs for good. In a child it ends only the
// child; a kernel that hangs is stopped after `timeout`.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "warpscope/kernels/lesson_api.h"

namespace ws {

struct ChildRunRequest {
  std::filesystem::path cli;  // the warpscope-cli executable
  std::string lesson, variant, backend;
  Params params;
  RunOptions options;  // gpu, keep_blocks and record_budget_bytes are passed on
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
};

// The run as a live one (no `capture` set), or the child's own error message, or why the child
// could not be run or was stopped.
Result<LessonRun> RunLessonInChild(const ChildRunRequest& request);

// The same run through a warm worker: one `warpscope-cli serve` child kept from run to run, so
// that a GPU run pays for neither a new process nor a new CUDA context (0.5-1 s each). A fault
// or a crash ends only the worker, a run past `timeout` kills it, and the next run starts a
// fresh one. Thread-safe: runs from several threads take turns.
Result<LessonRun> RunLessonInWorker(const ChildRunRequest& request);
// The worker's process id (0: none running); for tests.
int WorkerProcessId();

// warpscope-cli next to this executable, if it is there.
std::filesystem::path CliNextToThisProgram();

}  // namespace ws

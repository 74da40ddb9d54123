#include "gui/lesson_runner.h"

#include <algorithm>
#include <chrono>

#include "core/child_run.h"
#include "core/program_run.h"
#include "core/shipped.h"
#include "warpscope/kernels/catalog.h"

namespace ws {

LessonRunner::LessonRunner() : worker_([this] { Loop(); }) {}

LessonRunner::~LessonRunner() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

std::uint64_t LessonRunner::Submit(RunRequest request) {
  std::uint64_t id;
  {
    std::lock_guard lock(mutex_);
    id = ++next_id_;
    newest_ = id;
    pending_.emplace(id, std::move(request));
  }
  wake_.notify_all();
  return id;
}

std::optional<RunResult> LessonRunner::Poll() {
  std::lock_guard lock(mutex_);
  if (!done_ || done_->id != newest_) return std::nullopt;
  return std::exchange(done_, std::nullopt);
}

bool LessonRunner::busy() const {
  std::lock_guard lock(mutex_);
  return finished_ != newest_;
}

namespace {

// A user's program: compiled and run in a child (kernels/program), then shown like a lesson run.
void RunProgramJob(const RunRequest& rq, const RunOptions& options, RunResult* result) {
  ProgramOptions po;
  po.defines = rq.program_defines;
  po.args = rq.program_args;
  po.backend = rq.backend;
  po.keep_blocks = options.keep_blocks;
  ProgramRun run = RunProgramFile(rq.program, po);
  if (run.stage == ProgramStage::kRead || run.stage == ProgramStage::kCompile) {
    result->error = run.failure;
    for (const ProgramDiagnostic& d : run.errors)
      result->compile_errors.push_back({d.line, d.column, d.message});
    result->compile_errors_file = run.file;
    result->compile_errors_source = run.source;
    return;
  }
  if (!run.ok()) result->error = run.failure;  // the launches before the failure still show
  auto shared = std::make_shared<LessonRun>(LessonRunOfProgram(std::move(run), rq.program));
  if (rq.program_launch < shared->launches.size()) shared->program->launch = rq.program_launch;
  if (shared->has_launch()) result->view = BuildBlockView(shared->main_launch(), rq.block);
  result->run = std::move(shared);
}

}  // namespace

void LessonRunner::Loop() {
  for (;;) {
    std::pair<std::uint64_t, RunRequest> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return quit_ || pending_.has_value(); });
      if (quit_) return;
      job = std::move(*pending_);
      pending_.reset();
    }
    const auto start = std::chrono::steady_clock::now();
    RunResult result;
    result.id = job.first;
    const RunRequest& rq = job.second;
    RunOptions options;
    options.gpu = rq.gpu;
    // Keep the full records of the first blocks and of the one the user looks at.
    if (std::find(options.keep_blocks.begin(), options.keep_blocks.end(), rq.block) ==
        options.keep_blocks.end())
      options.keep_blocks.push_back(rq.block);
    // GPU runs go to a child process: a kernel that faults ends that process's use of the GPU
    // (see core/child_run.h), never the app's.
    if (!rq.program.empty()) {
      RunProgramJob(rq, options, &result);
    } else {
      const std::filesystem::path cli = rq.backend == "cuda" ? CliNextToThisProgram() : "";
      auto run =
          cli.empty()
              ? RunLessonOrShipped(rq.lesson, rq.variant, rq.params, rq.backend, options)
              : RunLessonInChild({cli, rq.lesson, rq.variant, rq.backend, rq.params, options});
      if (run.ok()) {
        auto shared = std::make_shared<const LessonRun>(std::move(run).value());
        if (shared->has_launch()) result.view = BuildBlockView(shared->main_launch(), rq.block);
        result.run = std::move(shared);
      } else {
        result.error = run.status().message();
      }
    }
    result.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::lock_guard lock(mutex_);
    finished_ = result.id;
    if (result.id == newest_) done_ = std::move(result);  // a newer request replaces it anyway
  }
}

}  // namespace ws

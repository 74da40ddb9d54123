#include "gui/lesson_runner.h"
#include <fstream>
#include <sstream>

#include <algorithm>
#include <chrono>
#include <functional>

#include "core/child_run.h"
#include "core/shipped.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/kernel_table.h"

namespace ws {

namespace {
std::atomic<void (*)()> g_run_finished{nullptr};
}  // namespace

void SetRunFinishedHook(void (*hook)()) {
  g_run_finished = hook;
}

LessonRunner::LessonRunner() : worker_([this] { Loop(); }) {}

LessonRunner::~LessonRunner() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    cancel_ = true;  // a program under way stops now, not when it ends
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
    if (finished_ + 1 < id) cancel_ = true;  // a program under way is out of date: stop it
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

std::optional<ProgramProgress> LessonRunner::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

void LessonRunner::Cancel() {
  std::lock_guard lock(mutex_);
  cancel_ = true;
}

namespace {

// A user's program: compiled and run in a child (kernels/program), then shown like a lesson run.
void RunProgramJob(const RunRequest& rq, const RunOptions& options, RunResult* result,
                   const std::atomic<bool>* cancel,
                   std::function<void(const ProgramProgress&)> on_progress) {
  ProgramOptions po;
  po.cancel = cancel;
  po.on_progress = std::move(on_progress);
  po.defines = rq.program_defines;
  po.args = rq.program_args;
  po.include_dirs.assign(rq.program_include_dirs.begin(), rq.program_include_dirs.end());
  po.backend = rq.backend;
  po.timeout = std::chrono::milliseconds(static_cast<long long>(rq.program_timeout_s * 1000));
  po.keep_blocks = options.keep_blocks;
  po.keep_all_threads_up_to = options.keep_all_threads_up_to;
  po.schedule = options.schedule.Name();
  auto shared = std::make_shared<LessonRun>(RunProgramFile(rq.program, po));
  const ProgramRecord& p = *shared->program;
  if (p.stage == ProgramStage::kRead || p.stage == ProgramStage::kCompile) {
    result->error = p.failure;
    // The errors of the first file that has any: the program's, or a header of its own (shown
    // in its place, relative to the program).
    const std::string file = p.errors.empty() ? std::string() : p.errors.front().file;
    for (const ProgramDiagnostic& d : p.errors) {
      if (d.file == file) result->compile_errors.push_back({d.line, d.column, d.message});
    }
    result->compile_errors_file = file.empty() ? p.file : file;
    result->compile_errors_source = p.source;
    if (!file.empty()) {
      std::ifstream in(std::filesystem::path(rq.program).parent_path() / file, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      result->compile_errors_source = text.str();
    }
    return;
  }
  if (!p.ok()) result->error = p.failure;           // the launches before the failure still show
  if (rq.program_launch < shared->launches.size())  // the nearest of its kernel's with records
    shared->program->launch = NearestLaunchWithRecords(shared->launches, rq.program_launch);
  if (shared->has_launch()) result->view = BuildBlockView(shared->main_launch(), rq.block);
  result->run = std::move(shared);
}

}  // namespace

Result<LessonRun> RunLessonForApp(const RunRequest& rq, const RunOptions& options) {
  // GPU runs go to the warm worker, a child process: a kernel that faults ends that process's
  // use of the GPU (see core/child_run.h), never the app's; its CUDA context lives from run to
  // run, so a slider move pays for neither a new process nor a new context.
  const std::filesystem::path cli = rq.backend == "cuda" ? CliNextToThisProgram() : "";
  return cli.empty()
             ? RunLessonOrShipped(rq.lesson, rq.variant, rq.params, rq.backend, options)
             : RunLessonInWorker({cli, rq.lesson, rq.variant, rq.backend, rq.params, options});
}

void LessonRunner::Loop() {
  for (;;) {
    std::pair<std::uint64_t, RunRequest> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return quit_ || pending_.has_value(); });
      if (quit_) return;
      job = std::move(*pending_);
      pending_.reset();
      cancel_ = false;
    }
    const auto start = std::chrono::steady_clock::now();
    RunResult result;
    result.id = job.first;
    const RunRequest& rq = job.second;
    RunOptions options;
    options.gpu = rq.gpu;
    options.schedule = rq.schedule;
    if (rq.keep_all) options.keep_all_threads_up_to = kWhatIfKeepAllThreads;
    // Keep the full records of the first blocks and of the one the user looks at.
    if (std::find(options.keep_blocks.begin(), options.keep_blocks.end(), rq.block) ==
        options.keep_blocks.end())
      options.keep_blocks.push_back(rq.block);
    if (!rq.program.empty()) {
      RunProgramJob(rq, options, &result, &cancel_, [this](const ProgramProgress& p) {
        std::lock_guard lock(mutex_);
        progress_ = p;
      });
      std::lock_guard lock(mutex_);
      progress_.reset();
    } else {
      auto run = RunLessonForApp(rq, options);
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
    {
      std::lock_guard lock(mutex_);
      finished_ = result.id;
      if (result.id == newest_) done_ = std::move(result);  // a newer request replaces it anyway
    }
    if (void (*hook)() = g_run_finished.load(); hook != nullptr) hook();
  }
}

namespace {
// A sweep on the emulator skips parameter sets whose work (LessonInfo::emulator_cost: threads x
// work per thread) is over this: about a second each on a 2-core machine (matmul naive 256 is
// 2^24 and takes 0.17 s).
constexpr double kSweepEmulatorBudget = double(1 << 27);
}  // namespace

SweepRunner::~SweepRunner() {
  Cancel();
  Join();
}

void SweepRunner::Join() {
  if (worker_.joinable()) worker_.join();
}

void SweepRunner::Cancel() {
  cancel_ = true;
}

void SweepRunner::Start(const RunRequest& base, std::vector<std::string> variants,
                        std::string param, std::vector<long long> values) {
  Cancel();
  Join();
  cancel_ = false;
  {
    std::lock_guard lock(mutex_);
    progress_ = {};
    progress_.total = variants.size() * values.size();
    progress_.active = true;
  }
  worker_ = std::thread([this, base, variants = std::move(variants), param = std::move(param),
                         values = std::move(values)] {
    const LessonInfo* info = FindLesson(base.lesson);
    std::vector<long long> over_budget, refused_values;
    std::string refused;
    for (const std::string& variant : variants) {
      for (const long long v : values) {
        if (cancel_) break;
        RunRequest rq = base;
        rq.variant = variant;
        rq.params[param] = v;
        bool skipped = false;
        if (rq.backend != "cuda" && info != nullptr && info->emulator_cost != nullptr) {
          Params full = info->DefaultParams();
          for (const auto& [k, value] : rq.params) full[k] = value;
          if (info->emulator_cost(full) > kSweepEmulatorBudget) {
            if (std::find(over_budget.begin(), over_budget.end(), v) == over_budget.end())
              over_budget.push_back(v);
            skipped = true;
          }
        }
        std::shared_ptr<const LessonRun> shared;
        if (!skipped) {
          RunOptions options;
          options.gpu = rq.gpu;
          options.schedule = rq.schedule;
          auto run = RunLessonForApp(rq, options);
          if (run.ok()) {
            shared = std::make_shared<const LessonRun>(std::move(run).value());
          } else {
            if (refused.empty()) refused = run.status().message();
            if (std::find(refused_values.begin(), refused_values.end(), v) == refused_values.end())
              refused_values.push_back(v);
          }
        }
        std::lock_guard lock(mutex_);
        ++progress_.done;
        if (shared) progress_.runs.push_back(std::move(shared));
      }
    }
    auto list = [&](std::vector<long long> vs) {
      std::sort(vs.begin(), vs.end());
      std::string text = param + " =";
      for (std::size_t i = 0; i < vs.size(); ++i) text += (i ? ", " : " ") + std::to_string(vs[i]);
      return text;
    };
    std::string note;
    if (!over_budget.empty()) {
      note = list(over_budget) +
             " skipped: too much work for the emulator in a sweep (a GPU "
             "runs them)";
    }
    if (!refused_values.empty()) {
      if (!note.empty()) note += "; ";
      note += list(refused_values) + " refused (" + refused + ")";
    }
    if (cancel_) note = "cancelled" + (note.empty() ? std::string() : "; " + note);
    std::lock_guard lock(mutex_);
    progress_.note = std::move(note);
    progress_.active = false;
  });
}

SweepRunner::Progress SweepRunner::Poll() {
  std::lock_guard lock(mutex_);
  Progress p;
  p.runs = std::exchange(progress_.runs, {});
  p.done = progress_.done;
  p.total = progress_.total;
  p.active = progress_.active;
  p.note = progress_.note;
  return p;
}

}  // namespace ws

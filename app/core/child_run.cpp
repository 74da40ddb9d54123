#include "core/child_run.h"

#include <unistd.h>

#include <atomic>
#include <system_error>
#include <vector>

#include "core/capture.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/program/child_process.h"

namespace ws {
namespace {

std::string LastLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const auto nl = text.rfind('\n');
  std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
  const std::string prefix = "warpscope-cli: ";
  if (line.rfind(prefix, 0) == 0) line = line.substr(prefix.size());
  return line;
}

std::filesystem::path TempTrace() {
  static std::atomic<unsigned> counter{0};
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  return dir / ("warpscope-run-" + std::to_string(getpid()) + "-" + std::to_string(++counter) +
                ".wstrace");
}

}  // namespace

std::filesystem::path CliNextToThisProgram() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const std::filesystem::path cli = self.parent_path() / "warpscope-cli";
  return std::filesystem::exists(cli, ec) ? cli : std::filesystem::path();
}

Result<LessonRun> RunLessonInChild(const ChildRunRequest& rq) {
  const std::filesystem::path trace = TempTrace();
  std::vector<std::string> args = {rq.cli.string(),
                                   "capture",
                                   rq.lesson,
                                   "--backend",
                                   rq.backend,
                                   "-o",
                                   trace.string(),
                                   "--gpu",
                                   std::to_string(rq.options.gpu),
                                   "--record-budget",
                                   std::to_string(rq.options.record_budget_bytes)};
  if (!rq.variant.empty()) args.insert(args.end(), {"--variant", rq.variant});
  // A parameter with named choices goes by its name, as warpscope-cli takes it (data=cancel).
  const LessonInfo* info = FindLesson(rq.lesson);
  for (const auto& [name, value] : rq.params) {
    std::string text = std::to_string(value);
    for (const ParamSpec& spec : info != nullptr ? info->params : std::vector<ParamSpec>{}) {
      if (spec.name == name && value >= 0 && value < static_cast<long long>(spec.choices.size()))
        text = spec.choices[static_cast<std::size_t>(value)];
    }
    args.insert(args.end(), {"--set", name + "=" + text});
  }
  for (std::uint32_t b : rq.options.keep_blocks)
    args.insert(args.end(), {"--keep-block", std::to_string(b)});

  ChildLimits limits;
  limits.timeout = rq.timeout;
  limits.output_bytes = 1u << 20;
  const ChildResult c = RunChild(args, {}, limits);
  if (!c.started) return Status::Error("could not start " + rq.cli.string() + ": " + c.start_error);
  const std::string& messages = c.err;
  const bool timed_out = c.timed_out;
  std::error_code ec;
  if (timed_out) {
    std::filesystem::remove(trace, ec);
    return Status::Error(rq.lesson + ": the run took longer than " +
                         std::to_string(rq.timeout.count() / 1000.0).substr(0, 4) +
                         " s and was stopped (a kernel that never finishes?)");
  }
  if (c.signal != 0) {
    std::filesystem::remove(trace, ec);
    return Status::Error(rq.lesson + ": warpscope-cli stopped on signal " +
                         std::to_string(c.signal) +
                         (messages.empty() ? std::string() : ": " + LastLine(messages)));
  }
  // Exit status 1 with a trace written is a run whose output check failed: still a run.
  if (!std::filesystem::exists(trace, ec)) {
    const std::string why = LastLine(messages);
    return Status::Error(why.empty() ? rq.lesson + ": warpscope-cli exited with status " +
                                           std::to_string(c.exit_code)
                                     : why);
  }
  auto run = LoadTraceAsRun(trace);
  std::filesystem::remove(trace, ec);
  if (!run.ok()) return run.status();
  run->capture.reset();  // a live run, not a file the user opened
  return run;
}

}  // namespace ws

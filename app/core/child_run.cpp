#include "core/child_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <system_error>
#include <vector>

#include "core/capture.h"
#include "warpscope/kernels/catalog.h"

extern char** environ;

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
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0)
    return Status::Error("could not start warpscope-cli: pipe: " +
                         std::system_category().message(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, rq.cli.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(err_pipe[0]);
    return Status::Error("could not start " + rq.cli.string() + ": " +
                         std::system_category().message(spawned));
  }
  // Read the child's messages until it closes stderr (it exits) or the time is up.
  std::string messages;
  const auto deadline = std::chrono::steady_clock::now() + rq.timeout;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{err_pipe[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    char buf[4096];
    const ssize_t n = read(err_pipe[0], buf, sizeof buf);
    if (n <= 0) break;  // EOF: the child is done
    messages.append(buf, static_cast<std::size_t>(n));
  }
  close(err_pipe[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ec;
  if (timed_out) {
    std::filesystem::remove(trace, ec);
    return Status::Error(rq.lesson + ": the run took longer than " +
                         std::to_string(rq.timeout.count() / 1000.0).substr(0, 4) +
                         " s and was stopped (a kernel that never finishes?)");
  }
  if (WIFSIGNALED(status)) {
    std::filesystem::remove(trace, ec);
    return Status::Error(rq.lesson + ": warpscope-cli stopped on signal " +
                         std::to_string(WTERMSIG(status)) +
                         (messages.empty() ? std::string() : ": " + LastLine(messages)));
  }
  // Exit status 1 with a trace written is a run whose output check failed: still a run.
  if (!std::filesystem::exists(trace, ec)) {
    const std::string why = LastLine(messages);
    return Status::Error(why.empty() ? rq.lesson + ": warpscope-cli exited with status " +
                                           std::to_string(WEXITSTATUS(status))
                                     : why);
  }
  auto run = LoadTraceAsRun(trace);
  std::filesystem::remove(trace, ec);
  if (!run.ok()) return run.status();
  run->capture.reset();  // a live run, not a file the user opened
  return run;
}

}  // namespace ws

#include "core/child_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
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

// A parameter with named choices goes by its name, as warpscope-cli takes it (data=cancel).
std::string ParamText(const LessonInfo* info, const std::string& name, long long value) {
  for (const ParamSpec& spec : info != nullptr ? info->params : std::vector<ParamSpec>{}) {
    if (spec.name == name && value >= 0 && value < static_cast<long long>(spec.choices.size()))
      return spec.choices[static_cast<std::size_t>(value)];
  }
  return std::to_string(value);
}

// One `warpscope-cli serve` child: requests go to its stdin, replies come from its stdout a line
// each; what it says on stderr is kept for the message when it dies.
class Worker {
 public:
  ~Worker() { Stop(); }
  int pid() const { return pid_; }

  // Sends one request line and waits for its reply line.
  // A worker kept from an earlier run that is found dead when this one is sent (it crashed, or
  // was killed, in between) is replaced and the request sent again, once; a fresh worker that
  // dies on the request reports why.
  Result<std::string> Exchange(const std::filesystem::path& cli, const std::string& request,
                               std::chrono::milliseconds timeout, const std::string& what) {
    for (int attempt = 0;; ++attempt) {
      if (pid_ > 0 && (cli != cli_ || Exited())) Stop();
      const bool fresh = pid_ <= 0;
      if (fresh) {
        if (std::string error = Start(cli); !error.empty()) return Status::Error(error);
      }
      died_ = false;
      Result<std::string> reply = ExchangeOnce(request, timeout, what);
      if (reply.ok() || fresh || attempt > 0 || !died_) return reply;
    }
  }

  Result<std::string> ExchangeOnce(const std::string& request, std::chrono::milliseconds timeout,
                                   const std::string& what) {
    const std::string line = request + "\n";
    for (std::size_t done = 0; done < line.size();) {
      const ssize_t n = write(in_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Died(what);
      done += static_cast<std::size_t>(n);
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (const auto nl = out_buf_.find('\n'); nl != std::string::npos) {
        std::string reply = out_buf_.substr(0, nl);
        out_buf_.erase(0, nl + 1);
        return reply;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        Stop();
        return Status::Error(what + ": the run took longer than " +
                             std::to_string(timeout.count() / 1000.0).substr(0, 4) +
                             " s and was stopped (a kernel that never finishes?)");
      }
      pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
      const int ready = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 200)));
      if (ready < 0 && errno != EINTR) return Died(what);
      char buf[8192];
      if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = read(err_, buf, sizeof buf);
        if (n > 0) {
          err_buf_.append(buf, static_cast<std::size_t>(n));
          if (err_buf_.size() > (64u << 10)) err_buf_.erase(0, err_buf_.size() - (32u << 10));
        }
      }
      if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = read(out_, buf, sizeof buf);
        if (n <= 0) return Died(what);
        out_buf_.append(buf, static_cast<std::size_t>(n));
      }
    }
  }

  void Stop() {
    if (pid_ > 0 && !reaped_) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      Reap();
    }
    reaped_ = false;
    for (int* fd : {&in_, &out_, &err_}) {
      if (*fd >= 0) close(*fd);
      *fd = -1;
    }
    pid_ = 0;
    out_buf_.clear();
    err_buf_.clear();
  }

 private:
  std::string Start(const std::filesystem::path& cli) {
    if (access(cli.c_str(), X_OK) != 0)
      return "could not start " + cli.string() + ": " + std::system_category().message(errno);
    // A write to a worker that just died must fail with EPIPE, not end the app.
    signal(SIGPIPE, SIG_IGN);
    int in_pipe[2], out_pipe[2], err_pipe[2];
    if (pipe2(in_pipe, O_CLOEXEC) != 0) return "pipe: " + std::system_category().message(errno);
    if (pipe2(out_pipe, O_CLOEXEC) != 0) {
      close(in_pipe[0]);
      close(in_pipe[1]);
      return "pipe: " + std::system_category().message(errno);
    }
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
      for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
      return "pipe: " + std::system_category().message(errno);
    }
    std::string exe = cli.string(), verb = "serve";
    char* argv[] = {exe.data(), verb.data(), nullptr};
    const pid_t pid = fork();
    if (pid < 0) {
      for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
        close(fd);
      return "fork: " + std::system_category().message(errno);
    }
    if (pid == 0) {
      setpgid(0, 0);
      dup2(in_pipe[0], STDIN_FILENO);
      dup2(out_pipe[1], STDOUT_FILENO);
      dup2(err_pipe[1], STDERR_FILENO);
      rlimit core{0, 0};
      setrlimit(RLIMIT_CORE, &core);
      signal(SIGPIPE, SIG_DFL);
      execv(exe.c_str(), argv);
      const char msg[] = "warpscope-cli: could not be started\n";
      (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
      _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    pid_ = pid;
    cli_ = cli;
    in_ = in_pipe[1];
    out_ = out_pipe[0];
    err_ = err_pipe[0];
    return "";
  }

  // True when the worker has ended since the last run (it leaves after a failed GPU run).
  bool Exited() {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
    reaped_ = true;
    status_ = status;
    return true;
  }

  void Reap() {
    if (reaped_) return;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    status_ = status;
    reaped_ = true;
  }

  // The worker went away mid-run: why, from its exit status and the last thing it said.
  Status Died(const std::string& what) {
    died_ = true;
    // Whatever it still had to say on stderr.
    char buf[8192];
    for (ssize_t n; (n = read(err_, buf, sizeof buf)) > 0;)
      err_buf_.append(buf, static_cast<std::size_t>(n));
    const std::string last = LastLine(err_buf_);
    Reap();
    const int status = status_;
    Stop();
    if (WIFSIGNALED(status)) {
      return Status::Error(what + ": warpscope-cli stopped on signal " +
                           std::to_string(WTERMSIG(status)) +
                           (last.empty() ? std::string() : ": " + last));
    }
    return Status::Error(last.empty() ? what + ": warpscope-cli exited with status " +
                                            std::to_string(WEXITSTATUS(status))
                                      : last);
  }

  std::filesystem::path cli_;
  int pid_ = 0, status_ = 0;
  bool reaped_ = false;  // pid_ has been waited for
  bool died_ = false;    // the last exchange ended with the worker gone (not stopped by us)
  int in_ = -1, out_ = -1, err_ = -1;
  std::string out_buf_, err_buf_;
};

std::mutex g_worker_mutex;
Worker& TheWorker() {
  static Worker* worker = new Worker();  // never destroyed: its child dies with the app's pipes
  return *worker;
}

}  // namespace

Result<LessonRun> RunLessonInWorker(const ChildRunRequest& rq) {
  const std::filesystem::path trace = TempTrace();
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : rq.params) params[name] = value;
  const nlohmann::json request = {{"lesson", rq.lesson},
                                  {"variant", rq.variant},
                                  {"backend", rq.backend},
                                  {"params", params},
                                  {"gpu", rq.options.gpu},
                                  {"record_budget", rq.options.record_budget_bytes},
                                  {"keep_blocks", rq.options.keep_blocks},
                                  {"keep_all_up_to", rq.options.keep_all_threads_up_to},
                                  {"schedule", rq.options.schedule.Name()},
                                  {"out", trace.string()}};
  Result<std::string> reply = Status::Error("");
  {
    std::lock_guard lock(g_worker_mutex);
    reply = TheWorker().Exchange(rq.cli, request.dump(), rq.timeout, rq.lesson);
  }
  std::error_code ec;
  if (!reply.ok()) {
    std::filesystem::remove(trace, ec);
    return reply.status();
  }
  nlohmann::json r;
  try {
    r = nlohmann::json::parse(*reply);
  } catch (const std::exception&) {
    std::filesystem::remove(trace, ec);
    return Status::Error(rq.lesson + ": the worker's reply cannot be read: " + *reply);
  }
  if (!r.value("ok", false)) {
    std::filesystem::remove(trace, ec);
    return Status::Error(r.value("error", rq.lesson + ": the run failed"));
  }
  auto run = LoadTraceAsRun(trace);
  std::filesystem::remove(trace, ec);
  if (!run.ok()) return run.status();
  run->capture.reset();  // a live run, not a file the user opened
  return run;
}

int WorkerProcessId() {
  std::lock_guard lock(g_worker_mutex);
  return TheWorker().pid() > 0 ? TheWorker().pid() : 0;
}

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
  const LessonInfo* info = FindLesson(rq.lesson);
  for (const auto& [name, value] : rq.params)
    args.insert(args.end(), {"--set", name + "=" + ParamText(info, name, value)});
  for (std::uint32_t b : rq.options.keep_blocks)
    args.insert(args.end(), {"--keep-block", std::to_string(b)});
  args.insert(args.end(), {"--schedule", rq.options.schedule.Name()});

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

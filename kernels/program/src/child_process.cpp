// fork/exec rather than posix_spawn: the limits are set in the child (only async-signal-safe
// calls between fork and exec).
#include "warpscope/program/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>
#include <thread>

extern char** environ;

namespace ws {

using Clock = std::chrono::steady_clock;

namespace {

// This environment, without the variables `env` sets (getenv would find the first), then `env`.
std::vector<std::string> ChildEnvironment(const std::vector<std::string>& env) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string var(*e);
    const std::string name = var.substr(0, var.find('='));
    const bool replaced = std::any_of(env.begin(), env.end(), [&](const std::string& x) {
      return x.compare(0, name.size() + 1, name + "=") == 0;
    });
    if (!replaced) env_strings.push_back(var);
  }
  env_strings.insert(env_strings.end(), env.begin(), env.end());
  return env_strings;
}

// The child's three pipes: its stdout, its stderr, and exec's (the child writes errno there when
// exec fails; a successful exec closes it). False with the reason when one cannot be made.
struct Pipes {
  int out[2] = {-1, -1}, err[2] = {-1, -1}, exec[2] = {-1, -1};
  void CloseAll() {
    for (int* p : {out, err, exec}) {
      for (int i = 0; i < 2; ++i) {
        if (p[i] >= 0) close(p[i]);
        p[i] = -1;
      }
    }
  }
};

bool OpenPipes(Pipes& p, std::string* error) {
  for (int* fds : {p.exec, p.out, p.err}) {
    if (pipe2(fds, O_CLOEXEC) != 0) {
      *error = "pipe: " + std::system_category().message(errno);
      p.CloseAll();
      return false;
    }
  }
  return true;
}

// In the forked child: its limits, its pipes, then exec (only async-signal-safe calls).
[[noreturn]] void BecomeTheChild(const Pipes& p, const std::string& exe_path, char** argv,
                                 char** envp, rlim_t mem, rlim_t cpu) {
  setpgid(0, 0);
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  dup2(p.out[1], STDOUT_FILENO);
  dup2(p.err[1], STDERR_FILENO);
  if (mem > 0) {
    rlimit l{mem, mem};
    setrlimit(RLIMIT_AS, &l);
  }
  rlimit c{cpu, cpu + 1};
  setrlimit(RLIMIT_CPU, &c);
  rlimit core{0, 0};
  setrlimit(RLIMIT_CORE, &core);
  execve(exe_path.c_str(), argv, envp);
  const int error = errno;
  (void)!write(p.exec[1], &error, sizeof error);
  _exit(127);
}

// Reads the child's stdout and stderr (each up to the output limit) until both close, the time
// limit passes or `keep_going` says stop.
void Collect(int out_fd, int err_fd, const ChildLimits& limits,
             const std::function<bool()>& keep_going, ChildResult& r) {
  const auto deadline = Clock::now() + limits.timeout;
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    if (keep_going && !keep_going()) {
      r.cancelled = true;
      break;
    }
    const int ready = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buf[8192];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      std::string& sink = *sinks[i];
      const std::size_t room =
          sink.size() < limits.output_bytes ? limits.output_bytes - sink.size() : 0;
      sink.append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
      if (static_cast<std::size_t>(n) > room) {
        r.out_truncated = true;
        (i == 0 ? r.out_dropped : r.err_dropped) += static_cast<std::size_t>(n) - room;
      }
    }
  }
  for (pollfd& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
}

}  // namespace

ChildResult RunChild(const std::vector<std::string>& args, const std::vector<std::string>& env,
                     const ChildLimits& limits, const std::string& path,
                     const std::function<bool()>& keep_going) {
  ChildResult r;
  std::vector<std::string> env_strings = ChildEnvironment(env);
  std::vector<char*> argv, envp;
  std::vector<std::string> arg_copy = args;
  for (std::string& a : arg_copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  Pipes p;
  if (!OpenPipes(p, &r.start_error)) return r;
  const std::string exe_path = path.empty() ? args.at(0) : path;
  const rlim_t mem = static_cast<rlim_t>(limits.memory_bytes);
  // CPU time, a backstop behind the wall-clock limit: the emulator runs a launch on every core,
  // so a child may spend the limit on each of them (with one core's worth the 2-core machines
  // stopped a program on SIGXCPU at half its wall-clock limit).
  const rlim_t cpu = static_cast<rlim_t>(limits.timeout.count() / 1000 + 5) *
                     std::max<rlim_t>(1, std::thread::hardware_concurrency());
  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = "fork: " + std::system_category().message(errno);
    p.CloseAll();
    return r;
  }
  if (pid == 0) BecomeTheChild(p, exe_path, argv.data(), envp.data(), mem, cpu);
  close(p.exec[1]);
  close(p.out[1]);
  close(p.err[1]);
  int exec_error = 0;
  ssize_t got = 0;
  while ((got = read(p.exec[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  close(p.exec[0]);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {  // exec failed: nothing ran
    r.start_error = std::system_category().message(exec_error);
    close(p.out[0]);
    close(p.err[0]);
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return r;
  }
  r.started = true;
  Collect(p.out[0], p.err[0], limits, keep_going, r);
  if (r.timed_out || r.cancelled) {
    kill(-pid, SIGKILL);  // the child and anything it started (its own process group)
    kill(pid, SIGKILL);   // in case it was stopped before it made that group
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

}  // namespace ws

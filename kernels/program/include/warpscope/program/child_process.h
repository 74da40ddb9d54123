// Runs a program as a child process with limits, capturing what it prints: the user's programs,
// the rewriter and the compiler (program.h), and warpscope-cli for GPU runs (app/core/child_run.h).
// Nothing it runs shares the caller's process.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ws {

struct ChildResult {
  bool started = false;  // false: it could not be started (start_error says why)
  std::string start_error;
  bool timed_out = false;  // it ran past the time limit and was killed
  bool cancelled = false;  // `keep_going` said no, and it was killed
  int exit_code = 0;
  int signal = 0;  // the signal that ended it, or 0
  std::string out, err;
  bool out_truncated = false;  // it printed more than output_bytes
  // Past output_bytes each stream is still read (the child never blocks on a full pipe) and
  // dropped: how many bytes of each were.
  std::uint64_t out_dropped = 0, err_dropped = 0;
};

struct ChildLimits {
  std::chrono::milliseconds timeout{30000};
  std::uint64_t memory_bytes = 0;  // 0: none
  std::uint64_t output_bytes = 1u << 20;
};

// Runs args[0] (or `path`, with args[0] the name it sees: glibc puts it before an assert's
// message) with `env` ("NAME=value", replacing this environment's of that name) added to this
// environment, stdin from /dev/null, stdout and stderr captured (at most output_bytes of each),
// under the limits. The child gets a process group of its own; a time-out kills it and the group.
// `keep_going` (if set) is asked at least 5 times a second while the child runs; false kills it.
ChildResult RunChild(const std::vector<std::string>& args, const std::vector<std::string>& env,
                     const ChildLimits& limits, const std::string& path = "",
                     const std::function<bool()>& keep_going = {});

}  // namespace ws

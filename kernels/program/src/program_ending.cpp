// How a program's child ended, as its record says it (stage 4, program_run.cpp's Execute): a time
// limit with the launch's pace and what to shrink, a signal, memory, the runtime's own stop.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "program_job.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/units.h"

namespace ws::prog_internal {
namespace {

// A wait read aloud: "40 s", "12 minutes", "2.3 hours", "3.1 days".
std::string AboutTime(double s) {
  char text[48];
  if (s < 90) {
    std::snprintf(text, sizeof text, "%.0f s", std::max(s, 1.0));
  } else if (s < 5400) {
    std::snprintf(text, sizeof text, "%.0f minutes", s / 60);
  } else if (s < 172800) {
    std::snprintf(text, sizeof text, "%.1f hours", s / 3600);
  } else {
    std::snprintf(text, sizeof text, "%.1f days", s / 86400);
  }
  return text;
}

// A time limit's help, after how far the launch under way got: its pace (the blocks it finished
// in the seconds the parent watched it, `pace`) and what the rest of it would take at that pace;
// then a longer limit, and where the rest is long, the program's largest constants, which -D sets
// (hw1's matrix_mul_solution.cu of OLCF's CUDA training, 8192² in blocks of 32², finished 229 of
// its 65,536 blocks in 30 s: 2.4 hours more).
std::string TimeLimitHelp(ProgramJob& job, const ProgramProgress& last, const LaunchPace& pace) {
  std::string out;
  double rest_s = -1;
  if (pace.blocks > 0 && pace.seconds >= 0.5 && last.blocks > last.blocks_done) {
    const double per_s = static_cast<double>(pace.blocks) / pace.seconds;
    rest_s = static_cast<double>(last.blocks - last.blocks_done) / per_s;
    out += " (" + FormatNumber(per_s) +
           " blocks a second: the launch's other blocks would take about " + AboutTime(rest_s) +
           " more at that pace)";
  }
  out +=
      ": if it is only large, a longer time limit (the CLI's --timeout, the program panel's "
      "Time limit) lets it finish";
  const double limit_s = job.options.timeout.count() / 1000.0;
  if (rest_s < 0 || rest_s < 4 * limit_s) return out;
  std::vector<ProgramConstant> constants = ProgramConstants(job.p().source);
  std::erase_if(constants, [](const ProgramConstant& c) { return c.value < 64; });
  if (constants.empty()) return out;
  std::stable_sort(
      constants.begin(), constants.end(),
      [](const ProgramConstant& a, const ProgramConstant& b) { return a.value > b.value; });
  if (constants.size() > 2) constants.resize(2);
  out +=
      ", or run it smaller: -D NAME=VALUE (the panel's Defines) sets the program's own "
      "constants (";
  for (std::size_t i = 0; i < constants.size(); ++i) {
    if (i > 0) out += ", ";
    out += constants[i].name + " is " + FormatNumber(static_cast<double>(constants[i].value)) +
           " at line " + std::to_string(constants[i].line);
  }
  return out + ")";
}

}  // namespace

// How the child ended, as the record says it: nothing when it exited by itself.
void DescribeEnding(ProgramJob& job, const ChildResult& c, const ProgramProgress& last,
                    const LaunchPace& pace) {
  ProgramRecord& p = job.p();
  const bool partway = last.launch > 0 && last.blocks_done < last.blocks;
  if (!c.started) {
    Fail(job, ProgramStage::kRun, "could not start the program: " + c.start_error);
  } else if (c.cancelled) {
    Fail(job, ProgramStage::kRun,
         "stopped at your request" +
             (last.launch > 0 ? " in " + ProgressText(last) : std::string()) +
             " (the launches that finished are kept)");
  } else if (c.timed_out) {
    std::string failure =
        "the program ran longer than the limit of " +
        std::to_string(job.options.timeout.count() / 1000.0).substr(0, 4) +
        " s and was stopped (an endless loop, or a barrier some threads never leave?)";
    if (partway) failure += "; it was in " + ProgressText(last) + TimeLimitHelp(job, last, pace);
    Fail(job, ProgramStage::kRun, std::move(failure));
  } else if (c.signal != 0) {
    const bool memory = c.signal == SIGSEGV || c.signal == SIGABRT || c.signal == SIGKILL;
    std::string failure = "the program stopped on " + SignalName(c.signal, job.gpu);
    const std::string msg = ChildMessage(p.stderr_text);
    if (!msg.empty()) failure += ": " + msg;
    if (c.signal == SIGXCPU && partway) failure += "; it was in " + ProgressText(last);
    if (memory && p.stderr_text.find("bad_alloc") != std::string::npos)
      failure += " (over the memory limit of " +
                 std::to_string(job.options.memory_limit_bytes >> 20) + " MiB?)";
    Fail(job, ProgramStage::kRun, std::move(failure));
  } else if (c.exit_code == 4 &&
             p.stderr_text.find("warpscope: out of memory") != std::string::npos) {
    // The runtime's new-handler (emu_program_state.cpp): memory, and the limit, named.
    std::string failure =
        "the program ran out of memory: it and Warpscope's records of it need "
        "more than the memory limit of " +
        std::to_string(job.options.memory_limit_bytes >> 20) + " MiB";
    if (partway) failure += "; it was in " + ProgressText(last);
    Fail(job, ProgramStage::kRun, std::move(failure));
  } else if (c.exit_code == 3 && p.stderr_text.find("warpscope: ") != std::string::npos) {
    Fail(job, ProgramStage::kRun, ChildMessage(p.stderr_text));
  }
}

}  // namespace ws::prog_internal
